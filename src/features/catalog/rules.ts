/**
 * Pure display and state rules for series and chapters.
 * Shared by the server and by plain scripts; no I/O here.
 */
import type { Locale } from '~/lib/site';
import { round2 } from '~/lib/numbers';

export type { Format } from '~/lib/paths';
import type { Format } from '~/lib/paths';
import { parseJsonArray } from '~/lib/json';

/** Up to two decimals, trailing zeros trimmed: 12 -> "12", 12.50 -> "12.5", 40.257 -> "40.26". */
export function formatChapterNumber(n: number, locale?: Locale): string {
  if (!Number.isFinite(n)) return '';
  // Integers look the same in every supported locale (no grouping): skip Intl on the common case.
  if (Number.isInteger(n)) return String(n);
  const rounded = round2(n);
  if (locale) return numberFormat(locale).format(rounded);
  return rounded.toFixed(2).replace(/\.?0+$/, '');
}

// Intl constructors are costly (tens of microseconds each); a page formats hundreds of numbers.
const numberFormats = new Map<Locale, Intl.NumberFormat>();
function numberFormat(locale: Locale): Intl.NumberFormat {
  let f = numberFormats.get(locale);
  if (!f) numberFormats.set(locale, (f = new Intl.NumberFormat(locale, { maximumFractionDigits: 2, useGrouping: false })));
  return f;
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

// Prices and the unlock bonus come from the one pricing rule (pricing.ts, docs/pricing.md).
export { finalPrice, unlockBonus, type Campaign } from './pricing';

export type ReadState = 'read' | 'reading' | null;

export function readState(c: { completion?: number; completed?: boolean }): ReadState {
  if (c.completed || (c.completion ?? 0) >= 100) return 'read';
  if ((c.completion ?? 0) > 0) return 'reading';
  return null;
}

/**
 * Whether a campaign lowered the price (the row shows the original struck through). A chapter
 * free by its series' strategy is free, not on sale: only a campaign (`sale`) makes a sale.
 */
export function isOnSale(access: { sale: object | null; finalPrice: number; originalPrice: number }): boolean {
  return access.sale !== null && access.finalPrice < access.originalPrice;
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

/**
 * Language tabs are chosen by `#language-{code}`. The reader's own language is the
 * default tab, so its hash is replaced by `#languages`.
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
