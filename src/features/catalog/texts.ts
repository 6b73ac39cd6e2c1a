/**
 * Per-language series texts (docs/data-model.md, "Series texts"): the fallback rule. A site shows
 * a series' text in its own content language when a translation exists and is not blank, and the
 * series' original text otherwise, field by field. Pure and browser-safe.
 */

/** The series fields that may have a translation. */
export const TRANSLATED_FIELDS = ['name', 'description', 'excerpt', 'update_text', 'chapter_name_format'] as const;
export type TranslatedField = (typeof TRANSLATED_FIELDS)[number];

/** One language's translation of a series; null or missing fields are not translated. */
export type SeriesTranslation = Partial<Record<TranslatedField, string | null>>;

/** The text to show: the translation when it has any non-space character, else the original. */
export function localizedText<O extends string | null>(original: O, translation: string | null | undefined): O | string {
  return translation != null && translation.trim() !== '' ? translation : original;
}

/**
 * A copy of `row` with each translated field it has replaced by its translation (fallback per
 * field); the row itself when there is nothing to replace. Fields the row does not carry are not added.
 */
export function localizeRow<R extends Partial<Record<TranslatedField, string | null>> & { alt?: string }>(row: R, translation: SeriesTranslation | undefined): R {
  if (!translation) return row;
  let out: R | undefined;
  for (const f of TRANSLATED_FIELDS) {
    if (!(f in row)) continue;
    const value = localizedText(row[f] ?? null, translation[f]);
    if (value !== row[f]) (out ??= { ...row })[f] = value as R[typeof f];
  }
  // A translated name is no longer an alternative name; the original becomes one.
  if (out && typeof row.alt === 'string' && typeof row.name === 'string' && out.name !== row.name) {
    out.alt = [row.name, ...row.alt.split('\n').filter((a) => a.trim() && a.trim() !== out!.name)].join('\n');
  }
  return out ?? row;
}

/**
 * The series' schedule line ("New episodes every Friday") in the site's language, never another
 * (issue 26: English lines under Portuguese labels). Its translation into the site's language
 * when there is one; else the original when the series was first published in the site's
 * language (English when it has English chapters, the catalogue being English-first, else its
 * only or first language); else the line generated from its update status (`generated`, from
 * the site's messages), or none. A series without a line of its own gets none.
 */
export function scheduleLine(input: { original: string | null; localized: string | null; siteLanguage: string; seriesLanguages: readonly string[]; generated: string | null }): string | null {
  const { original, localized } = input;
  if (localized != null && localized !== original) return localized;
  if (original == null || original.trim() === '') return null;
  if (firstLanguage(input.seriesLanguages) === input.siteLanguage) return original;
  return input.generated?.trim() ? input.generated : null;
}

/**
 * The language a series' own texts are written in, which is not stored: English when it has
 * English chapters (the catalogue is English-first), else its only or first language.
 */
export function firstLanguage(seriesLanguages: readonly string[]): string | null {
  return seriesLanguages.includes('en') ? 'en' : ([...seriesLanguages].sort()[0] ?? null);
}

/**
 * The series' notes ("New chapters every Friday") a site shows: those in its language. A note
 * may name its language (`language`: 'en', 'pt-br'); one that does not is in the series' first
 * language. Notes are free text with no translation, so a site of another language shows none
 * rather than English under Portuguese labels (issue 26).
 */
export function hintsFor<H extends { text: string; language?: unknown }>(hints: readonly H[], siteLanguage: string, seriesLanguages: readonly string[]): H[] {
  const first = firstLanguage(seriesLanguages);
  return hints.filter((h) => (typeof h.language === 'string' ? h.language : first) === siteLanguage);
}
