/**
 * Comments: the cases the API and the comments page share. Who may write is the reader's own
 * rule (the chapter is readable for them: free, owned, rented, daily pass or subscription,
 * decided by the one pricing rule through the reader feature); limits go through the one limiter.
 */
import type { DB } from '~/server/db';
import { hit, LIMITS } from '~/server/rate-limit';
import type { T } from '~/lib/i18n';
import type { Site } from '~/lib/site';
import { chapterDate } from '~/lib/dates';
import { loadReaderByE4pid } from '~/features/reader/index.server';
import { BEST_COUNT, checkBody, COMMENT_MAX, COMMENTS_PAGE_SIZE, editable, EDIT_WINDOW, NEW_ACCOUNT_AGE, parseBody, parseCommentId, pickBest, sameText, type Segment } from './rules';
import * as repo from './repository.server';
import { banRefusal, heldAmong, heldForWords, holdIfBlocked, pinnedOf } from './moderation.server';
import { commentsChanged } from './series.server';

/** Identical text from the same reader within this long is refused. */
const DUPLICATE_WINDOW = 24 * 60 * 60;

type ReaderCtx = Parameters<typeof loadReaderByE4pid>[2];
export interface CommentsCtx extends ReaderCtx {
  site: Site;
  t: T;
  user: { id: number } | null;
}

export type Refusal = { ok: false; status: 401 | 403 | 404 | 422 | 429; detail: string; retryAfter?: number };

/** Why a visitor may not comment on a chapter they found: signed out, not readable, or unavailable here. */
export type ClosedReason = 'login' | 'locked' | 'unavailable';

export interface ChapterForComments {
  chapterId: number;
  seriesId: number;
  e4pid: string;
  language: string;
  name: string;
  seriesName: string;
  readerPath: string;
  /** Null when the visitor may comment. */
  closed: ClosedReason | null;
}

/** The chapter and whether this visitor may comment on it; null for an unknown or scheduled chapter. */
export async function chapterForComments(db: DB, e4pid: string, ctx: CommentsCtx): Promise<ChapterForComments | null> {
  const result = await loadReaderByE4pid(db, e4pid, ctx);
  if (result.kind !== 'ok' || result.model.state === 'scheduled') return null;
  const m = result.model;
  const closed: ClosedReason | null = !ctx.user ? 'login' : m.state === 'readable' ? null : m.state === 'locked' ? 'locked' : 'unavailable';
  return { chapterId: Number(m.chapter.id), seriesId: Number(m.series.id), e4pid: m.chapter.e4pid, language: m.chapter.language, name: m.name, seriesName: m.series.name, readerPath: m.path, closed };
}

export interface CommentView {
  id: number;
  parent: number | null;
  author: string;
  /** The text as written ('' once deleted). */
  body: string;
  segments: Segment[];
  spoiler: boolean;
  createdAt: number;
  /** "3 hours ago", or a date after three days (the site's rule for dates). */
  when: string;
  edited: boolean;
  deleted: boolean;
  likes: number;
  liked: boolean;
  mine: boolean;
  /** The author may still edit it. */
  editable: boolean;
  /** The author is staff (a badge). */
  staff: boolean;
  /** The author is one of the series' creators (a badge). */
  creator: boolean;
  replies: CommentView[];
  /** Held for review (a blocked word, or reports): only its author sees it, with this said. */
  held: boolean;
  /** The chapter's pinned comment (shown first). */
  pinned: boolean;
}

export interface CommentsPage {
  /** The chapter's pinned comment, first on page 1 (null: none, or not for this viewer). */
  pinned: CommentView | null;
  best: CommentView[];
  comments: CommentView[];
  page: number;
  lastPage: number;
  total: number;
}

function view(r: repo.CommentRow, viewer: number | null, liked: Set<number>, ctx: CommentsCtx, replies: CommentView[] = []): CommentView {
  const deleted = r.deletedAt !== null;
  return {
    // A deleted comment keeps its place for its replies and nothing of its author (HTML and API alike).
    id: r.id, parent: r.parentId, author: deleted ? '' : r.author, body: deleted ? '' : r.body, segments: deleted ? [] : parseBody(r.body), spoiler: !deleted && r.spoiler,
    createdAt: r.createdAt, when: chapterDate(r.createdAt, ctx.now, ctx.site.locale, ctx.site.timeZone), edited: r.editedAt !== null && !deleted, deleted,
    likes: r.likes, liked: liked.has(r.id), mine: viewer === r.userId && !deleted, editable: viewer === r.userId && !deleted && editable(r.createdAt, ctx.now), staff: !deleted && r.staff, creator: !deleted && r.creator, replies,
    held: false, pinned: false,
  };
}

