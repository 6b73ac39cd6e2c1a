/** The studio's rows: share links, the audit trail's reading (its one writer is src/server/audit.ts), prices and campaigns, chapter drafts, and the series editor's. Private to the studio feature. */
import { sql, type Insertable, type Selectable, type Updateable } from 'kysely';
import type { ChapterDraftPageTable, ChapterDraftTable, SeriesTable, SeriesTextTable } from '@db/schema';
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

// Prices (the pricing capability) ------------------------------------------------------------

/** `%text%` for LIKE, with the wildcards typed by staff taken literally. */
const likeText = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Series listed on a site whose name or slug contains `q` (lower-case), by name; at most `limit`. */
export function seriesOnSite(db: DB, siteId: number, q: string, limit: number) {
  let query = db.selectFrom('series')
    .innerJoin('series_languages', 'series_languages.series_id', 'series.id')
    .select(['series.id', 'series.name', 'series.slug', 'series.state', 'series.chapter_count'])
    .where('series_languages.site_id', '=', siteId);
  if (q) {
    const like = likeText(q);
    query = query.where((eb) => eb.or([eb(eb.fn('lower', ['series.name']), 'like', sql<string>`${like} escape '\\'`), eb('series.slug', 'like', sql<string>`${like} escape '\\'`)]));
  }
  return readRows(db, query.orderBy('series.name').orderBy('series.id').limit(limit));
}

/** A series as the prices pages name it. */
export function seriesHeading(db: DB, seriesId: number) {
  return readRow(db, db.selectFrom('series').select(['id', 'name', 'slug', 'format', 'state']).where('id', '=', seriesId));
}

const OFFER_COLUMNS = ['id', 'e4pid', 'series_id', 'language', 'number', 'title', 'released_at', 'sale_at', 'expired_at', 'original_price',
  'purchase_enabled', 'daily_pass_enabled', 'ads_enabled', 'rental_enabled', 'subscription_enabled'] as const;

/** A series' chapters in one language with what decides their price, by number. */
export function chapterOffers(db: DB, seriesId: number, language: string) {
  return readRows(db, db.selectFrom('chapters').select(OFFER_COLUMNS).where('series_id', '=', seriesId).where('language', '=', language).orderBy('number'));
}

/** One chapter's price and availability (the edit form and its before/after). */
export function chapterOffer(db: DB, chapterId: number) {
  return readRow(db, db.selectFrom('chapters').select(OFFER_COLUMNS).where('id', '=', chapterId));
}

export interface OfferChange {
  original_price: number;
  purchase_enabled: 0 | 1;
  daily_pass_enabled: 0 | 1;
  ads_enabled: 0 | 1;
  rental_enabled: 0 | 1;
  subscription_enabled: 0 | 1;
  released_at: number;
  sale_at: number;
  expired_at: number | null;
}

export async function updateChapterOffer(tx: WriteTx, chapterId: number, change: OfferChange): Promise<void> {
  await tx.updateTable('chapters').set(change).where('id', '=', chapterId).execute();
}

// Campaigns (the pricing capability) ---------------------------------------------------------

const CAMPAIGN_COLUMNS = ['id', 'series_id', 'name', 'override_starting_count', 'override_ending_count', 'override_all_free', 'discount', 'starts_at', 'ends_at'] as const;

/** A series' campaigns, the newest window first. */
export function campaignsOfSeries(db: DB, seriesId: number) {
  return readRows(db, db.selectFrom('campaigns').select(CAMPAIGN_COLUMNS).where('series_id', '=', seriesId).orderBy('starts_at', 'desc').orderBy('id', 'desc'));
}

export function campaignById(db: DB, id: number) {
  return readRow(db, db.selectFrom('campaigns').select(CAMPAIGN_COLUMNS).where('id', '=', id));
}

export interface CampaignValues {
  name: string;
  override_starting_count: number | null;
  override_ending_count: number | null;
  override_all_free: 0 | 1;
  discount: number;
  starts_at: number;
  ends_at: number;
}

export async function insertCampaign(tx: WriteTx, seriesId: number, values: CampaignValues): Promise<number> {
  const r = await tx.insertInto('campaigns').values({ series_id: seriesId, ...values }).returning('id').executeTakeFirstOrThrow();
  return Number(r.id);
}

export async function updateCampaign(tx: WriteTx, id: number, values: CampaignValues): Promise<void> {
  await tx.updateTable('campaigns').set(values).where('id', '=', id).execute();
}

export async function deleteCampaign(tx: WriteTx, id: number): Promise<void> {
  await tx.deleteFrom('campaigns').where('id', '=', id).execute();
}

// ---------------------------------------------------------------- chapter drafts

/** A draft with its series' name and format (the draft page's heading and the preview's words). */
export type DraftRow = Selectable<ChapterDraftTable> & { series_name: string; series_format: 'COMIC' | 'MANGA' | 'WEBTOON' };

