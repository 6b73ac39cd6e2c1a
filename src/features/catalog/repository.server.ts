import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { Database } from '@db/schema';
import type { Format } from './rules';
import type { Order, OrderKey } from './listing';
import { seriesIdIn } from '~/server/search-index';
import { preparedRead, readRow, readRows, type DB } from '~/server/db';
import { parseSeriesRef } from '~/lib/params';

/** Row-level reads of the catalogue. Services turn these rows into page models. */

/**
 * States readers never see in a list (BLOCKED: unavailable everywhere; DRAFT: not yet published,
 * made in the studio). Only drafts are also unknown to the look-ups below: a reader's every way
 * to a series (page, reader, API, favorite, feed) finds nothing, so a draft answers 404.
 */
export const UNLISTED_STATES = ['BLOCKED', 'DRAFT'] as const;

// The series page's reads are prepared (built and compiled once, see preparedRead).
const seriesBySlug = preparedRead((db, slug: string) => db.selectFrom('series').selectAll().where('slug', '=', slug).where('state', '<>', 'DRAFT'));
export function findSeriesBySlug(db: DB, slug: string) {
  return seriesBySlug(db, slug).then((rows) => rows[0]);
}

export function findSeriesByE4pid(db: DB, e4pid: string) {
  return readRow(db, db.selectFrom('series').selectAll().where('e4pid', '=', e4pid).where('state', '<>', 'DRAFT'));
}

export function findSeriesById(db: DB, id: number) {
  return readRow(db, db.selectFrom('series').selectAll().where('id', '=', id).where('state', '<>', 'DRAFT'));
}

/** Accepts a numeric id or an e4pid (SER-...); anything else (an id out of range included) finds nothing. */
export function findSeriesByIdOrE4pid(db: DB, raw: string) {
  const ref = parseSeriesRef(raw);
  if (!ref) return Promise.resolve(undefined);
  return 'id' in ref ? findSeriesById(db, ref.id) : findSeriesByE4pid(db, ref.e4pid);
}

const peopleOf = preparedRead((db, seriesId: number) => db
  .selectFrom('series_people')
  .innerJoin('people', 'people.id', 'series_people.person_id')
  .select(['people.id', 'people.name', 'people.alt', 'people.slug', 'series_people.role'])
  .where('series_people.series_id', '=', seriesId)
  .orderBy('series_people.position'));
export function seriesPeople(db: DB, seriesId: number) {
  return peopleOf(db, seriesId);
}

const tagsOf = preparedRead((db, seriesId: number) => db
  .selectFrom('series_tags')
  .innerJoin('tags', 'tags.id', 'series_tags.tag_id')
  .selectAll('tags')
  .where('series_tags.series_id', '=', seriesId)
  .orderBy('series_tags.position'));
export function seriesTags(db: DB, seriesId: number) {
  return tagsOf(db, seriesId);
}

export function seriesKeywords(db: DB, seriesId: number) {
  return readRows(db, db
    .selectFrom('series_keywords')
    .innerJoin('keywords', 'keywords.id', 'series_keywords.keyword_id')
    .select('keywords.word')
    .where('series_keywords.series_id', '=', seriesId)
    );
}

const languagesOf = preparedRead((db, seriesId: number) => db.selectFrom('series_languages').selectAll().where('series_id', '=', seriesId).orderBy('language'));
export function seriesLanguages(db: DB, seriesId: number) {
  return languagesOf(db, seriesId);
}

const campaignsOf = preparedRead((db, seriesId: number) => db.selectFrom('campaigns').selectAll().where('series_id', '=', seriesId));
export function seriesCampaigns(db: DB, seriesId: number) {
  return campaignsOf(db, seriesId);
}

const publisherById = preparedRead((db, id: number) => db.selectFrom('publishers').selectAll().where('id', '=', id));
export function findPublisher(db: DB, id: number | null) {
  if (id == null) return Promise.resolve(undefined);
  return publisherById(db, id).then((rows) => rows[0]);
}

