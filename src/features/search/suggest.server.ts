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
import { searchIndexGeneration, seriesSites, suggestionRows } from '~/server/search-index';
import { createCache, type Cache } from '~/server/cache';
import { localizeRow, regionBlocks } from '~/features/catalog';
import { buildSuggestIndex, type SuggestDoc, type SuggestIndex } from './fuzzy';

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
/** At most this many distinct (query, sites, language, country) results are kept per database (least recently used go first). */
export const SUGGEST_CACHE_ENTRIES = 5_000;

export interface SuggestHit { id: number; slug: string; name: string; excerpt: string; images: string }
interface Found { hits: SuggestHit[]; sites: Map<number, number[]> }

/** One built index: the fuzzy index and what a suggestion shows of each series, in one language. */
interface Built { id: number; index: SuggestIndex; show: Map<number, SuggestHit> }
let builds = 0;

async function buildIndex(db: DB, siteIds: readonly SiteId[], language: string): Promise<Built> {
  const rows = await suggestionRows(db, siteIds, language);
  const show = new Map<number, SuggestHit>();
  const docs: SuggestDoc[] = rows.map((r) => {
    // Shown in the site's language, falling back to the original (catalog texts rule).
    const shown = localizeRow({ name: r.name, excerpt: r.excerpt }, { name: r.t_name, excerpt: r.t_excerpt });
    show.set(r.id, { id: r.id, slug: r.slug, name: shown.name, excerpt: shown.excerpt, images: r.images });
    return {
      id: r.id,
      names: [shown.name, r.name, ...r.alt.split('\n'), ...r.names.split('\n')],
      text: r.document,
      popularity: r.popularity,
      active: r.state === 'ACTIVE',
      blocks: regionBlocks({ geoblocks: r.geoblocks }, r.publisher_geoblocks == null ? null : { geoblocks: r.publisher_geoblocks }),
    };
  });
  return { id: ++builds, index: await buildSuggestIndex(docs), show };
}

/** How long an index is used before a background rebuild picks up other processes' changes. */
const INDEX_TTL_MS = 300_000;

interface Held { built: Promise<Built>; version: object; generation: number; rebuilding: boolean }
const held = new WeakMap<object, Map<string, Held>>();
const versions = new WeakMap<object, Cache<object>>();

/**
 * The index for (sites, language). Built once (about 0.6 s, in chunks that yield to other
 * requests, for the 10,000-series benchmark catalogue) and then kept: when the catalogue changes
 * in this process (`catalogChanged()` forgets the version token), a reindex runs here, or five
 * minutes pass (changes made by other processes), one rebuild runs in the background while
 * requests keep using the previous index, so no request waits for a rebuild after the first.
 */
function indexFor(db: DB, siteIds: readonly SiteId[], language: string, version: object): Promise<Built> {
  let forDb = held.get(db);
  if (!forDb) held.set(db, (forDb = new Map()));
  const key = `${siteIds.join(',')}|${language}`;
  const generation = searchIndexGeneration();
  const current = forDb.get(key);
  if (!current) {
    const entry: Held = { built: buildIndex(db, siteIds, language), version, generation, rebuilding: false };
    forDb.set(key, entry);
    entry.built.catch(() => forDb.get(key) === entry && forDb.delete(key));
    return entry.built;
  }
  if ((current.version !== version || current.generation !== generation) && !current.rebuilding) {
    current.rebuilding = true;
    buildIndex(db, siteIds, language).then(
      (built) => forDb.set(key, { built: Promise.resolve(built), version, generation, rebuilding: false }),
      () => { current.rebuilding = false; },
    );
  }
  return current.built;
}

const caches = new WeakMap<object, Cache<Found>>();
/** The listing's searches kept (each holds up to every id of the catalogue, so fewer than suggestions). */
const LISTING_CACHE_ENTRIES = 500;
const listCaches = new WeakMap<object, Cache<SeriesSearch>>();

/**
 * The search behind the suggestions, through a small in-process cache keyed by the normalised
 * query, the sites, the language and the reader's country. Readers type the same short prefixes
 * ("th", "the", "ma") over and over; the endpoint already tells browsers and CDNs to reuse answers
 * for 60 s, so the server does the same. Entries drop after the TTL, on a reindex in this
 * process, or when the catalogue changes. See docs/search.md ("Suggestions").
 */
