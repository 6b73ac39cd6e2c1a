/** Fixed-window rate limits (state in the rate_limits table; see rate-limit.server.ts). */
export interface Limit {
  /** Attempts allowed per window. */
  max: number;
  /** Window length in seconds. */
  window: number;
}

export const LIMITS = {
  loginPerEmail: { max: 10, window: 15 * 60 },
  loginPerIp: { max: 30, window: 15 * 60 },
  signupPerIp: { max: 5, window: 60 * 60 },
  signupPerEmail: { max: 5, window: 60 * 60 },
  /** Payment calls of one reader (coupon checks, charges, checkouts): enough for a person, not for a card-testing script. */
  paymentsPerReader: { max: 40, window: 10 * 60 },
} as const satisfies Record<string, Limit>;

export interface Counter {
  window_start: number;
  count: number;
}

/** The counter after one more attempt at `now` (a window that has ended starts over). */
export function nextCounter(current: Counter | undefined, now: number, limit: Limit): Counter {
  if (!current || current.window_start <= now - limit.window) return { window_start: now, count: 1 };
  return { window_start: current.window_start, count: current.count + 1 };
}

export interface Verdict {
  allowed: boolean;
  /** Seconds until the window ends (0 when allowed). */
  retryAfter: number;
}

/** Whether the attempt that produced `counter` is within the limit. */
export function verdict(counter: Counter, now: number, limit: Limit): Verdict {
  if (counter.count <= limit.max) return { allowed: true, retryAfter: 0 };
  return { allowed: false, retryAfter: Math.max(1, counter.window_start + limit.window - now) };
}

/** Whole minutes to show in "try again in N minutes" (at least 1). */
export function retryMinutes(retryAfter: number): number {
  return Math.max(1, Math.ceil(retryAfter / 60));
}
