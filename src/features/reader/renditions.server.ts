/**
 * Narrower copies of chapter page images for phones (`?w=480`, `?w=720` on a signed page URL):
 * made from the original with sharp the first time one is asked for, kept in the media store
 * beside the originals (`.renditions/w{width}/{key}`, on disk or in the bucket: src/server/media.ts)
 * and made again when the original is newer. A page 900 px wide is shown about 400 px wide on a
 * phone; at its device pixel ratio the phone needs 700 px or fewer, and the 720 px copy is about
 * half the bytes (docs/reader.md).
 */
import sharp from 'sharp';
import { rendition, type StoredMedia } from '~/server/media';
import type { MediaStore } from '~/server/media-store';
import { PAGE_WIDTHS } from './view';
import { log } from '~/server/observe.mjs';

/**
 * Quality of the copies: a phone screen at 1.5-2× hides what 70 loses against the originals' 80.
 * Effort 6 (made once per page and width, then kept) takes another few per cent off: the first
 * page of a chapter is the reader's largest paint on a slow connection (docs/performance.md).
 * Copies made before keep their bytes until their original changes.
 */
const WEBP = { quality: 70, effort: 6 } as const;

/**
 * The width a page URL's `w` asks for: null for the original (no `w`), a width the server makes,
 * or undefined for anything else (a width never offered: the route answers 404).
 */
export function renditionWidth(w: string | null): number | null | undefined {
  if (w === null) return null;
  // One spelling per copy (no leading zeros), so each has one URL in caches.
  const width = /^[1-9]\d{0,3}$/.test(w) ? Number(w) : NaN;
  return (PAGE_WIDTHS as readonly number[]).includes(width) ? width : undefined;
}

/**
 * The `width`-wide copy of a page image (by its media key and stored original), made if missing
 * or older than the original; null if it cannot be made (the original is unreadable as an image).
 */
export function renditionFile(original: StoredMedia, width: number, store?: MediaStore): Promise<StoredMedia | null> {
  return rendition(original.key, `w${width}`, (source) => sharp(source).resize({ width, withoutEnlargement: true }).webp(WEBP).toBuffer(), original, store);
}
