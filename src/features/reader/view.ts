/**
 * How a page is shown in the paged modes: the fit (width, height, original size), the zoom and
 * pan of the current page, and the double-tap rule. Pure, so the client script stays thin and
 * unit tests pin the arithmetic down.
 *
 * Zoom convention: the image is transformed with `translate(x, y) scale(s)` and
 * `transform-origin: 0 0`, in pixels of its own laid-out box (`w` × `h`). Panning is clamped so
 * the scaled image always covers that box: no empty gap opens beside a zoomed page.
 */

/**
 * screen: the whole page in the reading area (the default, what the reader always did); width:
 * as wide as the area, scrolling down; height: as tall as the area, scrolling sideways when the
 * page is wider; original: the image's own pixels.
 */
export type Fit = 'screen' | 'width' | 'height' | 'original';
export const FITS: readonly Fit[] = ['screen', 'width', 'height', 'original'];
export const DEFAULT_FIT: Fit = 'screen';
/** One key for the browser: the fit is the reader's habit, not the series'. */
export const FIT_STORAGE_KEY = 'inkpass:reader-fit';

export function isFit(value: unknown): value is Fit {
  return typeof value === 'string' && (FITS as readonly string[]).includes(value);
}

/** A stored fit when it is a known one, else the default. */
export function resolveFit(stored: string | null | undefined): Fit {
  return isFit(stored) ? stored : DEFAULT_FIT;
}

export const MIN_SCALE = 1;
export const MAX_SCALE = 4;
/** A double tap (or double click) on an unzoomed page zooms this far, around the tap. */
export const DOUBLE_TAP_SCALE = 2.5;
/** The second tap must come within this many milliseconds… */
export const DOUBLE_TAP_MS = 280;
/** …and this many pixels of the first. */
export const DOUBLE_TAP_SLOP = 30;
/** Step of the +/- keys and of one ctrl+wheel notch. */
export const ZOOM_STEP = 1.25;

export interface Zoom {
  s: number;
  x: number;
  y: number;
}

export const NO_ZOOM: Zoom = { s: 1, x: 0, y: 0 };

export function isZoomed(z: Zoom): boolean {
  return z.s > 1.01;
}

/** Keeps the scaled image over its box: x in [w - w·s, 0], y likewise. */
export function clampZoom(z: Zoom, w: number, h: number): Zoom {
  const s = Math.min(MAX_SCALE, Math.max(MIN_SCALE, Number.isFinite(z.s) ? z.s : 1));
  if (s <= 1.01) return NO_ZOOM;
  const clamp = (v: number, size: number) => Math.min(0, Math.max(size - size * s, Number.isFinite(v) ? v : 0));
  return { s, x: clamp(z.x, w), y: clamp(z.y, h) };
}

/**
 * Zooms to scale `to` keeping the point (`px`, `py`) of the box (the tap, the pinch's centre,
 * the mouse) where it is on screen.
 */
export function zoomAt(z: Zoom, to: number, px: number, py: number, w: number, h: number): Zoom {
  const s = Math.min(MAX_SCALE, Math.max(MIN_SCALE, to));
  const k = s / z.s;
  return clampZoom({ s, x: px - (px - z.x) * k, y: py - (py - z.y) * k }, w, h);
}

/** Moves a zoomed image by (dx, dy) screen pixels. */
export function panBy(z: Zoom, dx: number, dy: number, w: number, h: number): Zoom {
  return clampZoom({ s: z.s, x: z.x + dx, y: z.y + dy }, w, h);
}

/** A double tap zooms in around the tap, or back out when already zoomed. */
export function doubleTapZoom(z: Zoom, px: number, py: number, w: number, h: number): Zoom {
  return isZoomed(z) ? NO_ZOOM : zoomAt(z, DOUBLE_TAP_SCALE, px, py, w, h);
}

/** Whether a tap is the second of a double tap. */
export function isDoubleTap(first: { x: number; y: number; t: number } | null, x: number, y: number, t: number): boolean {
  return !!first && t - first.t <= DOUBLE_TAP_MS && Math.hypot(x - first.x, y - first.y) <= DOUBLE_TAP_SLOP;
}

/** The CSS transform of a zoom, or '' for none. */
export function zoomTransform(z: Zoom): string {
  return isZoomed(z) ? `translate(${z.x.toFixed(1)}px, ${z.y.toFixed(1)}px) scale(${z.s.toFixed(3)})` : '';
}

/** The scrubber's value text, from the counter template ("Page {page} of {total}"). */
export function pageValueText(template: string, page: number, total: number): string {
  return template.replace('{page}', String(page)).replace('{total}', String(total));
}

export type ViewKey = 'immersive' | 'leaveImmersive' | 'zoomIn' | 'zoomOut' | 'zoomReset';

/**
 * Keys of the view, in every mode: F shows the page alone (like a video player's full screen)
 * and F or Escape brings the bars back; + and - zoom the current page of a paged mode, 0 resets.
 */
export function viewKey(key: string): ViewKey | null {
  switch (key) {
    case 'f':
    case 'F':
      return 'immersive';
    case 'Escape':
      return 'leaveImmersive';
    case '+':
    case '=':
      return 'zoomIn';
    case '-':
    case '_':
      return 'zoomOut';
    case '0':
      return 'zoomReset';
    default:
      return null;
  }
}

/**
 * The narrower copies of a page image the server makes besides the original (`&w=` on its signed
 * URL; renditions.server.ts), for phones: a 390-430 px wide screen at 1-2× picks one of these.
 */
export const PAGE_WIDTHS = [480, 720] as const;

/**
 * The `srcset` of a page image: each narrower copy below the page's own width, then the original;
 * null when the page is no wider than the narrowest copy. `href` is the signed URL (it has a query).
 */
export function pageSrcset(href: string, width: number): string | null {
  const copies = PAGE_WIDTHS.filter((w) => w < width);
  if (copies.length === 0) return null;
  return [...copies.map((w) => `${href}&w=${w} ${w}w`), `${href} ${width}w`].join(', ');
}

/**
 * How wide a page is shown, for the browser's choice among the copies: webtoon strips fill the
 * screen up to 800 px; other pages are paged by default, inside the stage's 8 px padding on each
 * side (reader.css), and at most 1000 px wide. A 412 px phone at 1.75× thus takes the 720 px copy
 * of a 900 px page. Zooming or a fit other than the screen drop the copies (the reader script
 * asks for the original then).
 */
export function pageSizes(webtoon: boolean): string {
  return webtoon ? '(max-width: 800px) 100vw, 800px' : '(max-width: 1000px) calc(100vw - 16px), 1000px';
}
