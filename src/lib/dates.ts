/**
 * Dates and times for people, in a site's or a reader's time zone: calendar keys and the zone
 * arithmetic behind them, relative and absolute dates, and labels. Pure and browser-safe: the
 * server formats with the site's zone and the browser scripts format again with the reader's.
 *
 * A calendar date is a key 'YYYY-MM-DD'; arithmetic on keys is done in UTC (no zone involved),
 * and only the conversion key <-> instant looks at the zone, so daylight-saving changes never
 * shift a day.
 */
import type { Locale } from './site';

export const DAY_SECONDS = 86_400;

// Intl constructors are costly (tens of microseconds each); a page formats hundreds of values.
const intlCache = new Map<string, Intl.RelativeTimeFormat | Intl.DateTimeFormat>();
function cached<F extends Intl.RelativeTimeFormat | Intl.DateTimeFormat>(key: string, make: () => F): F {
  let f = intlCache.get(key) as F | undefined;
  if (!f) {
    f = make();
    intlCache.set(key, f);
  }
  return f;
}

function partsFormat(timeZone: string): Intl.DateTimeFormat {
  return cached(`parts:${timeZone}`, () => new Intl.DateTimeFormat('en-US', {
    timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit',
  }));
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

export const pad = (n: number, w = 2) => String(n).padStart(w, '0');

export function keyOf(year: number, month: number, day: number): string {
  return `${pad(year, 4)}-${pad(month)}-${pad(day)}`;
}

export function parseKey(key: string): { year: number; month: number; day: number } {
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

/** Days from 1970-01-01 to a date key (calendar arithmetic, no zone): one number per local day. */
export function dayNumber(key: string): number {
  const { year, month, day } = parseKey(key);
  return Date.UTC(year, month - 1, day) / 86_400_000;
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

/** An instant as a `datetime-local` field shows it in a zone ('2026-11-27T18:30'). */
export function localInputValue(at: number, timeZone: string): string {
  const p = zonedParts(at, timeZone);
  return `${keyOf(p.year, p.month, p.day)}T${pad(p.hour)}:${pad(p.minute)}`;
}

/**
 * The instant a `datetime-local` value ('2026-11-27T18:30', seconds optional) names in a zone;
 * null when it is not such a value. A wall time skipped by a daylight-saving change is read with
 * the offset before the change (as browsers and Temporal's 'compatible' do: 02:30 → 03:30).
 */
export function fromLocalInput(value: string, timeZone: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(value);
  if (!m) return null;
  const [year, month, day, hour, minute, second] = m.slice(1).map((v) => Number(v ?? 0)) as [number, number, number, number, number, number];
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 59) return null;
  const wall = Date.UTC(year, month - 1, day, hour, minute, second) / 1000;
  if (new Date(wall * 1000).getUTCDate() !== day) return null;
  const before = zoneOffset(wall - 86_400, timeZone);
  const t = wall - zoneOffset(wall - zoneOffset(wall, timeZone), timeZone);
  // Skipped wall time: neither offset maps back to it; take the offset before the change.
  return localInputValue(t, timeZone) === `${keyOf(year, month, day)}T${pad(hour)}:${pad(minute)}` ? t : wall - before;
}

// ------------------------------------------------------------------ relative and absolute dates

const relativeFormat = (locale: string) => cached(`r:${locale}`, () => new Intl.RelativeTimeFormat(locale, { numeric: 'auto' }));
const dateFormat = (locale: Locale, timeZone: string) => cached(`d:${locale}:${timeZone}`, () => new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone }));

export const RELATIVE_DATE_LIMIT = 3 * 24 * 3600;

/** Dates more than 3 days from now are shown as dates; nearer ones as relative times. */
export function dateDisplay(at: number, now: number): 'relative' | 'absolute' {
  return Math.abs(now - at) > RELATIVE_DATE_LIMIT ? 'absolute' : 'relative';
}

/**
 * The one relative-time rule. The unit is chosen from the value rounded in that unit, so an
 * instant has one wording wherever and whenever it is formatted: 6.6 and 7.2 days away both read
 * "in 7 days" (unit by raw seconds once gave "in 7 days" on one line and "next week" on the next).
 * Days run up to 13, weeks from 14 days to 29, months from 30 days, years from 365 days. Weeks,
 * months and years are always numeric ("in 2 weeks", never "next month", whose calendar meaning
 * differs from 30 days); seconds to days keep "now", "tomorrow" and "yesterday".
 */
