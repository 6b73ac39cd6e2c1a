/**
 * The series listing (page, HTML fragment, /sapi/comics): parameters resolved into a query, the
 * page and its cached total. The query itself (and how it walks the indexes) is
 * `listingQueries` in the catalogue repository; docs/api.md ("Query and indexes").
 */
import { hasTranslations, seriesLocalizer } from './texts.server';
import type { DB } from '~/server/db';
import { PAGE_SIZE, cleanQuery, siteIdsFor, type ListingParams } from './listing';
import type { Format } from './rules';
import { toSeriesCard, type SeriesCard, type SeriesCardRow } from './cards';
import { normalizeQuery } from '~/lib/search-text';
import { createCache } from '~/server/cache';
import * as repo from './repository.server';
import type { ListingQuery } from './repository.server';

export type { ListingQuery } from './repository.server';

/** A listing card: the series card plus what the listing shows and sorts by. */
export interface ListingItem extends SeriesCard {
  exclusive: boolean;
  updateStatus: string;
  lastUpdated: number;
  chapterCount: number;
}

export interface ListingResult {
  items: ListingItem[];
  total: number;
}

/** What a search answers the listing (the search feature's `searchSeries`, passed in by the page). */
export interface ListingSearchResult {
  /** Matching series, best first. */
  ids: number[];
  /** When nothing matches, the closest series for "Did you mean …?". */
  closest: { slug: string; name: string } | null;
}
export type ListingSearch = (q: string, siteIds: readonly (1 | 3)[], language: string) => Promise<ListingSearchResult>;

export interface Category {
  id: number;
  slug: string;
  name: string;
  color: string;
}

/**
 * Totals depend only on the filters, not on the page or order, and counting thousands of
 * series costs more than fetching a page. They are remembered for a minute per filter set
 * (the same freshness the pages promise shared caches with s-maxage=60); a cache, never the
 * source of truth, so several processes stay correct.
 */
const counts = createCache<number>({ ttlMs: 60_000, maxEntries: 1000 });

async function cachedCount(q: ListingQuery, run: () => Promise<{ count: number } | undefined>): Promise<number> {
  // A reader's favorites change with every toggle and are theirs alone: never cached.
  if (q.favoritedBy != null) return run().then((r) => Number(r?.count ?? 0));
  const key = JSON.stringify([[...new Set(q.siteIds)].sort(), q.search?.text ?? '', q.formats ?? [], q.tagId ?? null, !!q.complete, !!q.exclusive, [...(q.tagIds ?? [])].sort(), q.publisherId ?? null, q.personId ?? null]);
  return counts.get(key, () => run().then((r) => Number(r?.count ?? 0)));
}

/** One page of series and the total matching count (a page past the end has no items). */
export async function querySeries(db: DB, q: ListingQuery): Promise<ListingResult> {
  if (q.search && !q.search.ids.length) return { items: [], total: 0 };
  if (q.search && q.order.key === 'relevance') return byRelevance(db, q, q.search.ids);
  // By name, a site whose language has translations sorts by the names it shows (the original's
  // where a series has none); otherwise the (name, id) index serves the order as it is.
  if (q.order.key === 'name' && q.language && (await hasTranslations(db, q.language))) q = { ...q, namesIn: q.language };
  const queries = repo.listingQueries(db, q);
  const [rows, total, localize] = await Promise.all([
    queries.rows.execute(),
    cachedCount(q, () => queries.count.executeTakeFirst()),
    seriesLocalizer(db, q.language ?? 'en'),
  ]);
  return {
    total,
    items: rows.map((r) => toListingItem(localize(r))),
  };
}

/**
 * A search's page in best-match order: the hits that pass the other filters keep the search's
 * order (so the first card is the first suggestion), then one page of them is fetched.
 */
