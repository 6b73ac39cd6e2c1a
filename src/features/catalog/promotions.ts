/**
 * The rules of promotional visuals (spec section 3: visual type IMAGE, ANIMATED_IMAGE, ANIMATION
 * or VIDEO; fit COVER, CONTAIN, FILL, FIT_WIDTH, FIT_HEIGHT, NONE or SCALE_DOWN; coloring, label,
 * button) and of the chapter preview (how many first pages of a locked chapter are a teaser).
 * Pure and browser-safe: the pages, the API and the seed all draw on the same answers.
 */

export const VISUAL_TYPES = ['IMAGE', 'ANIMATED_IMAGE', 'ANIMATION', 'VIDEO'] as const;
export type VisualType = (typeof VISUAL_TYPES)[number];
export const VISUAL_FITS = ['COVER', 'CONTAIN', 'FILL', 'FIT_WIDTH', 'FIT_HEIGHT', 'NONE', 'SCALE_DOWN'] as const;
export type VisualFit = (typeof VISUAL_FITS)[number];

export const isVisualType = (v: unknown): v is VisualType => (VISUAL_TYPES as readonly unknown[]).includes(v);
export const isVisualFit = (v: unknown): v is VisualFit => (VISUAL_FITS as readonly unknown[]).includes(v);

/** ANIMATION and VIDEO play in a <video> (muted, looping, with a poster); the others are an <img>. */
export function isMotion(type: VisualType): boolean {
  return type === 'ANIMATION' || type === 'VIDEO';
}

/** The file types each visual type may be: an animated image is a WebP or GIF, a video WebM or MP4. */
const EXTENSIONS: Record<VisualType, readonly string[]> = {
  IMAGE: ['webp', 'avif', 'png', 'jpg', 'jpeg'],
  ANIMATED_IMAGE: ['webp', 'gif'],
  ANIMATION: ['webm', 'mp4'],
  VIDEO: ['webm', 'mp4'],
};

/**
 * How a fit draws in CSS: object-fit for the five the platform has, and for FIT_WIDTH/FIT_HEIGHT
 * the whole width (or height) shown, cropped on the other axis (cover, anchored to the middle of
 * the axis that is kept whole).
 */
export function fitStyle(fit: VisualFit): string {
  switch (fit) {
    case 'COVER': return 'object-fit:cover';
    case 'CONTAIN': return 'object-fit:contain';
    case 'FILL': return 'object-fit:fill';
    case 'NONE': return 'object-fit:none';
    case 'SCALE_DOWN': return 'object-fit:scale-down';
    case 'FIT_WIDTH': return 'object-fit:cover;object-position:50% 0';
    case 'FIT_HEIGHT': return 'object-fit:cover;object-position:0 50%';
  }
}

const HEX = /^#[0-9a-f]{6}$/i;

export interface PromotionInput {
  visual_type: string;
  fit: string;
  media_key: string;
  poster_key: string | null;
  width: number;
  height: number;
  background_color: string;
  text_color: string;
}

/** Why a promotional visual is not well-formed (for the seed and any editor), or null. */
export function promotionProblem(p: PromotionInput): string | null {
  if (!isVisualType(p.visual_type)) return 'visual_type';
  if (!isVisualFit(p.fit)) return 'fit';
  const ext = /\.([a-z0-9]+)$/.exec(p.media_key)?.[1] ?? '';
  if (!EXTENSIONS[p.visual_type].includes(ext)) return 'media_key';
  if (isMotion(p.visual_type) && !p.poster_key) return 'poster_key';
  if (p.poster_key && !EXTENSIONS.IMAGE.includes(/\.([a-z0-9]+)$/.exec(p.poster_key)?.[1] ?? '')) return 'poster_key';
  if (!Number.isInteger(p.width) || !Number.isInteger(p.height) || p.width < 1 || p.height < 1 || p.width > 4096 || p.height > 4096) return 'size';
  if (!HEX.test(p.background_color) || !HEX.test(p.text_color)) return 'coloring';
  return null;
}

/** The most first pages a series may give as a chapter preview. */
export const PREVIEW_PAGES_MAX = 10;

/**
 * How many first pages of a locked chapter of `pageCount` pages are shown as its preview, for a
 * series whose setting is `setting`: never more than half the chapter (rounded down), so a short
 * chapter is never given away whole, and never more than PREVIEW_PAGES_MAX.
 */
export function previewPageCount(setting: number, pageCount: number): number {
  const s = Number.isInteger(setting) ? setting : 0;
  return Math.max(0, Math.min(s, PREVIEW_PAGES_MAX, Math.floor(Math.max(0, pageCount) / 2)));
}

/** The setting from a form field: an integer 0..PREVIEW_PAGES_MAX, or null when it is not one. */
export function parsePreviewPages(raw: string | null | undefined): number | null {
  const v = (raw ?? '').trim();
  if (v === '') return 0;
  if (!/^\d{1,2}$/.test(v)) return null;
  const n = Number(v);
  return n <= PREVIEW_PAGES_MAX ? n : null;
}