/** Every chapter of a series in one language, ascending by number. */
export function chaptersOf(db: DB, seriesId: number, language: string) {
  return readRows(db, db
    .selectFrom('chapters')
    .selectAll()
    .where('series_id', '=', seriesId)
    .where('language', '=', language)
    .orderBy('number', 'asc')
    );
}

/** Number and release time of every chapter of a series in one language: the pricing rule's lineup. */
/** What the pricing rule reads of several series at once (lists that price chapters of many series). */
export function pricingSeriesRows(db: DB, seriesIds: readonly number[]) {
  if (seriesIds.length === 0) return Promise.resolve([]);
  return db.selectFrom('series').select(['id', 'state', 'all_free', 'availability_strategy', 'free_availability']).where('id', 'in', [...seriesIds]).execute();
}

export function campaignsOfMany(db: DB, seriesIds: readonly number[]) {
  if (seriesIds.length === 0) return Promise.resolve([]);
  return db.selectFrom('campaigns').selectAll().where('series_id', 'in', [...seriesIds]).execute();
}

/** Released chapter numbers of several series in one language (their lineups). */
export function releasedNumbersOf(db: DB, seriesIds: readonly number[], language: string, now: number) {
  if (seriesIds.length === 0) return Promise.resolve([]);
  return db.selectFrom('chapters').select(['series_id', 'number', 'released_at'])
    .where('series_id', 'in', [...seriesIds]).where('language', '=', language).where('released_at', '<=', now).execute();
}

export function releaseTimesOf(db: DB, seriesId: number, language: string) {
  return db.selectFrom('chapters').select(['number', 'released_at']).where('series_id', '=', seriesId).where('language', '=', language).execute();
}

/** The columns a chapter list shows, for several languages in one query (served by the unique index). */
const chapterList = preparedRead((db, seriesId: number, languages: readonly string[]) => db
  .selectFrom('chapters')
  .select(['id', 'e4pid', 'language', 'number', 'title', 'subtitle', 'released_at', 'original_price', 'thumbnail',
    // What the pricing rule reads (pricing.server.ts PricedChapterRow).
    'sale_at', 'expired_at', 'purchase_enabled', 'daily_pass_enabled', 'ads_enabled', 'rental_enabled', 'subscription_enabled'])
  .where('series_id', '=', seriesId)
  .where('language', 'in', languages)
  .orderBy('language')
  .orderBy('number', 'asc'));
export function chapterListOf(db: DB, seriesId: number, languages: readonly string[]) {
  if (languages.length === 0) return Promise.resolve([]);
  return chapterList(db, seriesId, languages);
}
export type ChapterListRow = Awaited<ReturnType<typeof chapterListOf>>[number];

export function findChapterByE4pid(db: DB, e4pid: string) {
  return db.selectFrom('chapters').selectAll().where('e4pid', '=', e4pid).executeTakeFirst();
}

export function chapterPages(db: DB, chapterId: number) {
  return readRows(db, db.selectFrom('chapter_pages').selectAll().where('chapter_id', '=', chapterId).orderBy('position'));
}

/** The released chapters just before and after `number` in the same series and language. */
export async function adjacentChapters(db: DB, seriesId: number, language: string, number: number, now: number) {
  const base = db
    .selectFrom('chapters')
    .select(['id', 'e4pid', 'number', 'language', 'released_at', 'original_price'])
    .where('series_id', '=', seriesId)
    .where('language', '=', language)
    .where('released_at', '<=', now);
  const [prev, next] = await Promise.all([
    base.where('number', '<', number).orderBy('number', 'desc').limit(1).executeTakeFirst(),
    base.where('number', '>', number).orderBy('number', 'asc').limit(1).executeTakeFirst(),
  ]);
  return { prev, next };
}

/** The first chapter after `number` in the language that is not out yet (the end card's "comes out on …"), or undefined. */
export function nextScheduledChapter(db: DB, seriesId: number, language: string, number: number, now: number) {
  return db.selectFrom('chapters').select(['e4pid', 'number', 'released_at'])
    .where('series_id', '=', seriesId).where('language', '=', language).where('number', '>', number).where('released_at', '>', now)
    .orderBy('number', 'asc').limit(1).executeTakeFirst();
}

