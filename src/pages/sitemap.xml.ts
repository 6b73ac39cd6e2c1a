import type { APIRoute } from 'astro';
import { getDb } from '~/server/db';
import { sitemapChapterCount, SITEMAP_CHUNK, escapeXml } from '~/features/catalog/index.server';
import { chapterSitemapPath, SERIES_SITEMAP_PATH } from '~/lib/paths';

/** Sitemap index: one file of series, then chapter files of at most 40,000 URLs each. */
export const GET: APIRoute = async ({ url, locals }) => {
  const db = await getDb();
  const origin = `${url.protocol}//${url.host}`;
  const chapters = await sitemapChapterCount(db, locals.site.language, locals.now);
  const files = [SERIES_SITEMAP_PATH];
  for (let i = 0; i < Math.ceil(chapters / SITEMAP_CHUNK); i++) files.push(chapterSitemapPath(i));
  const body = files.map((f) => `<sitemap><loc>${escapeXml(origin + f)}</loc></sitemap>`).join('');
  return new Response(`<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${body}</sitemapindex>\n`, {
    headers: { 'Content-Type': 'application/xml; charset=utf-8', 'Cache-Control': 'public, max-age=600, s-maxage=3600' },
  });
};
