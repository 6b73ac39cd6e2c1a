/**
 * Narrower copies of chapter page images for phones (`?w=480`, `?w=720` on a signed page URL):
 * made from the original with sharp the first time one is asked for, kept beside the media
 * (`{MEDIA_DIR}/.renditions/w{width}/{key}`) and made again when the original is newer. A page
 * 900 px wide is shown about 400 px wide on a phone; at its device pixel ratio the phone needs
 * 700 px or fewer, and the 720 px copy is about half the bytes (docs/reader.md).
 */
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { config } from '~/server/config.mjs';
import type { MediaFile } from '~/server/media';
import { PAGE_WIDTHS } from './view';
import { log } from '~/server/observe.mjs';

/** Quality of the copies: a phone screen at 1.5-2× hides what 75 loses against the originals' 80. */
const WEBP = { quality: 75, effort: 4 } as const;
const DIR = '.renditions';

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

/** One making at a time per file in this process; other processes at worst make it twice (writes are atomic). */
const making = new Map<string, Promise<MediaFile | null>>();

/**
 * The `width`-wide copy of a page image (by its media key and file), made if missing or older than
 * the original; null if it cannot be made (the original is unreadable as an image).
 */
export function renditionFile(key: string, original: MediaFile, width: number, root: string = config.mediaDir): Promise<MediaFile | null> {
  const file = path.join(path.resolve(root), DIR, `w${width}`, ...key.split('/'));
  const stat = fs.statSync(file, { throwIfNoEntry: false });
  if (stat?.isFile() && stat.mtimeMs >= original.mtimeMs) return Promise.resolve({ file, size: stat.size, mtimeMs: stat.mtimeMs });
  let pending = making.get(file);
  if (!pending) {
    pending = make(original.file, file, width).finally(() => making.delete(file));
    making.set(file, pending);
  }
  return pending;
}

async function make(source: string, file: string, width: number): Promise<MediaFile | null> {
  try {
    const data = await sharp(source).resize({ width, withoutEnlargement: true }).webp(WEBP).toBuffer();
    await fs.promises.mkdir(path.dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
    await fs.promises.writeFile(tmp, data);
    await fs.promises.rename(tmp, file);
    const stat = fs.statSync(file);
    return { file, size: stat.size, mtimeMs: stat.mtimeMs };
  } catch (error) {
    log().warn(`[media] could not make a ${width} px copy of ${source}: ${(error as Error).message}`);
    return null;
  }
}
