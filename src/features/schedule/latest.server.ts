/**
 * Latest updates for the home page: the pager (paging.ts) over the site's recently updated
 * series, each request answered by the same query as the relay `updates` endpoint.
 */
import type { DB } from '~/server/db';
import type { Site } from '~/lib/site';
import type { T } from '~/lib/i18n';
import { createT } from '~/lib/i18n';
import { displayChapterName, toSeriesCard, type SeriesCard, type SeriesCardRow } from '~/features/catalog';
import { mediaUrl, readerPath } from '~/lib/paths';
import { LATEST_PAGING, pageLatestUpdates } from './paging';
import { relayEntries } from './relay.server';
import { findSiteSeries, recentlyUpdatedSeries, type ReleaseRow } from './repository.server';
import { createCache } from '~/server/cache';

/** Chapters shown under each series. */
export const LATEST_CHAPTERS_PER_ENTRY = 3;

export interface LatestEntry {
  series: SeriesCard;
  /** Newest first, at most 3. */
  chapters: { e4pid: string; number: number; name: string; at: number; href: string }[];
  /** Release time of the newest chapter. */
  latestAt: number;
}

export interface LoadLatestOptions {
  site: Site;
  now: number;
  /** At most 50 (the default). */
  limit?: number;
  t?: T;
}

const homeLatest = createCache<LatestEntry[]>({ ttlMs: 60_000, maxEntries: 4 });

/**
 * The home page's latest updates: the same for every visitor of a site, so remembered a minute
 * per process (no longer than the page's own s-maxage).
 */
export function sharedLatestUpdates(db: DB, opts: LoadLatestOptions): Promise<LatestEntry[]> {
  return homeLatest.get(`${opts.site.id}:${opts.limit ?? ''}`, () => loadLatestUpdates(db, opts));
}

/** Up to 50 recently updated series of the site, newest first, with their newest chapters. */
export async function loadLatestUpdates(db: DB, { site, now, limit, t }: LoadLatestOptions): Promise<LatestEntry[]> {
  const translate = t ?? createT(site.locale);
  const P = LATEST_PAGING;
  const candidates = await recentlyUpdatedSeries(db, {
    language: site.language,
    after: now - P.maxDays * 86_400,
    until: now,
    limit: P.maxRequests * P.batchSize,
  });
  const identity = (p: string | null) => p;
  const result = await pageLatestUpdates<number, LatestEntry>({
    now,
    seriesIds: candidates,
    limit,
    keyOf: (e) => e.series.id,
    timeOf: (e) => e.latestAt,
    fetch: async (ids, after) => {
      const series = await findSiteSeries(db, { siteId: site.id, ids, e4pids: [], publisherId: null });
      const { entries, rows } = await relayEntries(db, { site, t: translate, now, abs: identity, series, mode: 'updates', after });
      return entries.map((e) => toEntry(series.find((s) => s.id === e.serie.id)!, rows.get(e.serie.id) ?? []));
    },
  });
  return result.entries;

  function toEntry(s: SeriesCardRow, rows: ReleaseRow[]): LatestEntry {
    const chapters = rows.slice(0, LATEST_CHAPTERS_PER_ENTRY).map((r) => ({
      e4pid: r.e4pid,
      number: r.number,
      name: displayChapterName(translate, site.locale, r, r.number),
      at: r.released_at,
      href: readerPath({ slug: s.slug, format: s.format }, r),
    }));
    return {
      series: toSeriesCard(s),
      chapters,
      latestAt: chapters[0]?.at ?? 0,
    };
  }
}

/**
 * The latest updates as the home page embeds them in its `home-data` JSON (spec section 7: they
 * "arrive embedded in the page as JSON", like the recommended comics and the simulpub strip),
 * with absolute links on the requesting host. docs/home.md describes the shape.
 */
export function latestJson(entries: readonly LatestEntry[], origin: string) {
  return entries.map((e) => ({
    e4pid: e.series.e4pid,
    name: e.series.name,
    uslug: e.series.slug,
    link: origin + e.series.href,
    format: e.series.format,
    adult: e.series.adult,
    thumbnail: e.series.images.thumbnail ? origin + mediaUrl(e.series.images.thumbnail) : null,
    latestAt: e.latestAt,
    chapters: e.chapters.map((c) => ({ e4pid: c.e4pid, number: c.number, name: c.name, saleAt: c.at, link: origin + c.href })),
  }));
}
