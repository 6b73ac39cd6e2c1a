/**
 * Serving media from the store (src/server/media-store.ts: the disk under `MEDIA_DIR`, or an S3
 * bucket), for both media routes: public images by key (covers, banners, thumbnails, and their
 * sizes made on demand: the spec's image proxy), and chapter pages once the reader feature has
 * checked the signed URL. Everything is streamed through the app, whichever the store
 * (docs/decisions.md, "Media in an object store"). Keys are checked by the store: no absolute
 * paths, `..`, backslashes, NUL, or symlinks out of the folder.
 */
import path from 'node:path';
import sharp from 'sharp';
import { isMediaKey, mediaStore, type MediaStore, type StoredMedia } from './media-store';
import { log } from './observe.mjs';

export type { StoredMedia } from './media-store';

/** Only these key prefixes are public; chapter pages (`pool/…` pages) never are. */
export const PUBLIC_MEDIA_PREFIXES = ['series/', 'pool/thumbs/'] as const;
const PUBLIC_MEDIA_CACHE = 'public, max-age=86400, stale-while-revalidate=604800';

export function isPublicMediaKey(key: string): boolean {
  return /^[a-z0-9][a-z0-9/_.-]*$/.test(key) && !key.includes('..') && PUBLIC_MEDIA_PREFIXES.some((p) => key.startsWith(p));
}

const IMAGE_TYPES: Record<string, string> = {
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
};

export function imageType(file: string): string | null {
  return IMAGE_TYPES[path.extname(file).toLowerCase()] ?? null;
}

/** Promotional videos (ANIMATION, VIDEO visuals): public like images, never resized. */
const VIDEO_TYPES: Record<string, string> = { '.webm': 'video/webm', '.mp4': 'video/mp4' };

export function videoType(file: string): string | null {
  return VIDEO_TYPES[path.extname(file).toLowerCase()] ?? null;
}

/** The one byte range of a `Range: bytes=a-b` header within `size` bytes; undefined when unsatisfiable, null when absent or not one simple range. */
export function byteRange(header: string | null, size: number): { start: number; end: number } | null | undefined {
  const m = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null;
  if (!m || (m[1] === '' && m[2] === '')) return null;
  let start: number;
  let end: number;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0) return undefined;
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  }
  return start > end || start >= size ? undefined : { start, end };
}

/**
 * Streams a stored object as a Response (HEAD gets the headers only; one request to the store
 * either way). Null when there is no such object.
 */
export async function storedResponse(key: string, headers: Headers, method = 'GET', store: MediaStore = mediaStore()): Promise<Response | null> {
  if (method === 'HEAD') {
    const info = await store.stat(key);
    if (!info) return null;
    headers.set('Content-Length', String(info.size));
    return new Response(null, { status: 200, headers });
  }
  const got = await store.get(key);
  if (!got) return null;
  headers.set('Content-Length', String(got.info.size));
  return new Response(got.body, { status: 200, headers });
}

