/**
 * Calendar windows of the release schedule (spec sections 2 and 9), computed for an IANA time
 * zone. Pure: the server calls these with the site's zone (UTC for en, America/Sao_Paulo for
 * pt-BR) and the browser script calls them again with the reader's own zone.
 *
 * A calendar date is a key 'YYYY-MM-DD'; arithmetic on keys is done in UTC (no zone involved),
 * and only the conversion key <-> instant looks at the zone, so daylight-saving changes never
 * shift a day.
 */

export type ScheduleVariant = 'page' | 'home';

export const DAY_SECONDS = 86_400;
/** Page variant: yesterday through 5 days ahead. */
export const PAGE_DAYS = 7;
/** Home variant: two weeks. */
export const HOME_DAYS = 14;
/** Monthly releases: the current month and the next two. */
export const MONTHS = 3;
/** Weeks of the home variant start on Sunday (both sites' calendars do; so does SUNDAYS..SATURDAYS). */
export const WEEK_START = 0;
/** Relative release times are refreshed this often in the browser (spec section 9: timers 60 s). */
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

const partsFormats = new Map<string, Intl.DateTimeFormat>();
function partsFormat(timeZone: string): Intl.DateTimeFormat {
  let f = partsFormats.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit',
    });
    partsFormats.set(timeZone, f);
  }
  return f;
}

/** Wall-clock fields of an instant in a zone. */
export function zonedParts(at: number, timeZone: string): { year: number; month: number; day: number; hour: number; minute: number; second: number } {
  const out: Record<string, number> = {};
  for (const p of partsFormat(timeZone).formatToParts(new Date(at * 1000))) {
    if (p.type !== 'literal') out[p.type] = Number(p.value);
  }
  return { year: out.year!, month: out.month!, day: out.day!, hour: out.hour! % 24, minute: out.minute!, second: out.second! };
}

/** Seconds the zone's wall clock is ahead of UTC at an instant (São Paulo: -10800). */
export function zoneOffset(at: number, timeZone: string): number {
  const p = zonedParts(at, timeZone);
  return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second) / 1000 - Math.floor(at);
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

function keyOf(year: number, month: number, day: number): string {
  return `${pad(year, 4)}-${pad(month)}-${pad(day)}`;
}

function parseKey(key: string): { year: number; month: number; day: number } {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(key);
  if (!m) throw new RangeError(`not a date key: ${key}`);
  return { year: Number(m[1]), month: Number(m[2]), day: Number(m[3]) };
}

/** Whether a string names a valid IANA zone this runtime knows. */
export function isTimeZone(timeZone: string): boolean {
  try {
    partsFormat(timeZone);
    return true;
  } catch {
    return false;
  }
}

/** The calendar date 'YYYY-MM-DD' of an instant in a zone. */
export function dayKey(at: number, timeZone: string): string {
  const p = zonedParts(at, timeZone);
  return keyOf(p.year, p.month, p.day);
}

/** A date key moved by whole days (calendar arithmetic, no zone). */
export function addDays(key: string, days: number): string {
  const { year, month, day } = parseKey(key);
  const d = new Date(Date.UTC(year, month - 1, day + days));
  return keyOf(d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate());
}

/** 0 = Sunday … 6 = Saturday. */
export function weekdayOf(key: string): number {
  const { year, month, day } = parseKey(key);
  return new Date(Date.UTC(year, month - 1, day)).getUTCDay();
}

/**
 * Unix seconds of the first instant of a calendar date in a zone (normally 00:00; where a
 * daylight-saving change skips midnight, the first wall-clock time that exists).
 */
export function startOfDay(key: string, timeZone: string): number {
  const { year, month, day } = parseKey(key);
  const wall = Date.UTC(year, month - 1, day) / 1000;
  // Two passes settle the offset on either side of a transition.
  let t = wall - zoneOffset(wall, timeZone);
  t = wall - zoneOffset(t, timeZone);
  // Midnight skipped (clocks jumped forward at 00:00): the day starts at the transition.
  if (dayKey(t, timeZone) !== key) {
    let lo = t;
    let hi = t + 3 * 3600;
    while (hi - lo > 1) {
      const mid = Math.floor((lo + hi) / 2);
      if (dayKey(mid, timeZone) === key) hi = mid;
      else lo = mid;
    }
    t = hi;
  }
  return t;
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

// ---------------------------------------------------------------------------------- labels

const labelFormats = new Map<string, Intl.DateTimeFormat>();
function labelFormat(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const k = `${locale}|${JSON.stringify(options)}`;
  let f = labelFormats.get(k);
  if (!f) {
    f = new Intl.DateTimeFormat(locale, options);
    labelFormats.set(k, f);
  }
  return f;
}

/** A calendar date as noon UTC, so formatting it in UTC never crosses a day. */
function keyAsDate(key: string): Date {
  const { year, month, day } = parseKey(key);
  return new Date(Date.UTC(year, month - 1, day, 12));
}

/** Short weekday ("Mon", "seg.") and day-month ("Nov 21", "21 de nov.") of a day key. */
export function dayLabels(key: string, locale: string): { weekday: string; date: string; full: string } {
  const date = keyAsDate(key);
  return {
    weekday: labelFormat(locale, { weekday: 'short', timeZone: 'UTC' }).format(date),
    date: labelFormat(locale, { day: 'numeric', month: 'short', timeZone: 'UTC' }).format(date),
    full: labelFormat(locale, { weekday: 'long', day: 'numeric', month: 'long', timeZone: 'UTC' }).format(date),
  };
}

/** "November 2026" / "Novembro de 2026" (first letter capitalised: it heads a section). */
export function monthLabel(month: Pick<Month, 'year' | 'month'>, locale: string): string {
  const text = labelFormat(locale, { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(Date.UTC(month.year, month.month - 1, 15)));
  return text.charAt(0).toLocaleUpperCase(locale) + text.slice(1);
}

/** The zone's generic name in a locale ("Brasilia Time", "Horário de Brasília"); the IANA name as a fallback. */
export function zoneLabel(timeZone: string, locale: string): string {
  if (/^(Etc\/)?(UTC|GMT|Universal|Zulu)$/i.test(timeZone)) return 'UTC';
  try {
    const part = labelFormat(locale, { timeZone, timeZoneName: 'longGeneric' }).formatToParts(new Date()).find((p) => p.type === 'timeZoneName');
    return part?.value || timeZone;
  } catch {
    return timeZone;
  }
}

/** Wall-clock time of an instant in a zone ("3:00 PM", "15:00"). */
export function clockLabel(at: number, locale: string, timeZone: string): string {
  return labelFormat(locale, { hour: 'numeric', minute: '2-digit', timeZone }).format(new Date(at * 1000));
}

/** Date and time of an instant in a zone, for titles ("Nov 21, 3:00 PM"). */
export function dateTimeLabel(at: number, locale: string, timeZone: string): string {
  return labelFormat(locale, { day: 'numeric', month: 'short', hour: 'numeric', minute: '2-digit', timeZone }).format(new Date(at * 1000));
}
