/**
 * Comment moderation (issue 31, docs/staff.md "Moderation"): readers' reports and mutes, bans
 * and blocked words applied to writing, and the studio's actions (restore, remove, pin, ban,
 * blocked words), each checked by the caller with the `moderation` capability and written to
 * the audit trail in its own transaction. Who sees what is one rule: visibleTo in
 * repository-moderation.server.ts.
 */
import type { DB } from '~/server/db';
import { writeTransaction } from '~/server/db';
import { writeAudit, type AuditActor } from '~/server/audit';
import type { T } from '~/lib/i18n';
import { longDateTimeLabel } from '~/lib/dates';
import { notifyReader } from '~/features/notifications/index.server';
import { BAN_REASON_MAX, banUntil, BLOCKED_WORD_MAX, BLOCKED_WORDS_PER_SITE, findBlockedWord, isBanLength, isReportReason, normalizeWords, type ReportReason } from './moderation';
import * as mod from './repository-moderation.server';
import { findComment } from './repository.server';

interface Ctx {
  site: { id: number; locale: string; timeZone: string };
  t: T;
  now: number;
  user: { id: number } | null;
}

type Refusal = { ok: false; status: 401 | 403 | 404 | 422; detail: string };
const notFound = (t: T): Refusal => ({ ok: false, status: 404, detail: t('error.api.notFound') });

/** A ban as the reader reads it: its end (or "for good") and its reason. */
export function banText(ban: { reason: string; until: number | null }, ctx: Pick<Ctx, 't' | 'site'>): string {
  return ban.until === null
    ? ctx.t('moderation.ban.forever', { reason: ban.reason })
    : ctx.t('moderation.ban.until', { until: longDateTimeLabel(ban.until, ctx.site.locale, ctx.site.timeZone), reason: ban.reason });
}

/** The reader's ban in force, as text, or null (the comment forms show it instead of the form). */
export async function commentBanNotice(db: DB, ctx: Ctx): Promise<string | null> {
  if (!ctx.user) return null;
  const ban = await mod.activeBan(db, ctx.user.id, ctx.now);
  return ban ? banText(ban, ctx) : null;
}

/** Writing refused to a banned reader: 403 with the ban's end and reason; null when not banned. */
export async function banRefusal(db: DB, userId: number, ctx: Ctx): Promise<Refusal | null> {
  const ban = await mod.activeBan(db, userId, ctx.now);
  return ban ? { ok: false, status: 403, detail: banText(ban, ctx) } : null;
}

/** 'words' when the text holds one of the site's blocked words (the comment is held, not dropped). */
export async function heldForWords(db: DB, siteId: number, body: string): Promise<'words' | undefined> {
  const words = await mod.blockedWords(db, siteId);
  return findBlockedWord(body, words.map((w) => w.word)) ? 'words' : undefined;
}

/** Holds an edited comment whose new text has a blocked word. */
export async function holdIfBlocked(db: DB, id: number, siteId: number, body: string): Promise<void> {
  if (await heldForWords(db, siteId, body)) await mod.holdComment(db, id, 'words');
}

/** Which of these comments are held (only their author sees them; the page says they wait for review). */
export { heldAmong, pinnedOf } from './repository-moderation.server';

/**
 * A reader reports a comment with a reason from the closed list. One report per reader and
 * comment: a second one answers the same and counts nothing. A held comment can still be
 * reported (readers who had it open); a removed or deleted one is 404; one's own comment is 422.
 */
export async function reportComment(db: DB, id: number, reason: string, ctx: Ctx): Promise<{ ok: true; e4pid: string } | Refusal> {
  const { t } = ctx;
  if (!ctx.user) return { ok: false, status: 401, detail: t('comments.error.login') };
  const row = await mod.findAnyComment(db, id);
  if (!row || row.siteId !== ctx.site.id || row.state === 'REMOVED' || row.deletedAt !== null) return notFound(t);
  // A held comment of someone else is found only by a report (the author sees it; others had it open).
  if (row.userId === ctx.user.id) return { ok: false, status: 422, detail: t('moderation.report.own') };
  if (!isReportReason(reason)) return { ok: false, status: 422, detail: t('moderation.report.reason') };
  await mod.addReport(db, id, ctx.user.id, reason as ReportReason, ctx.now);
  return { ok: true, e4pid: row.e4pid };
}

