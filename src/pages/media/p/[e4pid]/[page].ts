/**
 * Chapter page images, only through signed, expiring URLs handed out by the reader:
 *   /media/p/{e4pid}/{position}.webp?exp={unix}&sig={hex}
 * Bad or expired signature: 403 (checked before any database work). Unknown page: 404.
 */
import type { APIRoute } from 'astro';
import { getDb } from '../../../../server/db';
import { verifyPage } from '../../../../features/reader/signing.server';
import { fileResponse, mediaFile, notFound, pageMediaKey } from '../../../../features/reader/reader.server';

function forbidden(): Response {
  return new Response('Forbidden', { status: 403, headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' } });
}

export const GET: APIRoute = async ({ params, url, request, locals }) => {
  const e4pid = params.e4pid ?? '';
  const m = /^(\d{1,5})\.webp$/.exec(params.page ?? '');
  if (!m || !/^EPI-[A-Za-z0-9_-]{1,64}$/.test(e4pid)) return notFound();
  const position = Number(m[1]);
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
