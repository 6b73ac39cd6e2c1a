/** The studio's rows: share links, the audit trail's reading (its one writer is src/server/audit.ts), and the series editor's. Private to the studio feature. */
import { sql, type Insertable, type Updateable } from 'kysely';
import type { SeriesTable, SeriesTextTable } from '@db/schema';
import { readRow, readRows, writeRows, type DB, type WriteTx } from '~/server/db';

export async function insertShortLink(tx: WriteTx, row: { code: string; site_id: number; path: string; created_by: number; created_at: number }): Promise<number> {
  const r = await tx.insertInto('short_links').values(row).returning('id').executeTakeFirstOrThrow();
  return Number(r.id);
}

/** Counts one visit of the site's link and answers its path (undefined: no such link), in one statement. */
export async function visitShortLink(db: DB, siteId: number, code: string): Promise<string | undefined> {
  const rows = await writeRows(db, db.updateTable('short_links')
    .set((eb) => ({ visits: eb('visits', '+', 1) }))
    .where('code', '=', code).where('site_id', '=', siteId)
    .returning('path'));
  return rows[0]?.path;
}

/** The site's link's path without counting (a HEAD request). */
export async function peekShortLink(db: DB, siteId: number, code: string): Promise<string | undefined> {
  return (await readRow(db, db.selectFrom('short_links').select('path').where('code', '=', code).where('site_id', '=', siteId)))?.path;
}

/** What the audit trail page filters by; every field optional. actorId null: the command line. */
export interface AuditFilter {
  actorId?: number | null;
  objectTable?: string;
  objectId?: string;
  /** Unix seconds, inclusive. */
  from?: number;
  /** Unix seconds, exclusive. */
  to?: number;
}

/**
 * One page of the audit trail, newest first, with the actor's email (null for the command line,
 * or when the account is gone: records carry no foreign key). Reads one row more than the page
 * holds, so the caller knows whether a next page exists without counting the table.
 */
export async function listAuditRecords(db: DB, filter: AuditFilter, offset: number, limit: number) {
  let q = db.selectFrom('audit_log').leftJoin('users', 'users.id', 'audit_log.actor_id')
    .select(['audit_log.id', 'audit_log.at', 'audit_log.actor_id', 'users.email as actor_email', 'audit_log.capability', 'audit_log.action',
      'audit_log.object_table', 'audit_log.object_id', 'audit_log.before_json', 'audit_log.after_json', 'audit_log.ip', 'audit_log.user_agent']);
  if (filter.actorId === null) q = q.where('audit_log.actor_id', 'is', null);
  else if (filter.actorId !== undefined) q = q.where('audit_log.actor_id', '=', filter.actorId);
  if (filter.objectTable) q = q.where('audit_log.object_table', '=', filter.objectTable);
  if (filter.objectId) q = q.where('audit_log.object_id', '=', filter.objectId);
  if (filter.from !== undefined) q = q.where('audit_log.at', '>=', filter.from);
  if (filter.to !== undefined) q = q.where('audit_log.at', '<', filter.to);
  return readRows(db, q.orderBy('audit_log.at', 'desc').orderBy('audit_log.id', 'desc').offset(offset).limit(limit + 1));
}

// ---------------------------------------------------------------- series (the series editor)

/** What the studio's series list filters by: the site's series and every draft. */
export interface StudioSeriesFilter {
  siteId: number;
  /** Lower-cased text found in the name or the slug; '' for all. */
  text: string;
  state: string | null;
}

/** `%text%` for LIKE, with the wildcards typed by staff taken literally. */
const likeText = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * One page of the studio's series list, newest first: the series the site lists (any state but
 * shown with it) and every draft, whichever site it will go to. Reads one row more than the page.
 */
