/**
 * The home page's rows. Every query runs on SQLite and PostgreSQL and walks an existing index:
 * the (popularity, id) and (created_at scan) orders of `series`, the site probe on
 * `series_languages(site_id, series_id)`, `series_tags(tag_id, series_id)`,
 * `chapters(series_id, language, number)` and `chapters(released_at, series_id)`.
 * Promotional blocks show only ACTIVE, non-adult series of the site. Private to the home feature.
 */
import { sql, type ExpressionBuilder } from 'kysely';
import type { Database } from '@db/schema';
import type { DB } from '~/server/db';
import { localizeSeriesRows } from '~/features/catalog/index.server';
import { SITES, type SiteId } from '~/lib/site';

/** Card rows with the series' texts (name, excerpt, chapter name format) in the site's language. */
async function localized<R extends { id: number }>(db: DB, siteId: number, rows: Promise<R[]>): Promise<R[]> {
  return localizeSeriesRows(db, SITES[siteId as SiteId]?.language ?? 'en', await rows);
}

const CARD_COLUMNS = [
  'series.id', 'series.e4pid', 'series.slug', 'series.name', 'series.format', 'series.adult', 'series.in_exclusive',
  'series.update_status', 'series.last_updated', 'series.chapter_count', 'series.color', 'series.images',
  'series.popularity', 'series.excerpt', 'series.chapter_name_format',
] as const;

type SeriesEb = ExpressionBuilder<Database, 'series'>;

/** ACTIVE, not adult, shown on the site (a correlated probe on series_languages_site_idx). */
function promotable(eb: SeriesEb, siteId: number) {
  return eb.and([
    eb('series.state', '=', 'ACTIVE'),
    eb('series.adult', '=', 0),
    eb.exists(
      eb.selectFrom('series_languages')
        .select(sql.lit(1).as('one'))
        .where('series_languages.site_id', '=', siteId)
        .whereRef('series_languages.series_id', '=', 'series.id'),
    ),
  ]);
}

function cards(db: DB, siteId: number) {
  return db.selectFrom('series').select(CARD_COLUMNS).where((eb) => promotable(eb, siteId));
}

export type CardRow = Awaited<ReturnType<ReturnType<typeof cards>['execute']>>[number];


function notIn<Q extends { where: (...a: any[]) => Q }>(q: Q, ids: readonly number[]): Q {
  return ids.length ? q.where('series.id', 'not in', [...ids]) : q;
}

export function popularCards(db: DB, siteId: number, limit: number, exclude: readonly number[] = []) {
  return localized(db, siteId, notIn(cards(db, siteId), exclude).orderBy('series.popularity', 'desc').orderBy('series.id', 'desc').limit(limit).execute());
}

export function hypeCards(db: DB, siteId: number, limit: number) {
  return localized(db, siteId, cards(db, siteId).where('series.in_hype', '=', 1).orderBy('series.popularity', 'desc').orderBy('series.id', 'desc').limit(limit).execute());
}

/** No index on created_at: one scan of the site's series keeping the top rows (about 6 ms on 10,000 series). */
export function newestCards(db: DB, siteId: number, limit: number) {
  return localized(db, siteId, cards(db, siteId).orderBy('series.created_at', 'desc').orderBy('series.id', 'desc').limit(limit).execute());
}

export function exclusiveCards(db: DB, siteId: number, limit: number) {
  return localized(db, siteId, cards(db, siteId).where('series.in_exclusive', '=', 1).orderBy('series.popularity', 'desc').orderBy('series.id', 'desc').limit(limit).execute());
}

export function tagCards(db: DB, siteId: number, tagId: number, limit: number) {
  return localized(db, siteId, cards(db, siteId)
    .where((eb) => eb.exists(eb.selectFrom('series_tags').select(sql.lit(1).as('one')).where('series_tags.tag_id', '=', tagId).whereRef('series_tags.series_id', '=', 'series.id')))
    .orderBy('series.popularity', 'desc')
    .orderBy('series.id', 'desc')
    .limit(limit)
    .execute());
}

export function cardsByIds(db: DB, siteId: number, ids: readonly number[]) {
  return localized(db, siteId, cards(db, siteId).where('series.id', 'in', [...ids]).execute());
}

export function tags(db: DB) {
  return db.selectFrom('tags').select(['id', 'slug', 'name', 'name_pt', 'color', 'is_primary', 'icon']).execute();
}

/** A series' first released chapters in one language. */
export function firstReleased(db: DB, seriesId: number, language: string, now: number, limit: number) {
  return db.selectFrom('chapters').select(['e4pid', 'number', 'language', 'thumbnail'])
    .where('series_id', '=', seriesId).where('language', '=', language).where('released_at', '<=', now)
    .orderBy('number', 'asc').limit(limit).execute();
}

export function favoritedSeries(db: DB, userId: number, limit: number) {
  return db.selectFrom('favorites').select('series_id').where('user_id', '=', userId).orderBy('created_at', 'desc').orderBy('series_id', 'desc').limit(limit).execute();
}

export function readSeries(db: DB, userId: number, limit: number) {
  return db.selectFrom('reading_progress').select('series_id').where('user_id', '=', userId).groupBy('series_id').orderBy(sql`max(last_read)`, 'desc').orderBy('series_id', 'desc').limit(limit).execute();
}

