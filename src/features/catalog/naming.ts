import type { T } from '~/lib/i18n';
import { chapterName, unitFor, type Format } from './rules';

/** The localized "Chapter {num}" / "Episode {num}" template, with the placeholder kept for chapterName(). */
export function defaultNameFormat(t: T, format: Format): string {
  return t(unitFor(format) === 'episode' ? 'chapter.name.episode' : 'chapter.name.chapter', { num: '{num}' });
}

/** A chapter's display name on this site: the series' own format, or the localized default. */
export function displayChapterName(t: T, locale: Parameters<typeof chapterName>[1], series: { format: Format; chapter_name_format: string | null }, number: number): string {
  return chapterName(number, locale, series.chapter_name_format, defaultNameFormat(t, series.format));
}
