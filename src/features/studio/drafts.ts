/**
 * A chapter draft's fields as staff type them (docs/staff.md, "Chapter uploads"): checked here,
 * on the server, for both the new-chapter form and the draft's own form. Pure.
 */
import { parseId } from '~/lib/params';
import { fromLocalInput, isTimeZone } from '~/lib/dates';

/** The content languages a chapter can be in: the sites' (src/lib/site.ts). */
export const CHAPTER_LANGUAGES = ['en', 'pt-br'] as const;
export type ChapterLanguage = (typeof CHAPTER_LANGUAGES)[number];

export const TITLE_MAX = 200;

export interface DraftFields {
  language: ChapterLanguage;
  /** Null when the form left it blank (a CBZ's ComicInfo.xml may fill it). */
  number: number | null;
  title: string | null;
  subtitle: string | null;
}

export type DraftFieldError = 'series' | 'language' | 'number' | 'title';

/** The chapter number as typed: up to 6 digits, and up to 3 decimals (`12`, `12.5`). */
export function parseChapterNumber(raw: string): number | null | 'invalid' {
  const text = raw.trim().replace(',', '.');
  if (!text) return null;
  return /^\d{1,6}(\.\d{1,3})?$/.test(text) ? Number(text) : 'invalid';
}

export function parseDraftFields(form: URLSearchParams): { ok: true; value: DraftFields } | { ok: false; error: DraftFieldError } {
  const language = form.get('language') ?? '';
  if (!(CHAPTER_LANGUAGES as readonly string[]).includes(language)) return { ok: false, error: 'language' };
  const number = parseChapterNumber(form.get('number') ?? '');
  if (number === 'invalid') return { ok: false, error: 'number' };
  const title = (form.get('title') ?? '').trim();
  const subtitle = (form.get('subtitle') ?? '').trim();
  if (title.length > TITLE_MAX || subtitle.length > TITLE_MAX) return { ok: false, error: 'title' };
  return { ok: true, value: { language: language as ChapterLanguage, number, title: title || null, subtitle: subtitle || null } };
}

/** The series a new chapter is for (`series` field or query parameter). */
export function parseSeriesId(raw: string | null): number | null {
  return parseId(raw);
}

/** `YYYY-MM-DDTHH:MM` (a datetime-local field) on the wall clock of `timeZone`, as unix seconds; null when malformed or outside 2000-2200. */
export function parseLocalDateTime(raw: string, timeZone: string): number | null {
  const at = fromLocalInput(raw.trim(), timeZone);
  return at === null || at < 946_684_800 || at >= 7_258_118_400 ? null : at;
}

export const AVAILABILITY_FLAGS = ['purchase', 'daily_pass', 'ads', 'rental', 'subscription'] as const;
export type AvailabilityFlag = (typeof AVAILABILITY_FLAGS)[number];

export interface PublishFields {
  /** Keys, 0 = free. */
  price: number;
  flags: Record<AvailabilityFlag, boolean>;
  /** Unix seconds; `now` publishes at once. */
  release: number | 'now';
  /** When the chapter goes on sale (null: at its release). */
  saleAt: number | null;
  /** When it stops being readable (null: never). */
  expiresAt: number | null;
}

export type PublishFieldError = 'price' | 'release' | 'sale' | 'expiry' | 'zone';

/** The highest list price in keys: catches typos like 5000 (the seed's dearest chapter is 30). */
export const PRICE_MAX = 999;

/** The publish form, its times on the wall clock of `zone` (the zone field, checked). */
export function parsePublishFields(form: URLSearchParams): { ok: true; value: PublishFields; zone: string } | { ok: false; error: PublishFieldError } {
  const zone = (form.get('zone') ?? '').trim();
  if (!zone || zone.length > 64 || !isTimeZone(zone)) return { ok: false, error: 'zone' };
  const priceText = (form.get('price') ?? '').trim();
  if (!/^\d{1,4}$/.test(priceText) || Number(priceText) > PRICE_MAX) return { ok: false, error: 'price' };
  const flags = Object.fromEntries(AVAILABILITY_FLAGS.map((f) => [f, form.get(f) === '1'])) as Record<AvailabilityFlag, boolean>;
  let release: number | 'now' = 'now';
  if (form.get('release') === 'at') {
    const at = parseLocalDateTime(form.get('release_at') ?? '', zone);
    if (at === null) return { ok: false, error: 'release' };
    release = at;
  } else if (form.get('release') !== 'now') return { ok: false, error: 'release' };
  const time = (name: string): number | null | 'invalid' => {
    const raw = (form.get(name) ?? '').trim();
    if (!raw) return null;
    return parseLocalDateTime(raw, zone) ?? 'invalid';
  };
  const saleAt = time('sale_at');
  if (saleAt === 'invalid') return { ok: false, error: 'sale' };
  const expiresAt = time('expires_at');
  if (expiresAt === 'invalid') return { ok: false, error: 'expiry' };
  return { ok: true, value: { price: Number(priceText), flags, release, saleAt, expiresAt }, zone };
}
