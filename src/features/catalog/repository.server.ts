import { preparedRead, readRow, readRows, type DB } from '~/server/db';
import { parseSeriesRef } from '~/lib/params';

/** Row-level reads of the catalogue. Services turn these rows into page models. */

// The series page's reads are prepared (built and compiled once, see preparedRead).
const seriesBySlug = preparedRead((db, slug: string) => db.selectFrom('series').selectAll().where('slug', '=', slug));
export function findSeriesBySlug(db: DB, slug: string) {
  return seriesBySlug(db, slug).then((rows) => rows[0]);
}

export function findSeriesByE4pid(db: DB, e4pid: string) {
  return readRow(db, db.selectFrom('series').selectAll().where('e4pid', '=', e4pid));
}

export function findSeriesById(db: DB, id: number) {
  return readRow(db, db.selectFrom('series').selectAll().where('id', '=', id));
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
export function promotableSeries(db: DB, exceptId: number, limit: number) {
  return db.selectFrom('series').select(['id', 'name', 'slug', 'images', 'color']).where('state', '=', 'ACTIVE').where('adult', '=', 0)
    .where('id', '<>', exceptId).orderBy('popularity', 'desc').limit(limit).execute();
}

/** Chapters by id with what naming and linking them needs of their series. */
export function chaptersWithSeries(db: DB, ids: readonly number[]) {
  return db.selectFrom('chapters').innerJoin('series', 'series.id', 'chapters.series_id')
    .select(['chapters.id', 'chapters.e4pid', 'chapters.number', 'chapters.language', 'series.name as series_name', 'series.slug', 'series.format', 'series.chapter_name_format'])
    .where('chapters.id', 'in', [...ids]).execute();
}
