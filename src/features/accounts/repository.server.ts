/**
 * The accounts' rows: users and sessions. Each function takes `db` (or a
 * transaction) first and returns rows; the services around it (users, sessions)
 * apply the rules. Private to the accounts feature.
 */
import { preparedRead, readRows, type DB, type WriteTx } from '~/server/db';
import type { UserRow } from '@db/schema';
import type { Capability } from '~/server/staff';

// ---------------------------------------------------------------- users

export function findUserByEmail(db: DB, email: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
}

/** Account ids by email (emails already normalized); unknown emails are absent. */
export async function idsByEmail(db: DB, emails: readonly string[]): Promise<Map<string, number>> {
  if (!emails.length) return new Map();
  const rows = await db.selectFrom('users').select(['id', 'email']).where('email', 'in', emails).execute();
  return new Map(rows.map((r) => [r.email, Number(r.id)]));
}

/** The emails of these accounts. */
export async function emailsById(db: DB, ids: readonly number[]): Promise<Map<number, string>> {
  if (!ids.length) return new Map();
  const rows = await db.selectFrom('users').select(['id', 'email']).where('id', 'in', ids).execute();
  return new Map(rows.map((r) => [Number(r.id), r.email]));
}

export function insertUser(db: DB, u: { email: string; display_name: string; password_hash: string; is_staff: 0 | 1; is_demo: 0 | 1; created_at: number; password_changed_at: number }) {
  return db.insertInto('users').values(u).returning(['id', 'email', 'display_name', 'is_staff']).executeTakeFirstOrThrow();
}

// ---------------------------------------------------------------- capabilities

/** An account's capabilities (asked only for accounts marked is_staff: see sessions.server.ts). */
const capabilityRows = preparedRead((db, userId: number) => db
  .selectFrom('user_capabilities').select('capability').where('user_id', '=', userId).orderBy('capability'));
export async function capabilitiesOf(db: DB, userId: number): Promise<Capability[]> {
  return (await capabilityRows(db, userId)).map((r) => r.capability);
}

export async function insertCapability(tx: WriteTx, row: { user_id: number; capability: Capability; granted_at: number; granted_by: number | null }): Promise<void> {
  await tx.insertInto('user_capabilities').values(row).execute();
}

