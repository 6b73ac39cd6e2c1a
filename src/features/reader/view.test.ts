import { describe, expect, it } from 'vitest';
import {
  clampZoom,
  pageSizes,
  pageSrcset,
  DEFAULT_FIT,
  DOUBLE_TAP_MS,
  DOUBLE_TAP_SCALE,
  doubleTapZoom,
  isDoubleTap,
  isFit,
  isZoomed,
  MAX_SCALE,
  NO_ZOOM,
  pageValueText,
  panBy,
  resolveFit,
  viewKey,
  zoomAt,
  zoomTransform,
} from './view';

describe('fit settings', () => {
  it('reads a stored fit only when it is a known one', () => {
    expect(resolveFit('width')).toBe('width');
    expect(resolveFit('original')).toBe('original');
    expect(resolveFit('height')).toBe('height');
    expect(resolveFit('screen')).toBe('screen');
    expect(DEFAULT_FIT).toBe('screen');
    expect(resolveFit('WIDTH')).toBe(DEFAULT_FIT);
    expect(resolveFit('')).toBe(DEFAULT_FIT);
    expect(resolveFit(null)).toBe(DEFAULT_FIT);
    expect(resolveFit(undefined)).toBe(DEFAULT_FIT);
    expect(isFit('contain')).toBe(false);
    expect(isFit(2)).toBe(false);
  });
});

describe('zoom math', () => {
  const w = 400;
  const h = 600;

  it('keeps the point under the finger in place', () => {
    const z = zoomAt(NO_ZOOM, 2, 100, 150, w, h);
    expect(z.s).toBe(2);
    // The box point (100, 150) is drawn at x + 100·s, y + 150·s: still at (100, 150).
    expect(z.x + 100 * z.s).toBeCloseTo(100);
    expect(z.y + 150 * z.s).toBeCloseTo(150);
    const again = zoomAt(z, 3, 200, 300, w, h);
    // The screen point (200, 300) stays over the same image point.
    expect((200 - again.x) / again.s).toBeCloseTo((200 - z.x) / z.s);
    expect((300 - again.y) / again.s).toBeCloseTo((300 - z.y) / z.s);
  });

  it('never zooms out past the fit nor in past the maximum', () => {
    expect(zoomAt(NO_ZOOM, 0.3, 10, 10, w, h)).toEqual(NO_ZOOM);
    expect(zoomAt(NO_ZOOM, 40, 10, 10, w, h).s).toBe(MAX_SCALE);
    expect(clampZoom({ s: Number.NaN, x: 5, y: 5 }, w, h)).toEqual(NO_ZOOM);
  });

  it('pans only as far as the zoomed page reaches', () => {
    const z = zoomAt(NO_ZOOM, 2, 0, 0, w, h);
    expect(z).toEqual({ s: 2, x: 0, y: 0 });
    expect(panBy(z, 50, 50, w, h)).toEqual({ s: 2, x: 0, y: 0 }); // no gap at the top left
    expect(panBy(z, -1000, -2000, w, h)).toEqual({ s: 2, x: -400, y: -600 }); // nor at the bottom right
    expect(panBy(z, -30, -40, w, h)).toEqual({ s: 2, x: -30, y: -40 });
  });

  it('double tap zooms in around the tap and back out', () => {
    const z = doubleTapZoom(NO_ZOOM, 200, 300, w, h);
    expect(z.s).toBe(DOUBLE_TAP_SCALE);
    expect(isZoomed(z)).toBe(true);
    expect(z.x + 200 * z.s).toBeCloseTo(200);
    expect(doubleTapZoom(z, 10, 10, w, h)).toEqual(NO_ZOOM);
  });

  it('tells a double tap from two taps', () => {
    const first = { x: 100, y: 100, t: 1000 };
    expect(isDoubleTap(first, 110, 105, 1000 + DOUBLE_TAP_MS - 1)).toBe(true);
    expect(isDoubleTap(first, 110, 105, 1000 + DOUBLE_TAP_MS + 50)).toBe(false);
    expect(isDoubleTap(first, 300, 100, 1100)).toBe(false);
    expect(isDoubleTap(null, 100, 100, 1100)).toBe(false);
  });

  it('writes the transform only when zoomed', () => {
    expect(zoomTransform(NO_ZOOM)).toBe('');
    expect(zoomTransform({ s: 2, x: -10, y: -20.25 })).toBe('translate(-10.0px, -20.3px) scale(2.000)');
  });
});

describe('view keys and the scrubber text', () => {
  it('maps F, Escape and the zoom keys', () => {
    expect(viewKey('f')).toBe('immersive');
    expect(viewKey('F')).toBe('immersive');
    expect(viewKey('Escape')).toBe('leaveImmersive');
    expect(viewKey('+')).toBe('zoomIn');
    expect(viewKey('=')).toBe('zoomIn');
    expect(viewKey('-')).toBe('zoomOut');
    expect(viewKey('0')).toBe('zoomReset');
    expect(viewKey('ArrowLeft')).toBeNull();
    expect(viewKey('g')).toBeNull();
  });

  it('says which page of how many', () => {
    expect(pageValueText('Page {page} of {total}', 3, 12)).toBe('Page 3 of 12');
    expect(pageValueText('Página {page} de {total}', 1, 5)).toBe('Página 1 de 5');
  });
});

describe('page copies for phones', () => {
  const href = '/media/p/EPI-x/0.webp?exp=1&sig=ab';

  it('lists every copy narrower than the page, then the page itself', () => {
    expect(pageSrcset(href, 900)).toBe(`${href}&w=480 480w, ${href}&w=720 720w, ${href} 900w`);
    expect(pageSrcset(href, 1800)).toBe(`${href}&w=480 480w, ${href}&w=720 720w, ${href} 1800w`);
    expect(pageSrcset(href, 600)).toBe(`${href}&w=480 480w, ${href} 600w`);
  });

  it('offers no copy of a page no wider than the narrowest', () => {
    expect(pageSrcset(href, 480)).toBeNull();
    expect(pageSrcset(href, 300)).toBeNull();
  });

  it('sizes webtoon strips to the screen up to 800 px, other pages to the paged stage up to 1000 px', () => {
    expect(pageSizes(true)).toBe('(max-width: 800px) 100vw, 800px');
    expect(pageSizes(false)).toBe('(max-width: 1000px) calc(100vw - 16px), 1000px');
  });
});