/** A page of a chapter's comments on this site: the best three first (page 1 only), then the newest, each with its replies. */
export async function listComments(db: DB, chapterId: number, page: number, ctx: CommentsCtx): Promise<CommentsPage> {
  const siteId = ctx.site.id;
  const viewer = ctx.user?.id ?? null;
  // What this viewer may see (held: only its author; muted authors: never): the repository's one rule.
  const [candidates, views, total, pinnedId] = await Promise.all([repo.mostLiked(db, chapterId, siteId, 20, viewer), repo.chapterViews(db, chapterId), repo.countTopLevel(db, chapterId, siteId, viewer), pinnedOf(db, chapterId, siteId)]);
  const pinnedRow = pinnedId !== null ? await repo.findComment(db, pinnedId, viewer) : undefined;
  const pin = pinnedRow && pinnedRow.parentId === null && pinnedRow.deletedAt === null ? pinnedRow : undefined;
  const best = pickBest(candidates.filter((c) => c.id !== pin?.id), views, BEST_COUNT);
  const bestIds = best.map((c) => c.id);
  const shownIds = pin ? [pin.id, ...bestIds] : bestIds;
  const rest = Math.max(0, total - shownIds.length);
  const lastPage = Math.max(1, Math.ceil(rest / COMMENTS_PAGE_SIZE));
  const current = Math.min(Math.max(1, page), lastPage);
  const newest = await repo.listTopLevel(db, chapterId, siteId, { offset: (current - 1) * COMMENTS_PAGE_SIZE, limit: COMMENTS_PAGE_SIZE, exclude: shownIds, viewer });
  const shownBest = current === 1 ? best : [];
  const shownPin = current === 1 && pin ? [pin] : [];
  const top = [...shownPin, ...shownBest, ...newest];
  const replies = await repo.repliesOf(db, top.filter((c) => c.replyCount > 0).map((c) => c.id), viewer);
  const ids = [...top, ...replies].map((c) => c.id);
  const [liked, held] = viewer ? await Promise.all([repo.likedAmong(db, viewer, ids), heldAmong(db, viewer, ids)]) : [new Set<number>(), new Set<number>()];
  const mark = (v: CommentView): CommentView => ({ ...v, held: held.has(v.id), pinned: v.id === pin?.id });
  const withReplies = (c: repo.CommentRow) => mark(view(c, viewer, liked, ctx, replies.filter((r) => r.parentId === c.id).map((r) => mark(view(r, viewer, liked, ctx)))));
  return { pinned: shownPin.length ? withReplies(shownPin[0]!) : null, best: shownBest.map(withReplies), comments: newest.map(withReplies), page: current, lastPage, total };
}

function bodyRefusal(reason: 'empty' | 'tooLong', t: T): Refusal {
  return { ok: false, status: 422, detail: reason === 'empty' ? t('comments.error.empty') : t('comments.error.tooLong', { max: COMMENT_MAX }) };
}

/** Unknown, elsewhere, or not this reader's to find: one answer, so nothing is revealed. */
function notFound(t: T): Refusal {
  return { ok: false, status: 404, detail: t('error.api.notFound') };
}

function closedRefusal(closed: ClosedReason, t: T): Refusal {
  return closed === 'login' ? { ok: false, status: 401, detail: t('comments.error.login') } : { ok: false, status: 403, detail: t('comments.error.forbidden') };
}

export interface CommentInput {
  body: string;
  parent: string | null;
  spoiler: boolean;
}

/**
 * Posts a comment or a reply. Checks in the order a reader can fix them: signed in (401), the
 * chapter (404), the right to read it (403), the text (422), then the limits (429): identical
 * text, one per 20 s, 30 a day (5 for an account less than a day old): LIMITS in src/server/rate-limit-rules.ts.
 */
