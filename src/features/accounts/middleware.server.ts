import type { AstroCookies } from 'astro';
import { getDb } from '~/server/db';
import type { CookieScope } from '~/lib/cookies';
import { SESSION_COOKIE, sessionCookieOptions } from './cookie';
import { validateSessionToken } from './sessions.server';
import type { User } from './users.server';

/** Resolves the session cookie (if any) to the signed-in user; clears a cookie that no longer works. */
export async function resolveSession(cookies: AstroCookies, scope: CookieScope, now: number): Promise<{ user: User | null; sessionId: string | null; signedInAt: number }> {
  const token = cookies.get(SESSION_COOKIE)?.value;
  if (!token) return { user: null, sessionId: null, signedInAt: 0 };
  const valid = await validateSessionToken(await getDb(), token, now);
  if (!valid) {
    clearSessionCookie(cookies, scope);
    return { user: null, sessionId: null, signedInAt: 0 };
  }
  if (valid.refreshedMaxAge !== null) cookies.set(SESSION_COOKIE, token, sessionCookieOptions(scope, valid.refreshedMaxAge));
  return { user: valid.user, sessionId: valid.sessionId, signedInAt: valid.signedInAt };
}

export function setSessionCookie(cookies: AstroCookies, scope: CookieScope, token: string, maxAge: number): void {
  cookies.set(SESSION_COOKIE, token, sessionCookieOptions(scope, maxAge));
}

export function clearSessionCookie(cookies: AstroCookies, scope: CookieScope): void {
  cookies.set(SESSION_COOKIE, '', sessionCookieOptions(scope, 0));
}

/**
 * The client's address: the socket's (scripts/serve.mjs drops X-Forwarded-For unless
 * TRUST_PROXY=1, and then keeps only the hop our proxy appended).
 */
export function clientIp(clientAddress: () => string): string {
  try {
    return clientAddress() || 'unknown';
  } catch {
    return 'unknown';
  }
}
