import type { DB } from '~/server/db';
import * as repo from './repository.server';
import { LIMITS, type Limit, type Verdict, verdict } from './rate-limit';

/**
 * Counts one attempt in `bucket` and says whether it is allowed. One statement (an upsert that
 * resets an ended window), valid on SQLite and PostgreSQL, so concurrent processes count right.
 */
export async function hit(db: DB, bucket: string, limit: Limit, now: number): Promise<Verdict> {
  const row = await repo.countAttempt(db, bucket, now, now - limit.window);
  await prune(db, now);
  return verdict({ window_start: Number(row.window_start), count: Number(row.count) }, now, limit);
}

/** A counter whose window started this long ago has ended for every limit. */
const LONGEST_WINDOW = Math.max(...Object.values(LIMITS).map((l) => l.window));
/** Rows removed per attempt: more than one attempt can add, so the table stays bounded. */
const PRUNE_BATCH = 100;

/**
 * Deletes counters that no limit can use any more. Each attempt adds at most one row (one per
 * email or address tried), so removing up to a hundred ended ones per attempt keeps the table
 * at about the number of buckets active within the longest window, in every process.
 */
async function prune(db: DB, now: number): Promise<void> {
  await repo.deleteEndedCounters(db, now - LONGEST_WINDOW, PRUNE_BATCH);
}

/** Forgets a bucket (after a successful login, the account's failures no longer count). */
export async function clear(db: DB, bucket: string): Promise<void> {
  await repo.deleteCounter(db, bucket);
}
