/**
 * The email digest's rows (notification_digests) and the unread chapter items it lists. Private to
 * the notifications feature (digest.server.ts).
 */
import { sql, type ExpressionBuilder } from 'kysely';
import type { DB } from '~/server/db';
import type { Database } from '@db/schema';

export type Frequency = 'off' | 'daily' | 'weekly';
export const PERIOD_SECONDS = { daily: 24 * 3600, weekly: 7 * 24 * 3600 } as const;

export async function digestOf(db: DB, userId: number): Promise<{ frequency: Frequency; lastDigestAt: number } | null> {
  const r = await db.selectFrom('notification_digests').select(['frequency', 'last_digest_at']).where('user_id', '=', userId).executeTakeFirst();
  return r ? { frequency: r.frequency, lastDigestAt: Number(r.last_digest_at) } : null;
}

/**
 * Saves a reader's frequency and the site it was chosen on. Turned on from off (or chosen for the
 * first time), the period starts now: the first digest tells of what comes after.
 */
export async function saveDigest(db: DB, userId: number, frequency: Frequency, siteId: number, now: number): Promise<void> {
  await db.insertInto('notification_digests')
    .values({ user_id: userId, frequency, site_id: siteId, last_digest_at: now, updated_at: now })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({
      frequency, site_id: siteId, updated_at: now,
      last_digest_at: sql<number>`case when notification_digests.frequency = 'off' then ${now} else notification_digests.last_digest_at end`,
    }))
    .execute();
}

/** Whose digest is due at `now`: daily, a day or more since the last; weekly, seven days or more. */
function due(now: number) {
  return (eb: ExpressionBuilder<Database, 'notification_digests'>) => eb.or([
    eb.and([eb('notification_digests.frequency', '=', 'daily'), eb('notification_digests.last_digest_at', '<=', now - PERIOD_SECONDS.daily)]),
    eb.and([eb('notification_digests.frequency', '=', 'weekly'), eb('notification_digests.last_digest_at', '<=', now - PERIOD_SECONDS.weekly)]),
  ]);
}

/** Up to `limit` readers whose digest is due, after `after` in user-id order, with their address and name. */
export async function dueDigests(db: DB, now: number, after: number, limit: number) {
  const rows = await db.selectFrom('notification_digests').innerJoin('users', 'users.id', 'notification_digests.user_id')
    .select(['notification_digests.user_id', 'notification_digests.site_id', 'notification_digests.last_digest_at', 'users.email', 'users.display_name'])
    .where(due(now))
    .where('notification_digests.user_id', '>', after)
    .orderBy('notification_digests.user_id')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ userId: Number(r.user_id), siteId: Number(r.site_id), since: Number(r.last_digest_at), email: r.email, name: r.display_name }));
}

/**
 * Claims the period for the readers among `userIds` whose digest is still due (the conditional
 * UPDATE): their last_digest_at becomes `now`. Returns the readers this call claimed; a second pass,
 * or another machine's, finds them not due and claims none.
 */
export async function claimDigests(db: DB, userIds: readonly number[], now: number): Promise<number[]> {
  if (userIds.length === 0) return [];
  const rows = await db.updateTable('notification_digests')
    .set({ last_digest_at: now })
    .where('user_id', 'in', [...userIds])
    .where(due(now))
    .returning('user_id')
    .execute();
  return rows.map((r) => Number(r.user_id));
}

/** The unread chapter items of these readers updated in (since, now], newest first. */
export async function unreadChapterItems(db: DB, userIds: readonly number[], since: number, now: number) {
  if (userIds.length === 0) return [];
  return db.selectFrom('notifications')
    .select(['id', 'user_id', 'series_id', 'site_id', 'chapter_count', 'data', 'updated_at'])
    .where('user_id', 'in', [...userIds])
    .where('kind', '=', 'CHAPTER')
    .where('read_at', 'is', null)
    .where('updated_at', '>', since)
    .where('updated_at', '<=', now)
    .orderBy('user_id')
    .orderBy('updated_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}
