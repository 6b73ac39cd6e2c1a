/**
 * Releasing scheduled chapters. A chapter scheduled for 18:00 needs no job to become readable
 * (pages compute chapter states from `chapters.released_at` at request time), but the
 * denormalised counters on `series` and `series_languages` (last_updated, largest_chapter,
 * chapter_count; see docs/decisions.md "Denormalised series columns") are written only when
 * chapters are written. This brings them up to date for every series with a chapter released in
 * a time window. It is idempotent (it recomputes, never increments), so several server
 * processes may run it at the same time.
 */
import type { DB } from '~/server/db';
import { catalogChanged } from '~/server/cache';
import { config } from '~/server/config.mjs';
import * as repo from './repository.server';
import { log } from '~/server/observe.mjs';

/**
 * Series per batch. A batch is one read and one transaction, and on SQLite it runs without
 * giving the event loop a turn (the driver's promises resolve at once): 50 series take about
 * 3 ms. Between batches the loop serves waiting requests. In one 200-series batch, the first
 * check after a start on the 10,000-series catalogue (7,500 series, 400 ms) stalled every page
 * for 10 ms at a time, 38 times over.
 */
export const RELEASE_BATCH = 50;

/** Lets the event loop run everything already waiting (I/O, requests) before going on. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Recomputes the released-chapter counters of every series with a chapter released in
 * (since, now]. Returns how many series it touched. Works in batches of RELEASE_BATCH series,
 * yielding to the event loop between them.
 */
export async function refreshReleasedSeries(db: DB, since: number, now: number): Promise<number> {
  const touched = await repo.seriesReleasedBetween(db, since, now);
  const ids = touched.map((r) => Number(r.series_id));
  for (let i = 0; i < ids.length; i += RELEASE_BATCH) {
    if (i > 0) await nextTurn();
    const batch = ids.slice(i, i + RELEASE_BATCH);
    const perLanguage = await repo.releasedCounters(db, batch, now);
    const bySeries = new Map<number, { n: number; last: number; largest: number }>();
    await db.transaction().execute(async (trx) => {
      for (const row of perLanguage) {
        const id = Number(row.series_id);
        const n = Number(row.n), last = Number(row.last), largest = Number(row.largest);
        const acc = bySeries.get(id) ?? { n: 0, last: 0, largest: 0 };
        bySeries.set(id, { n: acc.n + n, last: Math.max(acc.last, last), largest: Math.max(acc.largest, largest) });
        await repo.setLanguageCounters(trx, id, row.language, n, last);
      }
      for (const [id, v] of bySeries) {
        await repo.setSeriesCounters(trx, id, v.n, v.last, v.largest);
      }
    });
  }
  return ids.length;
}

/** The first check after start looks this far back (a server that was down longer gets `npm run seed`/prepare-db's full pass). */
const FIRST_LOOKBACK_SECONDS = 7 * 24 * 3600;

let lastCheck = 0;
/** Start of the next window; kept when a check fails so the next one covers it. */
let nextSince = 0;
let running: Promise<unknown> | null = null;

/**
 * Called on requests: at most once per RELEASE_CHECK_SECONDS (a minute) per process, refreshes the series whose chapters
 * were released since the last check. Never awaited by the request and never throws into it.
 */
export function maybeRefreshReleases(getDb: () => Promise<DB>, nowSeconds: number): void {
  if (running || nowSeconds - lastCheck < config.releaseCheckSeconds) return;
  // Overlap the windows by a few seconds so a chapter written with a slightly old timestamp is not missed.
  const since = nextSince || nowSeconds - FIRST_LOOKBACK_SECONDS;
  lastCheck = nowSeconds;
  running = getDb()
    .then((db) => refreshReleasedSeries(db, since, nowSeconds))
    .then((touched) => {
      nextSince = nowSeconds - 5;
      // New chapters are out: kept pages, home blocks and prices were read before them.
      if (touched > 0) catalogChanged();
    })
    .catch((error) => {
      log().error({ err: error instanceof Error ? error.message : error }, '[release] refreshing released series failed');
    })
    .finally(() => { running = null; });
}

/** Chapters released in (since, now], for the release notices (src/features/notifications). */
export async function releasedChapters(db: DB, since: number, now: number) {
  return (await repo.chaptersReleasedBetween(db, since, now)).map((r) => ({
    id: Number(r.id), e4pid: r.e4pid, seriesId: Number(r.series_id), number: Number(r.number), language: r.language,
    releasedAt: Number(r.released_at), slug: r.slug, format: r.format, name: r.name, siteId: r.site_id == null ? null : Number(r.site_id),
  }));
}
export type ReleasedChapter = Awaited<ReturnType<typeof releasedChapters>>[number];