/** Promotable series sharing the most of `wanted` tags, then the most popular. */
export function sharedTagCandidates(db: DB, siteId: number, wanted: readonly number[], exclude: readonly number[], limit: number) {
  let q = db
    .selectFrom('series_tags')
    .innerJoin('series', 'series.id', 'series_tags.series_id')
    .select(['series_tags.series_id', (eb) => eb.fn.countAll<number>().as('shared'), (eb) => eb.fn.max('series.popularity').as('popularity')])
    .where('series_tags.tag_id', 'in', [...wanted])
    .where((eb) => promotable(eb as unknown as SeriesEb, siteId));
  if (exclude.length) q = q.where('series_tags.series_id', 'not in', [...exclude]);
  return q
    .groupBy('series_tags.series_id')
    .orderBy(sql`count(*)`, 'desc')
    .orderBy(sql`max(series.popularity)`, 'desc')
    .orderBy('series_tags.series_id', 'asc')
    .limit(limit)
    .execute();
}

/** Tag ids of series, in each series' own order (position 0 is its main genre). */
export function seriesTags(db: DB, seriesIds: readonly number[]) {
  return db.selectFrom('series_tags').select(['series_id', 'tag_id']).where('series_id', 'in', [...seriesIds]).orderBy('series_id').orderBy('position').execute();
}

/** Chapters of one language released in (from, to], soonest first, with their series' naming and strategy. */
export async function upcomingChapters(db: DB, language: string, from: number, to: number, limit: number) {
  const rows = await db
    .selectFrom('chapters')
    .innerJoin('series', 'series.id', 'chapters.series_id')
    .select(['chapters.series_id', 'chapters.released_at', 'chapters.number', 'series.availability_strategy', 'series.chapter_name_format', 'series.format'])
    .where('chapters.released_at', '>', from)
    .where('chapters.released_at', '<=', to)
    .where('chapters.language', '=', language)
    .where('series.state', '=', 'ACTIVE')
    .where('series.adult', '=', 0)
    .orderBy('chapters.released_at', 'asc')
    .orderBy('chapters.series_id', 'asc')
    .limit(limit)
    .execute();
  return localizeSeriesRows(db, language, rows);
}

export function reelSeries(db: DB, e4pid: string) {
  return db.selectFrom('series').select(['id', 'slug', 'format', 'state', 'all_free', 'availability_strategy', 'free_availability']).where('e4pid', '=', e4pid).executeTakeFirst();
}

export function languagesWithChapters(db: DB, seriesId: number) {
  return db.selectFrom('series_languages').select('language').where('series_id', '=', seriesId).where('chapter_count', '>', 0).orderBy('language').execute();
}

/** The first 60 released chapters of a language, with what the pricing rule reads. */
export function reelChapters(db: DB, seriesId: number, language: string, now: number) {
  return db.selectFrom('chapters')
    .select(['e4pid', 'number', 'language', 'thumbnail', 'original_price', 'released_at', 'sale_at', 'expired_at', 'purchase_enabled', 'daily_pass_enabled', 'ads_enabled', 'rental_enabled', 'subscription_enabled'])
    .where('series_id', '=', seriesId)
    .where('language', '=', language)
    .where('released_at', '<=', now)
    .orderBy('number', 'asc')
    .limit(60)
    .execute();
}

export function campaigns(db: DB, seriesId: number) {
  return db.selectFrom('campaigns').selectAll().where('series_id', '=', seriesId).execute();
}

// Browse pages (/genres/, /new/, /top/, /collections/{slug}/) ------------------------------------

/** Most popular promotable series of one format on the site (the (popularity, id) order, filtered). */
export function popularCardsOfFormat(db: DB, siteId: number, format: 'COMIC' | 'MANGA' | 'WEBTOON', limit: number) {
  return localized(db, siteId, cards(db, siteId).where('series.format', '=', format).orderBy('series.popularity', 'desc').orderBy('series.id', 'desc').limit(limit).execute());
}

/** The site's collections in their order (a handful of rows; no paging). */
export function collections(db: DB, siteId: number) {
  return db.selectFrom('collections').select(['id', 'slug', 'title', 'description'])
    .where('site_id', '=', siteId).orderBy('position').orderBy('id').execute();
}

/** One collection of the site by slug (the (site_id, slug) unique index). */
export function collectionBySlug(db: DB, siteId: number, slug: string) {
  return db.selectFrom('collections').select(['id', 'slug', 'title', 'description'])
    .where('site_id', '=', siteId).where('slug', '=', slug).executeTakeFirst();
}

/** A collection's series the site promotes, in the collection's order (collection_items_order_idx). */
export function collectionCards(db: DB, siteId: number, collectionId: number, limit: number) {
  return localized(db, siteId, db.selectFrom('collection_items')
    .innerJoin('series', 'series.id', 'collection_items.series_id')
    .select(CARD_COLUMNS)
    .where('collection_items.collection_id', '=', collectionId)
    .where((eb) => promotable(eb as unknown as SeriesEb, siteId))
    .orderBy('collection_items.position')
    .orderBy('series.id')
    .limit(limit)
    .execute());
}
