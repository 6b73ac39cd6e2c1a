/**
 * Reading progress and history (spec sections 2, 3, 4, 7): repository and service. Every query
 * carries `reading_progress.user_id = ?` in its own WHERE clause, so one reader can never read
 * or change another reader's rows (docs/library-progress.md).
 */
import { sql } from 'kysely';
import type { DB } from '~/server/db';
import type { Format } from '~/features/catalog';
import { parseImages, SERIES_CARD_COLUMNS, toSeriesCard, type SeriesCard } from '~/features/catalog';
import { readerPath, seriesPath, mediaUrl } from '~/lib/paths';
import { historyState } from './progress';

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
  const chapter = await db.selectFrom('chapters').select(['id', 'series_id', 'e4pid']).where('e4pid', '=', input.e4pid).executeTakeFirst();
  if (!chapter) return { kind: 'notFound' };
  const completed = input.completed || input.completion >= 100 ? 1 : 0;
  const row = await db
    .insertInto('reading_progress')
    .values({
      user_id: input.userId,
      chapter_id: chapter.id,
      series_id: chapter.series_id,
      completion: input.completion,
      completed,
      first_read: input.now,
      last_read: input.now,
      token_issued_at: input.issuedAt,
      seq: input.seq,
    })
    .onConflict((oc) =>
      oc
        .columns(['user_id', 'chapter_id'])
        .doUpdateSet({
          completion: (eb) => eb.ref('excluded.completion'),
          completed: sql<number>`case when reading_progress.completed = 1 or excluded.completed = 1 then 1 else 0 end`,
          last_read: (eb) => eb.ref('excluded.last_read'),
          token_issued_at: (eb) => eb.ref('excluded.token_issued_at'),
          seq: (eb) => eb.ref('excluded.seq'),
        })
        // The same ordering as isNewerUpdate() in progress.ts.
        .where((eb) =>
          eb.or([
            eb('excluded.token_issued_at', '>', eb.ref('reading_progress.token_issued_at')),
            eb.and([
              eb('excluded.token_issued_at', '=', eb.ref('reading_progress.token_issued_at')),
              eb('excluded.seq', '>', eb.ref('reading_progress.seq')),
            ]),
          ]),
        ),
    )
    .returning(['chapter_id', 'completion', 'completed', 'first_read', 'last_read'])
    .executeTakeFirst();
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
  const rows = await db
    .selectFrom('reading_progress')
    .innerJoin('chapters', 'chapters.id', 'reading_progress.chapter_id')
    .select([
      'reading_progress.chapter_id', 'chapters.e4pid', 'reading_progress.completion', 'reading_progress.completed',
      'reading_progress.first_read', 'reading_progress.last_read',
    ])
    .where('reading_progress.user_id', '=', userId)
    .where('reading_progress.series_id', '=', seriesId)
    .orderBy('reading_progress.last_read', 'desc')
    .orderBy('reading_progress.chapter_id', 'desc')
    .execute();
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
export async function loadHistory(db: DB, userId: number, limit: number, skip: number): Promise<HistoryPage> {
  const rows = await db
    .selectFrom('reading_progress as rp')
    .innerJoin('chapters', 'chapters.id', 'rp.chapter_id')
    .innerJoin('series', 'series.id', 'rp.series_id')
    .select([
      'rp.completion', 'rp.completed', 'rp.last_read', 'rp.chapter_id',
      'chapters.e4pid as chapter_e4pid', 'chapters.number', 'chapters.language',
      ...SERIES_CARD_COLUMNS, 'series.free_availability',
    ])
    .where('rp.user_id', '=', userId)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('reading_progress as newer')
            .select('newer.chapter_id')
            .where('newer.user_id', '=', userId)
            .whereRef('newer.series_id', '=', 'rp.series_id')
            .where((eb) =>
              eb.or([
                eb('newer.last_read', '>', eb.ref('rp.last_read')),
                eb.and([eb('newer.last_read', '=', eb.ref('rp.last_read')), eb('newer.chapter_id', '>', eb.ref('rp.chapter_id'))]),
              ]),
            ),
        ),
      ),
    )
    .orderBy('rp.last_read', 'desc')
    .orderBy('rp.chapter_id', 'desc')
    .limit(limit + 1)
    .offset(skip)
    .execute();
  const entries = rows.slice(0, limit).map((r): HistoryEntry => {
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
    };
  });
  return { entries, limit, skip, lastPage: rows.length <= limit };
}
