import { describe, expect, it } from 'vitest';
import { scrollStripTo } from './schedule.client';

/** A strip 300 px wide scrolled to `scrollLeft`, holding 7 tabs of 80 px (560 px of content). */
function strip(scrollLeft: number) {
  const calls: ScrollToOptions[] = [];
  const el = {
    scrollLeft, scrollWidth: 560, clientWidth: 300,
    getBoundingClientRect: () => ({ left: 10, width: 300 }),
    scrollTo: (o: ScrollToOptions) => calls.push(o),
  };
  const tab = (i: number) => ({ getBoundingClientRect: () => ({ left: 10 + i * 80 - scrollLeft, width: 80 }) }) as unknown as HTMLElement;
  return { el: el as unknown as HTMLElement, tab, calls };
}

describe('scrollStripTo', () => {
  it('centres the tab by scrolling the strip alone', () => {
    const s = strip(0);
    scrollStripTo(s.el, s.tab(3), true);
    expect(s.calls).toEqual([{ left: 3 * 80 - (300 - 80) / 2, behavior: 'auto' }]);
  });
  it('stays within the strip at both ends', () => {
    const a = strip(100);
    scrollStripTo(a.el, a.tab(0), false);
    expect(a.calls).toEqual([{ left: 0, behavior: 'smooth' }]);
    const b = strip(0);
    scrollStripTo(b.el, b.tab(6), false);
    expect(b.calls).toEqual([{ left: 260, behavior: 'smooth' }]);
  });
  it('does nothing when the strip does not scroll', () => {
    const s = strip(0);
    (s.el as unknown as { scrollWidth: number }).scrollWidth = 300;
    scrollStripTo(s.el, s.tab(2), false);
    expect(s.calls).toEqual([]);
  });
});