export function listStudioSeries(db: DB, filter: StudioSeriesFilter, offset: number, limit: number) {
  let q = db.selectFrom('series')
    .select(['id', 'slug', 'name', 'state', 'format', 'adult', 'update_status', 'modified_at', 'chapter_count'])
    .where((eb) => eb.or([
      eb('state', '=', 'DRAFT'),
      eb.exists(eb.selectFrom('series_languages').select('series_languages.series_id').whereRef('series_languages.series_id', '=', 'series.id').where('series_languages.site_id', '=', filter.siteId)),
    ]));
  if (filter.text) {
    const pattern = likeText(filter.text);
    q = q.where((eb) => eb.or([
      eb(eb.fn('lower', ['name']), 'like', sql<string>`${pattern} escape '\\'`),
      eb('slug', 'like', sql<string>`${pattern} escape '\\'`),
    ]));
  }
  if (filter.state) q = q.where('state', '=', filter.state);
  return readRows(db, q.orderBy('modified_at', 'desc').orderBy('id', 'desc').offset(offset).limit(limit + 1));
}

/** The languages (and sites) of these series. */
export function languagesOfSeries(db: DB | WriteTx, ids: readonly number[]) {
  if (!ids.length) return Promise.resolve([]);
  return db.selectFrom('series_languages').select(['series_id', 'language', 'site_id']).where('series_id', 'in', [...ids]).orderBy('language').execute();
}

/** A series as the editor reads it, in any state (drafts included). */
export function studioSeriesById(db: DB | WriteTx, id: number) {
  return db.selectFrom('series').selectAll().where('id', '=', id).executeTakeFirst();
}

export function studioSeriesTexts(db: DB | WriteTx, id: number) {
  return db.selectFrom('series_texts').selectAll().where('series_id', '=', id).orderBy('language').execute();
}

/** Whether another series (not `exceptId`) has this slug. */
export async function slugTaken(db: DB | WriteTx, slug: string, exceptId: number | null): Promise<boolean> {
  let q = db.selectFrom('series').select('id').where('slug', '=', slug);
  if (exceptId !== null) q = q.where('id', '<>', exceptId);
  return (await q.executeTakeFirst()) !== undefined;
}

/** Slugs starting with `base` (to find the first free `base-N`). */
export async function slugsLike(db: DB | WriteTx, base: string): Promise<Set<string>> {
  const rows = await db.selectFrom('series').select('slug').where('slug', 'like', sql<string>`${likeText(base).slice(1)} escape '\\'`).execute();
  return new Set(rows.map((r) => r.slug));
}

export async function e4pidTaken(db: DB | WriteTx, e4pid: string): Promise<boolean> {
  return (await db.selectFrom('series').select('id').where('e4pid', '=', e4pid).executeTakeFirst()) !== undefined;
}

export async function insertSeries(tx: WriteTx, row: Insertable<SeriesTable>): Promise<number> {
  const r = await tx.insertInto('series').values(row).returning('id').executeTakeFirstOrThrow();
  return Number(r.id);
}

export async function updateSeries(tx: WriteTx, id: number, row: Updateable<SeriesTable>): Promise<void> {
  await tx.updateTable('series').set(row).where('id', '=', id).execute();
}

/** Replaces one language's translation; null (every field empty) removes it. */
export async function replaceSeriesText(tx: WriteTx, seriesId: number, language: string, text: Omit<SeriesTextTable, 'series_id' | 'language'> | null): Promise<void> {
  await tx.deleteFrom('series_texts').where('series_id', '=', seriesId).where('language', '=', language).execute();
  if (text) await tx.insertInto('series_texts').values({ series_id: seriesId, language, ...text }).execute();
}

/**
 * Sets the languages a series is published in: removes the others, and adds the new ones with
 * their released chapters counted now (the release check keeps them from then on).
 */
