/** Reader and series URLs (spec section 2). Pure: used by pages, sitemaps, APIs and tests. */
import { round2, type Format } from '~/features/catalog/rules';

/** Chapter-part prefix by content language; English uses chapter/episode by format. */
export const LOCALIZED_PREFIX: Record<string, string> = {
  es: 'capitulo-espanol',
  'pt-br': 'capitulo-portugues',
  fr: 'chapitre-francais',
  id: 'bab-bahasa',
};

/** "12.5" -> "12-5"; numbers keep at most two decimals, trailing zeros trimmed. */
export function numberSegment(n: number): string {
  if (Number.isInteger(n)) return String(n);
  return round2(n).toFixed(2).replace(/\.?0+$/, '').replace('.', '-');
}

export function chapterPrefix(language: string, format: Format): string {
  return LOCALIZED_PREFIX[language.toLowerCase()] ?? (format === 'WEBTOON' ? 'episode' : 'chapter');
}

/** /read/{series slug}/{episode id without EPI-}/{chapter|episode}-{number with dot as dash}/ */
export function readerPath(series: { slug: string; format: Format }, chapter: { e4pid: string; number: number; language: string }): string {
  const id = chapter.e4pid.startsWith('EPI-') ? chapter.e4pid.slice(4) : chapter.e4pid;
  return `/read/${encodeURIComponent(series.slug)}/${encodeURIComponent(id)}/${chapterPrefix(chapter.language, series.format)}-${numberSegment(chapter.number)}/`;
}

export function seriesPath(series: { slug: string }): string {
  return `/comics/${encodeURIComponent(series.slug)}/`;
}

/** Login link that brings the reader back to where they were. */
export function loginPath(next: string): string {
  return `/auth/login/?next=${encodeURIComponent(next)}`;
}