/** The media key of one page of a chapter, by the chapter's e4pid and the page position. */
export async function pageMediaKey(db: DB, e4pid: string, position: number): Promise<string | null> {
  const row = await db
    .selectFrom('chapter_pages')
    .innerJoin('chapters', 'chapters.id', 'chapter_pages.chapter_id')
    .select('chapter_pages.media_key')
    .where('chapters.e4pid', '=', e4pid)
    .where('chapter_pages.position', '=', position)
    .executeTakeFirst();
  return row?.media_key ?? null;
}

/** A chapter's e4pid by id (an ad view keeps the chapter's id). */
export function chapterE4pidById(db: DB, id: number) {
  return db.selectFrom('chapters').select('e4pid').where('id', '=', id).executeTakeFirst();
}

/** Active series other than one, most popular first: candidates for a house ad. */
export function promotableSeries(db: DB, exceptId: number, language: string, limit: number) {
  return db.selectFrom('series').leftJoin('publishers', 'publishers.id', 'series.publisher_id')
    .select(['series.id', 'series.name', 'series.slug', 'series.images', 'series.color', 'series.geoblocks', 'publishers.geoblocks as publisher_geoblocks'])
    .where('series.state', '=', 'ACTIVE').where('series.adult', '=', 0).where('series.id', '<>', exceptId)
    // Readable in the language of the chapter the ad pays for: a series the site shows.
    .where((eb) => eb.exists(eb.selectFrom('series_languages').select('series_languages.series_id')
      .whereRef('series_languages.series_id', '=', 'series.id').where('series_languages.language', '=', language).where('series_languages.chapter_count', '>', 0)))
    .orderBy('series.popularity', 'desc').limit(limit).execute();
}

/** The promotional visuals of these series (at most one each; migration 2026-12-03T00-promotions-preview). */
export function seriesPromotions(db: DB, seriesIds: readonly number[]) {
  if (!seriesIds.length) return Promise.resolve([]);
  return db.selectFrom('series_promotions').selectAll().where('series_id', 'in', [...seriesIds]).execute();
}

/** The first `count` pages of a chapter, in order (the chapter preview). */
export function firstChapterPages(db: DB, chapterId: number, count: number) {
  return db.selectFrom('chapter_pages').select(['position', 'width', 'height']).where('chapter_id', '=', chapterId).orderBy('position').limit(count).execute();
}

/** Chapters by id with what naming and linking them needs of their series. */
export function chaptersWithSeries(db: DB, ids: readonly number[]) {
  return db.selectFrom('chapters').innerJoin('series', 'series.id', 'chapters.series_id')
    .select(['chapters.id', 'chapters.e4pid', 'chapters.number', 'chapters.language', 'chapters.series_id', 'series.name as series_name', 'series.slug', 'series.format', 'series.chapter_name_format'])
    .where('chapters.id', 'in', [...ids]).execute();
}

// ---------------------------------------------------------------- sitemaps

/** Every visible series that has the site's language. */
export function visibleSeriesOfSite(db: DB, siteId: number) {
  return db
    .selectFrom('series')
    .select(['slug', 'last_updated'])
    .where('state', 'not in', UNLISTED_STATES)
    .where((eb) => eb.exists(eb.selectFrom('series_languages').select('series_id').whereRef('series_languages.series_id', '=', 'series.id').where('series_languages.site_id', '=', siteId)))
    .orderBy('id')
    .execute();
}

export function releasedChapterCount(db: DB, language: string, now: number) {
  return db
    .selectFrom('chapters')
    .innerJoin('series', 'series.id', 'chapters.series_id')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('chapters.language', '=', language)
    .where('chapters.released_at', '<=', now)
    .where('series.state', '=', 'ACTIVE')
    .executeTakeFirst();
}

