/**
 * Comments: the moderation queries (reports, holds, pins, bans, mutes, blocked words), and the
 * one visibility rule every read of comments applies (`visibleTo`).
 */
import { sql } from 'kysely';
import { writeTransaction, type DB, type WriteTx } from '~/server/db';
import { stateAfterReports, type CommentState, type ReportReason } from './moderation';

/**
 * THE visibility rule (docs/decisions.md, "Comment moderation"): a comment reaches a viewer when
 * it is VISIBLE, or HELD and theirs; never when REMOVED; never when its author is muted by the
 * viewer. Every read of comments for readers goes through it (repository.server.ts `base`).
 */
export function visibleTo(viewer: number | null) {
  if (viewer === null) return sql<boolean>`c.state = 'VISIBLE'`;
  return sql<boolean>`(c.state = 'VISIBLE' or (c.state = 'HELD' and c.user_id = ${viewer})) and not exists (select 1 from comment_mutes m where m.user_id = ${viewer} and m.muted_id = c.user_id)`;
}

export interface ModeratedComment {
  id: number;
  chapterId: number;
  siteId: number;
  parentId: number | null;
  userId: number;
  body: string;
  state: CommentState;
  deletedAt: number | null;
  reportCount: number;
  e4pid: string;
}

/** A comment whatever its state (reports, moderation), or undefined. */
export async function findAnyComment(db: DB, id: number): Promise<ModeratedComment | undefined> {
  const r = await db.selectFrom('comments as c').innerJoin('chapters as ch', 'ch.id', 'c.chapter_id')
    .select(['c.id', 'c.chapter_id', 'c.site_id', 'c.parent_id', 'c.user_id', 'c.body', 'c.state', 'c.deleted_at', 'c.report_count', 'ch.e4pid'])
    .where('c.id', '=', id).executeTakeFirst();
  if (!r) return undefined;
  return {
    id: Number(r.id), chapterId: Number(r.chapter_id), siteId: Number(r.site_id), parentId: r.parent_id === null ? null : Number(r.parent_id), userId: Number(r.user_id),
    body: r.body, state: r.state, deletedAt: r.deleted_at === null ? null : Number(r.deleted_at), reportCount: Number(r.report_count), e4pid: r.e4pid,
  };
}

/**
 * A reader's report: one per reader and comment (the key makes a second one change nothing, even
 * at once), counted on the comment in the same transaction, which moves it to HELD at 3 open
 * reports and REMOVED at 10.
 */
export async function addReport(db: DB, commentId: number, userId: number, reason: ReportReason, now: number): Promise<{ added: boolean; count: number; state: CommentState }> {
  return writeTransaction(db, async (trx) => {
    const added = await trx.insertInto('comment_reports').values({ comment_id: commentId, user_id: userId, reason, created_at: now })
      .onConflict((oc) => oc.columns(['comment_id', 'user_id']).doNothing()).returning('comment_id').execute();
    if (added.length) await trx.updateTable('comments').set({ report_count: sql`report_count + 1` }).where('id', '=', commentId).execute();
    const row = await trx.selectFrom('comments').select(['state', 'report_count']).where('id', '=', commentId).executeTakeFirstOrThrow();
    const count = Number(row.report_count);
    const next = added.length ? stateAfterReports(row.state, count) : null;
    if (next) await trx.updateTable('comments').set({ state: next.state, state_reason: next.reason }).where('id', '=', commentId).execute();
    return { added: added.length > 0, count, state: next?.state ?? row.state };
  });
}

/** Holds a comment just written (a blocked word): its author still sees it. */
export async function holdComment(db: DB, id: number, reason: 'words'): Promise<void> {
  await db.updateTable('comments').set({ state: 'HELD', state_reason: reason }).where('id', '=', id).where('state', '=', 'VISIBLE').execute();
}

