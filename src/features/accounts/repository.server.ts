/**
 * The accounts' rows: users, sessions and rate-limit counters. Each function takes `db` (or a
 * transaction) first and returns rows; the services around it (users, sessions, rate limits)
 * apply the rules. Private to the accounts feature.
 */
import { sql } from 'kysely';
import { preparedRead, type DB } from '~/server/db';
import type { UserRow } from '@db/schema';

// ---------------------------------------------------------------- users

export function findUserByEmail(db: DB, email: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
}

export function insertUser(db: DB, u: { email: string; display_name: string; password_hash: string; is_staff: 0 | 1; created_at: number; password_changed_at: number }) {
  return db.insertInto('users').values(u).returning(['id', 'email', 'display_name', 'is_staff']).executeTakeFirstOrThrow();
}

export async function setPassword(db: DB, userId: number, passwordHash: string, now: number): Promise<void> {
  await db.updateTable('users').set({ password_hash: passwordHash, password_changed_at: now }).where('id', '=', userId).execute();
}

// ---------------------------------------------------------------- sessions

export async function insertSession(db: DB, s: { id: string; secret_hash: string; user_id: number; created_at: number; last_seen_at: number; expires_at: number }): Promise<void> {
  await db.insertInto('sessions').values(s).execute();
}

/** A session with its user's account columns (every signed-in request asks: built once, read synchronously on SQLite). */
const sessionRows = preparedRead((db, sessionId: string) => db
  .selectFrom('sessions')
  .innerJoin('users', 'users.id', 'sessions.user_id')
  .select([
    'sessions.id as session_id', 'sessions.secret_hash', 'sessions.last_seen_at', 'sessions.expires_at',
    'users.id', 'users.email', 'users.display_name', 'users.is_staff',
  ])
  .where('sessions.id', '=', sessionId));
export function sessionWithUser(db: DB, sessionId: string) {
  return sessionRows(db, sessionId).then((rows) => rows[0]);
}

export function sessionTimes(db: DB, sessionId: string, userId: number) {
  return db.selectFrom('sessions').select(['last_seen_at', 'expires_at']).where('id', '=', sessionId).where('user_id', '=', userId).executeTakeFirst();
}

export async function touchSession(db: DB, sessionId: string, now: number): Promise<void> {
  await db.updateTable('sessions').set({ last_seen_at: now }).where('id', '=', sessionId).execute();
}

export async function deleteSession(db: DB, sessionId: string): Promise<void> {
  await db.deleteFrom('sessions').where('id', '=', sessionId).execute();
}

/** Deletes every session of a user but `keep` (null: all). */
export async function deleteUserSessions(db: DB, userId: number, keep: string | null = null): Promise<void> {
  let q = db.deleteFrom('sessions').where('user_id', '=', userId);
  if (keep) q = q.where('id', '!=', keep);
  await q.execute();
}

// ---------------------------------------------------------------- rate limits

/**
 * Counts one attempt in a bucket: one statement (an upsert that restarts a window that ended at
 * or before `ended`), valid on SQLite and PostgreSQL, so concurrent processes count right.
 */
export function countAttempt(db: DB, bucket: string, now: number, ended: number) {
  return db
    .insertInto('rate_limits')
    .values({ bucket, window_start: now, count: 1 })
    .onConflict((oc) =>
      oc.column('bucket').doUpdateSet({
        count: sql<number>`case when rate_limits.window_start <= ${ended} then 1 else rate_limits.count + 1 end`,
        window_start: sql<number>`case when rate_limits.window_start <= ${ended} then ${now} else rate_limits.window_start end`,
      }),
    )
    .returning(['window_start', 'count'])
    .executeTakeFirstOrThrow();
}

/** Deletes up to `limit` counters whose window started at or before `ended`. */
export async function deleteEndedCounters(db: DB, ended: number, limit: number): Promise<void> {
  await db
    .deleteFrom('rate_limits')
    .where('bucket', 'in', (qb) => qb.selectFrom('rate_limits').select('bucket').where('window_start', '<=', ended).limit(limit))
    .execute();
}

export async function deleteCounter(db: DB, bucket: string): Promise<void> {
  await db.deleteFrom('rate_limits').where('bucket', '=', bucket).execute();
}
