import type { DB } from '~/server/db';
import { readerPath, seriesPath } from '~/lib/paths';

export const SITEMAP_CHUNK = 40_000;

/** Series listed for a site: every visible series that has the site's language. */
export function sitemapSeries(db: DB, siteId: number) {
  return db
    .selectFrom('series')
    .select(['slug', 'last_updated'])
    .where('state', '!=', 'BLOCKED')
    .where((eb) => eb.exists(eb.selectFrom('series_languages').select('series_id').whereRef('series_languages.series_id', '=', 'series.id').where('series_languages.site_id', '=', siteId)))
    .orderBy('id')
    .execute()
    .then((rows) => rows.map((r) => ({ path: seriesPath(r), lastmod: r.last_updated })));
}

export async function sitemapChapterCount(db: DB, language: string, now: number): Promise<number> {
  const row = await db
    .selectFrom('chapters')
    .innerJoin('series', 'series.id', 'chapters.series_id')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('chapters.language', '=', language)
    .where('chapters.released_at', '<=', now)
    .where('series.state', '=', 'ACTIVE')
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

export async function sitemapChapters(db: DB, language: string, now: number, chunk: number) {
  const rows = await db
    .selectFrom('chapters')
    .innerJoin('series', 'series.id', 'chapters.series_id')
    .select(['series.slug', 'series.format', 'chapters.e4pid', 'chapters.number', 'chapters.language', 'chapters.released_at'])
    .where('chapters.language', '=', language)
    .where('chapters.released_at', '<=', now)
    .where('series.state', '=', 'ACTIVE')
    .orderBy('chapters.id')
    .limit(SITEMAP_CHUNK)
    .offset(chunk * SITEMAP_CHUNK)
    .execute();
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