export function releasedChapters(db: DB, language: string, now: number, limit: number, offset: number) {
  return db
    .selectFrom('chapters')
    .innerJoin('series', 'series.id', 'chapters.series_id')
    .select(['series.slug', 'series.format', 'chapters.e4pid', 'chapters.number', 'chapters.language', 'chapters.released_at'])
    .where('chapters.language', '=', language)
    .where('chapters.released_at', '<=', now)
    .where('series.state', '=', 'ACTIVE')
    .orderBy('chapters.id')
    .limit(limit)
    .offset(offset)
    .execute();
}

// ---------------------------------------------------------------- similar series

/** Active series of the site sharing the most tags with one (ties: popularity). */
export function similarSeries(db: DB, seriesId: number, siteId: number, limit: number) {
  return db
    .selectFrom('series_tags as mine')
    .innerJoin('series_tags as theirs', (j) => j.onRef('theirs.tag_id', '=', 'mine.tag_id').onRef('theirs.series_id', '!=', 'mine.series_id'))
    .innerJoin('series', 'series.id', 'theirs.series_id')
    .select(['series.id', 'series.e4pid', 'series.name', 'series.slug', 'series.images', 'series.format', 'series.popularity'])
    .select((eb) => eb.fn.countAll<number>().as('shared'))
    .where('mine.series_id', '=', seriesId)
    .where('series.state', '=', 'ACTIVE')
    .where((eb) => eb.exists(eb.selectFrom('series_languages').select('series_id').whereRef('series_languages.series_id', '=', 'series.id').where('series_languages.site_id', '=', siteId)))
    .groupBy(['series.id', 'series.e4pid', 'series.name', 'series.slug', 'series.images', 'series.format', 'series.popularity'])
    .orderBy('shared', 'desc')
    .orderBy('series.popularity', 'desc')
    .limit(limit)
    .execute();
}

// ---------------------------------------------------------------- release counters

/** Series with a chapter released in (since, now]. */
export function seriesReleasedBetween(db: DB, since: number, now: number) {
  return db.selectFrom('chapters').select('series_id').where('released_at', '>', since).where('released_at', '<=', now).groupBy('series_id').execute();
}

/** Released chapters per series and language: how many, the newest release, the largest number. */
export function releasedCounters(db: DB, seriesIds: readonly number[], now: number) {
  return db
    .selectFrom('chapters')
    .select(['series_id', 'language', sql<number>`count(*)`.as('n'), sql<number>`max(released_at)`.as('last'), sql<number>`max(number)`.as('largest')])
    .where('series_id', 'in', [...seriesIds])
    .where('released_at', '<=', now)
    .groupBy(['series_id', 'language'])
    .execute();
}

export async function setLanguageCounters(db: DB, seriesId: number, language: string, count: number, lastUpdated: number): Promise<void> {
  await db.updateTable('series_languages').set({ chapter_count: count, last_updated: lastUpdated }).where('series_id', '=', seriesId).where('language', '=', language).execute();
}

export async function setSeriesCounters(db: DB, seriesId: number, count: number, lastUpdated: number, largest: number): Promise<void> {
  await db.updateTable('series').set({ chapter_count: count, last_updated: lastUpdated, largest_chapter: largest }).where('id', '=', seriesId).execute();
}

// ---------------------------------------------------------------- listing

/**
 * One query builder for SQLite and PostgreSQL, written so each order walks its (column, id)
 * index and stops after a page: the site and category filters are correlated EXISTS probes on
 * the (site_id, series_id) and series_tags indexes, ties break on id in the same direction, and
 * the total comes from a separate COUNT. EXPLAIN QUERY PLAN on 10,000 series (SQLite):
 *   rows:  SCAN series USING INDEX series_last_updated_idx (name/popularity/chapter_count alike)
 *          + SEARCH series_languages USING COVERING INDEX series_languages_site_idx
 *   count: SCAN series + the same covering-index probe
 * about 3-8 ms for a page and its count; PostgreSQL picks an index scan + nested-loop semi join.
 */