export async function cachedSearch(db: DB, term: string, siteIds: readonly SiteId[], opts: { language?: string; country?: string | null } = {}, now = Date.now()): Promise<Found> {
  const language = opts.language ?? 'en';
  const country = opts.country ?? '';
  const sites = [...new Set(siteIds)].sort() as SiteId[];
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = createCache<Found>({ ttlMs: SUGGEST_TTL_MS, maxEntries: SUGGEST_CACHE_ENTRIES })));
  const built = await currentIndex(db, sites, language, now);
  // Keyed by the index that answers: once a rebuild lands, older results are never hit again.
  const key = `${built.id}|${country}|${normalizeQuery(term).text}`;
  return cache.get(key, async () => {
    // Suggestions offer ACTIVE series only; the listing also finds REMOVED ones (searchSeries).
    const hits = built.index.search(term, { limit: SUGGEST_LIMIT, country, activeOnly: true }).map((id) => built.show.get(id)!);
    return { hits, sites: await seriesSites(db, hits.map((h) => h.id)) };
  }, now);
}

/** The index answering (sites, language) now, built on first use; see `indexFor`. */
async function currentIndex(db: DB, siteIds: readonly SiteId[], language: string, now = Date.now()): Promise<Built> {
  let version = versions.get(db);
  if (!version) versions.set(db, (version = createCache<object>({ ttlMs: INDEX_TTL_MS, maxEntries: 1 })));
  const token = await version.get('v', async () => ({}), now);
  return indexFor(db, [...new Set(siteIds)].sort() as SiteId[], language, token);
}

/**
 * Rebuilds now every index this process holds, after a staff edit (once catalogChanged() has
 * emptied the catalogue's caches), so the very next search answers with the change: otherwise
 * the first search after an edit would still use the previous index while the rebuild runs in
 * the background (indexFor). Costs one build per (sites, language) in use, about 0.6 s each for
 * the 10,000-series catalogue, paid by the staff member's save rather than by a reader.
 */
export async function refreshSearchIndexes(db: DB, now = Date.now()): Promise<void> {
  const forDb = held.get(db);
  if (!forDb) return;
  let version = versions.get(db);
  if (!version) versions.set(db, (version = createCache<object>({ ttlMs: INDEX_TTL_MS, maxEntries: 1 })));
  const token = await version.get('v', async () => ({}), now);
  const generation = searchIndexGeneration();
  await Promise.all([...forDb.keys()].map(async (key) => {
    const [sites = '', language = 'en'] = key.split('|');
    const built = await buildIndex(db, sites.split(',').map(Number) as SiteId[], language);
    forDb.set(key, { built: Promise.resolve(built), version: token, generation, rebuilding: false });
  }));
}

export interface SeriesSearch {
  /** Every matching series (ACTIVE and REMOVED, as the listing lists them), best first. */
  ids: number[];
  /** When nothing matches: the series whose name comes closest ("Did you mean …?"), or null. */
  closest: { slug: string; name: string } | null;
}

/**
 * The listing's search (`/comics/?q=`): the same index, matching and ranking as the suggestions,
 * so Enter finds what the suggestions showed, first. Region blocks are not applied, as in the
 * rest of the listing (the series page enforces them).
 */
export async function searchSeries(db: DB, q: string, siteIds: readonly SiteId[], language: string, now = Date.now()): Promise<SeriesSearch> {
  const text = normalizeQuery(q).text;
  if (!text) return { ids: [], closest: null };
  const built = await currentIndex(db, siteIds, language, now);
  let cache = listCaches.get(db);
  if (!cache) listCaches.set(db, (cache = createCache<SeriesSearch>({ ttlMs: SUGGEST_TTL_MS, maxEntries: LISTING_CACHE_ENTRIES })));
  // Every page, order and filter of one search reuses its hits (a two-letter text hits thousands).
  return cache.get(`${built.id}|${text}`, async () => {
    const ids = built.index.search(q, {});
    if (ids.length) return { ids, closest: null };
    const near = built.index.closest(q, { activeOnly: true });
    const shown = near == null ? undefined : built.show.get(near);
    return { ids, closest: shown ? { slug: shown.slug, name: shown.name } : null };
  }, now);
}

export async function suggest(db: DB, opts: { q: string | null; cover: boolean; siteIds: readonly SiteId[]; site: Site; protocol: string; host: string; country?: string | null }): Promise<Suggestions> {
  const term = truncateQuery(opts.q).trim();
  const out: Suggestions = [term, [], [], [], [], []];
  if (!normalizeQuery(term).terms.length) return out;
  const { hits, sites } = await cachedSearch(db, term, opts.siteIds, { language: opts.site.language, country: opts.country });
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
