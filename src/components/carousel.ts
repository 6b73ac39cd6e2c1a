/**
 * Carousel rules shared by the server (Carousel.astro: the no-JavaScript scroll-snap row) and the
 * client (src/components/carousel.client.ts: keen-slider). One description of "how many slides per view
 * at which width" drives both, so the row does not jump when the script takes over.
 */

/** A swipe must cover 20 % of the carousel's width to change slides. */
export const SWIPE_THRESHOLD = 0.2;
/** Default slide interval when a carousel plays automatically. */
export const AUTOPLAY_INTERVAL_MS = 5000;
/**
 * Dots pagers with more slides than this show a "3 / 12" count instead of dots on phones: nine
 * 24 px dots are what fit one row of a 320 px screen's 288 px column.
 */
export const COMPACT_PAGER_FROM = 8;
/** Gap between slides in px (the CSS gap of the no-JS row and keen-slider's `spacing`). */
export const SLIDE_SPACING = 16;

/**
 * The widths (CSS px, `max-width` media queries) a carousel may change its per-view count at.
 * A fixed set lets the no-JS CSS hold one rule per width instead of one per carousel.
 */
export const BREAKPOINT_WIDTHS = [1200, 1024, 768, 576, 420] as const;
export type BreakpointWidth = (typeof BREAKPOINT_WIDTHS)[number];

/**
 * Slides per view: `base` above every breakpoint, and overrides that apply at and below a width.
 * Each override holds until a narrower one says otherwise, so the count need not shrink with the
 * width (the newest-series carousel goes 2 → 1 → 2 → 1).
 */
export interface PerView {
  base: number;
  at?: Partial<Record<BreakpointWidth, number>>;
}

/** The per-view settings the home blocks use. */
export const PER_VIEW = {
  /**
   * Newest series, exactly as the spec lists it: 2 per view; 1 up to 1200 px, 2 up to 768 px,
   * 1 up to 576 px. Between 769 and 1200 px the block sits beside another column in the
   * original layout, hence one; below 768 px it is full width again until phones.
   */
  newest: { base: 2, at: { 1200: 1, 768: 2, 576: 1 } },
  /** Category strip: 6, 5, 3 items by width. */
  strip: { base: 6, at: { 1024: 5, 576: 3 } },
  /** Hero slideshow and featured carousel: one wide slide. */
  single: { base: 1 },
  /** Cover cards (genre, collection, popular, favorites, simulpub). */
  cards: { base: 6, at: { 1200: 5, 1024: 4, 768: 3, 420: 2 } },
  /** Genre tiles. */
  tiles: { base: 4, at: { 1024: 3, 768: 2, 420: 1 } },
} as const satisfies Record<string, PerView>;

function clampCount(n: number): number {
  return Number.isFinite(n) ? Math.min(12, Math.max(1, Math.round(n))) : 1;
}

/** Slides per view for a viewport width (CSS px), as the media queries resolve it. */
export function perViewAt(config: PerView, width: number): number {
  let value = config.base;
  // Widest first: a narrower matching breakpoint overrides a wider one (last match wins, as in keen-slider).
  for (const bp of BREAKPOINT_WIDTHS) {
    const v = config.at?.[bp];
    if (v !== undefined && width <= bp) value = v;
  }
  return clampCount(value);
}

/** The count at each breakpoint width (and above them all), for the no-JS CSS custom properties. */
export function resolvedPerView(config: PerView): { base: number } & Record<BreakpointWidth, number> {
  const out = { base: clampCount(config.base) } as { base: number } & Record<BreakpointWidth, number>;
  for (const bp of BREAKPOINT_WIDTHS) out[bp] = perViewAt(config, bp);
  return out;
}

/**
 * Inline style for the carousel root: `--pv-base` and `--pv-{width}` for every breakpoint; the
 * stylesheet switches `--pv` between them with the same media queries keen-slider uses.
 */
export function perViewStyle(config: PerView): string {
  const r = resolvedPerView(config);
  return [`--pv-base:${r.base}`, ...BREAKPOINT_WIDTHS.map((bp) => `--pv-${bp}:${r[bp]}`)].join(';');
}

export interface KeenSlides {
  slides: { perView: number; spacing: number };
}

/**
 * keen-slider `breakpoints` for a config: one `(max-width: N px)` query per width that changes the
 * count, widest first, because keen-slider applies every matching breakpoint in order.
 */
export function keenBreakpoints(config: PerView, spacing = SLIDE_SPACING): Record<string, KeenSlides> {
  const out: Record<string, KeenSlides> = {};
  for (const bp of BREAKPOINT_WIDTHS) {
    const v = config.at?.[bp];
    if (v !== undefined) out[`(max-width: ${bp}px)`] = { slides: { perView: clampCount(v), spacing } };
  }
  return out;
}

/**
 * Where a drag that started on slide `startIdx` should settle. `dragged` is the distance moved in
 * carousel widths (positive = towards later slides), `slideSize` one slide plus its spacing in
 * the same unit. Below the threshold the carousel snaps back; past it, it moves at least one slide,
 * or as many whole slides as were dragged.
 */
export function swipeTarget(startIdx: number, dragged: number, slideSize: number, threshold = SWIPE_THRESHOLD): number {
  if (!Number.isFinite(dragged) || Math.abs(dragged) < threshold) return startIdx;
  const size = slideSize > 0 ? slideSize : 1;
  const slides = Math.max(1, Math.round(Math.abs(dragged) / size));
  return startIdx + Math.sign(dragged) * slides;
}

/** Options the server hands to the client script (data-carousel attribute, JSON). */
export interface CarouselOptions {
  perView: PerView;
  loop: boolean;
  /** Milliseconds between slides, or 0 for no autoplay. */
  autoplay: number;
  threshold: number;
  spacing: number;
}

/** The slide index after `idx` moves by `step` among `count` slides (wraps when `loop`, else clamps). */
export function stepIndex(idx: number, step: number, count: number, loop: boolean): number {
  if (count <= 0) return 0;
  const next = idx + step;
  if (loop) return ((next % count) + count) % count;
  return Math.min(count - 1, Math.max(0, next));
}
