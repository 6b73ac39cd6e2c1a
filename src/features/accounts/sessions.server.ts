import type { DB, WriteTx } from '~/server/db';
import { ABSOLUTE_LIFETIME, IDLE_TIMEOUT, needsRefresh, sessionAlive, sessionRemaining } from './cookie';
import { generateSessionToken, parseSessionToken, secretMatches } from './token.server';
import { type User, toUser } from './users.server';
import * as repo from './repository.server';

export interface NewSession {
  id: string;
  /** Cookie value; never stored. */
  token: string;
  /** Seconds the cookie should live. */
  maxAge: number;
}

/**
 * Starts a new session for a user (every login gets a fresh one: no fixation), noting the browser
 * it began in (the support desk lists it).
 */
export async function createSession(db: DB, userId: number, now = Math.floor(Date.now() / 1000), userAgent: string | null = null, country: string | null = null): Promise<NewSession> {
  const t = generateSessionToken();
  await repo.insertSession(db, { id: t.id, secret_hash: t.secretHash, user_id: userId, created_at: now, last_seen_at: now, expires_at: now + ABSOLUTE_LIFETIME, user_agent: userAgent ? userAgent.slice(0, 300) : null, country: country && /^[A-Z]{2}$/.test(country) ? country : null });
  return { id: t.id, token: t.token, maxAge: Math.min(IDLE_TIMEOUT, ABSOLUTE_LIFETIME) };
}

export interface ValidSession {
  sessionId: string;
  user: User;
  /** When the password was typed for this session (its creation): recent sign-in checks read it. */
  signedInAt: number;
  /** Set when last_seen_at moved: re-send the cookie with this Max-Age. */
  refreshedMaxAge: number | null;
}

/**
 * Resolves a cookie value to its session and user. Unknown, malformed, mismatched or expired
 * tokens give null; an expired session is deleted on the way.
 */
export async function validateSessionToken(db: DB, token: string | undefined, now = Math.floor(Date.now() / 1000)): Promise<ValidSession | null> {
  const parsed = parseSessionToken(token);
  if (!parsed) return null;
  const row = await repo.sessionWithUser(db, parsed.id);
  if (!row || !secretMatches(parsed.secret, row.secret_hash)) return null;
  const times = { last_seen_at: Number(row.last_seen_at), expires_at: Number(row.expires_at) };
  if (!sessionAlive(times, now)) {
    await repo.deleteSession(db, parsed.id);
    return null;
  }
  let refreshedMaxAge: number | null = null;
  if (needsRefresh(times, now)) {
    await repo.touchSession(db, parsed.id, now);
    refreshedMaxAge = sessionRemaining({ ...times, last_seen_at: now }, now);
  }
  // Readers (is_staff 0, the flag the grants keep) cost no second query.
  const capabilities = Number(row.is_staff) === 1 ? await repo.capabilitiesOf(db, Number(row.id)) : [];
  return { sessionId: row.session_id, user: toUser(row, capabilities), signedInAt: Number(row.signed_in_at), refreshedMaxAge };
}

/** Whether a session exists, belongs to the user and has not expired (for tokens bound to a session). */
export async function isSessionAlive(db: DB, sessionId: string, userId: number, now: number): Promise<boolean> {
  const row = await repo.sessionTimes(db, sessionId, userId);
  return !!row && sessionAlive({ last_seen_at: Number(row.last_seen_at), expires_at: Number(row.expires_at) }, now);
}

/** Ends one session (logout). */
export async function invalidateSession(db: DB, sessionId: string): Promise<void> {
  await repo.deleteSession(db, sessionId);
}

/**
 * Ends every session of an account ("sign out everywhere" on the support desk), inside the
 * caller's write transaction so its audit record commits with it; returns how many ended. The
 * next request with any of its cookies finds no session.
 */
export function invalidateUserSessions(tx: WriteTx, userId: number): Promise<number> {
  return repo.deleteUserSessions(tx, userId);
}

export interface LiveSession {
  createdAt: number;
  lastSeenAt: number;
  /** When it ends if unused: the sooner of the idle and the absolute limit. */
  endsAt: number;
  /** The browser it began in, as sent (null when unknown). */
  userAgent: string | null;
}

/** An account's sessions that are still alive at `now`, newest first (no ids, no secrets). */
export async function liveSessionsOf(db: DB, userId: number, now: number): Promise<LiveSession[]> {
  return (await repo.sessionsOfUser(db, userId))
    .filter((s) => sessionAlive(s, now))
    .map((s) => ({ createdAt: s.created_at, lastSeenAt: s.last_seen_at, endsAt: now + sessionRemaining(s, now), userAgent: s.user_agent }));
}