export function relativeParts(diff: number): { value: number; unit: Intl.RelativeTimeFormatUnit } {
  const abs = Math.abs(diff);
  const sign = diff < 0 ? -1 : 1;
  const seconds = Math.round(abs);
  if (seconds < 60) return { value: sign * seconds, unit: 'second' };
  const minutes = Math.round(abs / 60);
  if (minutes < 60) return { value: sign * minutes, unit: 'minute' };
  const hours = Math.round(abs / 3600);
  if (hours < 24) return { value: sign * hours, unit: 'hour' };
  const days = Math.round(abs / 86400);
  if (days < 14) return { value: sign * days, unit: 'day' };
  if (days < 30) return { value: sign * Math.round(days / 7), unit: 'week' };
  if (days < 365) return { value: sign * Math.max(1, Math.min(11, Math.round(days / 30))), unit: 'month' };
  return { value: sign * Math.round(days / 365), unit: 'year' };
}

const numericFormat = (locale: string) => cached(`rn:${locale}`, () => new Intl.RelativeTimeFormat(locale, { numeric: 'always' }));

/** "3 hours ago", "in 2 days", localized (the server with the site's locale, browser scripts with the page's). */
export function relativeTime(at: number, now: number, locale: string): string {
  const { value, unit } = relativeParts(at - now);
  const rtf = unit === 'week' || unit === 'month' || unit === 'year' ? numericFormat(locale) : relativeFormat(locale);
  // -0 would read "0 seconds ago" in some engines: normalise.
  return rtf.format(value === 0 ? 0 : value, unit);
}

const DATE_MEMO_MAX = 20_000;
/** Per zone: UTC day number -> the zone's offset that whole day, or null on a day it changes. */
const offsetMemo = new Map<string, Map<number, number | null>>();
/** Per zone and locale: local day number (or -1 - quarter hour on a DST day) -> formatted date. */
const dateMemo = new Map<string, Map<string, Map<number, string>>>();
/** A bounded memo table inside `memo` (numeric keys: no key strings built per lookup on the chapter list's hot path). */
function memoTable<V>(memo: Map<string, Map<number, V>>, key: string): Map<number, V> {
  let table = memo.get(key);
  if (!table) memo.set(key, (table = new Map()));
  else if (table.size >= DATE_MEMO_MAX) table.clear();
  return table;
}

/**
 * The zone's local day number of an instant, or null on a UTC day when the zone's offset
 * changes (a DST switch). The offset is looked up once per zone and UTC day, so the dates of
 * a catalogue's chapters are formatted once per local day instead of once per instant.
 */
function localDay(at: number, timeZone: string): number | null {
  const day = Math.floor(at / 86400);
  const offsets = memoTable(offsetMemo, timeZone);
  let offset = offsets.get(day);
  if (offset === undefined) {
    const start = zoneOffset(day * 86400, timeZone);
    offset = start === zoneOffset(day * 86400 + 86399, timeZone) ? start : null;
    offsets.set(day, offset);
  }
  return offset === null ? null : Math.floor((at + offset) / 86400);
}

/**
 * A date in the site's zone, memoised by local day (or, on a day the zone changes its offset,
 * by quarter hour: every zone's offset is a multiple of 15 minutes).
 */
export function absoluteDate(at: number, locale: Locale, timeZone: string): string {
  const day = localDay(at, timeZone);
  const key = day === null ? -1 - Math.floor(at / 900) : day;
  let byLocale = dateMemo.get(timeZone);
  if (!byLocale) dateMemo.set(timeZone, (byLocale = new Map()));
  const dates = memoTable(byLocale, locale);
  let text = dates.get(key);
  if (text === undefined) {
    text = dateFormat(locale, timeZone).format(new Date(at * 1000));
    dates.set(key, text);
  }
  return text;
}

/** A chapter date as the list shows it: relative within 3 days, a formatted date otherwise. */
export function chapterDate(at: number, now: number, locale: Locale, timeZone: string): string {
  return dateDisplay(at, now) === 'relative' ? relativeTime(at, now, locale) : absoluteDate(at, locale, timeZone);
}

// ---------------------------------------------------------------------------------- labels

function labelFormat(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  return cached(`l:${locale}|${JSON.stringify(options)}`, () => new Intl.DateTimeFormat(locale, options));
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
export function monthLabel(month: { year: number; month: number }, locale: string): string {
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

/** Date and time of an instant in a zone, in full ("November 21, 2026 at 3:00 PM"): when a scheduled chapter comes out. */
export function longDateTimeLabel(at: number, locale: string, timeZone: string): string {
  return labelFormat(locale, { dateStyle: 'long', timeStyle: 'short', timeZone }).format(new Date(at * 1000));
}

/** Date and time of an instant in a zone, for titles ("Nov 21, 3:00 PM"). */
export function dateTimeLabel(at: number, locale: string, timeZone: string): string {
  return labelFormat(locale, { day: 'numeric', month: 'short', hour: 'numeric', minute: '2-digit', timeZone }).format(new Date(at * 1000));
}
