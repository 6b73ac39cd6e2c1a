/**
 * Reading progress and history (docs/library-progress.md): the service. Its rows come from the
 * library's repository, where every query carries `reading_progress.user_id = ?` in its own
 * WHERE clause, so one reader can never read or change another reader's rows.
 */
import type { DB } from '~/server/db';
import * as repo from './repository.server';
import type { Format } from '~/features/catalog';
import { parseImages, SERIES_CARD_COLUMNS, toSeriesCard, type SeriesCard } from '~/features/catalog';
import { seriesLocalizer } from '~/features/catalog/index.server';
import { readerPath, seriesPath, mediaUrl } from '~/lib/paths';
import { historyState } from './progress';
import { continueLinks, type ContinueContext, type ContinueLink } from './continue.server';

export interface ChapterProgress {
  chapterId: number;
  e4pid: string;
  completion: number;
  completed: boolean;
  firstRead: number;
  lastRead: number;
}

export type RecordResult =
  | { kind: 'applied'; progress: ChapterProgress }
  | { kind: 'stale' }
  | { kind: 'notFound' };

/**
 * Stores one progress report in a single upsert that applies only when (issuedAt, seq) is
 * newer than the stored pair: first_read stays from the first insert, completion is the
 * latest accepted value, completed never goes back from 1, last_read is now.
 */
export async function recordProgress(
  db: DB,
  input: { userId: number; e4pid: string; completion: number; completed: boolean; issuedAt: number; seq: number; now: number },
): Promise<RecordResult> {
  const chapter = await repo.chapterForProgress(db, input.e4pid);
  if (!chapter) return { kind: 'notFound' };
  const completed = input.completed || input.completion >= 100 ? 1 : 0;
  const row = await repo.upsertProgress(db, {
    user_id: input.userId, chapter_id: chapter.id, series_id: chapter.series_id, completion: input.completion, completed,
    first_read: input.now, last_read: input.now, token_issued_at: input.issuedAt, seq: input.seq,
  });
  if (!row) return { kind: 'stale' };
  return {
    kind: 'applied',
    progress: {
      chapterId: Number(row.chapter_id),
      e4pid: chapter.e4pid,
      completion: Number(row.completion),
      completed: Number(row.completed) === 1,
      firstRead: Number(row.first_read),
      lastRead: Number(row.last_read),
    },
  };
}

/** This reader's progress on every chapter of one series, newest first. */
export async function progressForSeries(db: DB, userId: number, seriesId: number): Promise<ChapterProgress[]> {
  const rows = await repo.progressRowsOfSeries(db, userId, seriesId);
  return rows.map((r) => ({
    chapterId: Number(r.chapter_id),
    e4pid: r.e4pid,
    completion: Number(r.completion),
    completed: Number(r.completed) === 1,
    firstRead: Number(r.first_read),
    lastRead: Number(r.last_read),
  }));
}

export interface HistoryEntry {
  series: SeriesCard & { freeAvailability: string };
  chapter: { e4pid: string; number: number; language: string; href: string };
  completion: number;
  completed: boolean;
  state: 'read' | 'reading';
  lastRead: number;
  /** Where the entry's button goes, by the one continue rule; null when nothing is available. */
  next: ContinueLink | null;
}

export interface HistoryPage {
  entries: HistoryEntry[];
  limit: number;
  skip: number;
  /** True when no entries follow this page. */
  lastPage: boolean;
}

/**
 * One entry per series, the reader's newest progress row in it, newest first. The newest row
 * per series is the one no other row of the same user and series beats on (last_read, chapter_id).
 */
export async function loadHistory(db: DB, userId: number, limit: number, skip: number, ctx: ContinueContext): Promise<HistoryPage> {
  // Series texts in the site's language (the catalogue's translations).
  const [found, localize] = await Promise.all([
    repo.newestProgressPerSeries(db, userId, [...SERIES_CARD_COLUMNS, 'series.chapter_name_format'], limit + 1, skip),
    seriesLocalizer(db, ctx.site.language),
  ]);
  const rows = found.map(localize);
  const shown = rows.slice(0, limit);
  const { links: next } = await continueLinks(db, userId, shown.map((r) => ({ id: Number(r.id), slug: r.slug, format: r.format as Format, chapter_name_format: r.chapter_name_format })), ctx);
  const entries = shown.map((r): HistoryEntry => {
    const series = { slug: r.slug, format: r.format as Format };
    const completion = Number(r.completion);
    const completed = Number(r.completed) === 1;
    return {
      series: { ...toSeriesCard(r), freeAvailability: r.free_availability },
      chapter: { e4pid: r.chapter_e4pid, number: Number(r.number), language: r.language, href: readerPath(series, { e4pid: r.chapter_e4pid, number: Number(r.number), language: r.language }) },
      completion,
      completed,
      state: historyState({ completion, completed }),
      lastRead: Number(r.last_read),
      next: next.get(Number(r.id)) ?? null,
    };
  });
  return { entries, limit, skip, lastPage: rows.length <= limit };
}