async function byRelevance(db: DB, q: ListingQuery, ranked: readonly number[]): Promise<ListingResult> {
  const passing = new Set((await repo.listingIds(db, q)).map((r) => Number(r.id)));
  const ordered = ranked.filter((id) => passing.has(id));
  const pageIds = ordered.slice(q.offset, q.offset + q.limit);
  const [rows, localize] = await Promise.all([repo.listingRowsByIds(db, pageIds, q.siteIds), seriesLocalizer(db, q.language ?? 'en')]);
  const byId = new Map(rows.map((r) => [Number(r.id), r]));
  return {
    total: ordered.length,
    items: pageIds.flatMap((id) => {
      const r = byId.get(id);
      return r ? [toListingItem(localize(r))] : [];
    }),
  };
}

/** A series row (with the listing's columns) as a listing item; the home cards build on it. */
export function toListingItem(r: SeriesCardRow & { in_exclusive: number; update_status: string; last_updated: number | string; chapter_count: number | string | null }): ListingItem {
  return {
    ...toSeriesCard(r),
    exclusive: Number(r.in_exclusive) === 1,
    updateStatus: r.update_status,
    lastUpdated: Number(r.last_updated),
    chapterCount: Number(r.chapter_count),
  };
}

/**
 * Resolves parsed params into a ListingQuery; an unknown category is dropped from the params,
 * and so is the favorited filter without a logged-in `userId`. Search text goes through
 * `search` (without it, a query lists nothing: the listing has no matcher of its own).
 */
export async function resolveListing(db: DB, params: ListingParams, categories?: readonly Category[], userId?: number | null, language?: string, search?: ListingSearch): Promise<{ query: ListingQuery; params: ListingParams; closest: ListingSearchResult['closest'] }> {
  let tagId: number | null = null;
  let effective = params.favorited && userId == null ? { ...params, favorited: false } : params;
  if (params.category) {
    const known = categories
      ? categories.find((c) => c.slug === params.category)
      : await repo.usedTagBySlug(db, params.category);
    if (known) tagId = Number(known.id);
    else effective = { ...params, category: null };
  }
  const siteIds = siteIdsFor(effective.languages);
  const text = normalizeQuery(cleanQuery(effective.q)).text;
  const found = text ? await (search ? search(effective.q, siteIds, language ?? 'en') : { ids: [], closest: null }) : null;
  const query: ListingQuery = {
    siteIds,
    search: found && { text, ids: found.ids },
    formats: effective.formats.map((f) => f.toUpperCase() as Format),
    tagId,
    complete: effective.complete,
    exclusive: effective.exclusive,
    favoritedBy: effective.favorited && userId != null ? userId : null,
    order: effective.order,
    offset: (effective.page - 1) * PAGE_SIZE,
    limit: PAGE_SIZE,
    language,
  };
  return { query, params: effective, closest: found?.closest ?? null };
}

/**
 * The category filters of a site: every tag a series shown there carries (primary tags and
 * themes alike; the listing, its fragment and the home page's category and genre links all use
 * these), named for the site's locale, by name. One category at a time (the spec's rule).
 */
export async function listingCategories(db: DB, siteId: number, locale: 'en' | 'pt-BR'): Promise<Category[]> {
  const rows = await repo.usedTags(db, [siteId]);
  return rows
    .map((r) => ({ id: Number(r.id), slug: r.slug, name: locale === 'pt-BR' ? r.name_pt || r.name : r.name, color: r.color }))
    .sort((a, b) => a.name.localeCompare(b.name, locale));
}

/**
 * The listing's page of results for parsed params. An unknown category is ignored (params.category
 * becomes null). `language` is the site's content language, the one the series' texts are shown in.
 * `search` answers the search text (the search feature's `searchSeries`).
 */
export async function listSeries(db: DB, params: ListingParams, categories?: readonly Category[], userId?: number | null, language?: string, search?: ListingSearch): Promise<ListingResult & { params: ListingParams; closest: ListingSearchResult['closest'] }> {
  const resolved = await resolveListing(db, params, categories, userId, language, search);
  return { ...(await querySeries(db, resolved.query)), params: resolved.params, closest: resolved.closest };
}
