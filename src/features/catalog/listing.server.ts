/**
 * The series listing query (page, HTML fragment, /sapi/comics). One query builder for SQLite
 * and PostgreSQL, written so each order walks its (column, id) index and stops after a page:
 * the site and category filters are correlated EXISTS probes on the (site_id, series_id) and
 * series_tags indexes, ties break on id in the same direction, and the total comes from a
 * separate COUNT. EXPLAIN QUERY PLAN on 10,000 series (SQLite):
 *   rows:  SCAN series USING INDEX series_last_updated_idx (name/popularity/chapter_count alike)
 *          + SEARCH series_languages USING COVERING INDEX series_languages_site_idx
 *   count: SCAN series + the same covering-index probe
 * about 3-8 ms for a page and its count; PostgreSQL picks an index scan + nested-loop semi join.
 * See docs/api.md ("Query and indexes").
 */
import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { Database } from '@db/schema';
import type { DB } from '~/server/db';
import { PAGE_SIZE, cleanQuery, siteIdsFor, type ListingParams, type Order, type OrderKey } from './listing';
import type { Format } from './rules';
import { toSeriesCard, type SeriesCard, type SeriesCardRow } from './cards';
import { normalizeQuery } from '~/lib/search-text';
import { seriesMatch } from '~/server/search-index';
import { createCache } from '~/server/cache';

export interface ListingQuery {
  /** Series must have a language shown on one of these sites. */
  siteIds: readonly number[];
  /** Normalised search terms (src/lib/search-text.ts); all must match, as prefixes, in the search index. */
  terms?: readonly string[];
  formats?: readonly Format[];
  /** Primary tag id. */
  tagId?: number | null;
  complete?: boolean;
  exclusive?: boolean;
  /** Only series this user favorited (the `favorited` filter of a logged-in reader). */
  favoritedBy?: number | null;
  order: Order;
  offset: number;
  limit: number;
}

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

export interface Category {
  id: number;
  slug: string;
  name: string;
  color: string;
}

const ORDER_COLUMN: Record<OrderKey, 'series.last_updated' | 'series.name' | 'series.popularity' | 'series.chapter_count'> = {
  updated: 'series.last_updated',
  name: 'series.name',
  popularity: 'series.popularity',
  chapters: 'series.chapter_count',
};

type SeriesEb = ExpressionBuilder<Database, 'series'>;

function conditions(db: DB, eb: SeriesEb, q: Omit<ListingQuery, 'order' | 'offset' | 'limit'>): Expression<SqlBool>[] {
  const where: Expression<SqlBool>[] = [eb('series.state', '<>', 'BLOCKED')];
  const siteIds = [...new Set(q.siteIds)];
  where.push(
    eb.exists(
      eb
        .selectFrom('series_languages')
        .select(sql.lit(1).as('one'))
        .where('series_languages.site_id', siteIds.length === 1 ? '=' : 'in', siteIds.length === 1 ? siteIds[0]! : siteIds)
        .whereRef('series_languages.series_id', '=', 'series.id'),
    ),
  );
  if (q.formats?.length) where.push(eb('series.format', 'in', [...q.formats]));
  if (q.complete) where.push(eb('series.update_status', '=', 'COMPLETED'));
  if (q.exclusive) where.push(eb('series.in_exclusive', '=', 1));
  if (q.favoritedBy != null) {
    // The reader's own favorites only: user id and series id in the same WHERE clause.
    where.push(
      eb.exists(
        eb
          .selectFrom('favorites')
          .select(sql.lit(1).as('one'))
          .where('favorites.user_id', '=', q.favoritedBy)
          .whereRef('favorites.series_id', '=', 'series.id'),
      ),
    );
  }
  if (q.tagId != null) {
    where.push(
      eb.exists(
        eb
          .selectFrom('series_tags')
          .select(sql.lit(1).as('one'))
          .where('series_tags.tag_id', '=', q.tagId)
          .whereRef('series_tags.series_id', '=', 'series.id'),
      ),
    );
  }
  // The full-text index (names, alt names, credits, tags, keywords; src/features/search/).
  const match = seriesMatch(db, q.terms ?? []);
  if (match) where.push(match);
  return where;
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
  const key = JSON.stringify([[...new Set(q.siteIds)].sort(), q.terms ?? [], q.formats ?? [], q.tagId ?? null, !!q.complete, !!q.exclusive]);
  return counts.get(key, () => run().then((r) => Number(r?.count ?? 0)));
}

