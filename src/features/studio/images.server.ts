/**
 * A series' images from the studio (issue 27, docs/staff.md): staff upload one image per kind
 * (cover, banner, showcase, wallpaper, logo) and sharp makes every size the site serves, the
 * sizes the demo seed makes (db/seed/art.ts). The upload is judged by its content (sharp reads
 * its header: JPEG, PNG, WebP or AVIF only, at most 10,000 px a side), never by its name or type.
 *
 * Order of work: every size is rendered in memory first (a corrupt image writes nothing), then
 * written under new names (never over a served file), then the row points at them in a
 * transaction with the audit record; if that fails the new files go. Only after the commit are
 * the old files removed, and only the studio's own (`series/{id}/…`; the seed's art is shared).
 */
import crypto from 'node:crypto';
import sharp from 'sharp';
import type { MessageKey } from '~/lib/i18n';
import { catalogChanged } from '~/server/cache';
import { writeAudit, type AuditActor } from '~/server/audit';
import { writeTransaction, type DB } from '~/server/db';
import { removeMediaFile, writeMediaFile } from '~/server/media';
import * as repo from './repository.server';

/** The largest image taken (the edge lets the upload route carry this and its envelope). */
export const IMAGE_MAX_BYTES = 20 * 1024 * 1024;
/** The longest side taken, in pixels. */
export const IMAGE_MAX_SIDE = 10_000;
/** What a multipart upload may weigh in all: the image and a few fields. */
export const UPLOAD_MAX_BYTES = IMAGE_MAX_BYTES + 64 * 1024;

interface Size {
  /** The `images` JSON keys this size serves. */
  keys: readonly string[];
  width: number;
  height: number;
  /** cover: crop to fill; contain: fit inside on transparency (logos keep their shape). */
  fit: 'cover' | 'contain';
}

/** Each kind staff upload and the sizes made from it (the seed's, db/seed/art.ts). */
export const IMAGE_KINDS: Record<string, readonly Size[]> = {
  cover: [
    { keys: ['full_cover', 'zoom_cover'], width: 700, height: 1000, fit: 'cover' },
    { keys: ['cover'], width: 350, height: 500, fit: 'cover' },
    { keys: ['thumbnail'], width: 175, height: 250, fit: 'cover' },
    { keys: ['thumbnail_140'], width: 140, height: 200, fit: 'cover' },
    { keys: ['thumbnail_70'], width: 70, height: 100, fit: 'cover' },
  ],
  banner: [{ keys: ['banner'], width: 363, height: 96, fit: 'cover' }],
  showcase: [{ keys: ['showcase'], width: 800, height: 450, fit: 'cover' }],
  wallpaper: [{ keys: ['wallpaper'], width: 1280, height: 400, fit: 'cover' }],
  logo: [{ keys: ['logo'], width: 400, height: 120, fit: 'contain' }],
};
export const IMAGE_KIND_NAMES = Object.keys(IMAGE_KINDS);

const WEBP = { quality: 80, effort: 2 } as const;
/** Decoding stops past this many pixels (10,000 × 10,000): a "bomb" never fills memory. */
const PIXEL_LIMIT = IMAGE_MAX_SIDE * IMAGE_MAX_SIDE;

export type ImageRefusal = 'kind' | 'empty' | 'tooLarge' | 'type' | 'dimensions' | 'corrupt';
export type ImageResult = { ok: true; kind: string } | { ok: false; status: 404 } | { ok: false; status: 413 | 422; error: MessageKey };

const refuse = (status: 413 | 422, why: ImageRefusal): ImageResult => ({ ok: false, status, error: `studio.images.error.${why}` as MessageKey });

/** The image's format by content: jpeg, png, webp or avif; null for anything else (or not an image). */
async function formatOf(bytes: Uint8Array): Promise<{ format: string; width: number; height: number } | null> {
  try {
    const m = await sharp(bytes, { limitInputPixels: false }).metadata();
    const format = m.format === 'heif' ? (m.compression === 'av1' ? 'avif' : null) : m.format;
    if (!format || !['jpeg', 'png', 'webp', 'avif'].includes(format)) return null;
    return { format, width: m.width ?? 0, height: m.height ?? 0 };
  } catch {
    return null;
  }
}

