/** Comments: every query (the feature's only SQL). Reads filter by chapter and site; writes by author where it matters. */
import { sql } from 'kysely';
import { writeTransaction, type DB } from '~/server/db';
import { visibleTo } from './repository-moderation.server';

export interface CommentRow {
  id: number;
  chapterId: number;
  parentId: number | null;
  userId: number;
  author: string;
  body: string;
  spoiler: boolean;
  createdAt: number;
  editedAt: number | null;
  deletedAt: number | null;
  likes: number;
  replyCount: number;
  /** The author holds a staff capability (users.is_staff). */
  staff: boolean;
  /** The author is one of the comment's series' creators (series_creators). */
  creator: boolean;
}

const COLUMNS = [
  'c.id', 'c.chapter_id', 'c.parent_id', 'c.user_id', 'u.display_name', 'c.body', 'c.spoiler', 'c.created_at', 'c.edited_at', 'c.deleted_at', 'c.like_count', 'c.reply_count', 'u.is_staff',
] as const;

type Raw = { id: number; chapter_id: number; parent_id: number | null; user_id: number; display_name: string; body: string; spoiler: number; created_at: number; edited_at: number | null; deleted_at: number | null; like_count: number; reply_count: number; is_staff: number | boolean; is_creator: number | boolean | string };

function toRow(r: Raw): CommentRow {
  return {
    id: Number(r.id), chapterId: Number(r.chapter_id), parentId: r.parent_id === null ? null : Number(r.parent_id), userId: Number(r.user_id), author: r.display_name,
    body: r.body, spoiler: Number(r.spoiler) === 1, createdAt: Number(r.created_at), editedAt: r.edited_at === null ? null : Number(r.edited_at),
    deletedAt: r.deleted_at === null ? null : Number(r.deleted_at), likes: Number(r.like_count), replyCount: Number(r.reply_count),
    staff: Number(r.is_staff) === 1,
    // SQLite answers 1/0, PostgreSQL true/false.
    creator: r.is_creator === true || Number(r.is_creator) === 1,
  };
}

/** Comments as `viewer` (null: signed out) may see them: the one rule, visibleTo (repository-moderation.server.ts). */
function base(db: DB, viewer: number | null = null) {
  return db.selectFrom('comments as c').innerJoin('users as u', 'u.id', 'c.user_id').select(COLUMNS)
    // One indexed probe per comment (series_creators_user_idx): is its author a creator of its series?
    .select((eb) => eb.exists(eb.selectFrom('series_creators as sc').innerJoin('chapters as cch', 'cch.series_id', 'sc.series_id')
      .select('sc.user_id').whereRef('sc.user_id', '=', 'c.user_id').whereRef('cch.id', '=', 'c.chapter_id')).as('is_creator'))
    // Only comments this viewer may see; a deleted one stays (as "deleted") while it has replies.
    .where(visibleTo(viewer))
    .where((eb) => eb.or([eb('c.deleted_at', 'is', null), eb('c.reply_count', '>', 0)]));
}

/** Top-level comments of a chapter on a site, newest first, leaving out `exclude`. */
export async function listTopLevel(db: DB, chapterId: number, siteId: number, opts: { offset: number; limit: number; exclude: number[]; viewer?: number | null }): Promise<CommentRow[]> {
  let q = base(db, opts.viewer ?? null).where('c.chapter_id', '=', chapterId).where('c.site_id', '=', siteId).where('c.parent_id', 'is', null);
  if (opts.exclude.length) q = q.where('c.id', 'not in', opts.exclude);
  const rows = await q.orderBy('c.created_at', 'desc').orderBy('c.id', 'desc').limit(opts.limit).offset(opts.offset).execute();
  return rows.map(toRow);
}

