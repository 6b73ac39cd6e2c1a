/**
 * Search suggestions for the search bar overlay:
 * GET /search/suggest/?cover=true&q={text}&site_id={1|3} (or show_all_sites=true) answers
 * `[term, names[], excerpts[], links[], thumbnails[], site_ids[]]`; no results is a 404 with
 * empty arrays. Documented in docs/api.md.
 */
import type { DB } from '~/server/db';
import { hostForSite, type Site, type SiteId } from '~/lib/site';
import { parseImages } from '~/features/catalog';
import { seriesPath, mediaUrl } from '~/lib/paths';
import { normalizeQuery, truncateQuery } from '~/lib/search-text';
import { searchIndexGeneration, searchSeries, seriesSites, type SearchHit } from '~/server/search-index';
import { createCache, type Cache } from '~/server/cache';

export const SUGGEST_LIMIT = 8;
export const SUGGEST_CACHE = 'public, max-age=60, s-maxage=300';

export type Suggestions = [term: string, names: string[], excerpts: string[], links: string[], thumbnails: string[], siteIds: number[][]];

/** Sites to search: site_id=1|3, show_all_sites=true for both; anything else is the current site. */
export function suggestSites(params: URLSearchParams, current: Site): SiteId[] {
  if ((params.get('show_all_sites') ?? '').toLowerCase() === 'true') return [1, 3];
  const raw = (params.get('site_id') ?? '').trim();
  if (raw === '1') return [1];
  if (raw === '3') return [3];
  return [current.id];
}

/** How long a search result is reused: the endpoint's own `max-age`. */
export const SUGGEST_TTL_MS = 60_000;
/** At most this many distinct (query, sites) results are kept per database (least recently used go first). */
export const SUGGEST_CACHE_ENTRIES = 5_000;

interface Found { hits: SearchHit[]; sites: Map<number, number[]> }
const caches = new WeakMap<object, Cache<Found>>();

/**
 * The search behind the suggestions, through a small in-process cache keyed by the normalised
 * query and the sites. Readers type the same short prefixes ("th", "the", "ma") over and over,
 * and those are exactly the queries that match thousands of series and cost milliseconds of
 * bm25 ranking; the endpoint already tells browsers and CDNs to reuse answers for 60 s, so the
 * server does the same. Concurrent misses for one key share one query. Entries drop after the
 * TTL, on a reindex in this process, or when a query fails. See docs/search.md ("Performance").
 */
export function cachedSearch(db: DB, term: string, siteIds: readonly SiteId[], now = Date.now()): Promise<Found> {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = createCache<Found>({ ttlMs: SUGGEST_TTL_MS, maxEntries: SUGGEST_CACHE_ENTRIES })));
  // The index generation in the key: after a reindex in this process, older results are never hit again.
  const key = `${searchIndexGeneration()}|${[...new Set(siteIds)].sort().join(',')}|${normalizeQuery(term).text}`;
  return cache.get(key, async () => {
    const hits = await searchSeries(db, term, { siteIds, limit: SUGGEST_LIMIT });
    return { hits, sites: await seriesSites(db, hits.map((h) => h.id)) };
  }, now);
}

export async function suggest(db: DB, opts: { q: string | null; cover: boolean; siteIds: readonly SiteId[]; site: Site; protocol: string; host: string }): Promise<Suggestions> {
  const term = truncateQuery(opts.q).trim();
  const out: Suggestions = [term, [], [], [], [], []];
  if (!normalizeQuery(term).terms.length) return out;
  const { hits, sites } = await cachedSearch(db, term, opts.siteIds);
  const origin = (site: SiteId) => `${opts.protocol}//${hostForSite(opts.host, site)}`;
  for (const h of hits) {
    const on = sites.get(h.id) ?? [];
    // Link to the series on the current site when it is shown there, else on the site that shows it.
    const linkSite: SiteId = on.includes(opts.site.id) || !on.length ? opts.site.id : (on[0] as SiteId);
    const thumb = opts.cover ? mediaUrl(parseImages(h.images).thumbnail_70) : null;
    out[1].push(h.name);
    out[2].push(h.excerpt);
    out[3].push(origin(linkSite) + seriesPath(h));
    out[4].push(thumb ? origin(opts.site.id) + thumb : '');
    out[5].push(on);
  }
  return out;
}
