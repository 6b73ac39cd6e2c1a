/**
 * Pure display and state rules for series and chapters (spec sections 4 and 5).
 * Shared by the server and by plain scripts; no I/O here.
 */
import type { Locale } from '../../lib/site';
import { parseJsonArray } from './media';

export type Format = 'COMIC' | 'MANGA' | 'WEBTOON';

/** Up to two decimals, trailing zeros trimmed: 12 -> "12", 12.50 -> "12.5", 40.257 -> "40.26". */
export function formatChapterNumber(n: number, locale?: Locale): string {
  if (!Number.isFinite(n)) return '';
  // Integers look the same in every supported locale (no grouping): skip Intl on the common case.
  if (Number.isInteger(n)) return String(n);
  const rounded = round2(n);
  if (locale) return numberFormat(locale).format(rounded);
  return rounded.toFixed(2).replace(/\.?0+$/, '');
}

// Intl constructors are costly (tens of microseconds each); a page formats hundreds of values.
const intlCache = new Map<string, Intl.NumberFormat | Intl.RelativeTimeFormat | Intl.DateTimeFormat>();
function cached<F extends Intl.NumberFormat | Intl.RelativeTimeFormat | Intl.DateTimeFormat>(key: string, make: () => F): F {
  let f = intlCache.get(key) as F | undefined;
  if (!f) {
    f = make();
    intlCache.set(key, f);
  }
  return f;
}
const numberFormat = (locale: Locale) => cached(`n:${locale}`, () => new Intl.NumberFormat(locale, { maximumFractionDigits: 2, useGrouping: false }));
const relativeFormat = (locale: Locale) => cached(`r:${locale}`, () => new Intl.RelativeTimeFormat(locale, { numeric: 'auto' }));
const dateFormat = (locale: Locale, timeZone: string) => cached(`d:${locale}:${timeZone}`, () => new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone }));

/** Rounds to two decimals in decimal, not binary: 1.005 -> 1.01. */
export function round2(n: number): number {
  const r = Number(`${Math.round(Number(`${n}e2`))}e-2`);
  return Number.isFinite(r) ? r : Math.round(n * 100) / 100;
}

const enOrdinals = new Intl.PluralRules('en', { type: 'ordinal' });
const ordinalSuffix: Record<string, string> = { one: 'st', two: 'nd', few: 'rd', other: 'th' };

/** Ordinal for `{ord}`: 1st, 2nd, 3rd, 11th, 12.5th in English; 1º in Portuguese. */
export function formatOrdinal(n: number, locale: Locale): string {
  const num = formatChapterNumber(n, locale);
  if (locale === 'pt-BR') return `${num}º`;
  const integer = Number.isInteger(round2(n));
  const rule = integer ? enOrdinals.select(n) : 'other';
  return `${num}${ordinalSuffix[rule] ?? 'th'}`;
}

/** Webtoons have episodes; comics and manga have chapters. */
export function unitFor(format: Format): 'chapter' | 'episode' {
  return format === 'WEBTOON' ? 'episode' : 'chapter';
}

/**
 * Fills a series' chapter name format. `defaultFormat` is the localized
 * "Chapter {num}" / "Episode {num}" used when the series has none.
 */
export function chapterName(number: number, locale: Locale, seriesFormat: string | null, defaultFormat: string): string {
  const usable = seriesFormat != null && (seriesFormat.includes('{num}') || seriesFormat.includes('{ord}'));
  const template = usable ? seriesFormat : defaultFormat;
  let name = template.replaceAll('{num}', formatChapterNumber(number, locale));
  if (name.includes('{ord}')) name = name.replaceAll('{ord}', formatOrdinal(number, locale));
  return name;
}

// Prices and the unlock bonus are the wallet's one pricing rule; re-exported for the catalogue's callers.
export { finalPrice, unlockBonus, type Campaign } from '../wallet/pricing';

export type AccessState = 'scheduled' | 'unlocked' | 'free' | 'paid';
export type ReadState = 'read' | 'reading' | null;

export interface ChapterStateInput {
  releasedAt: number;
  finalPrice: number;
  owned?: boolean;
  subscribed?: boolean;
  completion?: number;
  completed?: boolean;
}

/** Scheduled wins over everything (a future chapter can't be read); then owned/subscribed, free, paid. */
export function accessState(c: ChapterStateInput, now: number): AccessState {
  if (c.releasedAt > now) return 'scheduled';
  if (c.owned || c.subscribed) return 'unlocked';
  if (c.finalPrice <= 0) return 'free';
  return 'paid';
}

export function readState(c: Pick<ChapterStateInput, 'completion' | 'completed'>): ReadState {
  if (c.completed || (c.completion ?? 0) >= 100) return 'read';
  if ((c.completion ?? 0) > 0) return 'reading';
  return null;
}

