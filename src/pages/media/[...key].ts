/**
 * Public images (covers, banners, thumbnails) from the media folder: only keys that
 * isPublicMediaKey allows (never chapter pages, which go through /media/p/ with a signature).
 * Long-lived public caching with an ETag (size-mtime) so revalidation is a 304.
 */
import type { APIRoute } from 'astro';
import { isPublicMediaKey } from '~/features/catalog/media';
import { fileResponse, imageType, mediaFile, notFound } from '~/features/reader/reader.server';

const PUBLIC_MEDIA_CACHE = 'public, max-age=86400, stale-while-revalidate=604800';

function etagMatches(header: string | null, etag: string): boolean {
  if (!header) return false;
  const bare = etag.replace(/^W\//, '');
  return header.split(',').some((v) => {
    const tag = v.trim();
    return tag === '*' || tag.replace(/^W\//, '') === bare;
  });
}

export const GET: APIRoute = ({ url, request }) => {
  // Work from the raw path. Public keys are [a-z0-9/_.-] only, so nothing legitimate is
  // percent-encoded: any `%` (encoded dots, slashes, backslashes, NUL) is refused outright.
  // A trailing slash can only come from the internal rewrite (see docs/reader.md); keys never end in one.
  const key = url.pathname.replace(/^\/media\//, '').replace(/\/$/, '');
  if (key.includes('%')) return notFound();
  if (!isPublicMediaKey(key)) return notFound();
  const type = imageType(key);
  if (!type) return notFound();
  const file = mediaFile(key);
  if (!file) return notFound();

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
};

export const HEAD = GET;