export interface ListingQuery {
  /** Series must have a language shown on one of these sites. */
  siteIds: readonly number[];
  /**
   * A search: its normalised text and the ids of the series it found, best first (the search
   * feature's `searchSeries`, the same as the suggestions'); only these series are listed.
   */
  search?: { text: string; ids: readonly number[] } | null;
  formats?: readonly Format[];
  /** Primary tag id. */
  tagId?: number | null;
  /** Series carrying every one of these tags (the comic query's `tags[]`). */
  tagIds?: readonly number[];
  publisherId?: number | null;
  /** Series crediting this person (author or artist). */
  personId?: number | null;
  complete?: boolean;
  exclusive?: boolean;
  /** Only series this user favorited (the `favorited` filter of a logged-in reader). */
  favoritedBy?: number | null;
  order: Order;
  offset: number;
  limit: number;
  /** The content language the series' texts are shown in (texts.server.ts); default 'en'. */
  language?: string;
  /** Order by name using the series' names in this language (series_texts), the original where none. */
  namesIn?: string;
}

const ORDER_COLUMN: Record<OrderKey, 'series.last_updated' | 'series.name' | 'series.popularity' | 'series.chapter_count'> = {
  updated: 'series.last_updated',
  name: 'series.name',
  popularity: 'series.popularity',
  chapters: 'series.chapter_count',
};

type SeriesEb = ExpressionBuilder<Database, 'series'>;

function conditions(db: DB, eb: SeriesEb, q: Omit<ListingQuery, 'order' | 'offset' | 'limit'>): Expression<SqlBool>[] {
  const where: Expression<SqlBool>[] = [eb('series.state', 'not in', UNLISTED_STATES)];
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
  for (const tagId of q.tagIds ?? []) {
    where.push(eb.exists(eb.selectFrom('series_tags').select(sql.lit(1).as('one')).where('series_tags.tag_id', '=', tagId).whereRef('series_tags.series_id', '=', 'series.id')));
  }
  if (q.publisherId != null) where.push(eb('series.publisher_id', '=', q.publisherId));
  if (q.personId != null) {
    where.push(eb.exists(eb.selectFrom('series_people').select(sql.lit(1).as('one')).where('series_people.person_id', '=', q.personId).whereRef('series_people.series_id', '=', 'series.id')));
  }
  // The search's hits (names, alt names, credits, tags, keywords; docs/search.md).
  if (q.search) where.push(seriesIdIn(db, q.search.ids));
  return where;
}

/** A card's chapter count: the chapters of the languages the site shows, as the series page counts them. */
function siteChapterCount(eb: ExpressionBuilder<Database, 'series'>, siteIds: readonly number[]) {
  return eb.selectFrom('series_languages').select((l) => l.fn.sum<number | string>('series_languages.chapter_count').as('n'))
    .whereRef('series_languages.series_id', '=', 'series.id').where('series_languages.site_id', 'in', [...siteIds]).as('chapter_count');
}