/** Whether a campaign lowered the price (the row shows the original struck through). */
export function isOnSale(original: number, final: number): boolean {
  return final < original;
}

export const GAP_THRESHOLD = 1.5;

export type ListItem<T> = { kind: 'chapter'; chapter: T } | { kind: 'gap'; after: number; before: number };

/**
 * Inserts a coming-soon row between consecutive chapters more than 1.5 apart.
 * Works in either sort direction; the input order is kept.
 */
export function withGaps<T extends { number: number }>(chapters: readonly T[]): ListItem<T>[] {
  const out: ListItem<T>[] = [];
  chapters.forEach((chapter, i) => {
    const prev = chapters[i - 1];
    if (prev && Math.abs(chapter.number - prev.number) > GAP_THRESHOLD) {
      out.push({ kind: 'gap', after: Math.min(prev.number, chapter.number), before: Math.max(prev.number, chapter.number) });
    }
    out.push({ kind: 'chapter', chapter });
  });
  return out;
}

export const PT_MAX_UPCOMING = 5;

/**
 * On the Portuguese site, when released chapters exist, at most 5 upcoming ones are listed:
 * the 5 soonest. Elsewhere (or when nothing is released yet) every chapter stays.
 */
export function limitUpcoming<T>(chapters: readonly T[], siteId: number, now: number, releasedAt: (c: T) => number = (c) => (c as { releasedAt: number }).releasedAt): T[] {
  if (siteId !== 3) return [...chapters];
  const upcoming = chapters.filter((c) => releasedAt(c) > now);
  if (upcoming.length <= PT_MAX_UPCOMING || upcoming.length === chapters.length) return [...chapters];
  const keep = new Set([...upcoming].sort((a, b) => releasedAt(a) - releasedAt(b)).slice(0, PT_MAX_UPCOMING));
  return chapters.filter((c) => releasedAt(c) <= now || keep.has(c));
}

export const RELATIVE_DATE_LIMIT = 3 * 24 * 3600;

/** Dates more than 3 days from now are shown as dates; nearer ones as relative times. */
export function dateDisplay(at: number, now: number): 'relative' | 'absolute' {
  return Math.abs(now - at) > RELATIVE_DATE_LIMIT ? 'absolute' : 'relative';
}

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 86400],
  ['month', 30 * 86400],
  ['week', 7 * 86400],
  ['day', 86400],
  ['hour', 3600],
  ['minute', 60],
  ['second', 1],
];

/** "3 hours ago", "in 2 days", localized. */
export function relativeTime(at: number, now: number, locale: Locale): string {
  const diff = at - now;
  const abs = Math.abs(diff);
  const rtf = relativeFormat(locale);
  for (const [unit, seconds] of UNITS) {
    if (abs >= seconds || unit === 'second') return rtf.format(Math.round(diff / seconds), unit);
  }
  return rtf.format(0, 'second');
}

const DATE_MEMO_MAX = 20_000;
/** Per zone: UTC day number -> the zone's offset that whole day, or null on a day it changes. */
const offsetMemo = new Map<string, Map<number, number | null>>();
/** Per zone and locale: local day number (or -1 - quarter hour on a DST day) -> formatted date. */
const dateMemo = new Map<string, Map<string, Map<number, string>>>();
const offsetParts = (timeZone: string) =>
  cached(`o:${timeZone}`, () => new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' }));

/** The zone's UTC offset (seconds) at an instant. */
function zoneOffset(at: number, timeZone: string): number {
  const p: Record<string, number> = {};
  for (const { type, value } of offsetParts(timeZone).formatToParts(new Date(at * 1000))) p[type] = Number(value);
  return Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!, p.second!) / 1000 - at;
}

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

/**
 * Language tabs are chosen by `#language-{code}`. The reader's own language is the
 * default tab, so its hash is replaced by `#languages` (spec section 2).
 */
export function resolveLanguageHash(hash: string, ownLanguage: string, available: readonly string[]): { tab: string | null; replaceWith: string | null } {
  const m = /^#language-([a-z]{2}(?:-[a-z]{2})?)$/i.exec(hash);
  if (!m) return { tab: null, replaceWith: null };
  const code = m[1]!.toLowerCase();
  if (code === ownLanguage) return { tab: available.includes(code) ? code : null, replaceWith: '#languages' };
  return { tab: available.includes(code) ? code : null, replaceWith: null };
}

/** Countries where a series may not be shown: its own geoblocks plus its publisher's, sorted. */
export function regionBlocks(series: { geoblocks: string }, publisher: { geoblocks: string } | null | undefined): string[] {
  return [...new Set([...parseJsonArray<string>(series.geoblocks), ...parseJsonArray<string>(publisher?.geoblocks)])]
    .filter((c) => typeof c === 'string')
    .sort();
}
