/**
 * Release notices (docs/notifications.md): when a chapter is released, each reader whose favorite
 * of the series has the notify switch on gets one inbox item. Runs with the release check, once
 * per machine (src/server/workers.ts), at most once a minute (RELEASE_CHECK_SECONDS), so a
 * chapter's notices go out within a minute of its release, scheduled releases included.
 *
 * - Batches: FANOUT_BATCH readers per statement, one write transaction per batch, and a pause of
 *   FANOUT_PAUSE_MS between batches, so pages keep being served during a large fan-out.
 * - Idempotent: notification_deliveries' (chapter_id, user_id) key is claimed inside the batch's
 *   transaction; a check that runs twice, or on two machines at once, writes each item once.
 * - Cap: one item per series per CAP_SECONDS per reader; a later chapter folds into the item
 *   (it names the newest chapter, counts the chapters and is unread again).
 */
import { writeTransaction, type DB } from '~/server/db';
import { config } from '~/server/config.mjs';
import { log } from '~/server/observe.mjs';
import { releasedChapters, type ReleasedChapter } from '~/features/catalog/index.server';
import { notifiedReaders } from '~/features/library/index.server';
import * as repo from './repository.server';
import { queueChapterPushes, wakePushes } from './push.server';

/** Readers per statement (500 rows × 7 values stays far below SQLite's 32,766 parameters). */
export const FANOUT_BATCH = 500;
/** At most one new-chapter item per series per reader in this window; later chapters fold in. */
export const CAP_SECONDS = 6 * 3600;

/**
 * The pause between batches. better-sqlite3 is synchronous: a batch holds the event loop while it
 * writes, so requests that arrived meanwhile are answered in the pause before the next (back to
 * back, with only an immediate turn, a 20-batch fan-out kept pages waiting behind it). 20 batches
 * of 10,000 readers add 0.4 s.
 */
export const FANOUT_PAUSE_MS = 20;

const nextTurn = () => new Promise<void>((resolve) => setTimeout(resolve, FANOUT_PAUSE_MS));

/** What a chapter item keeps: enough to link and name the chapter by number, never its title. */
export function chapterData(c: ReleasedChapter): string {
  return JSON.stringify({ e4pid: c.e4pid, number: c.number, language: c.language, slug: c.slug, format: c.format, name: c.name });
}

/** Fans out one released chapter; returns how many readers got (or had folded) an item. */
export async function fanOutChapter(db: DB, c: ReleasedChapter, now: number): Promise<number> {
  let after = 0;
  let told = 0;
  const data = chapterData(c);
  for (let first = true; ; first = false) {
    if (!first) await nextTurn();
    const readers = await notifiedReaders(db, c.seriesId, c.releasedAt, after, FANOUT_BATCH);
    if (readers.length === 0) break;
    after = readers[readers.length - 1]!;
    const off = await repo.turnedOff(db, readers, 'chapters', 'inbox');
    const wanted = readers.filter((id) => !off.has(id));
    // A write transaction (BEGIN IMMEDIATE on SQLite): two machines' checks queue instead of failing.
    told += await writeTransaction(db, async (trx) => {
      const won = await repo.claimDeliveries(trx, wanted, c.id, now);
      if (won.length === 0) return 0;
      const folded = new Set(await repo.foldChapter(trx, won, c.seriesId, c.id, c.siteId, data, now - CAP_SECONDS, now));
      const fresh = won.filter((id) => !folded.has(id));
      await repo.insertItems(trx, fresh.map((user_id) => ({
        user_id, category: 'chapters' as const, kind: 'CHAPTER', series_id: c.seriesId, chapter_id: c.id, site_id: c.siteId, data, now,
      })));
      // Web push: only new items push (a folded chapter sends no second push); sent by the worker after the commit.
      await queueChapterPushes(trx, fresh, c, data, now);
      return won.length;
    });
    if (readers.length < FANOUT_BATCH) break;
  }
  return told;
}

/** Fans out every chapter released in (since, now], oldest first. Returns the readers told. */
export async function fanOutReleases(db: DB, since: number, now: number): Promise<number> {
  let told = 0;
  for (const c of await releasedChapters(db, since, now)) told += await fanOutChapter(db, c, now);
  return told;
}

/** The first check after a start looks back a day (deliveries already made are not repeated). */
const FIRST_LOOKBACK_SECONDS = 24 * 3600;
let lastCheck = 0;
let nextSince = 0;
let running: Promise<unknown> | null = null;

/** Called on requests (machine timers only): at most once per RELEASE_CHECK_SECONDS, never awaited, never throws. */
export function maybeFanOutReleases(getDb: () => Promise<DB>, nowSeconds: number): void {
  if (running || nowSeconds - lastCheck < config.releaseCheckSeconds) return;
  const since = nextSince || nowSeconds - FIRST_LOOKBACK_SECONDS;
  lastCheck = nowSeconds;
  running = getDb()
    .then((db) => fanOutReleases(db, since, nowSeconds))
    .then(() => { nextSince = nowSeconds - 5; wakePushes(); })
    .catch((error) => {
      log().error({ err: error instanceof Error ? error.message : error }, '[notifications] release fan-out failed');
    })
    .finally(() => { running = null; });
}
