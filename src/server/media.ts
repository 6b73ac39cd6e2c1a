/**
 * Serving files from the media folder (`MEDIA_DIR`), for both media routes: public images by
 * key (covers, banners, thumbnails), and chapter pages once the reader feature has checked the
 * signed URL. Keys are resolved inside the folder only: no absolute paths, `..`, backslashes,
 * NUL or symlinks out of it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { config } from './config.mjs';

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

export interface MediaFile {
  file: string;
  size: number;
  mtimeMs: number;
}

/**
 * The absolute path of a media key inside the media folder, or null when the key could
 * escape it (absolute paths, `..`, backslashes, NUL) or is not a regular file.
 */
export function mediaFile(key: string, root: string = config.mediaDir): MediaFile | null {
  if (!key || key.length > 512 || /[\\\0]/.test(key) || key.startsWith('/') || path.isAbsolute(key)) return null;
  if (key.split('/').some((part) => part === '..' || part === '.' || part === '')) return null;
  const base = path.resolve(root);
  const file = path.resolve(base, key);
  if (!file.startsWith(base + path.sep)) return null;
  try {
    const real = fs.realpathSync(file);
    const realBase = fs.realpathSync(base);
    if (!real.startsWith(realBase + path.sep)) return null;
    const stat = fs.statSync(real);
    if (!stat.isFile()) return null;
    return { file: real, size: stat.size, mtimeMs: stat.mtimeMs };
  } catch {
    return null;
  }
}

/** Streams a file as a Response (HEAD gets the headers only). */
export function fileResponse(file: { file: string; size: number }, headers: Headers, method = 'GET'): Response {
  headers.set('Content-Length', String(file.size));
  if (method === 'HEAD') return new Response(null, { status: 200, headers });
  const stream = Readable.toWeb(fs.createReadStream(file.file)) as unknown as ReadableStream<Uint8Array>;
  return new Response(stream, { status: 200, headers });
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
 * A public image by its URL (`/media/{key}`): long-lived public caching with an ETag
 * (size-mtime) so revalidation is a 304. Works from the raw path: public keys are
 * [a-z0-9/_.-] only, so nothing legitimate is percent-encoded, and any `%` (encoded dots,
 * slashes, backslashes, NUL) is refused outright. A trailing slash can only come from the
 * internal rewrite of slashless URLs (docs/reader.md); keys never end in one.
 */
export function publicMediaResponse(url: URL, request: Request): Response {
  const key = url.pathname.replace(/^\/media\//, '').replace(/\/$/, '');
  if (key.includes('%') || !isPublicMediaKey(key)) return mediaNotFound();
  const type = imageType(key);
  const file = type ? mediaFile(key) : null;
  if (!type || !file) return mediaNotFound();
  const etag = `"${file.size.toString(16)}-${Math.floor(file.mtimeMs).toString(16)}"`;
  const headers = new Headers({
    'Content-Type': type,
    'Cache-Control': PUBLIC_MEDIA_CACHE,
    ETag: etag,
    'Last-Modified': new Date(file.mtimeMs).toUTCString(),
  });
  if (etagMatches(request.headers.get('if-none-match'), etag)) {
    headers.delete('Content-Type');
    return new Response(null, { status: 304, headers });
  }
  return fileResponse(file, headers, request.method);
}

/**
 * Writes a new public media file (the studio's images): to a temporary file beside it, then
 * renamed into place, so a reader never gets half a file. Keys are new names: a served file is
 * never overwritten (browsers and the page cache keep them a day).
 */
export async function writeMediaFile(key: string, data: Uint8Array, root: string = config.mediaDir): Promise<void> {
  if (!isPublicMediaKey(key) || key.split('/').some((p) => p === '' || p === '.' || p === '..')) throw new Error(`not a public media key: ${key}`);
  const file = path.join(path.resolve(root), ...key.split('/'));
  await fs.promises.mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
  try {
    await fs.promises.writeFile(tmp, data, { flag: 'wx' });
    await fs.promises.rename(tmp, file);
  } catch (e) {
    await fs.promises.rm(tmp, { force: true });
    throw e;
  }
}

/** Removes a media file by key (one the studio made and no row uses any more); a missing file is not an error. */
export async function removeMediaFile(key: string, root: string = config.mediaDir): Promise<void> {
  const found = mediaFile(key, root);
  if (found) await fs.promises.rm(found.file, { force: true });
}
