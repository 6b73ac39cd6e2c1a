/**
 * The reader's own account page (/my/account/, the spec's "account" controller): the password
 * (asks the current one), the display name, the sessions (sign out one, or all others).
 */
import crypto from 'node:crypto';
import type { DB } from '~/server/db';
import { sessionAlive, sessionRemaining } from './cookie';
import { userAgentSummary } from './device';
import { verifyPassword } from './password.server';
import { AccountInputError, changePassword } from './users.server';
import { nameError, normalizeName, type FieldError } from './validation';
import * as repo from './repository.server';

export type PasswordChange = { ok: true } | { ok: false; field: 'current' | 'password'; error: FieldError | 'account.password.wrongCurrent' };

/** Checks the current password, sets the new one and ends every other session and reset link. */
export async function changeOwnPassword(db: DB, input: { userId: number; sessionId: string | null; current: string; password: string }, now: number): Promise<PasswordChange> {
  const row = await repo.passwordHashOf(db, input.userId);
  if (!row || !(await verifyPassword(row.password_hash, input.current.slice(0, 1024)))) return { ok: false, field: 'current', error: 'account.password.wrongCurrent' };
  try {
    await changePassword(db, input.userId, input.password, input.sessionId, now);
    return { ok: true };
  } catch (e) {
    if (e instanceof AccountInputError) return { ok: false, field: 'password', error: e.key as FieldError };
    throw e;
  }
}

/** Sets the display name; a message key when it is not acceptable. */
export async function changeDisplayName(db: DB, userId: number, name: string): Promise<FieldError | null> {
  const invalid = nameError(name);
  if (invalid) return invalid;
  await repo.setDisplayName(db, userId, normalizeName(name));
  return null;
}

/** A session as its owner sees it: a handle (not its id, which is half of a cookie), the device, times. */
export interface OwnSession {
  handle: string;
  current: boolean;
  /** "Firefox · Linux", or null when the browser sent nothing. */
  device: string | null;
  /** ISO country where it began (COUNTRY_HEADER), or null. */
  country: string | null;
  createdAt: number;
  lastSeenAt: number;
  endsAt: number;
}

function handleOf(sessionId: string): string {
  return crypto.hash('sha256', `session-handle:${sessionId}`, 'hex').slice(0, 24);
}

/** The reader's live sessions, this one first, then by last use. */
export async function ownSessions(db: DB, userId: number, currentSessionId: string | null, now: number): Promise<OwnSession[]> {
  return (await repo.sessionIdsOfUser(db, userId))
    .filter((s) => sessionAlive(s, now))
    .map((s) => ({ handle: handleOf(s.id), current: s.id === currentSessionId, device: userAgentSummary(s.user_agent), country: s.country, createdAt: s.created_at, lastSeenAt: s.last_seen_at, endsAt: now + sessionRemaining(s, now) }))
    .sort((a, b) => Number(b.current) - Number(a.current) || b.lastSeenAt - a.lastSeenAt);
}

/** Ends one of the reader's sessions by its handle; false when none matched (already gone). */
export async function signOutSession(db: DB, userId: number, handle: string): Promise<boolean> {
  const match = (await repo.sessionIdsOfUser(db, userId)).find((s) => handleOf(s.id) === handle);
  return match ? repo.deleteSessionOf(db, userId, match.id) : false;
}

/**
 * Ends every session of the reader but this one, and any email change waiting for confirmation
 * (a reader signing out a device they do not know wants its requests gone too); returns how many
 * sessions ended.
 */
export function signOutOthers(db: DB, userId: number, currentSessionId: string): Promise<number> {
  return db.transaction().execute(async (tx) => {
    const ended = await repo.deleteUserSessions(tx, userId, currentSessionId);
    await repo.deleteEmailChanges(tx, userId);
    return ended;
  });
}