/** The page query and the count query for a listing (exported for EXPLAIN checks). */
export function listingQueries(db: DB, q: ListingQuery) {
  const column = ORDER_COLUMN[q.order.key];
  const direction = q.order.desc ? 'desc' : 'asc';
  const rows = db
    .selectFrom('series')
    .select([
      'series.id', 'series.e4pid', 'series.slug', 'series.name', 'series.format', 'series.adult', 'series.in_exclusive',
      'series.update_status', 'series.last_updated', 'series.chapter_count', 'series.color', 'series.images',
    ])
    .where((eb) => eb.and(conditions(db, eb, q)))
    .orderBy(column, direction)
    // id breaks ties in the same direction, so the (column, id) index serves the whole ORDER BY.
    .orderBy('series.id', direction)
    .limit(q.limit)
    .offset(q.offset);
  const count = db
    .selectFrom('series')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where((eb) => eb.and(conditions(db, eb, q)));
  return { rows, count };
}

/** One page of series and the total matching count (a page past the end has no items). */
export async function querySeries(db: DB, q: ListingQuery): Promise<ListingResult> {
  const queries = listingQueries(db, q);
  const [rows, total] = await Promise.all([queries.rows.execute(), cachedCount(q, () => queries.count.executeTakeFirst())]);
  return {
    total,
    items: rows.map(toListingItem),
  };
}

/** A series row (with the listing's columns) as a listing item; the home cards build on it. */
export function toListingItem(r: SeriesCardRow & { in_exclusive: number; update_status: string; last_updated: number | string; chapter_count: number | string }): ListingItem {
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
 * and so is the favorited filter without a logged-in `userId`.
 */
export async function resolveListing(db: DB, params: ListingParams, categories?: readonly Category[], userId?: number | null): Promise<{ query: ListingQuery; params: ListingParams }> {
  let tagId: number | null = null;
  let effective = params.favorited && userId == null ? { ...params, favorited: false } : params;
  if (params.category) {
    const known = categories
      ? categories.find((c) => c.slug === params.category)
      : await db.selectFrom('tags').select('id').where('slug', '=', params.category).where('is_primary', '=', 1).executeTakeFirst();
    if (known) tagId = Number(known.id);
    else effective = { ...params, category: null };
  }
  const query: ListingQuery = {
    siteIds: siteIdsFor(effective.languages),
    terms: normalizeQuery(cleanQuery(effective.q)).terms,
    formats: effective.formats.map((f) => f.toUpperCase() as Format),
    tagId,
    complete: effective.complete,
    exclusive: effective.exclusive,
    favoritedBy: effective.favorited && userId != null ? userId : null,
    order: effective.order,
    offset: (effective.page - 1) * PAGE_SIZE,
    limit: PAGE_SIZE,
  };
  return { query, params: effective };
}

/** Primary tags (the category filter), named for the site's locale, by name. */
export async function primaryCategories(db: DB, locale: 'en' | 'pt-BR'): Promise<Category[]> {
  const rows = await db
    .selectFrom('tags')
    .select(['id', 'slug', 'name', 'name_pt', 'color'])
    .where('is_primary', '=', 1)
    .execute();
  return rows
    .map((r) => ({ id: Number(r.id), slug: r.slug, name: locale === 'pt-BR' ? r.name_pt || r.name : r.name, color: r.color }))
    .sort((a, b) => a.name.localeCompare(b.name, locale));
}

/** The listing's page of results for parsed params. An unknown category is ignored (params.category becomes null). */
export async function listSeries(db: DB, params: ListingParams, categories?: readonly Category[], userId?: number | null): Promise<ListingResult & { params: ListingParams }> {
  const resolved = await resolveListing(db, params, categories, userId);
  return { ...(await querySeries(db, resolved.query)), params: resolved.params };
}