export function mediaNotFound(): Response {
  return new Response('Not found', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' } });
}

export function mediaForbidden(): Response {
  return new Response('Forbidden', { status: 403, headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' } });
}

function etagMatches(header: string | null, etag: string): boolean {
  if (!header) return false;
  const bare = etag.replace(/^W\//, '');
  return header.split(',').some((v) => {
    const tag = v.trim();
    return tag === '*' || tag.replace(/^W\//, '') === bare;
  });
}

/**
 * The sizes the site shows public images at (spec section 9: series thumbnail 175, 70 and 140 in
 * lists, banner 363 × 96; thumbnails are 7:10), made on demand from any public image with
 * `?s={width}x{height}`, cropped to fill. Nothing else is made: another `s` is a 404, so a
 * visitor cannot fill the store with sizes nobody shows.
 */
export const PUBLIC_IMAGE_SIZES = ['175x250', '140x200', '70x100', '363x96'] as const;

/** The size `?s=` asks for: null for the image as stored, a size from the list, or undefined (404). */
export function publicImageSize(s: string | null): { name: string; width: number; height: number } | null | undefined {
  if (s === null) return null;
  if (!(PUBLIC_IMAGE_SIZES as readonly string[]).includes(s)) return undefined;
  const [width, height] = s.split('x').map(Number) as [number, number];
  return { name: s, width, height };
}

/** Where a rendition of `key` is kept in the store: beside the media, in a folder no route serves by name. */
export const RENDITIONS = '.renditions';
export const renditionKey = (name: string, key: string): string => `${RENDITIONS}/${name}/${key}`;

/** One making at a time per rendition in this process; other processes at worst make it twice (writes are whole). */
const making = new Map<string, Promise<StoredMedia | null>>();

/**
 * The rendition `name` of `key` (`w720`, `175x250`), made with `make` from the original's bytes
 * when missing, or (given `original`) older than it; kept in the store, so every process and
 * machine on the same store makes it once. Null when it cannot be made (not an image, or the
 * store refuses the write: the caller serves the original).
 */
export async function rendition(key: string, name: string, make: (source: Buffer) => Promise<Buffer>, original: StoredMedia | null = null, store: MediaStore = mediaStore()): Promise<StoredMedia | null> {
  const target = renditionKey(name, key);
  const have = await store.stat(target);
  if (have && (!original || have.mtimeMs >= original.mtimeMs)) return have;
  const id = `${store.location}\0${target}`;
  let pending = making.get(id);
  if (!pending) {
    pending = (async () => {
      try {
        const source = await store.bytes(key);
        if (!source) return null;
        await store.put(target, await make(source), 'image/webp');
        return await store.stat(target);
      } catch (error) {
        log().warn(`[media] could not make the ${name} copy of ${key}: ${(error as Error).message}`);
        return null;
      }
    })().finally(() => making.delete(id));
    making.set(id, pending);
  }
  return pending;
}

const SIZED_WEBP = { quality: 80, effort: 2 } as const;

/**
 * A public image by its URL (`/media/{key}`, or `/media/{key}?s=175x250` for a size made on
 * demand): long-lived public caching with an ETag (size-mtime) so revalidation is a 304. Works
 * from the raw path: public keys are [a-z0-9/_.-] only, so nothing legitimate is
 * percent-encoded, and any `%` (encoded dots, slashes, backslashes, NUL) is refused outright. A
 * trailing slash can only come from the internal rewrite of slashless URLs (docs/reader.md);
 * keys never end in one. Public images are never overwritten (new names each upload), so a made
 * size is never stale.
 */
export async function publicMediaResponse(url: URL, request: Request, store: MediaStore = mediaStore()): Promise<Response> {
  const key = url.pathname.replace(/^\/media\//, '').replace(/\/$/, '');
  if (key.includes('%') || !isPublicMediaKey(key)) return mediaNotFound();
  const video = videoType(key);
  if (video) return publicVideoResponse(key, video, url, request, store);
  const type = imageType(key);
  const size = publicImageSize(url.searchParams.get('s'));
  if (!type || size === undefined) return mediaNotFound();
  let served = key;
  if (size) {
    const made = await rendition(key, size.name, (source) => sharp(source, { limitInputPixels: 10_000 * 10_000 }).resize(size.width, size.height, { fit: 'cover', position: 'attention' }).webp(SIZED_WEBP).toBuffer(), null, store);
    if (!made) return mediaNotFound();
    served = made.key;
  }
  const head = request.method === 'HEAD' ? await store.stat(served) : null;
  const got = head ? null : await store.get(served);
  const info = head ?? got?.info;
  if (!info) return mediaNotFound();
  const etag = `"${info.size.toString(16)}-${Math.floor(info.mtimeMs).toString(16)}"`;
  const headers = new Headers({
    'Content-Type': size ? 'image/webp' : type,
    'Cache-Control': PUBLIC_MEDIA_CACHE,
    ETag: etag,
    'Last-Modified': new Date(info.mtimeMs).toUTCString(),
  });
  if (etagMatches(request.headers.get('if-none-match'), etag)) {
    await got?.body.cancel();
    headers.delete('Content-Type');
    return new Response(null, { status: 304, headers });
  }
  headers.set('Content-Length', String(info.size));
  return new Response(got ? got.body : null, { status: 200, headers });
}

/**
 * A promotional video: no sizes (`?s=` is a 404), the same caching as images, and single byte
 * ranges (Safari plays a video only from a server that answers them; the files are small, so a
 * range is cut from the bytes in memory).
 */
async function publicVideoResponse(key: string, type: string, url: URL, request: Request, store: MediaStore): Promise<Response> {
  if (url.searchParams.has('s')) return mediaNotFound();
  const info = await store.stat(key);
  if (!info) return mediaNotFound();
  const etag = `"${info.size.toString(16)}-${Math.floor(info.mtimeMs).toString(16)}"`;
  const headers = new Headers({ 'Content-Type': type, 'Cache-Control': PUBLIC_MEDIA_CACHE, ETag: etag, 'Last-Modified': new Date(info.mtimeMs).toUTCString(), 'Accept-Ranges': 'bytes' });
  if (etagMatches(request.headers.get('if-none-match'), etag)) {
    headers.delete('Content-Type');
    return new Response(null, { status: 304, headers });
  }
  const range = byteRange(request.headers.get('range'), info.size);
  if (range === undefined) {
    headers.set('Content-Range', `bytes */${info.size}`);
    return new Response(null, { status: 416, headers });
  }
  if (request.method === 'HEAD') {
    headers.set('Content-Length', String(info.size));
    return new Response(null, { status: 200, headers });
  }
  const bytes = await store.bytes(key);
  if (!bytes) return mediaNotFound();
  if (!range) {
    headers.set('Content-Length', String(bytes.length));
    return new Response(new Uint8Array(bytes), { status: 200, headers });
  }
  headers.set('Content-Range', `bytes ${range.start}-${range.end}/${bytes.length}`);
  headers.set('Content-Length', String(range.end - range.start + 1));
  return new Response(new Uint8Array(bytes.subarray(range.start, range.end + 1)), { status: 206, headers });
}

/**
 * Writes a new public media file (the studio's images), whole: a reader never gets half a file.
 * Keys are new names: a served file is never overwritten (browsers and the page cache keep them
 * a day).
 */
export async function writeMediaFile(key: string, data: Uint8Array, store: MediaStore = mediaStore()): Promise<void> {
  if (!isPublicMediaKey(key) || !isMediaKey(key)) throw new Error(`not a public media key: ${key}`);
  await store.put(key, data, imageType(key) ?? undefined);
}

/** Removes a media file by key (one the studio made and no row uses any more); a missing file is not an error. */
export async function removeMediaFile(key: string, store: MediaStore = mediaStore()): Promise<void> {
  await store.remove(key);
}