/** The page query and the count query for a listing (exported for EXPLAIN checks). */
export function listingQueries(db: DB, q: ListingQuery) {
  // Best match is ordered by the search itself (querySeries); here it only needs a stable order.
  const column = ORDER_COLUMN[q.order.key === 'relevance' ? 'updated' : q.order.key];
  const direction = q.order.desc ? 'desc' : 'asc';
  const siteIds = [...new Set(q.siteIds)];
  const base = db
    .selectFrom('series')
    .select([
      'series.id', 'series.e4pid', 'series.slug', 'series.name', 'series.format', 'series.adult', 'series.in_exclusive',
      'series.update_status', 'series.last_updated', 'series.color', 'series.images',
    ])
    // A card counts the chapters of the languages the site shows, as the series page does, not
    // every language's (issue 26: "357 episodes" on a card where English has 179). One probe of
    // the (series_id, language) rows per card of the page.
    .select((eb) => siteChapterCount(eb, siteIds))
    .where((eb) => eb.and(conditions(db, eb, q)));
  // Translated names have no index to walk: the matching series are sorted (a name order only).
  const namesIn = q.order.key === 'name' ? q.namesIn : undefined;
  const ordered = namesIn
    ? base
      .leftJoin('series_texts', (join) => join.onRef('series_texts.series_id', '=', 'series.id').on('series_texts.language', '=', namesIn))
      .orderBy(sql`coalesce(series_texts.name, series.name)`, direction)
    : base.orderBy(column, direction);
  const rows = ordered
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

/** The ids of the series that pass a listing's filters (for ordering a search's hits by best match). */
export function listingIds(db: DB, q: ListingQuery) {
  return db.selectFrom('series').select('series.id').where((eb) => eb.and(conditions(db, eb, q))).execute();
}

/** The listing's columns of these series, in no order; chapters counted in the site's languages, as listingQueries does. */
export function listingRowsByIds(db: DB, ids: readonly number[], siteIds: readonly number[]) {
  return db
    .selectFrom('series')
    .select([
      'series.id', 'series.e4pid', 'series.slug', 'series.name', 'series.format', 'series.adult', 'series.in_exclusive',
      'series.update_status', 'series.last_updated', 'series.color', 'series.images',
    ])
    .select((eb) => siteChapterCount(eb, [...new Set(siteIds)]))
    .where('series.id', 'in', ids.length ? [...ids] : [-1])
    .execute();
}


/** The ids of these tags, by slug (an unknown slug is simply missing). */
export function tagIdsBySlugs(db: DB, slugs: readonly string[]) {
  return db.selectFrom('tags').select('id').where('slug', 'in', [...slugs]).execute().then((rows) => rows.map((r) => Number(r.id)));
}

/** A tag some series carries, by slug (any tag the catalogue uses is a category filter). */
export function usedTagBySlug(db: DB, slug: string) {
  return db
    .selectFrom('tags')
    .select('id')
    .where('slug', '=', slug)
    .where((eb) => eb.exists(eb.selectFrom('series_tags').select('series_tags.tag_id').whereRef('series_tags.tag_id', '=', 'tags.id')))
    .executeTakeFirst();
}

/** The tags carried by at least one listable series shown on one of `siteIds` (the listing's category filters). */
export function usedTags(db: DB, siteIds: readonly number[]) {
  return db
    .selectFrom('tags')
    .select(['id', 'slug', 'name', 'name_pt', 'color'])
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('series_tags')
          .innerJoin('series_languages', 'series_languages.series_id', 'series_tags.series_id')
          .innerJoin('series', 'series.id', 'series_tags.series_id')
          .select('series_tags.tag_id')
          .whereRef('series_tags.tag_id', '=', 'tags.id')
          .where('series_languages.site_id', 'in', [...siteIds])
          // A listable series (the listing's own rule): a filter never leads to nothing.
          .where('series.state', 'not in', UNLISTED_STATES),
      ),
    )
    .execute();
}

// ---------------------------------------------------------------- series texts

/** Every translation into one content language (series_texts_language_idx). */
export function seriesTextsOfLanguage(db: DB, language: string) {
  return db.selectFrom('series_texts')
    .select(['series_id', 'name', 'description', 'excerpt', 'update_text', 'chapter_name_format'])
    .where('language', '=', language)
    .execute();
}

/**
 * Chapters released in (since, now] of series that are not blocked, with what a release notice
 * needs (issue 32: src/features/notifications fans them out). Never the chapter's title: a title
 * may spoil the story, and the notice names the chapter by its number.
 */
export function chaptersReleasedBetween(db: DB, since: number, now: number) {
  return db
    .selectFrom('chapters')
    .innerJoin('series', 'series.id', 'chapters.series_id')
    .leftJoin('series_languages', (j) => j.onRef('series_languages.series_id', '=', 'chapters.series_id').onRef('series_languages.language', '=', 'chapters.language'))
    .select(['chapters.id', 'chapters.e4pid', 'chapters.series_id', 'chapters.number', 'chapters.language', 'chapters.released_at', 'series.slug', 'series.format', 'series.name', 'series_languages.site_id'])
    .where('chapters.released_at', '>', since)
    .where('chapters.released_at', '<=', now)
    .where('series.state', '!=', 'BLOCKED')
    .orderBy('chapters.released_at')
    .orderBy('chapters.id')
    .execute();
}