export async function setSeriesLanguages(tx: WriteTx, seriesId: number, languages: readonly { language: string; siteId: number }[], now: number): Promise<void> {
  const wanted = languages.map((l) => l.language);
  let del = tx.deleteFrom('series_languages').where('series_id', '=', seriesId);
  if (wanted.length) del = del.where('language', 'not in', wanted);
  await del.execute();
  const have = new Set((await tx.selectFrom('series_languages').select('language').where('series_id', '=', seriesId).execute()).map((r) => r.language));
  for (const l of languages) {
    if (have.has(l.language)) continue;
    const c = await tx.selectFrom('chapters')
      .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.max('released_at').as('last')])
      .where('series_id', '=', seriesId).where('language', '=', l.language).where('released_at', '<=', now)
      .executeTakeFirst();
    await tx.insertInto('series_languages').values({ series_id: seriesId, language: l.language, site_id: l.siteId, chapter_count: Number(c?.n ?? 0), last_updated: Number(c?.last ?? 0) }).execute();
  }
}

/** Every tag and publisher, for the editor's choices. */
export function allTags(db: DB | WriteTx) {
  return db.selectFrom('tags').select(['id', 'slug', 'name', 'name_pt']).orderBy('name').orderBy('id').execute();
}

export function allPublishers(db: DB | WriteTx) {
  return db.selectFrom('publishers').select(['id', 'name']).orderBy('name').orderBy('id').execute();
}

/** A series' tags (ids, in order) and people (role, name, in order). */
export function tagsOfSeries(db: DB | WriteTx, seriesId: number) {
  return db.selectFrom('series_tags').select('tag_id').where('series_id', '=', seriesId).orderBy('position').orderBy('tag_id').execute();
}

export function peopleOfSeries(db: DB | WriteTx, seriesId: number) {
  return db.selectFrom('series_people').innerJoin('people', 'people.id', 'series_people.person_id')
    .select(['series_people.role', 'people.name']).where('series_people.series_id', '=', seriesId)
    .orderBy('series_people.role').orderBy('series_people.position').execute();
}

/** The tag with this slug, if any. */
export function tagBySlug(db: DB | WriteTx, slug: string) {
  return db.selectFrom('tags').select(['id']).where('slug', '=', slug).executeTakeFirst();
}

export async function insertTag(tx: WriteTx, row: { slug: string; name: string; name_pt: string }): Promise<number> {
  const r = await tx.insertInto('tags').values({ ...row, description: '', color: '#888888', is_primary: 0, icon: 'NONE' }).returning('id').executeTakeFirstOrThrow();
  return Number(r.id);
}

/** People whose name is one of these, ignoring case (the first made wins a tie). */
export function peopleNamed(db: DB | WriteTx, lowerNames: readonly string[]) {
  if (!lowerNames.length) return Promise.resolve([]);
  return db.selectFrom('people').select(['id', 'name', 'slug'])
    .where((eb) => eb(eb.fn('lower', ['name']), 'in', [...lowerNames])).orderBy('id').execute();
}

export async function peopleSlugsLike(db: DB | WriteTx, base: string): Promise<Set<string>> {
  const rows = await db.selectFrom('people').select('slug').where('slug', 'like', sql<string>`${likeText(base).slice(1)} escape '\\'`).execute();
  return new Set(rows.map((r) => r.slug));
}

export async function insertPerson(tx: WriteTx, row: { name: string; slug: string }): Promise<number> {
  const r = await tx.insertInto('people').values({ ...row, alt: null }).returning('id').executeTakeFirstOrThrow();
  return Number(r.id);
}

export async function setSeriesTags(tx: WriteTx, seriesId: number, tagIds: readonly number[]): Promise<void> {
  await tx.deleteFrom('series_tags').where('series_id', '=', seriesId).execute();
  if (tagIds.length) await tx.insertInto('series_tags').values(tagIds.map((tag_id, position) => ({ series_id: seriesId, tag_id, position }))).execute();
}

export async function setSeriesPeople(tx: WriteTx, seriesId: number, people: readonly { personId: number; role: 'author' | 'artist'; position: number }[]): Promise<void> {
  await tx.deleteFrom('series_people').where('series_id', '=', seriesId).execute();
  if (people.length) await tx.insertInto('series_people').values(people.map((p) => ({ series_id: seriesId, person_id: p.personId, role: p.role, position: p.position }))).execute();
}
