/** Session cookie name and lifetimes (docs/accounts.md). Its attributes come from the site's cookie policy (src/lib/cookies.ts). */
import { cookieOptions, serializeCookie, type CookieOptions, type CookieScope } from '~/lib/cookies';

export const SESSION_COOKIE = 'inkpass_session';
const DAY = 24 * 3600;
/** A session unused for this long ends (sliding). */
export const IDLE_TIMEOUT = 30 * DAY;
/** A session ends this long after login, however active. */
export const ABSOLUTE_LIFETIME = 90 * DAY;
/** last_seen_at (and the cookie) are refreshed at most this often. */
export const REFRESH_INTERVAL = DAY;

/** Attributes of the session cookie: the site's policy, HttpOnly, Max-Age = what is left of the session. */
export function sessionCookieOptions(scope: CookieScope, maxAge: number): CookieOptions {
  return cookieOptions(scope, { maxAge, httpOnly: true });
}

/** Seconds a session has left: the sooner of the idle and the absolute limit. */
export function sessionRemaining(s: { last_seen_at: number; expires_at: number }, now: number): number {
  return Math.min(s.last_seen_at + IDLE_TIMEOUT, s.expires_at) - now;
}

/** Whether a session is still valid at `now`. */
export function sessionAlive(s: { last_seen_at: number; expires_at: number }, now: number): boolean {
  return sessionRemaining(s, now) > 0;
}

/** Whether to write last_seen_at (and re-send the cookie) on this request. */
export function needsRefresh(s: { last_seen_at: number }, now: number): boolean {
  return now - s.last_seen_at >= REFRESH_INTERVAL;
}

/** A Set-Cookie header value, for places without Astro's cookie API (and for tests). */
export function serializeSessionCookie(value: string, o: CookieOptions): string {
  return serializeCookie(SESSION_COOKIE, value, o);
}