/** How many top-level comments a chapter has on a site. */
export async function countTopLevel(db: DB, chapterId: number, siteId: number, viewer: number | null = null): Promise<number> {
  const row = await base(db, viewer).clearSelect().select((eb) => eb.fn.countAll<number>().as('n'))
    .where('c.chapter_id', '=', chapterId).where('c.site_id', '=', siteId).where('c.parent_id', 'is', null).executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** The most liked top-level comments (candidates for the best; with the same views for all, the most liked rank first). */
export async function mostLiked(db: DB, chapterId: number, siteId: number, limit: number, viewer: number | null = null): Promise<CommentRow[]> {
  const rows = await base(db, viewer).where('c.chapter_id', '=', chapterId).where('c.site_id', '=', siteId).where('c.parent_id', 'is', null)
    .where('c.deleted_at', 'is', null).where('c.like_count', '>', 0)
    .orderBy('c.like_count', 'desc').orderBy('c.created_at', 'desc').limit(limit).execute();
  return rows.map(toRow);
}

/** Replies to these comments, oldest first. */
export async function repliesOf(db: DB, parentIds: number[], viewer: number | null = null): Promise<CommentRow[]> {
  if (!parentIds.length) return [];
  const rows = await base(db, viewer).where('c.parent_id', 'in', parentIds).orderBy('c.created_at', 'asc').orderBy('c.id', 'asc').execute();
  return rows.map(toRow);
}

/** Which of these comments the reader liked. */
export async function likedAmong(db: DB, userId: number, ids: number[]): Promise<Set<number>> {
  if (!ids.length) return new Set();
  const rows = await db.selectFrom('comment_likes').select('comment_id').where('user_id', '=', userId).where('comment_id', 'in', ids).execute();
  return new Set(rows.map((r) => Number(r.comment_id)));
}

/** Signed-in readers who opened the chapter (reading progress rows): the "views" of the best-comment rank. */
export async function chapterViews(db: DB, chapterId: number): Promise<number> {
  const row = await db.selectFrom('reading_progress').select((eb) => eb.fn.countAll<number>().as('n')).where('chapter_id', '=', chapterId).executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** One comment `viewer` may see, with its chapter's e4pid and site, or undefined. */
export async function findComment(db: DB, id: number, viewer: number | null = null): Promise<(CommentRow & { e4pid: string; siteId: number }) | undefined> {
  const row = await base(db, viewer).innerJoin('chapters as ch', 'ch.id', 'c.chapter_id').select(['ch.e4pid', 'c.site_id']).where('c.id', '=', id).executeTakeFirst();
  return row ? { ...toRow(row), e4pid: row.e4pid, siteId: Number(row.site_id) } : undefined;
}

/** The reader's comment bodies written since `since` (the duplicate rule), newest first. */
export async function recentBodies(db: DB, userId: number, since: number): Promise<{ body: string; createdAt: number }[]> {
  const rows = await db.selectFrom('comments').select(['body', 'created_at']).where('user_id', '=', userId).where('created_at', '>=', since)
    .orderBy('created_at', 'desc').limit(50).execute();
  return rows.map((r) => ({ body: r.body, createdAt: Number(r.created_at) }));
}

/** When the account was made (unix seconds). */
export async function accountCreatedAt(db: DB, userId: number): Promise<number> {
  const row = await db.selectFrom('users').select('created_at').where('id', '=', userId).executeTakeFirst();
  return Number(row?.created_at ?? 0);
}

export interface NewComment {
  chapterId: number;
  siteId: number;
  language: string;
  userId: number;
  parentId: number | null;
  body: string;
  spoiler: boolean;
  now: number;
  /** Held for review from the start (a blocked word): only its author sees it. */
  held?: 'words';
}

/** Writes a comment (and counts it on its parent, in the same transaction); its id. */
export async function insertComment(db: DB, c: NewComment): Promise<number> {
  return writeTransaction(db, async (trx) => {
    const row = await trx.insertInto('comments').values({
      chapter_id: c.chapterId, site_id: c.siteId, language: c.language, user_id: c.userId, parent_id: c.parentId, body: c.body, spoiler: c.spoiler ? 1 : 0, created_at: c.now,
      ...(c.held ? { state: 'HELD' as const, state_reason: c.held } : {}),
    }).returning('id').executeTakeFirstOrThrow();
    if (c.parentId !== null) await trx.updateTable('comments').set({ reply_count: sql`reply_count + 1` }).where('id', '=', c.parentId).execute();
    return Number(row.id);
  });
}

/**
 * Likes or unlikes: the (comment, reader) key makes it idempotent and race-safe, and the count
 * changes only when a row was added or removed, in the same transaction. The new count.
 */
export async function setLike(db: DB, commentId: number, userId: number, on: boolean, now: number): Promise<number> {
  return writeTransaction(db, async (trx) => {
    const changed = on
      ? await trx.insertInto('comment_likes').values({ comment_id: commentId, user_id: userId, created_at: now }).onConflict((oc) => oc.columns(['comment_id', 'user_id']).doNothing()).returning('comment_id').execute()
      : await trx.deleteFrom('comment_likes').where('comment_id', '=', commentId).where('user_id', '=', userId).returning('comment_id').execute();
    if (changed.length) await trx.updateTable('comments').set({ like_count: sql`like_count + ${on ? 1 : -1}` }).where('id', '=', commentId).execute();
    const row = await trx.selectFrom('comments').select('like_count').where('id', '=', commentId).executeTakeFirstOrThrow();
    return Number(row.like_count);
  });
}

/** Replaces the author's comment text. False when nothing was changed (not theirs, gone). */
export async function editComment(db: DB, id: number, userId: number, body: string, spoiler: boolean, now: number): Promise<boolean> {
  const r = await db.updateTable('comments').set({ body, spoiler: spoiler ? 1 : 0, edited_at: now })
    .where('id', '=', id).where('user_id', '=', userId).where('deleted_at', 'is', null).executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/**
 * Deletes the author's comment: with live replies it stays as "deleted" (its text emptied);
 * otherwise the row goes, and a deleted parent left without replies goes with it.
 */
export async function deleteComment(db: DB, id: number, userId: number, now: number): Promise<boolean> {
  return writeTransaction(db, async (trx) => {
    const row = await trx.selectFrom('comments').select(['parent_id', 'reply_count']).where('id', '=', id).where('user_id', '=', userId).where('deleted_at', 'is', null).executeTakeFirst();
    if (!row) return false;
    if (Number(row.reply_count) > 0) {
      await trx.updateTable('comments').set({ deleted_at: now, body: '', spoiler: 0 }).where('id', '=', id).execute();
      return true;
    }
    await trx.deleteFrom('comments').where('id', '=', id).execute();
    if (row.parent_id !== null) {
      await trx.updateTable('comments').set({ reply_count: sql`reply_count - 1` }).where('id', '=', row.parent_id).execute();
      await trx.deleteFrom('comments').where('id', '=', row.parent_id).where('deleted_at', 'is not', null).where('reply_count', '<=', 0).execute();
    }
    return true;
  });
}

/**
 * How many comments each chapter of a series has on a site, as the comments page counts them
 * (top-level, visible): one grouped query for the series page's chapter rows.
 */
export async function countsForSeries(db: DB, seriesId: number, siteId: number): Promise<Map<number, number>> {
  const rows = await db.selectFrom('comments as c').innerJoin('chapters as ch', 'ch.id', 'c.chapter_id')
    .select(['c.chapter_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('ch.series_id', '=', seriesId).where('c.site_id', '=', siteId).where('c.parent_id', 'is', null).where('c.state', '=', 'VISIBLE')
    .where((eb) => eb.or([eb('c.deleted_at', 'is', null), eb('c.reply_count', '>', 0)]))
    .groupBy('c.chapter_id').execute();
  return new Map(rows.map((r) => [Number(r.chapter_id), Number(r.n)]));
}

/** The newest visible comments (replies too) across a series' chapters on a site, with their chapter. */
export async function latestForSeries(db: DB, seriesId: number, siteId: number, limit: number): Promise<(CommentRow & { e4pid: string; number: number })[]> {
  const rows = await base(db).innerJoin('chapters as ch', 'ch.id', 'c.chapter_id').select(['ch.e4pid', 'ch.number'])
    .where('ch.series_id', '=', seriesId).where('c.site_id', '=', siteId).where('c.deleted_at', 'is', null)
    .orderBy('c.created_at', 'desc').orderBy('c.id', 'desc').limit(limit).execute();
  return rows.map((r) => ({ ...toRow(r), e4pid: r.e4pid, number: Number(r.number) }));
}

/** The series a chapter belongs to (null for an unknown chapter). */
export async function seriesOfChapter(db: DB, chapterId: number): Promise<number | null> {
  const row = await db.selectFrom('chapters').select('series_id').where('id', '=', chapterId).executeTakeFirst();
  return row ? Number(row.series_id) : null;
}

// ---------------------------------------------------------------- the reader's own data (export, account deletion)

/** Every comment the reader wrote (deleted ones too, without text), with its chapter, for the data export. */
export function commentsForExport(db: DB, userId: number) {
  return db.selectFrom('comments as c').innerJoin('chapters as ch', 'ch.id', 'c.chapter_id').innerJoin('series as s', 's.id', 'ch.series_id')
    .select(['c.id', 'c.parent_id', 'c.site_id', 'c.language', 'c.body', 'c.spoiler', 'c.created_at', 'c.edited_at', 'c.deleted_at', 'c.like_count', 'c.reply_count', 'c.state', 'ch.e4pid', 'ch.number', 's.e4pid as series_e4pid', 's.name as series_name'])
    .where('c.user_id', '=', userId).orderBy('c.created_at').orderBy('c.id').execute();
}

/** The reader's likes, reports and mutes (what they did to others' comments), for the data export. */
export async function commentActsForExport(db: DB, userId: number) {
  const [likes, reports, mutes] = await Promise.all([
    db.selectFrom('comment_likes').select(['comment_id', 'created_at']).where('user_id', '=', userId).orderBy('created_at').execute(),
    db.selectFrom('comment_reports').select(['comment_id', 'reason', 'created_at', 'reviewed_at']).where('user_id', '=', userId).orderBy('created_at').execute(),
    db.selectFrom('comment_mutes').select(['muted_id', 'created_at']).where('user_id', '=', userId).orderBy('created_at').execute(),
  ]);
  return { likes, reports, mutes };
}

/**
 * Account deletion (in its transaction): the reader's comments go as their author's own delete
 * would take them — a comment with others' replies stays as "deleted" with its text emptied (the
 * thread keeps its shape), any other goes, and a deleted parent left without replies goes with
 * it; their likes go (the liked comments' counts follow), and their mutes either way and ban.
 * Returns the counts and the (site, chapter) threads touched, so the caller forgets cached counts.
 */
export async function eraseCommentsOf(tx: DB, userId: number, now: number): Promise<{ counts: Record<string, number>; threads: { siteId: number; chapterId: number }[] }> {
  const mine = await tx.selectFrom('comments').select(['id', 'parent_id', 'site_id', 'chapter_id']).where('user_id', '=', userId).execute();
  const threads = new Map<string, { siteId: number; chapterId: number }>();
  for (const c of mine) threads.set(`${c.site_id}:${c.chapter_id}`, { siteId: Number(c.site_id), chapterId: Number(c.chapter_id) });
  // Replies first (a reply has no replies of its own), then the top-level comments.
  const replies = mine.filter((c) => c.parent_id !== null);
  const parents = new Set<number>();
  for (const r of replies) {
    await tx.deleteFrom('comments').where('id', '=', r.id).execute();
    await tx.updateTable('comments').set({ reply_count: sql`reply_count - 1` }).where('id', '=', r.parent_id!).execute();
    parents.add(Number(r.parent_id));
  }
  let removed = replies.length;
  let blanked = 0;
  for (const c of mine.filter((m) => m.parent_id === null)) {
    const row = await tx.selectFrom('comments').select('reply_count').where('id', '=', c.id).executeTakeFirst();
    if (!row) continue;
    if (Number(row.reply_count) > 0) {
      // Already deleted ones stay deleted (their time kept); the text is emptied either way.
      await tx.updateTable('comments').set({ body: '', spoiler: 0, deleted_at: sql`coalesce(deleted_at, ${now})` }).where('id', '=', c.id).execute();
      blanked++;
    } else {
      await tx.deleteFrom('comments').where('id', '=', c.id).execute();
      removed++;
    }
  }
  // Others' comments deleted earlier and kept only for the replies just removed.
  if (parents.size) await tx.deleteFrom('comments').where('id', 'in', [...parents]).where('deleted_at', 'is not', null).where('reply_count', '<=', 0).execute();
  const liked = await tx.deleteFrom('comment_likes').where('user_id', '=', userId).returning('comment_id').execute();
  for (const l of liked) await tx.updateTable('comments').set({ like_count: sql`like_count - 1` }).where('id', '=', l.comment_id).execute();
  await tx.deleteFrom('comment_mutes').where((eb) => eb.or([eb('user_id', '=', userId), eb('muted_id', '=', userId)])).execute();
  await tx.deleteFrom('comment_bans').where('user_id', '=', userId).execute();
  return { counts: { comments_removed: removed, comments_blanked: blanked, likes: liked.length }, threads: [...threads.values()] };
}
