/**
 * The notifications' rows: the inbox (notifications), the fan-out's idempotency keys
 * (notification_deliveries) and the reader's preferences (notification_prefs). Every query that
 * reads or changes a reader's items carries `user_id`. Private to the notifications feature.
 */
import { sql } from 'kysely';
import type { DB } from '~/server/db';
import type { NotificationTable } from '@db/schema';

export type Category = NotificationTable['category'];
export type Channel = 'inbox' | 'push' | 'email';

// ---------------------------------------------------------------- fan-out

/**
 * Claims (reader, chapter) pairs: inserts the ones not yet there and returns the readers whose
 * row this call inserted. Two checks running at once (or twice) claim each pair once.
 */
export async function claimDeliveries(db: DB, userIds: readonly number[], chapterId: number, now: number): Promise<number[]> {
  if (userIds.length === 0) return [];
  const rows = await db
    .insertInto('notification_deliveries')
    .values(userIds.map((user_id) => ({ user_id, chapter_id: chapterId, created_at: now })))
    .onConflict((oc) => oc.columns(['chapter_id', 'user_id']).doNothing())
    .returning('user_id')
    .execute();
  return rows.map((r) => Number(r.user_id));
}

/**
 * Folds a chapter into each reader's chapter item of the series made after `since` (the cap):
 * the item now names this chapter, counts one more, and is unread again. Returns the readers
 * whose item was folded into.
 */
export async function foldChapter(db: DB, userIds: readonly number[], seriesId: number, chapterId: number, siteId: number | null, data: string, since: number, now: number): Promise<number[]> {
  if (userIds.length === 0) return [];
  const rows = await db
    .updateTable('notifications')
    .set({ chapter_id: chapterId, site_id: siteId, data, chapter_count: sql`chapter_count + 1`, updated_at: now, read_at: null })
    .where('user_id', 'in', [...userIds])
    .where('kind', '=', 'CHAPTER')
    .where('series_id', '=', seriesId)
    .where('created_at', '>', since)
    .returning('user_id')
    .execute();
  return [...new Set(rows.map((r) => Number(r.user_id)))];
}

export async function insertItems(db: DB, rows: readonly { user_id: number; category: Category; kind: string; series_id: number | null; chapter_id: number | null; site_id: number | null; data: string; now: number }[]): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insertInto('notifications')
    .values(rows.map(({ now, ...r }) => ({ ...r, created_at: now, updated_at: now, read_at: null })))
    .execute();
}

// ---------------------------------------------------------------- inbox

/** Where an inbox shows an item: items of this site, and items of no site (money). */
function ofSite(db: DB, userId: number, siteId: number) {
  return db
    .selectFrom('notifications')
    .where('user_id', '=', userId)
    .where((eb) => eb.or([eb('site_id', 'is', null), eb('site_id', '=', siteId)]));
}