/** A moderator's decision: the comment's new state, its open reports reviewed. The state before. */
export async function setModeratedState(tx: WriteTx, id: number, state: 'VISIBLE' | 'REMOVED', now: number): Promise<void> {
  await tx.updateTable('comments').set({ state, state_reason: state === 'VISIBLE' ? null : 'staff', report_count: 0 }).where('id', '=', id).execute();
  await tx.updateTable('comment_reports').set({ reviewed_at: now }).where('comment_id', '=', id).where('reviewed_at', 'is', null).execute();
}

/** The pinned comment of a chapter's thread on a site, or null. */
export async function pinnedOf(db: DB, chapterId: number, siteId: number): Promise<number | null> {
  const row = await db.selectFrom('comment_pins').select('comment_id').where('chapter_id', '=', chapterId).where('site_id', '=', siteId).executeTakeFirst();
  return row ? Number(row.comment_id) : null;
}

/** Pins a comment, replacing the chapter's pin on that site (one per chapter); the comment it replaced. */
export async function setPin(tx: WriteTx, c: { id: number; chapterId: number; siteId: number }, by: number | null, now: number): Promise<number | null> {
  const before = await pinnedOf(tx, c.chapterId, c.siteId);
  await tx.deleteFrom('comment_pins').where((eb) => eb.or([eb.and([eb('chapter_id', '=', c.chapterId), eb('site_id', '=', c.siteId)]), eb('comment_id', '=', c.id)])).execute();
  await tx.insertInto('comment_pins').values({ chapter_id: c.chapterId, site_id: c.siteId, comment_id: c.id, pinned_at: now, pinned_by: by }).execute();
  return before;
}

