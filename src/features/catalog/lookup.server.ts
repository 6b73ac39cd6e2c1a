/**
 * Lookups other features make of the catalogue: a series by reference or slug, a chapter with its
 * series, what surrounds a chapter (campaigns, publisher, the chapters before and after), its
 * pages. The repository behind them stays private to the catalogue.
 */
import type { ChapterRow, SeriesRow } from '@db/schema';
import type { DB } from '~/server/db';
import * as repo from './repository.server';
import type { T } from '~/lib/i18n';
import { contentLanguage, type Locale } from '~/lib/site';
import { readerPath } from '~/lib/paths';
import { displayChapterName } from './naming';
import { seriesLocalizer } from './texts.server';

/** A series by numeric id or e4pid (`SER-…`); anything else, an id out of range included, finds nothing. */
// With `language` (a site's content language), the series' texts come in that language (texts.server.ts).
export async function findSeries(db: DB, ref: string, language?: string): Promise<SeriesRow | undefined> {
  return localized(db, await repo.findSeriesByIdOrE4pid(db, ref), language);
}

export async function findSeriesBySlug(db: DB, slug: string, language?: string): Promise<SeriesRow | undefined> {
  return localized(db, await repo.findSeriesBySlug(db, slug), language);
}

async function localized(db: DB, series: SeriesRow | undefined, language: string | undefined): Promise<SeriesRow | undefined> {
  return series && language ? (await seriesLocalizer(db, language))(series) : series;
}

/** A chapter by e4pid (`EPI-…`) with its series (in `language` when given), or null. */
export async function findChapter(db: DB, e4pid: string, language?: string): Promise<{ series: SeriesRow; chapter: ChapterRow } | null> {
  const chapter = await repo.findChapterByE4pid(db, e4pid);
  if (!chapter) return null;
  const series = await localized(db, await repo.findSeriesById(db, chapter.series_id), language);
  return series ? { series, chapter } : null;
}

/**
 * The series' campaigns and publisher, the released chapters just before and after this one in
 * its language, and the first one after it still to come (`upcoming`, looked for only when no
 * released chapter follows: what the last chapter's end card announces).
 */
export async function chapterSurroundings(db: DB, series: SeriesRow, chapter: ChapterRow, now: number) {
  const [campaigns, publisher, adjacent] = await Promise.all([
    repo.seriesCampaigns(db, series.id),
    repo.findPublisher(db, series.publisher_id),
    repo.adjacentChapters(db, series.id, chapter.language, Number(chapter.number), now),
  ]);
  const upcoming = adjacent.next ? undefined : await repo.nextScheduledChapter(db, series.id, chapter.language, Number(chapter.number), now);
  return { campaigns, publisher, adjacent, upcoming };
}

/** The pages of a chapter, in reading order. */
export function chapterPageRows(db: DB, chapterId: number) {
  return repo.chapterPages(db, chapterId);
}

/** The media key of one page of a chapter, by the chapter's e4pid and the page position. */
export function pageMediaKey(db: DB, e4pid: string, position: number): Promise<string | null> {
  return repo.pageMediaKey(db, e4pid, position);
}

/** Name, series and reader path of chapters by id (a reader's key history links them). */
export async function chapterLinks(db: DB, ids: readonly number[], t: T, locale: Locale): Promise<Map<number, { name: string; series: string; path: string }>> {
  if (!ids.length) return new Map();
  const localize = await seriesLocalizer(db, contentLanguage(locale));
  const rows = (await repo.chaptersWithSeries(db, ids)).map((r) => {
    const l = localize({ series_id: r.series_id, name: r.series_name, chapter_name_format: r.chapter_name_format });
    return { ...r, series_name: l.name, chapter_name_format: l.chapter_name_format };
  });
  return new Map(rows.map((r) => {
    const number = Number(r.number);
    return [Number(r.id), {
      name: displayChapterName(t, locale, { format: r.format, chapter_name_format: r.chapter_name_format }, number),
      series: r.series_name,
      path: readerPath({ slug: r.slug, format: r.format }, { e4pid: r.e4pid, number, language: r.language }),
    }];
  }));
}