/** True when a row was removed. */
export async function deleteCapability(tx: WriteTx, userId: number, capability: Capability): Promise<boolean> {
  const r = await tx.deleteFrom('user_capabilities').where('user_id', '=', userId).where('capability', '=', capability).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

/** Keeps users.is_staff equal to "holds any capability" (the session look-up reads only the flag). */
export async function syncStaffFlag(tx: WriteTx, userId: number): Promise<void> {
  const any = await tx.selectFrom('user_capabilities').select('user_id').where('user_id', '=', userId).limit(1).executeTakeFirst();
  await tx.updateTable('users').set({ is_staff: any ? 1 : 0 }).where('id', '=', userId).execute();
}

export async function setPassword(db: DB, userId: number, passwordHash: string, now: number): Promise<void> {
  await db.updateTable('users').set({ password_hash: passwordHash, password_changed_at: now }).where('id', '=', userId).execute();
}

// ---------------------------------------------------------------- sessions

export async function insertSession(db: DB, s: { id: string; secret_hash: string; user_id: number; created_at: number; last_seen_at: number; expires_at: number; user_agent: string | null; country: string | null }): Promise<void> {
  await db.insertInto('sessions').values(s).execute();
}

/** A session with its user's account columns (every signed-in request asks: built once, read synchronously on SQLite). */
const sessionRows = preparedRead((db, sessionId: string) => db
  .selectFrom('sessions')
  .innerJoin('users', 'users.id', 'sessions.user_id')
  .select([
    'sessions.id as session_id', 'sessions.secret_hash', 'sessions.last_seen_at', 'sessions.expires_at', 'sessions.created_at as signed_in_at',
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

/** A user's sessions, newest first (the support desk lists the live ones; never the secret). */
export async function sessionsOfUser(db: DB, userId: number) {
  const rows = await db.selectFrom('sessions').select(['created_at', 'last_seen_at', 'expires_at', 'user_agent'])
    .where('user_id', '=', userId).orderBy('created_at', 'desc').limit(200).execute();
  return rows.map((r) => ({ created_at: Number(r.created_at), last_seen_at: Number(r.last_seen_at), expires_at: Number(r.expires_at), user_agent: r.user_agent }));
}

/** Deletes every session of a user but `keep` (null: all); returns how many ended. */
export async function deleteUserSessions(db: DB, userId: number, keep: string | null = null): Promise<number> {
  let q = db.deleteFrom('sessions').where('user_id', '=', userId);
  if (keep) q = q.where('id', '!=', keep);
  const result = await q.executeTakeFirst();
  return Number(result.numDeletedRows ?? 0);
}

/** Every account holding a capability, with them, by email (the studio's staff page). */
export async function staffAccounts(db: DB): Promise<{ id: number; email: string; display_name: string; capability: Capability }[]> {
  const rows = await readRows(db, db.selectFrom('user_capabilities').innerJoin('users', 'users.id', 'user_capabilities.user_id')
    .select(['users.id', 'users.email', 'users.display_name', 'user_capabilities.capability'])
    .orderBy('users.email').orderBy('user_capabilities.capability'));
  return rows.map((r) => ({ ...r, id: Number(r.id) }));
}

export async function setDisplayName(db: DB, userId: number, displayName: string): Promise<void> {
  await db.updateTable('users').set({ display_name: displayName }).where('id', '=', userId).execute();
}

export function passwordHashOf(db: DB, userId: number) {
  return db.selectFrom('users').select(['email', 'password_hash']).where('id', '=', userId).executeTakeFirst();
}

/** A user's session ids with their times, newest first (the account page turns each id into a handle). */
export async function sessionIdsOfUser(db: DB, userId: number) {
  const rows = await db.selectFrom('sessions').select(['id', 'created_at', 'last_seen_at', 'expires_at', 'user_agent', 'country'])
    .where('user_id', '=', userId).orderBy('created_at', 'desc').limit(200).execute();
  return rows.map((r) => ({ id: r.id, created_at: Number(r.created_at), last_seen_at: Number(r.last_seen_at), expires_at: Number(r.expires_at), user_agent: r.user_agent, country: r.country }));
}

export async function deleteSessionOf(db: DB, userId: number, sessionId: string): Promise<boolean> {
  const r = await db.deleteFrom('sessions').where('id', '=', sessionId).where('user_id', '=', userId).executeTakeFirst();
  return Number(r.numDeletedRows ?? 0) > 0;
}

// ---------------------------------------------------------------- email changes

export async function insertEmailChange(tx: WriteTx, row: { token_hash: string; user_id: number; new_email: string; created_at: number; expires_at: number }): Promise<void> {
  await tx.insertInto('email_changes').values(row).execute();
}

export function emailChange(db: DB, tokenHash: string) {
  return db.selectFrom('email_changes').select(['user_id', 'new_email', 'expires_at', 'used_at']).where('token_hash', '=', tokenHash).executeTakeFirst();
}

export async function useEmailChange(tx: WriteTx, tokenHash: string, now: number): Promise<boolean> {
  const r = await tx.updateTable('email_changes').set({ used_at: now }).where('token_hash', '=', tokenHash).where('used_at', 'is', null).where('expires_at', '>', now).executeTakeFirst();
  return Number(r.numUpdatedRows ?? 0) > 0;
}

export async function deleteEmailChanges(db: DB, userId: number): Promise<void> {
  await db.deleteFrom('email_changes').where('user_id', '=', userId).execute();
}

export async function setEmail(tx: WriteTx, userId: number, email: string): Promise<void> {
  await tx.updateTable('users').set({ email }).where('id', '=', userId).execute();
}

// ---------------------------------------------------------------- password resets

export async function insertPasswordReset(tx: WriteTx, row: { token_hash: string; user_id: number; created_at: number; expires_at: number }): Promise<void> {
  await tx.insertInto('password_resets').values(row).execute();
}

export function passwordReset(db: DB, tokenHash: string) {
  return db.selectFrom('password_resets').select(['user_id', 'expires_at', 'used_at']).where('token_hash', '=', tokenHash).executeTakeFirst();
}

/** Marks a link used; false when it already was (or is gone). */
export async function usePasswordReset(tx: WriteTx, tokenHash: string, now: number): Promise<boolean> {
  const r = await tx.updateTable('password_resets').set({ used_at: now }).where('token_hash', '=', tokenHash).where('used_at', 'is', null).where('expires_at', '>', now).executeTakeFirst();
  return Number(r.numUpdatedRows ?? 0) > 0;
}

/** Every reset link of an account (after any password change none may work). */
export async function deletePasswordResets(db: DB, userId: number): Promise<void> {
  await db.deleteFrom('password_resets').where('user_id', '=', userId).execute();
}

/**
 * What a new password ends (a change or a reset): every session but `keep`, every reset link and
 * every pending email change. Whoever knew the old password may have asked for either link; left
 * alive, an email change would move the account away after its owner took it back.
 */
export async function endAccessAfterNewPassword(db: DB, userId: number, keep: string | null = null): Promise<void> {
  await deleteUserSessions(db, userId, keep);
  await deletePasswordResets(db, userId);
  await deleteEmailChanges(db, userId);
}

// ---------------------------------------------------------------- the reader's own data (export, account deletion)

/** The account row as its owner may see it: never the password hash. */
export function profileForExport(db: DB, userId: number) {
  return db.selectFrom('users').select(['id', 'email', 'display_name', 'created_at', 'password_changed_at', 'is_staff']).where('id', '=', userId).executeTakeFirst();
}

/** Pending and past email changes and reset links of the account, without their token hashes. */
export async function linksForExport(db: DB, userId: number) {
  const [emailChanges, resets] = await Promise.all([
    db.selectFrom('email_changes').select(['new_email', 'created_at', 'expires_at', 'used_at']).where('user_id', '=', userId).orderBy('created_at').execute(),
    db.selectFrom('password_resets').select(['created_at', 'expires_at', 'used_at']).where('user_id', '=', userId).orderBy('created_at').execute(),
  ]);
  return { emailChanges, resets };
}

/** The password hash and email read again inside the deletion's transaction (a change since the check refuses it). */
export function credentialsIn(tx: WriteTx, userId: number) {
  return tx.selectFrom('users').select(['email', 'password_hash']).where('id', '=', userId).executeTakeFirst();
}

/** The addresses the account asked to move to (their confirmation links are in the outbox). */
export async function newEmailsOf(tx: WriteTx, userId: number): Promise<string[]> {
  return (await tx.selectFrom('email_changes').select('new_email').where('user_id', '=', userId).execute()).map((r) => r.new_email);
}

/**
 * Erases the account's personal rows and anonymises the account row (account deletion, in its
 * transaction): sessions, reset and email-change links and capabilities go; the row keeps its id
 * and creation time (money records point at it) with an unusable unique email, no name and no
 * password hash, so nobody can sign in to it and the address is free again.
 */
export async function anonymiseAccount(tx: WriteTx, userId: number, placeholderEmail: string, now: number): Promise<{ sessions: number; links: number }> {
  const s = await tx.deleteFrom('sessions').where('user_id', '=', userId).executeTakeFirst();
  const r = await tx.deleteFrom('password_resets').where('user_id', '=', userId).executeTakeFirst();
  const e = await tx.deleteFrom('email_changes').where('user_id', '=', userId).executeTakeFirst();
  await tx.deleteFrom('user_capabilities').where('user_id', '=', userId).execute();
  await tx.updateTable('users').set({ email: placeholderEmail, display_name: '', password_hash: '', is_staff: 0, password_changed_at: now }).where('id', '=', userId).execute();
  return { sessions: Number(s.numDeletedRows), links: Number(r.numDeletedRows) + Number(e.numDeletedRows) };
}