/** Every size of one kind, rendered in memory (throws on an image that does not decode). */
function render(bytes: Uint8Array, sizes: readonly Size[]): Promise<Buffer[]> {
  return Promise.all(sizes.map((s) => sharp(bytes, { limitInputPixels: PIXEL_LIMIT, failOn: 'truncated' })
    .rotate()
    .resize(s.width, s.height, s.fit === 'cover' ? { fit: 'cover', position: 'attention' } : { fit: 'contain', background: { r: 0, g: 0, b: 0, alpha: 0 } })
    .webp(WEBP)
    .toBuffer()));
}

/** The studio's own files of a series live under this prefix (and only those are ever removed). */
const ownPrefix = (seriesId: number) => `series/${seriesId}/`;

function parseImagesJson(text: string): Record<string, string> {
  try {
    const v: unknown = JSON.parse(text);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, string>) : {};
  } catch {
    return {};
  }
}

/** The series' images by kind, for the studio's page (null: no such series). */
export async function seriesImagesOf(db: DB, seriesId: number): Promise<{ name: string; images: Record<string, string> } | null> {
  const row = await repo.studioSeriesById(db, seriesId);
  return row ? { name: row.name, images: parseImagesJson(row.images) } : null;
}

/** Replaces one kind of a series' images with every size made from `file`, with its audit record. */
export async function uploadSeriesImage(db: DB, seriesId: number, kind: string, file: { bytes: Uint8Array } | undefined, actor: AuditActor, now: number): Promise<ImageResult> {
  if (!(await repo.studioSeriesById(db, seriesId))) return { ok: false, status: 404 };
  const sizes = IMAGE_KINDS[kind];
  if (!sizes || !Object.hasOwn(IMAGE_KINDS, kind)) return refuse(422, 'kind');
  if (!file || file.bytes.length === 0) return refuse(422, 'empty');
  if (file.bytes.length > IMAGE_MAX_BYTES) return refuse(413, 'tooLarge');
  const meta = await formatOf(file.bytes);
  if (!meta) return refuse(422, 'type');
  if (meta.width < 1 || meta.height < 1 || meta.width > IMAGE_MAX_SIDE || meta.height > IMAGE_MAX_SIDE) return refuse(422, 'dimensions');
  let rendered: Buffer[];
  try {
    rendered = await render(file.bytes, sizes);
  } catch {
    return refuse(422, 'corrupt');
  }

  const token = crypto.randomBytes(6).toString('hex');
  const keys = sizes.map((s) => `${ownPrefix(seriesId)}${kind}-${s.width}x${s.height}-${token}.webp`);
  const written: string[] = [];
  let replaced: string[] = [];
  try {
    for (const [i, key] of keys.entries()) {
      await writeMediaFile(key, rendered[i]!);
      written.push(key);
    }
    replaced = await writeTransaction(db, async (tx) => {
      const row = await repo.studioSeriesById(tx, seriesId);
      if (!row) throw new Error('series gone during upload');
      const images = parseImagesJson(row.images);
      const before: Record<string, string | null> = {};
      const after: Record<string, string> = {};
      sizes.forEach((s, i) => {
        for (const k of s.keys) {
          before[k] = images[k] ?? null;
          after[k] = keys[i]!;
          images[k] = keys[i]!;
        }
      });
      await repo.updateSeries(tx, seriesId, { images: JSON.stringify(images), modified_at: now });
      await writeAudit(tx, actor, { action: 'series.images', object: { table: 'series', id: seriesId }, before: { kind, ...before }, after: { kind, format: meta.format, width: meta.width, height: meta.height, ...after } }, now);
      const still = new Set(Object.values(images));
      return Object.values(before).filter((k): k is string => !!k && !still.has(k));
    });
  } catch (e) {
    await Promise.all(written.map((k) => removeMediaFile(k)));
    throw e;
  }
  // After the commit: the replaced files of the studio's own, never the seed's shared art.
  await Promise.all([...new Set(replaced)].filter((k) => k.startsWith(ownPrefix(seriesId))).map((k) => removeMediaFile(k).catch(() => undefined)));
  catalogChanged();
  return { ok: true, kind };
}