/** A reader mutes (or unmutes) the author of a comment: none of their comments reach the reader after. */
export async function muteAuthorOf(db: DB, id: number, on: boolean, ctx: Ctx): Promise<{ ok: true; userId: number; name: string; e4pid: string } | Refusal> {
  const { t } = ctx;
  if (!ctx.user) return { ok: false, status: 401, detail: t('comments.error.login') };
  // Muting needs a comment the reader sees; unmuting, any comment of theirs on this site (it is hidden now).
  const row = on ? await findComment(db, id, ctx.user.id) : await mod.findAnyComment(db, id);
  if (!row || row.siteId !== ctx.site.id) return notFound(t);
  if (row.userId === ctx.user.id) return { ok: false, status: 422, detail: t('moderation.mute.self') };
  const done = await muteReader(db, row.userId, on, ctx);
  return done.ok ? { ...done, e4pid: row.e4pid } : done;
}

/** A reader mutes (or unmutes) another reader by account (the muted readers list). */
export async function muteReader(db: DB, userId: number, on: boolean, ctx: Ctx): Promise<{ ok: true; userId: number; name: string } | Refusal> {
  const { t } = ctx;
  if (!ctx.user) return { ok: false, status: 401, detail: t('comments.error.login') };
  if (userId === ctx.user.id) return { ok: false, status: 422, detail: t('moderation.mute.self') };
  const account = await mod.findAccount(db, userId);
  if (!account) return notFound(t);
  await mod.setMute(db, ctx.user.id, userId, on, ctx.now);
  return { ok: true, userId, name: account.name };
}

/** The readers the signed-in reader muted. */
export async function mutedReaders(db: DB, userId: number): Promise<{ id: number; name: string }[]> {
  return mod.listMutes(db, userId);
}

// ---------------------------------------------------------------- the studio

export interface QueueItem extends mod.QueueRow {
  when: string;
}

/** The moderation queue (or one comment by number), newest reports first, with context. */
export async function moderationQueue(db: DB, siteId: number, opts: { only?: number; page: number }, locale: string, timeZone: string): Promise<{ items: QueueItem[]; hasNext: boolean }> {
  const size = 30;
  const rows = await mod.moderationQueue(db, siteId, { only: opts.only, limit: size + 1, offset: (opts.page - 1) * size });
  return { items: rows.slice(0, size).map((r) => ({ ...r, when: longDateTimeLabel(r.createdAt, locale, timeZone) })), hasNext: rows.length > size };
}

export type ModerationAction = 'restore' | 'remove' | 'pin' | 'unpin';
export const MODERATION_ACTIONS: readonly ModerationAction[] = ['restore', 'remove', 'pin', 'unpin'];
export type ModerationOutcome = 'done' | 'unchanged' | 'not-found' | 'not-pinnable';

/**
 * A moderator's action on a comment of this site, with its audit record in the same transaction:
 * restore (VISIBLE; its open reports reviewed), remove (REMOVED; reports reviewed; unpinned), pin
 * (a live, visible top-level comment; replaces the chapter's pin), unpin.
 */
export async function moderateComment(db: DB, siteId: number, id: number, action: ModerationAction, actor: AuditActor, now: number): Promise<ModerationOutcome> {
  return writeTransaction(db, async (tx) => {
    const c = await mod.findAnyComment(tx, id);
    if (!c || c.siteId !== siteId) return 'not-found';
    const object = { table: 'comments', id };
    if (action === 'restore' || action === 'remove') {
      const state = action === 'restore' ? 'VISIBLE' : 'REMOVED';
      if (c.state === state && c.reportCount === 0) return 'unchanged';
      // Read before the decision reviews the reports: the removal's reason is theirs.
      const place = c.state !== state ? await mod.commentPlace(tx, id) : undefined;
      await mod.setModeratedState(tx, id, state, now);
      if (state === 'REMOVED') await mod.removePin(tx, id);
      await writeAudit(tx, actor, { action: `comment.${action}`, object, before: { state: c.state, reports: c.reportCount }, after: { state, reports: 0 } }, now);
      // The author's inbox hears of a change of state (issue 32), in this transaction, unless they turned community items off.
      if (place) {
        const { topReason, ...where } = place;
        await notifyReader(tx, c.userId, 'community', state === 'REMOVED' ? 'COMMENT_REMOVED' : 'COMMENT_RESTORED', { ...where, ...(state === 'REMOVED' && topReason ? { reason: topReason } : {}) }, now);
      }
      return 'done';
    }
    if (action === 'unpin') {
      if (!(await mod.removePin(tx, id))) return 'unchanged';
      await writeAudit(tx, actor, { action: 'comment.unpin', object, before: { pinned: true }, after: { pinned: false } }, now);
      return 'done';
    }
    if (c.parentId !== null || c.deletedAt !== null || c.state !== 'VISIBLE') return 'not-pinnable';
    const before = await mod.setPin(tx, c, actor.userId, now);
    if (before === id) return 'unchanged';
    await writeAudit(tx, actor, { action: 'comment.pin', object, before: { chapter_id: c.chapterId, pinned: before }, after: { chapter_id: c.chapterId, pinned: id } }, now);
    return 'done';
  });
}