/** Unread items, counted up to `cap` (the bell shows "99+" beyond). */
export async function unreadCount(db: DB, userId: number, siteId: number, cap: number): Promise<number> {
  const row = await db
    .selectFrom(ofSite(db, userId, siteId).select('id').where('read_at', 'is', null).limit(cap).as('u'))
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

export function inboxPage(db: DB, userId: number, siteId: number, limit: number, offset: number) {
  return ofSite(db, userId, siteId)
    .select(['id', 'category', 'kind', 'series_id', 'chapter_id', 'chapter_count', 'data', 'created_at', 'updated_at', 'read_at'])
    .orderBy('updated_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
}

export async function inboxCount(db: DB, userId: number, siteId: number): Promise<number> {
  const row = await ofSite(db, userId, siteId).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Marks one item of this reader read; returns whether it was theirs. */
export async function markRead(db: DB, userId: number, id: number, now: number): Promise<boolean> {
  const r = await db.updateTable('notifications').set({ read_at: now }).where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

export async function markAllRead(db: DB, userId: number, siteId: number, now: number): Promise<void> {
  await db
    .updateTable('notifications')
    .set({ read_at: now })
    .where('user_id', '=', userId)
    .where('read_at', 'is', null)
    .where((eb) => eb.or([eb('site_id', 'is', null), eb('site_id', '=', siteId)]))
    .execute();
}

// ---------------------------------------------------------------- preferences

export function prefRows(db: DB, userId: number) {
  return db.selectFrom('notification_prefs').select(['category', 'channel', 'enabled']).where('user_id', '=', userId).execute();
}

/** Readers among `userIds` who turned a channel of a category off (everyone else has it on, or has the default). */
export async function turnedOff(db: DB, userIds: readonly number[], category: Category, channel: Channel): Promise<Set<number>> {
  if (userIds.length === 0) return new Set();
  const rows = await db
    .selectFrom('notification_prefs')
    .select('user_id')
    .where('user_id', 'in', [...userIds])
    .where('category', '=', category)
    .where('channel', '=', channel)
    .where('enabled', '=', 0)
    .execute();
  return new Set(rows.map((r) => Number(r.user_id)));
}

export async function savePrefs(db: DB, userId: number, prefs: readonly { category: Category; channel: Channel; enabled: boolean }[]): Promise<void> {
  if (prefs.length === 0) return;
  await db
    .insertInto('notification_prefs')
    .values(prefs.map((p) => ({ user_id: userId, category: p.category, channel: p.channel, enabled: p.enabled ? 1 : 0 })))
    .onConflict((oc) => oc.columns(['user_id', 'category', 'channel']).doUpdateSet((eb) => ({ enabled: eb.ref('excluded.enabled') })))
    .execute();
}

// ---------------------------------------------------------------- the reader's own data (export, account deletion)

/** Every inbox item of the reader, both sites, oldest first (the data export). */
export function itemsForExport(db: DB, userId: number) {
  return db.selectFrom('notifications').select(['category', 'kind', 'site_id', 'chapter_count', 'data', 'created_at', 'updated_at', 'read_at'])
    .where('user_id', '=', userId).orderBy('created_at').orderBy('id').execute();
}

/** Deletes the reader's inbox, fan-out keys and preferences (account deletion, in its transaction). */
export async function eraseNotificationsOf(db: DB, userId: number): Promise<{ notifications: number; preferences: number; push_subscriptions: number }> {
  const n = await db.deleteFrom('notifications').where('user_id', '=', userId).executeTakeFirst();
  await db.deleteFrom('notification_deliveries').where('user_id', '=', userId).execute();
  const p = await db.deleteFrom('notification_prefs').where('user_id', '=', userId).executeTakeFirst();
  // Web push: the devices (their endpoints are personal data), pushes not yet sent, the day's count, quiet hours.
  const s = await db.deleteFrom('push_subscriptions').where('user_id', '=', userId).executeTakeFirst();
  await db.deleteFrom('push_outbox').where('user_id', '=', userId).execute();
  await db.deleteFrom('push_daily').where('user_id', '=', userId).execute();
  await db.deleteFrom('push_quiet_hours').where('user_id', '=', userId).execute();
  await db.deleteFrom('notification_digests').where('user_id', '=', userId).execute();
  return { notifications: Number(n.numDeletedRows), preferences: Number(p.numDeletedRows), push_subscriptions: Number(s.numDeletedRows) };
}

/** The reader's push devices, quiet hours and email digest, for the data export (never the endpoint's keys). */
export async function deliveryForExport(db: DB, userId: number) {
  const [devices, quiet, digest] = await Promise.all([
    db.selectFrom('push_subscriptions').select(['device', 'site_id', 'time_zone', 'created_at', 'last_success_at']).where('user_id', '=', userId).orderBy('id').execute(),
    db.selectFrom('push_quiet_hours').select(['enabled', 'start_hour', 'end_hour']).where('user_id', '=', userId).executeTakeFirst(),
    db.selectFrom('notification_digests').select(['frequency', 'site_id', 'last_digest_at']).where('user_id', '=', userId).executeTakeFirst(),
  ]);
  return { devices, quiet, digest };
}

/** A reader's email and name, for an email about their own account (a moderation decision). */
export function contactOf(db: DB, userId: number) {
  return db.selectFrom('users').select(['email', 'display_name as name']).where('id', '=', userId).executeTakeFirst();
}