export type DraftPageRow = Omit<ChapterDraftPageTable, 'draft_id'>;

export async function seriesName(db: DB, seriesId: number): Promise<string | undefined> {
  return (await readRow(db, db.selectFrom('series').select('name').where('id', '=', seriesId)))?.name;
}

export async function draftById(db: DB, id: number): Promise<DraftRow | undefined> {
  const row = await readRow(db, db.selectFrom('chapter_drafts as d').innerJoin('series as s', 's.id', 'd.series_id')
    .select(['d.id', 'd.series_id', 'd.language', 'd.number', 'd.title', 'd.subtitle', 'd.created_by', 'd.created_at', 'd.updated_at', 's.name as series_name', 's.format as series_format'])
    .where('d.id', '=', id));
  return row && { ...row, series_format: row.series_format as DraftRow['series_format'], id: Number(row.id), number: Number(row.number), created_at: Number(row.created_at), updated_at: Number(row.updated_at) };
}

export async function draftPages(db: DB, draftId: number): Promise<DraftPageRow[]> {
  const rows = await readRows(db, db.selectFrom('chapter_draft_pages').select(['position', 'media_key', 'width', 'height', 'original_name', 'bytes']).where('draft_id', '=', draftId).orderBy('position'));
  return rows.map((r) => ({ ...r, position: Number(r.position), width: Number(r.width), height: Number(r.height), bytes: Number(r.bytes) }));
}

/** Drafts of a series, newest first (the series' chapter page lists them). */
export async function draftsOfSeries(db: DB, seriesId: number): Promise<{ id: number; language: string; number: number; title: string | null; updated_at: number; pages: number }[]> {
  const rows = await readRows(db, db.selectFrom('chapter_drafts as d')
    .select((eb) => ['d.id', 'd.language', 'd.number', 'd.title', 'd.updated_at', eb.selectFrom('chapter_draft_pages as p').select((e) => e.fn.countAll<number>().as('n')).whereRef('p.draft_id', '=', 'd.id').as('pages')])
    .where('d.series_id', '=', seriesId).orderBy('d.updated_at', 'desc').limit(50));
  return rows.map((r) => ({ id: Number(r.id), language: r.language, number: Number(r.number), title: r.title, updated_at: Number(r.updated_at), pages: Number(r.pages ?? 0) }));
}

export async function insertDraft(tx: WriteTx, row: { series_id: number; language: string; number: number; title: string | null; subtitle: string | null; created_by: number; created_at: number; updated_at: number }): Promise<number> {
  const r = await tx.insertInto('chapter_drafts').values(row).returning('id').executeTakeFirstOrThrow();
  return Number(r.id);
}

export async function insertDraftPages(tx: WriteTx, rows: (DraftPageRow & { draft_id: number })[]): Promise<void> {
  for (let at = 0; at < rows.length; at += 100) await tx.insertInto('chapter_draft_pages').values(rows.slice(at, at + 100)).execute();
}

export async function touchDraft(tx: WriteTx, id: number, now: number, fields: Partial<{ language: string; number: number; title: string | null; subtitle: string | null }> = {}): Promise<void> {
  await tx.updateTable('chapter_drafts').set({ ...fields, updated_at: now }).where('id', '=', id).execute();
}

export async function replaceDraftPage(tx: WriteTx, draftId: number, position: number, page: Omit<DraftPageRow, 'position'>): Promise<void> {
  await tx.updateTable('chapter_draft_pages').set(page).where('draft_id', '=', draftId).where('position', '=', position).execute();
}

/** Swaps two pages' positions (through -1, as (draft_id, position) is the key). */
export async function swapDraftPages(tx: WriteTx, draftId: number, a: number, b: number): Promise<void> {
  const move = (from: number, to: number) => tx.updateTable('chapter_draft_pages').set({ position: to }).where('draft_id', '=', draftId).where('position', '=', from).execute();
  await move(a, -1);
  await move(b, a);
  await move(-1, b);
}

/**
 * Deletes one page and closes the gap. The shift goes through negative positions: both
 * databases check the key row by row, so `position - 1` in one statement could collide.
 */
export async function deleteDraftPage(tx: WriteTx, draftId: number, position: number): Promise<void> {
  await tx.deleteFrom('chapter_draft_pages').where('draft_id', '=', draftId).where('position', '=', position).execute();
  await tx.updateTable('chapter_draft_pages').set((eb) => ({ position: eb.neg(eb.ref('position')) })).where('draft_id', '=', draftId).where('position', '>', position).execute();
  await tx.updateTable('chapter_draft_pages').set((eb) => ({ position: eb(eb.neg(eb.ref('position')), '-', 1) })).where('draft_id', '=', draftId).where('position', '<', 0).execute();
}

export async function deleteDraft(tx: WriteTx, id: number): Promise<void> {
  await tx.deleteFrom('chapter_draft_pages').where('draft_id', '=', id).execute();
  await tx.deleteFrom('chapter_drafts').where('id', '=', id).execute();
}

