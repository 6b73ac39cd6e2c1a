import { describe, expect, it } from 'vitest';
import { LIMITS, nextCounter, retryMinutes, verdict } from './rate-limit-rules';

describe('fixed-window rate limit', () => {
  const limit = { max: 3, window: 900 };
  const t0 = 1_800_000_000;

  it('allows max attempts in a window and refuses the next with the time left', () => {
    let c = nextCounter(undefined, t0, limit);
    for (let i = 1; i < 3; i++) c = nextCounter(c, t0 + i, limit);
    expect(c).toEqual({ window_start: t0, count: 3 });
    expect(verdict(c, t0 + 2, limit).allowed).toBe(true);
    c = nextCounter(c, t0 + 100, limit);
    expect(verdict(c, t0 + 100, limit)).toEqual({ allowed: false, retryAfter: 800 });
  });

  it('starts over once the window has ended', () => {
    const c = nextCounter({ window_start: t0, count: 50 }, t0 + 900, limit);
    expect(c).toEqual({ window_start: t0 + 900, count: 1 });
    expect(verdict(c, t0 + 900, limit).allowed).toBe(true);
  });

  it('shows whole minutes, at least one', () => {
    expect(retryMinutes(1)).toBe(1);
    expect(retryMinutes(60)).toBe(1);
    expect(retryMinutes(61)).toBe(2);
    expect(retryMinutes(900)).toBe(15);
  });

  it('limits logins per email and per IP, and sign-ups per IP', () => {
    expect(LIMITS.loginPerEmail).toEqual({ max: 10, window: 900 });
    expect(LIMITS.loginPerIp).toEqual({ max: 30, window: 900 });
    expect(LIMITS.signupPerIp).toEqual({ max: 5, window: 3600 });
  });
});
