/**
 * Calendar windows of the release schedule, computed for an IANA time
 * zone. Pure: the server calls these with the site's zone (UTC for en, America/Sao_Paulo for
 * pt-BR) and the browser script calls them again with the reader's own zone. The calendar
 * arithmetic itself is in src/lib/dates.ts.
 */
import { addDays, dayKey, keyOf, pad, parseKey, startOfDay, weekdayOf } from '~/lib/dates';

export type ScheduleVariant = 'page' | 'home';

/** Page variant: yesterday through 5 days ahead. */
export const PAGE_DAYS = 7;
/** Home variant: two weeks. */
export const HOME_DAYS = 14;
/** Monthly releases: the current month and the next two. */
export const MONTHS = 3;
/** Weeks of the home variant start on Sunday (both sites' calendars do; so does SUNDAYS..SATURDAYS). */
export const WEEK_START = 0;
/** Relative release times are refreshed this often in the browser (timers 60 s). */
export const REFRESH_MS = 60_000;

export interface Period {
  /** Unix seconds of the first instant (inclusive). */
  start: number;
  /** Unix seconds of the first instant after the period (exclusive). */
  end: number;
}

export interface Day extends Period {
  /** 'YYYY-MM-DD' in the zone the window was computed for. */
  key: string;
  /** 0 = Sunday … 6 = Saturday. */
  weekday: number;
  today: boolean;
  /** The whole day lies before now. */
  past: boolean;
}

export interface Month extends Period {
  /** 'YYYY-MM'. */
  key: string;
  year: number;
  /** 1-12. */
  month: number;
}

function dayOf(key: string, timeZone: string, today: string, now: number): Day {
  const start = startOfDay(key, timeZone);
  const end = startOfDay(addDays(key, 1), timeZone);
  return { key, start, end, weekday: weekdayOf(key), today: key === today, past: end <= now };
}

/**
 * The days of a schedule in a zone. 'page': 7 days, yesterday through 5 days ahead (today is
 * the second). 'home': 14 days, the week containing today (from Sunday) and the next one.
 */
export function scheduleDays(now: number, timeZone: string, variant: ScheduleVariant): Day[] {
  const today = dayKey(now, timeZone);
  const first = variant === 'page' ? addDays(today, -1) : addDays(today, -((weekdayOf(today) - WEEK_START + 7) % 7));
  const count = variant === 'page' ? PAGE_DAYS : HOME_DAYS;
  return Array.from({ length: count }, (_, i) => dayOf(addDays(first, i), timeZone, today, now));
}

/** Index of today in a list of days (-1 when absent). */
export function todayIndex(days: readonly Day[]): number {
  return days.findIndex((d) => d.today);
}

/** The current month and the next `count - 1` in a zone. */
export function scheduleMonths(now: number, timeZone: string, count = MONTHS): Month[] {
  const { year, month } = parseKey(dayKey(now, timeZone));
  return Array.from({ length: count }, (_, i) => {
    const y = year + Math.floor((month - 1 + i) / 12);
    const m = ((month - 1 + i) % 12) + 1;
    const ny = m === 12 ? y + 1 : y;
    const nm = m === 12 ? 1 : m + 1;
    return {
      key: `${pad(y, 4)}-${pad(m)}`,
      year: y,
      month: m,
      start: startOfDay(keyOf(y, m, 1), timeZone),
      end: startOfDay(keyOf(ny, nm, 1), timeZone),
    };
  });
}

/** The smallest period covering all the given ones. */
export function span(periods: readonly Period[]): Period {
  return { start: Math.min(...periods.map((p) => p.start)), end: Math.max(...periods.map((p) => p.end)) };
}

/** Index of the period an instant falls in (-1 when none). */
export function periodIndex(at: number, periods: readonly Period[]): number {
  return periods.findIndex((p) => at >= p.start && at < p.end);
}

/** Items sorted into periods by their time; items outside every period are dropped. */
export function bucket<T>(items: readonly T[], at: (item: T) => number, periods: readonly Period[]): T[][] {
  const out = periods.map(() => [] as T[]);
  for (const item of items) {
    const i = periodIndex(at(item), periods);
    if (i >= 0) out[i]!.push(item);
  }
  return out;
}

/** An entry released at or before now shows RELEASED; a later one the time until release. */
export function isReleased(at: number, now: number): boolean {
  return at <= now;
}

/**
 * The zone a schedule page shows its days and times in: the site's when the site fixes it
 * (`Site.scheduleZone`), else the reader's when the browser tells it, else the site's.
 */
export function displayZone(rule: 'site' | 'reader', siteZone: string, readerZone: string | null): string {
  return rule === 'reader' && readerZone ? readerZone : siteZone;
}