export type BanOutcome = { outcome: 'banned' | 'lifted' | 'unchanged'; userId: number } | { outcome: 'no-account' | 'invalid-reason' | 'invalid-length' | 'self' };

/** Bans a reader from commenting (both sites) for a length (days or `forever`) with a reason they will see; audit `comment_ban.create`. */
export async function banReader(db: DB, input: { userId: number; length: string; reason: string; /** The moderator's site: the language of the reader's email about it. */ siteId?: number }, actor: AuditActor, now: number): Promise<BanOutcome> {
  const reason = input.reason.replace(/\s+/g, ' ').trim();
  if (!reason || [...reason].length > BAN_REASON_MAX) return { outcome: 'invalid-reason' };
  if (!isBanLength(input.length)) return { outcome: 'invalid-length' };
  if (input.userId === actor.userId) return { outcome: 'self' };
  const account = await mod.findAccount(db, input.userId);
  if (!account) return { outcome: 'no-account' };
  const until = banUntil(input.length, now);
  return writeTransaction(db, async (tx) => {
    const before = await mod.upsertBan(tx, { userId: account.id, reason, until, by: actor.userId, now });
    await writeAudit(tx, actor, { action: 'comment_ban.create', object: { table: 'users', id: account.id }, before: before ?? null, after: { reason, until } }, now);
    // The reader's inbox says until when and why (issue 32), in this transaction.
    await notifyReader(tx, account.id, 'community', until === null ? 'BANNED_FOREVER' : 'BANNED_UNTIL', { reason, ...(until === null ? {} : { until }), ...(input.siteId ? { site: input.siteId } : {}) }, now);
    return { outcome: 'banned', userId: account.id };
  });
}

/** Lifts a reader's ban; audit `comment_ban.lift`; the reader's inbox says they can comment again. */
export async function liftBan(db: DB, userId: number, actor: AuditActor, now: number, /** The moderator's site: the language of the reader's email about it. */ siteId?: number): Promise<BanOutcome> {
  return writeTransaction(db, async (tx) => {
    const before = await mod.deleteBan(tx, userId);
    if (!before) return { outcome: 'unchanged', userId };
    await writeAudit(tx, actor, { action: 'comment_ban.lift', object: { table: 'users', id: userId }, before, after: null }, now);
    await notifyReader(tx, userId, 'community', 'BAN_LIFTED', siteId ? { site: siteId } : {}, now);
    return { outcome: 'lifted', userId };
  });
}

/** Bans in force, with when each ends as text. */
export async function bansInForce(db: DB, ctx: Pick<Ctx, 't' | 'site' | 'now'>): Promise<{ userId: number; name: string; email: string; reason: string; ends: string }[]> {
  const rows = await mod.listBans(db, ctx.now);
  return rows.map((b) => ({ userId: b.userId, name: b.name, email: b.email, reason: b.reason, ends: b.until === null ? ctx.t('moderation.bans.forever') : longDateTimeLabel(b.until, ctx.site.locale, ctx.site.timeZone) }));
}

/** A site's blocked words. */
export async function siteBlockedWords(db: DB, siteId: number): Promise<{ id: number; word: string }[]> {
  return mod.blockedWords(db, siteId);
}

export type WordOutcome = 'added' | 'removed' | 'unchanged' | 'invalid' | 'full' | 'not-found';

/** Adds a blocked word or phrase to a site (normalized); audit `blocked_word.add`. */
export async function addBlockedWord(db: DB, siteId: number, raw: string, actor: AuditActor, now: number): Promise<WordOutcome> {
  const word = normalizeWords(raw);
  if (!word || [...word].length > BLOCKED_WORD_MAX) return 'invalid';
  if ((await mod.blockedWords(db, siteId)).length >= BLOCKED_WORDS_PER_SITE) return 'full';
  return writeTransaction(db, async (tx) => {
    const id = await mod.insertBlockedWord(tx, siteId, word, actor.userId, now);
    if (id === null) return 'unchanged';
    await writeAudit(tx, actor, { action: 'blocked_word.add', object: { table: 'blocked_words', id }, after: { site_id: siteId, word } }, now);
    return 'added';
  });
}

/** Removes a site's blocked word; audit `blocked_word.remove`. */
export async function removeBlockedWord(db: DB, siteId: number, id: number, actor: AuditActor, now: number): Promise<WordOutcome> {
  return writeTransaction(db, async (tx) => {
    const word = await mod.deleteBlockedWord(tx, siteId, id);
    if (word === null) return 'not-found';
    await writeAudit(tx, actor, { action: 'blocked_word.remove', object: { table: 'blocked_words', id }, before: { site_id: siteId, word } }, now);
    return 'removed';
  });
}