/** Unpins a comment; whether it was pinned. */
export async function removePin(tx: WriteTx, commentId: number): Promise<boolean> {
  const r = await tx.deleteFrom('comment_pins').where('comment_id', '=', commentId).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

export interface BanRow {
  userId: number;
  reason: string;
  until: number | null;
  createdAt: number;
}

/** The reader's ban in force at `now`, or undefined. */
export async function activeBan(db: DB, userId: number, now: number): Promise<BanRow | undefined> {
  const r = await db.selectFrom('comment_bans').selectAll().where('user_id', '=', userId)
    .where((eb) => eb.or([eb('until', 'is', null), eb('until', '>', now)])).executeTakeFirst();
  return r ? { userId: Number(r.user_id), reason: r.reason, until: r.until === null ? null : Number(r.until), createdAt: Number(r.created_at) } : undefined;
}

/** Bans (or re-bans, replacing the earlier ban) a reader; the ban it replaced, if any. */
export async function upsertBan(tx: WriteTx, ban: { userId: number; reason: string; until: number | null; by: number | null; now: number }): Promise<{ reason: string; until: number | null } | undefined> {
  const before = await tx.selectFrom('comment_bans').select(['reason', 'until']).where('user_id', '=', ban.userId).executeTakeFirst();
  await tx.deleteFrom('comment_bans').where('user_id', '=', ban.userId).execute();
  await tx.insertInto('comment_bans').values({ user_id: ban.userId, reason: ban.reason, until: ban.until, created_at: ban.now, created_by: ban.by }).execute();
  return before ? { reason: before.reason, until: before.until === null ? null : Number(before.until) } : undefined;
}

/** Lifts a reader's ban; the ban lifted, if any. */
export async function deleteBan(tx: WriteTx, userId: number): Promise<{ reason: string; until: number | null } | undefined> {
  const before = await tx.selectFrom('comment_bans').select(['reason', 'until']).where('user_id', '=', userId).executeTakeFirst();
  if (before) await tx.deleteFrom('comment_bans').where('user_id', '=', userId).execute();
  return before ? { reason: before.reason, until: before.until === null ? null : Number(before.until) } : undefined;
}

/** Bans in force, newest first, with the reader's name and email. */
export async function listBans(db: DB, now: number): Promise<(BanRow & { name: string; email: string })[]> {
  const rows = await db.selectFrom('comment_bans as b').innerJoin('users as u', 'u.id', 'b.user_id')
    .select(['b.user_id', 'b.reason', 'b.until', 'b.created_at', 'u.display_name', 'u.email'])
    .where((eb) => eb.or([eb('b.until', 'is', null), eb('b.until', '>', now)])).orderBy('b.created_at', 'desc').limit(200).execute();
  return rows.map((r) => ({ userId: Number(r.user_id), reason: r.reason, until: r.until === null ? null : Number(r.until), createdAt: Number(r.created_at), name: r.display_name, email: r.email }));
}

/** An account's id and name by id, or undefined. */
export async function findAccount(db: DB, userId: number): Promise<{ id: number; name: string; email: string } | undefined> {
  const r = await db.selectFrom('users').select(['id', 'display_name', 'email']).where('id', '=', userId).executeTakeFirst();
  return r ? { id: Number(r.id), name: r.display_name, email: r.email } : undefined;
}

/** Mutes (on) or unmutes another reader; idempotent. */
export async function setMute(db: DB, userId: number, mutedId: number, on: boolean, now: number): Promise<void> {
  if (on) await db.insertInto('comment_mutes').values({ user_id: userId, muted_id: mutedId, created_at: now }).onConflict((oc) => oc.columns(['user_id', 'muted_id']).doNothing()).execute();
  else await db.deleteFrom('comment_mutes').where('user_id', '=', userId).where('muted_id', '=', mutedId).execute();
}

/** The readers this reader muted, newest first. */
export async function listMutes(db: DB, userId: number): Promise<{ id: number; name: string; at: number }[]> {
  const rows = await db.selectFrom('comment_mutes as m').innerJoin('users as u', 'u.id', 'm.muted_id').select(['u.id', 'u.display_name', 'm.created_at'])
    .where('m.user_id', '=', userId).orderBy('m.created_at', 'desc').limit(500).execute();
  return rows.map((r) => ({ id: Number(r.id), name: r.display_name, at: Number(r.created_at) }));
}

/** A site's blocked words, alphabetical. */
export async function blockedWords(db: DB, siteId: number): Promise<{ id: number; word: string }[]> {
  const rows = await db.selectFrom('blocked_words').select(['id', 'word']).where('site_id', '=', siteId).orderBy('word').execute();
  return rows.map((r) => ({ id: Number(r.id), word: r.word }));
}

/** Adds a blocked word; false when the site has it already. */
export async function insertBlockedWord(tx: WriteTx, siteId: number, word: string, by: number | null, now: number): Promise<number | null> {
  const r = await tx.insertInto('blocked_words').values({ site_id: siteId, word, created_at: now, created_by: by })
    .onConflict((oc) => oc.columns(['site_id', 'word']).doNothing()).returning('id').executeTakeFirst();
  return r ? Number(r.id) : null;
}

/** Removes a site's blocked word; the word removed, if any. */
export async function deleteBlockedWord(tx: WriteTx, siteId: number, id: number): Promise<string | null> {
  const r = await tx.deleteFrom('blocked_words').where('site_id', '=', siteId).where('id', '=', id).returning('word').executeTakeFirst();
  return r ? r.word : null;
}

export interface QueueRow {
  id: number;
  chapterId: number;
  e4pid: string;
  chapterNumber: number;
  chapterTitle: string | null;
  seriesName: string;
  userId: number;
  author: string;
  authorEmail: string;
  parentId: number | null;
  body: string;
  spoiler: boolean;
  createdAt: number;
  state: CommentState;
  stateReason: string | null;
  reportCount: number;
  pinned: boolean;
  reasons: Partial<Record<ReportReason, number>>;
}

const QUEUE_COLUMNS = [
  'c.id', 'c.chapter_id', 'ch.e4pid', 'ch.number', 'ch.title', 's.name as series_name', 'c.user_id', 'u.display_name', 'u.email', 'c.parent_id', 'c.body', 'c.spoiler',
  'c.created_at', 'c.state', 'c.state_reason', 'c.report_count',
] as const;

/**
 * The moderation queue of a site: held comments and comments with open reports (removed ones
 * too while their reports are open: 10 reports removed them and nobody reviewed it yet), most
 * reported first; or one comment by id (`only`), whatever its state.
 */
export async function moderationQueue(db: DB, siteId: number, opts: { only?: number; limit: number; offset: number }): Promise<QueueRow[]> {
  let q = db.selectFrom('comments as c').innerJoin('chapters as ch', 'ch.id', 'c.chapter_id').innerJoin('series as s', 's.id', 'ch.series_id').innerJoin('users as u', 'u.id', 'c.user_id')
    .leftJoin('comment_pins as p', 'p.comment_id', 'c.id')
    .select([...QUEUE_COLUMNS, 'p.comment_id as pin']).where('c.site_id', '=', siteId);
  q = opts.only !== undefined ? q.where('c.id', '=', opts.only) : q.where((eb) => eb.or([eb('c.state', '=', 'HELD'), eb('c.report_count', '>', 0)])).where('c.deleted_at', 'is', null);
  const rows = await q.orderBy('c.report_count', 'desc').orderBy('c.created_at', 'desc').orderBy('c.id', 'desc').limit(opts.limit).offset(opts.offset).execute();
  const ids = rows.map((r) => Number(r.id));
  const reasons = ids.length
    ? await db.selectFrom('comment_reports').select(['comment_id', 'reason', (eb) => eb.fn.countAll<number>().as('n')]).where('comment_id', 'in', ids).where('reviewed_at', 'is', null).groupBy(['comment_id', 'reason']).execute()
    : [];
  return rows.map((r) => {
    const id = Number(r.id);
    const mine: Partial<Record<ReportReason, number>> = {};
    for (const x of reasons) if (Number(x.comment_id) === id) mine[x.reason] = Number(x.n);
    return {
      id, chapterId: Number(r.chapter_id), e4pid: r.e4pid, chapterNumber: Number(r.number), chapterTitle: r.title, seriesName: r.series_name, userId: Number(r.user_id), author: r.display_name,
      authorEmail: r.email, parentId: r.parent_id === null ? null : Number(r.parent_id), body: r.body, spoiler: Number(r.spoiler) === 1, createdAt: Number(r.created_at), state: r.state,
      stateReason: r.state_reason, reportCount: Number(r.report_count), pinned: r.pin !== null, reasons: mine,
    };
  });
}

/** Which of the viewer's own comments among these are held (only they see those). */
export async function heldAmong(db: DB, viewer: number | null, ids: number[]): Promise<Set<number>> {
  if (viewer === null || !ids.length) return new Set();
  const rows = await db.selectFrom('comments').select('id').where('user_id', '=', viewer).where('state', '=', 'HELD').where('id', 'in', ids).execute();
  return new Set(rows.map((r) => Number(r.id)));
}

/**
 * Where a comment was written, as its author's inbox names it (docs/notifications.md, "Moderation
 * items"): the series and chapter number (never the title), what links to the chapter, and the
 * reason its open reports give most (read before the decision reviews them).
 */
export async function commentPlace(db: DB, commentId: number): Promise<{ series: string; slug: string; format: string; number: number; e4pid: string; language: string; site: number; topReason: ReportReason | null } | undefined> {
  const r = await db.selectFrom('comments as c').innerJoin('chapters as ch', 'ch.id', 'c.chapter_id').innerJoin('series as s', 's.id', 'ch.series_id')
    .select(['s.name', 's.slug', 's.format', 'ch.number', 'ch.e4pid', 'ch.language', 'c.site_id'])
    .where('c.id', '=', commentId).executeTakeFirst();
  if (!r) return undefined;
  const top = await db.selectFrom('comment_reports').select((eb) => ['reason', eb.fn.countAll<number>().as('n')])
    .where('comment_id', '=', commentId).where('reviewed_at', 'is', null)
    .groupBy('reason').orderBy('n', 'desc').orderBy('reason').limit(1).executeTakeFirst();
  return { series: r.name, slug: r.slug, format: r.format, number: Number(r.number), e4pid: r.e4pid, language: r.language, site: Number(r.site_id), topReason: top?.reason ?? null };
}
