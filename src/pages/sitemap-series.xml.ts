import type { APIRoute } from 'astro';
import { getDb } from '~/server/db';
import { sitemapSeries, urlset } from '~/features/catalog/index.server';

export const GET: APIRoute = async ({ url, locals }) => {
  const entries = await sitemapSeries(await getDb(), locals.site.id);
  return new Response(urlset(`${url.protocol}//${url.host}`, entries), {
    headers: { 'Content-Type': 'application/xml; charset=utf-8', 'Cache-Control': 'public, max-age=600, s-maxage=3600' },
  });
};
