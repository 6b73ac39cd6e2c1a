/**
 * Web push's rows (docs/notifications.md, "Web push"): subscriptions, the push outbox, the daily
 * cap's counters and quiet hours. Every query about a reader's rows carries `user_id`. Private to
 * the notifications feature.
 */
import { sql } from 'kysely';
import type { DB } from '~/server/db';
import type { Category } from './repository.server';

export interface NewSubscription { user_id: number; endpoint: string; p256dh: string; auth: string; time_zone: string; site_id: number; device: string; now: number }

/**
 * Saves a browser's subscription. An endpoint is one browser's: when it is already stored (for
 * this reader or, after a sign-out and in, another reader on the same browser), it moves to this
 * reader with the new keys and a clean failure count.
 */
export async function upsertSubscription(db: DB, s: NewSubscription): Promise<void> {
  await db.insertInto('push_subscriptions')
    .values({ user_id: s.user_id, endpoint: s.endpoint, p256dh: s.p256dh, auth: s.auth, time_zone: s.time_zone, site_id: s.site_id, device: s.device, created_at: s.now, failure_count: 0, retry_at: null, last_success_at: null })
    .onConflict((oc) => oc.column('endpoint').doUpdateSet((eb) => ({
      user_id: eb.ref('excluded.user_id'), p256dh: eb.ref('excluded.p256dh'), auth: eb.ref('excluded.auth'), time_zone: eb.ref('excluded.time_zone'),
      site_id: eb.ref('excluded.site_id'), device: eb.ref('excluded.device'), failure_count: 0, retry_at: null,
    })))
    .execute();
}

/** Keeps a reader's newest `keep` subscriptions, deleting older ones. */
export async function trimSubscriptions(db: DB, userId: number, keep: number): Promise<void> {
  const old = await db.selectFrom('push_subscriptions').select('id').where('user_id', '=', userId).orderBy('created_at', 'desc').orderBy('id', 'desc').offset(keep).limit(1000).execute();
  if (old.length > 0) await db.deleteFrom('push_subscriptions').where('user_id', '=', userId).where('id', 'in', old.map((r) => r.id)).execute();
}

/** Deletes this reader's subscription of `endpoint`; returns whether there was one. */
export async function deleteSubscription(db: DB, userId: number, endpoint: string): Promise<boolean> {
  const r = await db.deleteFrom('push_subscriptions').where('user_id', '=', userId).where('endpoint', '=', endpoint).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

export function subscriptionsOf(db: DB, userId: number) {
  return db.selectFrom('push_subscriptions')
    .select(['id', 'endpoint', 'p256dh', 'auth', 'time_zone', 'site_id', 'device', 'created_at', 'last_success_at', 'failure_count', 'retry_at'])
    .where('user_id', '=', userId).orderBy('id').execute();
}

export async function subscriptionSucceeded(db: DB, id: number, now: number): Promise<void> {
  await db.updateTable('push_subscriptions').set({ last_success_at: now, failure_count: 0, retry_at: null }).where('id', '=', id).execute();
}

export async function subscriptionFailed(db: DB, id: number, failures: number, retryAt: number): Promise<void> {
  await db.updateTable('push_subscriptions').set({ failure_count: failures, retry_at: retryAt }).where('id', '=', id).execute();
}

/** The push service says the subscription is gone (404/410). */
export async function deleteSubscriptionById(db: DB, id: number): Promise<void> {
  await db.deleteFrom('push_subscriptions').where('id', '=', id).execute();
}

// ---------------------------------------------------------------- the outbox

/** Readers among `userIds` who turned this category's push on (push is off by default: only a row says on). */
export async function pushOn(db: DB, userIds: readonly number[], category: Category): Promise<number[]> {
  if (userIds.length === 0) return [];
  const rows = await db.selectFrom('notification_prefs').select('user_id')
    .where('user_id', 'in', [...userIds]).where('category', '=', category).where('channel', '=', 'push').where('enabled', '=', 1)
    .execute();
  return rows.map((r) => Number(r.user_id));
}

export async function queuePushes(db: DB, rows: readonly { user_id: number; category: Category; kind: string; series_id: number | null; site_id: number | null; data: string; due_at: number }[]): Promise<void> {
  if (rows.length === 0) return;
  await db.insertInto('push_outbox').values([...rows]).execute();
}

/**
 * Takes up to `limit` due pushes: one DELETE … RETURNING, so two workers (or a worker and a test)
 * never take the same row. A push taken and then lost to a crash is not sent (the inbox has it).
 */
export async function takeDuePushes(db: DB, now: number, limit: number) {
  return db.deleteFrom('push_outbox')
    .where('id', 'in', (qb) => qb.selectFrom('push_outbox').select('id').where('due_at', '<=', now).orderBy('due_at').orderBy('id').limit(limit))
    .returning(['id', 'user_id', 'category', 'kind', 'series_id', 'site_id', 'data', 'due_at'])
    .execute();
}

// ---------------------------------------------------------------- the cap

/**
 * Counts one push for the reader's day unless `cap` were already sent: one atomic upsert (its
 * WHERE keeps the count at the cap), so two workers cannot both send the sixth. True when counted.
 */
export async function countPush(db: DB, userId: number, day: string, cap: number): Promise<boolean> {
  const row = await db.insertInto('push_daily').values({ user_id: userId, day, sent: 1 })
    .onConflict((oc) => oc.columns(['user_id', 'day']).doUpdateSet({ sent: sql`push_daily.sent + 1` }).where('push_daily.sent', '<', cap))
    .returning('sent')
    .executeTakeFirst();
  return row !== undefined;
}

/** Forgets the counters of days before `day` (they only ever matter on their own day). */
export async function pruneDaily(db: DB, day: string): Promise<void> {
  await db.deleteFrom('push_daily').where('day', '<', day).execute();
}

// ---------------------------------------------------------------- quiet hours

export function quietHoursRow(db: DB, userId: number) {
  return db.selectFrom('push_quiet_hours').select(['enabled', 'start_hour', 'end_hour']).where('user_id', '=', userId).executeTakeFirst();
}

export async function saveQuietHours(db: DB, userId: number, q: { enabled: boolean; startHour: number; endHour: number }): Promise<void> {
  await db.insertInto('push_quiet_hours').values({ user_id: userId, enabled: q.enabled ? 1 : 0, start_hour: q.startHour, end_hour: q.endHour })
    .onConflict((oc) => oc.column('user_id').doUpdateSet((eb) => ({ enabled: eb.ref('excluded.enabled'), start_hour: eb.ref('excluded.start_hour'), end_hour: eb.ref('excluded.end_hour') })))
    .execute();
}
