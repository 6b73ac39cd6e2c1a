/**
 * Subscription periods in UTC unix seconds: monthly periods, trials, grace and the plan month
 * that bounds the monthly rentals. Pure and browser-safe.
 *
 * Months are counted in UTC, not in the site's zone: a period then always starts and ends at the
 * same time of day, whatever daylight saving does, and the server, the renewal command and the
 * browser agree on the same instant.
 */
import { DAY_SECONDS } from '~/lib/dates';

export interface Period {
  /** Inclusive. */
  start: number;
  /** Exclusive: the next period's start. */
  end: number;
}

function whole(n: number, what: string, min = -Infinity): number {
  if (!Number.isInteger(n) || n < min) throw new RangeError(`${what} must be an integer${min === 0 ? ' ≥ 0' : ''}, not ${n}`);
  return n;
}

function instant(at: number): number {
  if (!Number.isFinite(at)) throw new RangeError(`not an instant: ${at}`);
  return at;
}

/**
 * The same day of the month and time of day `n` months later (earlier when negative), on the
 * month's last day when it is shorter: Jan 31 + 1 → Feb 28 (Feb 29 in a leap year), Feb 29 2028
 * + 12 → Feb 28 2029.
 */
export function addMonths(at: number, n: number): number {
  instant(at);
  whole(n, 'months');
  const dayStart = Math.floor(at / DAY_SECONDS) * DAY_SECONDS;
  const date = new Date(dayStart * 1000);
  const month = date.getUTCMonth() + n;
  const year = date.getUTCFullYear() + Math.floor(month / 12);
  const m = ((month % 12) + 12) % 12;
  // Day 0 of the next month is the last day of this one.
  const lastDay = new Date(Date.UTC(year, m + 1, 0)).getUTCDate();
  return Date.UTC(year, m, Math.min(date.getUTCDate(), lastDay)) / 1000 + (at - dayStart);
}

/** When a period of `months` months that starts at `start` ends. */
export function periodEnd(start: number, months = 1): number {
  return addMonths(start, months);
}

/**
 * Period `periodIndex` (0 is the first) of a subscription that started at `anchor`: from
 * addMonths(anchor, k) to addMonths(anchor, k + 1). Counted from the anchor, never from the
 * previous period's end, because clamping is not undone: chained, Jan 31 → Feb 28 → Mar 28 and
 * the reader loses three days for good; from the anchor, Jan 31 → Feb 28 → Mar 31.
 */
export function nextPeriod(anchor: number, periodIndex: number): Period {
  whole(periodIndex, 'periodIndex', 0);
  return { start: addMonths(anchor, periodIndex), end: addMonths(anchor, periodIndex + 1) };
}

/** When a trial of `days` days that starts at `start` ends. */
export function trialEnd(start: number, days: number): number {
  return instant(start) + whole(days, 'days', 0) * DAY_SECONDS;
}

/** Until when an unpaid renewal keeps access: `graceDays` after the period's end. */
export function graceEnd(periodEnd: number, graceDays: number): number {
  return instant(periodEnd) + whole(graceDays, 'graceDays', 0) * DAY_SECONDS;
}

/**
 * The plan month that contains `now` (start ≤ now < end), where the monthly rental capacity is
 * counted: the same months as the billing periods, from the same anchor. Before the anchor it is
 * the month that ends at it (or earlier), so start ≤ now < end holds for any clock.
 */
export function planMonth(anchor: number, now: number): Period {
  instant(anchor);
  instant(now);
  const a = new Date(anchor * 1000);
  const b = new Date(now * 1000);
  // The calendar distance in months is right or one too many (now's day or time of day comes
  // before the anchor's); the loops settle it in at most one step.
  let k = (b.getUTCFullYear() - a.getUTCFullYear()) * 12 + (b.getUTCMonth() - a.getUTCMonth());
  while (addMonths(anchor, k) > now) k--;
  while (addMonths(anchor, k + 1) <= now) k++;
  return { start: addMonths(anchor, k), end: addMonths(anchor, k + 1) };
}