/** Drafts nobody has touched since `before` (the clean-up). */
export async function staleDrafts(db: DB, before: number): Promise<{ id: number; series_id: number; number: number }[]> {
  const rows = await readRows(db, db.selectFrom('chapter_drafts').select(['id', 'series_id', 'number']).where('updated_at', '<', before).orderBy('id'));
  return rows.map((r) => ({ id: Number(r.id), series_id: Number(r.series_id), number: Number(r.number) }));
}

export async function allDraftIds(db: DB): Promise<Set<number>> {
  return new Set((await readRows(db, db.selectFrom('chapter_drafts').select('id'))).map((r) => Number(r.id)));
}

// ---------------------------------------------------------------- publishing a draft

export async function chapterNumberTaken(db: DB, seriesId: number, language: string, number: number): Promise<boolean> {
  return !!(await readRow(db, db.selectFrom('chapters').select('id').where('series_id', '=', seriesId).where('language', '=', language).where('number', '=', number)));
}

export async function e4pidTaken(db: DB, e4pid: string): Promise<boolean> {
  return !!(await readRow(db, db.selectFrom('chapters').select('id').where('e4pid', '=', e4pid)));
}

/** The series is listed in the chapter's language (counters start at 0; the release refresh fills them). */
export async function ensureSeriesLanguage(tx: WriteTx, seriesId: number, language: string, siteId: number): Promise<void> {
  const row = await tx.selectFrom('series_languages').select('language').where('series_id', '=', seriesId).where('language', '=', language).executeTakeFirst();
  if (!row) await tx.insertInto('series_languages').values({ series_id: seriesId, language, site_id: siteId, chapter_count: 0, last_updated: 0 }).execute();
}

export async function insertChapter(tx: WriteTx, row: {
  e4pid: string; series_id: number; language: string; number: number; title: string | null; subtitle: string | null;
  released_at: number; sale_at: number; expired_at: number | null; original_price: number; thumbnail: string | null;
  purchase_enabled: number; purchase_many_enabled: number; daily_pass_enabled: number; ads_enabled: number; rental_enabled: number; subscription_enabled: number;
  page_count: number; created_at: number;
}): Promise<number> {
  const r = await tx.insertInto('chapters').values(row).returning('id').executeTakeFirstOrThrow();
  return Number(r.id);
}

export async function insertChapterPages(tx: WriteTx, rows: { chapter_id: number; position: number; media_key: string; width: number; height: number }[]): Promise<void> {
  for (let at = 0; at < rows.length; at += 100) await tx.insertInto('chapter_pages').values(rows.slice(at, at + 100)).execute();
}

// ---------------------------------------------------------------- series (the series editor)

/** What the studio's series list filters by: the site's series and every draft. */
export interface StudioSeriesFilter {
  siteId: number;
  /** Lower-cased text found in the name or the slug; '' for all. */
  text: string;
  state: string | null;
}

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

export async function seriesE4pidTaken(db: DB | WriteTx, e4pid: string): Promise<boolean> {
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

/** The accounts of a series' creators, in order. */
export async function seriesCreatorIds(db: DB | WriteTx, seriesId: number): Promise<number[]> {
  const rows = await db.selectFrom('series_creators').select('user_id').where('series_id', '=', seriesId).orderBy('position').execute();
  return rows.map((r) => Number(r.user_id));
}

/** The series an account is named a creator of (the data export). */
export function seriesCreatedBy(db: DB, userId: number) {
  return db.selectFrom('series_creators as sc').innerJoin('series as s', 's.id', 'sc.series_id').select(['s.e4pid', 's.name']).where('sc.user_id', '=', userId).orderBy('s.id').execute();
}

/** Takes a deleted account off every series it was a creator of; how many. */
export async function dropCreator(tx: WriteTx, userId: number): Promise<number> {
  const r = await tx.deleteFrom('series_creators').where('user_id', '=', userId).executeTakeFirst();
  return Number(r.numDeletedRows ?? 0);
}

export async function setSeriesCreators(tx: WriteTx, seriesId: number, userIds: readonly number[]): Promise<void> {
  await tx.deleteFrom('series_creators').where('series_id', '=', seriesId).execute();
  if (userIds.length) await tx.insertInto('series_creators').values(userIds.map((user_id, position) => ({ series_id: seriesId, user_id, position }))).execute();
}

export async function setSeriesPeople(tx: WriteTx, seriesId: number, people: readonly { personId: number; role: 'author' | 'artist'; position: number }[]): Promise<void> {
  await tx.deleteFrom('series_people').where('series_id', '=', seriesId).execute();
  if (people.length) await tx.insertInto('series_people').values(people.map((p) => ({ series_id: seriesId, person_id: p.personId, role: p.role, position: p.position }))).execute();
}
