/**
 * Series texts in the site's language (docs/data-model.md, "Series texts"). Every surface that
 * shows a series' name, description, excerpt, update text or chapter name format reads it through
 * `seriesLocalizer`: one in-process map per content language of every translation (a few hundred
 * bytes per translated series; 2,000 in the 10,000-series benchmark catalogue), so a page pays a
 * map lookup per row instead of a join per query. The map lives in a `createCache` cache, so
 * `catalogChanged()` forgets it with everything else.
 */
import type { DB } from '~/server/db';
import { createCache, type Cache } from '~/server/cache';
import { seriesTextsOfLanguage } from './repository.server';
import { localizeRow, type SeriesTranslation, type TranslatedField } from './texts';

type Translations = Map<number, SeriesTranslation>;

/** Fresh for a minute like the other catalogue caches; served stale for ten while one reload runs. */
const TEXTS_TTL_MS = 60_000;
const TEXTS_STALE_MS = 600_000;
const caches = new WeakMap<object, Cache<Translations>>();

async function translations(db: DB, language: string): Promise<Translations> {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = createCache<Translations>({ ttlMs: TEXTS_TTL_MS, staleMs: TEXTS_STALE_MS, maxEntries: 8 })));
  return cache.get(language, async () => {
    const rows = await seriesTextsOfLanguage(db, language);
    return new Map(rows.map((r) => [Number(r.series_id), { name: r.name, description: r.description, excerpt: r.excerpt, update_text: r.update_text, chapter_name_format: r.chapter_name_format }]));
  });
}

/** A row that names its series by `series_id` (a chapter row) or `id` (a series row) and carries some translated fields. */
export type LocalizableRow = { id?: number | string | bigint; series_id?: number | string | bigint } & Partial<Record<TranslatedField, string | null>>;

/** Turns rows of `series` into the same rows in one content language (fallback per field to the original). */
export type Localize = <R extends LocalizableRow>(row: R) => R;

const identity: Localize = (row) => row;

/** The localizer for a content language ('en', 'pt-br'): load once per request, apply to every row. */
export async function seriesLocalizer(db: DB, language: string): Promise<Localize> {
  const map = await translations(db, language);
  if (map.size === 0) return identity;
  return (row) => localizeRow(row, map.get(Number(row.series_id ?? row.id)));
}

/** Whether any series has texts in this content language (the listing then sorts names by them). */
export async function hasTranslations(db: DB, language: string): Promise<boolean> {
  return (await translations(db, language)).size > 0;
}

/** Convenience for a list of rows. */
export async function localizeSeriesRows<R extends LocalizableRow>(db: DB, language: string, rows: R[]): Promise<R[]> {
  const localize = await seriesLocalizer(db, language);
  return rows.map(localize);
}
