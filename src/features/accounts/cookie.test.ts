import { describe, expect, it } from 'vitest';
import { ABSOLUTE_LIFETIME, IDLE_TIMEOUT, SESSION_COOKIE, needsRefresh, serializeSessionCookie, sessionAlive, sessionCookieOptions, sessionRemaining } from './cookie';

const DAY = 86400;
const https = { secure: true, domain: null };
const http = { secure: false, domain: null };

describe('session cookie', () => {
  it('is HttpOnly, SameSite=Lax, Path=/, and Secure only over https', () => {
    expect(sessionCookieOptions(https, 100)).toEqual({ path: '/', httpOnly: true, sameSite: 'lax', secure: true, maxAge: 100 });
    expect(sessionCookieOptions(http, 100).secure).toBe(false);
    expect(serializeSessionCookie('a.b', sessionCookieOptions(https, 30 * DAY))).toBe(`${SESSION_COOKIE}=a.b; Path=/; Max-Age=${30 * DAY}; HttpOnly; SameSite=Lax; Secure`);
    expect(serializeSessionCookie('a.b', sessionCookieOptions(http, 5))).not.toContain('Secure');
  });

  it('carries Domain= when the site shares cookies between its hosts', () => {
    const shared = { secure: true, domain: 'inkpass.example' };
    expect(serializeSessionCookie('a.b', sessionCookieOptions(shared, 60))).toBe(`${SESSION_COOKIE}=a.b; Path=/; Domain=inkpass.example; Max-Age=60; HttpOnly; SameSite=Lax; Secure`);
  });

  it('never gets a negative Max-Age', () => {
    expect(sessionCookieOptions(http, -10).maxAge).toBe(0);
  });
});

describe('session lifetime', () => {
  const now = 1_800_000_000;
  it('expires after 30 idle days', () => {
    const s = { last_seen_at: now - IDLE_TIMEOUT + 1, expires_at: now + 60 * DAY };
    expect(sessionAlive(s, now)).toBe(true);
    expect(sessionAlive({ ...s, last_seen_at: now - IDLE_TIMEOUT }, now)).toBe(false);
  });
  it('expires at the absolute lifetime however active', () => {
    expect(ABSOLUTE_LIFETIME).toBe(90 * DAY);
    expect(sessionAlive({ last_seen_at: now, expires_at: now }, now)).toBe(false);
    expect(sessionRemaining({ last_seen_at: now, expires_at: now + DAY }, now)).toBe(DAY);
  });
  it('refreshes last_seen_at at most once a day', () => {
    expect(needsRefresh({ last_seen_at: now - DAY + 1 }, now)).toBe(false);
    expect(needsRefresh({ last_seen_at: now - DAY }, now)).toBe(true);
  });
});
