import type { DB } from '~/server/db';
import { readerPath, seriesPath } from '~/lib/paths';
import * as repo from './repository.server';

export const SITEMAP_CHUNK = 40_000;

/** Series listed for a site: every visible series that has the site's language. */
export async function sitemapSeries(db: DB, siteId: number) {
  return (await repo.visibleSeriesOfSite(db, siteId)).map((r) => ({ path: seriesPath(r), lastmod: r.last_updated }));
}

export async function sitemapChapterCount(db: DB, language: string, now: number): Promise<number> {
  return Number((await repo.releasedChapterCount(db, language, now))?.n ?? 0);
}

export async function sitemapChapters(db: DB, language: string, now: number, chunk: number) {
  const rows = await repo.releasedChapters(db, language, now, SITEMAP_CHUNK, chunk * SITEMAP_CHUNK);
  return rows.map((r) => ({ path: readerPath({ slug: r.slug, format: r.format }, r), lastmod: r.released_at }));
}

export function escapeXml(s: string): string {
  return s.replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!);
}

export function urlset(origin: string, entries: { path: string; lastmod: number }[]): string {
  const body = entries
    .map((e) => `<url><loc>${escapeXml(origin + e.path)}</loc><lastmod>${new Date(e.lastmod * 1000).toISOString()}</lastmod></url>`)
    .join('');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${body}</urlset>\n`;
}
