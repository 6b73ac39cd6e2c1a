import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  AUTOPLAY_INTERVAL_MS, BREAKPOINT_WIDTHS, PER_VIEW, SWIPE_THRESHOLD, keenBreakpoints, perViewAt, perViewStyle, resolvedPerView, stepIndex, swipeTarget,
} from '~/components/carousel';

describe('per-view rules', () => {
  it('gives the newest-series carousel 2, then 1 up to 1200, 2 up to 768 and 1 up to 576 px', () => {
    const at = (w: number) => perViewAt(PER_VIEW.newest, w);
    expect([at(1920), at(1201)]).toEqual([2, 2]);
    expect([at(1200), at(1000), at(769)]).toEqual([1, 1, 1]);
    expect([at(768), at(700), at(577)]).toEqual([2, 2, 2]);
    expect([at(576), at(390), at(320)]).toEqual([1, 1, 1]);
  });

  it('gives the category strip 6, 5 and 3 items by width', () => {
    const at = (w: number) => perViewAt(PER_VIEW.strip, w);
    expect(at(1280)).toBe(6);
    expect(at(1024)).toBe(5);
    expect(at(800)).toBe(5);
    expect(at(576)).toBe(3);
    expect(at(390)).toBe(3);
  });

  it('resolves every breakpoint width for the no-JS CSS variables', () => {
    expect(resolvedPerView(PER_VIEW.newest)).toEqual({ base: 2, 1200: 1, 1024: 1, 768: 2, 576: 1, 420: 1 });
    expect(perViewStyle(PER_VIEW.strip)).toBe('--pv-base:6;--pv-1200:6;--pv-1024:5;--pv-768:5;--pv-576:3;--pv-420:3');
  });

  it('clamps nonsense counts to 1..12', () => {
    expect(perViewAt({ base: 0 }, 500)).toBe(1);
    expect(perViewAt({ base: 99 }, 500)).toBe(12);
    expect(perViewAt({ base: Number.NaN }, 500)).toBe(1);
    expect(perViewAt({ base: 2.6 }, 500)).toBe(3);
  });

  it('builds keen-slider breakpoints widest first, so the narrowest match wins', () => {
    const bps = keenBreakpoints(PER_VIEW.newest, 16);
    expect(Object.keys(bps)).toEqual(['(max-width: 1200px)', '(max-width: 768px)', '(max-width: 576px)']);
    expect(Object.values(bps).map((b) => b.slides.perView)).toEqual([1, 2, 1]);
    expect(bps['(max-width: 768px)']!.slides.spacing).toBe(16);
    expect(keenBreakpoints(PER_VIEW.single)).toEqual({});
    // keen-slider applies matching breakpoints in order: replaying that gives perViewAt.
    for (const config of Object.values(PER_VIEW)) {
      for (const width of [320, 420, 500, 576, 700, 768, 900, 1024, 1100, 1200, 1600]) {
        let v: number = config.base;
        for (const [query, o] of Object.entries(keenBreakpoints(config))) if (width <= Number(/(\d+)px/.exec(query)![1])) v = o.slides.perView;
        expect(v, `${JSON.stringify(config)} at ${width}`).toBe(perViewAt(config, width));
      }
    }
  });

  it('has a media query in the carousel stylesheet for every breakpoint width', () => {
    const css = fs.readFileSync(new URL('./Carousel.astro', import.meta.url), 'utf8');
    for (const bp of BREAKPOINT_WIDTHS) {
      expect(css).toMatch(new RegExp(`@media \\(max-width: ${bp}px\\) \\{ \\.carousel \\{ --pv: var\\(--pv-${bp}\\); \\} \\}`));
    }
  });
});

describe('swipe and step rules', () => {
  it('uses the spec constants', () => {
    expect(SWIPE_THRESHOLD).toBe(0.2);
    expect(AUTOPLAY_INTERVAL_MS).toBe(5000);
  });

  it('snaps back below 20 % of the width and moves past it', () => {
    expect(swipeTarget(3, 0.19, 1)).toBe(3);
    expect(swipeTarget(3, -0.19, 1)).toBe(3);
    expect(swipeTarget(3, 0.2, 1)).toBe(4);
    expect(swipeTarget(3, -0.25, 1)).toBe(2);
  });

  it('moves as many whole slides as were dragged, at least one', () => {
    // Three slides per view: each slide is a third of the width.
    expect(swipeTarget(0, 0.21, 1 / 3)).toBe(1);
    expect(swipeTarget(0, 0.7, 1 / 3)).toBe(2);
    expect(swipeTarget(5, -1.0, 1 / 3)).toBe(2);
    expect(swipeTarget(0, Number.NaN, 1)).toBe(0);
  });

  it('wraps with loop and clamps without', () => {
    expect(stepIndex(4, 1, 5, true)).toBe(0);
    expect(stepIndex(0, -1, 5, true)).toBe(4);
    expect(stepIndex(4, 1, 5, false)).toBe(4);
    expect(stepIndex(0, -1, 5, false)).toBe(0);
    expect(stepIndex(0, 1, 0, true)).toBe(0);
  });
});
