/**
 * Signed tokens of the library (HMAC-SHA256, each kind with its own key from
 * server/secrets.ts and its own purpose prefix, so no token verifies as another):
 *
 *   progress token  p1.{userId}.{chapter e4pid}.{issuedAt}.{sig}   sig over `progress:v1:...`
 *     Embedded in the reader page for a signed-in reader of a readable chapter; it proves
 *     that this user opened this chapter at issuedAt, and orders that page view's updates.
 *   app token       a1.{userId}.{expiresAt}.{sig}                 sig over `app:v1:...`
 *     Short-lived bearer token from /sapi/app/token for the history and episodes APIs.
 */
import crypto from 'node:crypto';
import { keyFor } from '~/server/secrets';

type Secret = string | Buffer;

/** A progress token older than this is refused (the reader reloads the page for a new one). */
export const PROGRESS_TOKEN_TTL = 24 * 3600;
export const APP_TOKEN_MIN_TTL = 60;
export const APP_TOKEN_MAX_TTL = 3600;
const SIG_HEX = 32;

function mac(secret: Secret, message: string): string {
  return crypto.createHmac('sha256', secret).update(message).digest('hex').slice(0, SIG_HEX);
}

function sameSig(expected: string, given: string): boolean {
  const a = Buffer.from(expected, 'utf8');
  const b = Buffer.from(given.toLowerCase(), 'utf8');
  return a.length === b.length && crypto.timingSafeEqual(a, b);
}

export function signProgressToken(userId: number, e4pid: string, issuedAt: number, secret: Secret = keyFor('progress-token')): string {
  return `p1.${userId}.${e4pid}.${issuedAt}.${mac(secret, `progress:v1:${userId}:${e4pid}:${issuedAt}`)}`;
}

export type ProgressTokenVerdict =
  | { ok: true; issuedAt: number }
  | { ok: false; reason: 'invalid' | 'wrongUser' | 'wrongChapter' | 'expired' };

/**
 * Checks a progress token against the session's user and the reported chapter. A token from
 * the future (clock skew aside) or past PROGRESS_TOKEN_TTL is 'expired'; checked after the
 * signature, so a tampered time is 'invalid'.
 */
export function verifyProgressToken(
  token: string,
  expect: { userId: number; e4pid: string; now: number },
  secret: Secret = keyFor('progress-token'),
): ProgressTokenVerdict {
  const m = /^p1\.(\d{1,12})\.(EPI-[A-Za-z0-9_-]{1,64})\.(\d{1,12})\.([0-9a-f]{32})$/i.exec(token);
  if (!m) return { ok: false, reason: 'invalid' };
  const userId = Number(m[1]);
  const e4pid = m[2]!;
  const issuedAt = Number(m[3]);
  if (!sameSig(mac(secret, `progress:v1:${userId}:${e4pid}:${issuedAt}`), m[4]!)) return { ok: false, reason: 'invalid' };
  if (userId !== expect.userId) return { ok: false, reason: 'wrongUser' };
  if (e4pid !== expect.e4pid) return { ok: false, reason: 'wrongChapter' };
  if (issuedAt > expect.now + 300 || expect.now - issuedAt > PROGRESS_TOKEN_TTL) return { ok: false, reason: 'expired' };
  return { ok: true, issuedAt };
}

/** Clamps a requested app-token lifetime to 60..3600 s (default 3600). */
export function clampTtl(raw: string | null): number {
  const n = raw === null || raw === '' ? APP_TOKEN_MAX_TTL : Number(raw);
  if (!Number.isFinite(n)) return APP_TOKEN_MAX_TTL;
  return Math.min(APP_TOKEN_MAX_TTL, Math.max(APP_TOKEN_MIN_TTL, Math.floor(n)));
}

/**
 * App token `a2.{session id}.{user id}.{expiry}.{mac}`: bound to the session that asked for it, so
 * logging out (which deletes the session) ends the token too; `apiCaller` checks the session.
 * The session id alone is not a credential (the cookie's secret half never leaves the cookie).
 */
export function signAppToken(sessionId: string, userId: number, expiresAt: number, secret: Secret = keyFor('app-token')): string {
  return `a2.${sessionId}.${userId}.${expiresAt}.${mac(secret, `app:v2:${sessionId}:${userId}:${expiresAt}`)}`;
}

export type AppTokenVerdict = { ok: true; sessionId: string; userId: number; expiresAt: number } | { ok: false; code: 'token_invalid' | 'token_expired' };

/** Checks the token's signature and expiry only; the caller must still check that its session is alive. */
export function verifyAppToken(token: string | null, now: number, secret: Secret = keyFor('app-token')): AppTokenVerdict {
  const m = /^a2\.([A-Za-z0-9_-]{8,64})\.(\d{1,12})\.(\d{1,12})\.([0-9a-f]{32})$/i.exec(token ?? '');
  if (!m) return { ok: false, code: 'token_invalid' };
  const sessionId = m[1]!;
  const userId = Number(m[2]);
  const expiresAt = Number(m[3]);
  if (!sameSig(mac(secret, `app:v2:${sessionId}:${userId}:${expiresAt}`), m[4]!)) return { ok: false, code: 'token_invalid' };
  if (expiresAt <= now) return { ok: false, code: 'token_expired' };
  // Never issued for longer than the maximum lifetime (a minute's slack for clocks).
  if (expiresAt > now + APP_TOKEN_MAX_TTL + 60) return { ok: false, code: 'token_invalid' };
  return { ok: true, sessionId, userId, expiresAt };
}
