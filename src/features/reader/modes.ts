/**
 * Reading modes and the input rules of the pager. Pure, so both the client script and the
 * manifest use them, and unit tests can pin every mapping down.
 *
 * Index convention for paged modes: pages are 0..total-1 and index `total` is the end card
 * (the "End of chapter" panel with the next-chapter link), so "next" on the last page shows it.
 */
import type { Format } from '~/features/catalog';

export type Mode = 'vertical' | 'rtl' | 'ltr';
export type Progression = 'ttb' | 'rtl' | 'ltr';
export type Action = 'next' | 'prev' | 'first' | 'last' | 'toggle';
export type Zone = 'left' | 'middle' | 'right';

export const MODES: readonly Mode[] = ['vertical', 'rtl', 'ltr'];
/** A swipe turns the page once it covers 20% of the reading area's width. */
export const SWIPE_THRESHOLD = 0.2;
/** Pages fetched ahead of the current one in paged modes. */
export const PRELOAD_AHEAD = 3;

/** Webtoons scroll vertically, manga reads right to left, comics left to right. */
export function defaultMode(format: Format): Mode {
  return format === 'WEBTOON' ? 'vertical' : format === 'MANGA' ? 'rtl' : 'ltr';
}

export function isMode(value: unknown): value is Mode {
  return typeof value === 'string' && (MODES as readonly string[]).includes(value);
}

/** The stored choice when it is valid, else the format's default. */
export function resolveMode(stored: string | null | undefined, format: Format): Mode {
  return isMode(stored) ? stored : defaultMode(format);
}

/** localStorage key: the mode is remembered per format, not per series. */
export function modeStorageKey(format: Format): string {
  return `inkpass:reader-mode:${format}`;
}

export function isPaged(mode: Mode): boolean {
  return mode !== 'vertical';
}

/** Readium readingProgression for a mode. */
export function progressionFor(mode: Mode): Progression {
  return mode === 'vertical' ? 'ttb' : mode;
}

/**
 * What a key does in a paged mode; null means "not ours" (the browser keeps its default,
 * e.g. scrolling in vertical mode). In right-to-left reading ArrowLeft goes forward.
 */
export function keyAction(key: string, mode: Mode): Action | null {
  if (mode === 'vertical') return null;
  switch (key) {
    case 'ArrowLeft':
      return mode === 'rtl' ? 'next' : 'prev';
    case 'ArrowRight':
      return mode === 'rtl' ? 'prev' : 'next';
    case 'PageDown':
    case ' ':
    case 'Spacebar':
      return 'next';
    case 'PageUp':
      return 'prev';
    case 'Home':
      return 'first';
    case 'End':
      return 'last';
    default:
      return null;
  }
}

/** Which third of the reading area `x` (relative to its left edge) falls in. */
export function tapZone(x: number, width: number): Zone {
  if (!(width > 0)) return 'middle';
  const f = x / width;
  if (f < 1 / 3) return 'left';
  if (f >= 2 / 3) return 'right';
  return 'middle';
}

/** A tap in a zone: the middle toggles the toolbars; the sides turn pages in the reading direction. */
export function tapAction(zone: Zone, mode: Mode): Action {
  if (zone === 'middle' || mode === 'vertical') return 'toggle';
  if (zone === 'left') return mode === 'rtl' ? 'next' : 'prev';
  return mode === 'rtl' ? 'prev' : 'next';
}

/**
 * A horizontal swipe of `dx` pixels (positive = finger moved right). Too short (under 20% of the
 * width) or more vertical than horizontal does nothing. Dragging the page away to the left
 * uncovers the next page in left-to-right reading; in right-to-left it is the other way round.
 */
export function swipeAction(dx: number, dy: number, width: number, mode: Mode): 'next' | 'prev' | null {
  if (mode === 'vertical' || !(width > 0)) return null;
  if (Math.abs(dx) < width * SWIPE_THRESHOLD || Math.abs(dy) > Math.abs(dx)) return null;
  const forward = mode === 'rtl' ? dx > 0 : dx < 0;
  return forward ? 'next' : 'prev';
}

/** Clamps an index to 0..total (total = the end card). */
export function clampIndex(index: number, total: number): number {
  if (total <= 0) return 0;
  return Math.min(total, Math.max(0, Math.trunc(index)));
}

/** The index after an action; stays put at either end. */
export function navigate(index: number, action: Action, total: number): number {
  switch (action) {
    case 'next':
      return clampIndex(index + 1, total);
    case 'prev':
      return clampIndex(index - 1, total);
    case 'first':
      return 0;
    case 'last':
      return clampIndex(total - 1, total);
    default:
      return clampIndex(index, total);
  }
}

/** 1-based page number for the counter; the end card counts as the last page. */
export function pageNumber(index: number, total: number): number {
  return Math.max(1, Math.min(total, index + 1));
}

/** Indexes worth fetching now: the next few pages after `index` that exist. */
export function preloadRange(index: number, total: number, ahead: number = PRELOAD_AHEAD): number[] {
  const out: number[] = [];
  for (let i = index + 1; i <= index + ahead && i < total; i++) out.push(i);
  return out;
}
