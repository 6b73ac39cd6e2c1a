/**
 * A chapter draft's fields as staff type them (docs/staff.md, "Chapter uploads"): checked here,
 * on the server, for both the new-chapter form and the draft's own form. Pure.
 */
import { parseId } from '~/lib/params';

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