export async function postComment(db: DB, e4pid: string, input: CommentInput, ctx: CommentsCtx): Promise<{ ok: true; comment: CommentView } | Refusal> {
  const { t } = ctx;
  if (!ctx.user) return closedRefusal('login', t);
  const userId = ctx.user.id;
  const chapter = await chapterForComments(db, e4pid, ctx);
  if (!chapter) return notFound(t);
  if (chapter.closed) return closedRefusal(chapter.closed, t);
  const banned = await banRefusal(db, userId, ctx);
  if (banned) return banned;
  const checked = checkBody(input.body);
  if (!checked.ok) return bodyRefusal(checked.reason, t);
  let parentId: number | null = null;
  if (input.parent !== null && input.parent !== '') {
    const id = parseCommentId(input.parent);
    const parent = id !== null ? await repo.findComment(db, id, userId) : undefined;
    // One level of replies: a reply's parent is a live top-level comment of this chapter on this site.
    if (!parent || parent.chapterId !== chapter.chapterId || parent.siteId !== ctx.site.id || parent.parentId !== null || parent.deletedAt !== null) {
      return { ok: false, status: 422, detail: t('comments.error.parent') };
    }
    parentId = parent.id;
  }
  const recent = await repo.recentBodies(db, userId, ctx.now - DUPLICATE_WINDOW);
  const same = recent.find((r) => sameText(r.body, checked.body));
  if (same) return { ok: false, status: 429, detail: t('comments.error.duplicate'), retryAfter: Math.max(1, same.createdAt + DUPLICATE_WINDOW - ctx.now) };
  const burst = await hit(db, `comments:burst:${userId}`, LIMITS.commentBurst, ctx.now);
  if (!burst.allowed) return { ok: false, status: 429, detail: t('comments.error.tooSoon', { seconds: burst.retryAfter }), retryAfter: burst.retryAfter };
  const isNew = ctx.now - (await repo.accountCreatedAt(db, userId)) < NEW_ACCOUNT_AGE;
  const daily = await hit(db, `comments:daily:${userId}`, isNew ? LIMITS.commentDailyNew : LIMITS.commentDaily, ctx.now);
  if (!daily.allowed) return { ok: false, status: 429, detail: t('comments.error.daily', { hours: Math.max(1, Math.ceil(daily.retryAfter / 3600)) }), retryAfter: daily.retryAfter };
  // A blocked word holds the comment for review (its author still sees it); it is not dropped.
  const held = await heldForWords(db, ctx.site.id, checked.body);
  const id = await repo.insertComment(db, { chapterId: chapter.chapterId, siteId: ctx.site.id, language: chapter.language, userId, parentId, body: checked.body, spoiler: input.spoiler, now: ctx.now, held });
  commentsChanged(ctx.site.id, chapter.seriesId);
  const row = await repo.findComment(db, id, userId);
  if (!row) throw new Error(`comment ${id} vanished after insert`);
  return { ok: true, comment: { ...view(row, userId, new Set(), ctx), held: held !== undefined } };
}

/** A comment the signed-in reader may act on: it exists, on this site, on a chapter they may read. */
async function actionable(db: DB, id: number, ctx: CommentsCtx): Promise<{ ok: true; row: NonNullable<Awaited<ReturnType<typeof repo.findComment>>> } | Refusal> {
  const { t } = ctx;
  if (!ctx.user) return closedRefusal('login', t);
  const row = await repo.findComment(db, id, ctx.user.id);
  if (!row || row.siteId !== ctx.site.id) return notFound(t);
  const chapter = await chapterForComments(db, row.e4pid, ctx);
  if (!chapter) return notFound(t);
  if (chapter.closed) return closedRefusal(chapter.closed, t);
  return { ok: true, row };
}

/** Likes (on) or unlikes a comment: idempotent; the comment's count after it. */
export async function likeComment(db: DB, id: number, on: boolean, ctx: CommentsCtx): Promise<{ ok: true; likes: number; liked: boolean } | Refusal> {
  const found = await actionable(db, id, ctx);
  if (!found.ok) return found;
  if (found.row.deletedAt !== null) return notFound(ctx.t);
  const likes = await repo.setLike(db, id, ctx.user!.id, on, ctx.now);
  return { ok: true, likes, liked: on };
}

/** The author edits their comment within EDIT_WINDOW of posting it. */
export async function editOwnComment(db: DB, id: number, input: { body: string; spoiler: boolean }, ctx: CommentsCtx): Promise<{ ok: true; comment: CommentView } | Refusal> {
  const found = await actionable(db, id, ctx);
  if (!found.ok) return found;
  const { row } = found;
  const userId = ctx.user!.id;
  // Another reader's comment is not theirs to find: 404, as for an unknown one.
  if (row.userId !== userId || row.deletedAt !== null) return notFound(ctx.t);
  if (!editable(row.createdAt, ctx.now)) return { ok: false, status: 403, detail: ctx.t('comments.error.editWindow', { minutes: EDIT_WINDOW / 60 }) };
  const banned = await banRefusal(db, userId, ctx);
  if (banned) return banned;
  const checked = checkBody(input.body);
  if (!checked.ok) return bodyRefusal(checked.reason, ctx.t);
  await repo.editComment(db, id, userId, checked.body, input.spoiler, ctx.now);
  await holdIfBlocked(db, id, ctx.site.id, checked.body);
  const after = await repo.findComment(db, id, userId);
  if (!after) return notFound(ctx.t);
  return { ok: true, comment: { ...view(after, userId, await repo.likedAmong(db, userId, [id]), ctx), held: (await heldAmong(db, userId, [id])).has(id) } };
}

/** The author deletes their comment (it stays as "deleted" while it has replies). */
export async function deleteOwnComment(db: DB, id: number, ctx: CommentsCtx): Promise<{ ok: true } | Refusal> {
  const { t } = ctx;
  if (!ctx.user) return closedRefusal('login', t);
  const row = await repo.findComment(db, id, ctx.user.id);
  // Deleting needs no right to read the chapter any more (a rental ended): one's own words stay one's own.
  if (!row || row.siteId !== ctx.site.id || row.userId !== ctx.user.id || row.deletedAt !== null) return notFound(t);
  await repo.deleteComment(db, id, ctx.user.id, ctx.now);
  commentsChanged(ctx.site.id, await repo.seriesOfChapter(db, row.chapterId));
  return { ok: true };
}
