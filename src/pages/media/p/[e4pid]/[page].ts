/**
 * Chapter page images, only through signed, expiring URLs handed out by the reader:
 *   /media/p/{e4pid}/{position}.webp?exp={unix}&sig={hex}
 * Bad or expired signature: 403 (checked before any database work). Unknown page: 404.
 */
import type { APIRoute } from 'astro';
import { getDb } from '~/server/db';
import { verifyPage } from '~/features/reader/signing.server';
import { fileResponse, mediaFile, notFound, pageMediaKey } from '~/features/reader/reader.server';

function forbidden(): Response {
  return new Response('Forbidden', { status: 403, headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' } });
}

export const GET: APIRoute = async ({ url, request, locals }) => {
  // Parsed from the URL itself: the route may be reached through an internal rewrite (see docs/reader.md).
  const m = /^\/media\/p\/(EPI-[A-Za-z0-9_-]{1,64})\/(\d{1,5})\.webp\/?$/.exec(url.pathname);
  if (!m) return notFound();
  const e4pid = m[1]!;
  const position = Number(m[2]);
  const verdict = verifyPage(e4pid, position, url.searchParams.get('exp'), url.searchParams.get('sig'), locals.now);
  if (verdict !== 'ok') return forbidden();

  const key = await pageMediaKey(await getDb(), e4pid, position);
  const file = key ? mediaFile(key) : null;
  if (!file) return notFound();
  const headers = new Headers({
    'Content-Type': 'image/webp',
    // Private: the URL is a capability handed to one reader; it expires anyway.
    'Cache-Control': 'private, max-age=600',
    'Cross-Origin-Resource-Policy': 'same-site',
    'X-Robots-Tag': 'noindex',
  });
  return fileResponse(file, headers, request.method);
};

export const HEAD = GET;
