/**
 * The accounts' rows: users and sessions. Each function takes `db` (or a
 * transaction) first and returns rows; the services around it (users, sessions)
 * apply the rules. Private to the accounts feature.
 */
import { preparedRead, type DB } from '~/server/db';
import type { UserRow } from '@db/schema';

// ---------------------------------------------------------------- users

export function findUserByEmail(db: DB, email: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
}

export function insertUser(db: DB, u: { email: string; display_name: string; password_hash: string; is_staff: 0 | 1; is_demo: 0 | 1; created_at: number; password_changed_at: number }) {
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
