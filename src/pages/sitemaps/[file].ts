import type { APIRoute } from 'astro';
import { NOT_FOUND_PATH } from '~/lib/paths';
import { getDb } from '~/server/db';
import { sitemapChapters, urlset } from '~/features/catalog/index.server';

/** /sitemaps/chapters-{n}.xml: the n-th block of chapter URLs (see sitemap.xml). */
export const GET: APIRoute = async ({ url, params, locals, rewrite }) => {
  const m = /^chapters-(\d{1,4})\.xml$/.exec(params.file ?? '');
  if (!m) return rewrite(NOT_FOUND_PATH);
  const entries = await sitemapChapters(await getDb(), locals.site.language, locals.now, Number(m[1]));
  if (entries.length === 0) return rewrite(NOT_FOUND_PATH);
  return new Response(urlset(`${url.protocol}//${url.host}`, entries), {
    headers: { 'Content-Type': 'application/xml; charset=utf-8', 'Cache-Control': 'public, max-age=600, s-maxage=3600' },
  });
};
