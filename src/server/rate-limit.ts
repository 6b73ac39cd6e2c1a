/**
 * The one limiter (docs/operations.md, "Limits"): fixed-window counters in the rate_limits table,
 * so every process and machine on one database counts together. The routes' limits are applied
 * by the middleware from the route table (src/server/routes.ts); the accounts feature counts
 * logins and sign-ups per email and per address, and commerce counts card declines, through the
 * same functions. Each count is one statement (an upsert that restarts an ended window), valid on
 * SQLite and PostgreSQL.
 */
import { sql } from 'kysely';
import { writeRows, type DB } from './db';
import { LIMITS, verdict, type Limit, type Verdict } from './rate-limit-rules';

export { LIMITS, retryMinutes, type Limit, type LimitName, type Verdict } from './rate-limit-rules';

/** Counts one attempt in `bucket` and says whether it is allowed, and how many the window holds now. */
export async function hit(db: DB, bucket: string, limit: Limit, now: number): Promise<Verdict & { count: number }> {
  const ended = now - limit.window;
  const [row] = await writeRows(db, db
    .insertInto('rate_limits')
    .values({ bucket, window_start: now, count: 1 })
    .onConflict((oc) =>
      oc.column('bucket').doUpdateSet({
        count: sql<number>`case when rate_limits.window_start <= ${ended} then 1 else rate_limits.count + 1 end`,
        window_start: sql<number>`case when rate_limits.window_start <= ${ended} then ${now} else rate_limits.window_start end`,
      }),
    )
    .returning(['window_start', 'count']));
  if (!row) throw new Error(`the rate-limit upsert of ${bucket} returned no row`);
  await maybePrune(db, now);
  const count = Number(row.count);
  return { ...verdict({ window_start: Number(row.window_start), count }, now, limit), count };
}

/** Whether one more attempt would be allowed, without counting it (a pause that another event started). */
export async function peek(db: DB, bucket: string, limit: Limit, now: number): Promise<Verdict> {
  const row = await db.selectFrom('rate_limits').select(['window_start', 'count']).where('bucket', '=', bucket).executeTakeFirst();
  if (!row || Number(row.window_start) <= now - limit.window) return { allowed: true, retryAfter: 0 };
  return verdict({ window_start: Number(row.window_start), count: Number(row.count) + 1 }, now, limit);
}

/** Forgets a bucket (after a successful login, the account's failures no longer count). */
export async function clear(db: DB, bucket: string): Promise<void> {
  await db.deleteFrom('rate_limits').where('bucket', '=', bucket).execute();
}

/** A counter whose window started this long ago has ended for every limit. */
const LONGEST_WINDOW = Math.max(...Object.values(LIMITS).map((l) => l.window));
/** Rows removed per prune: more than one attempt can add, so the table stays bounded. */
const PRUNE_BATCH = 100;
/** Attempts between prunes in one process: a delete on every count would double the writes. */
const PRUNE_EVERY = 20;
let sincePrune = PRUNE_EVERY - 1;

/**
 * Deletes counters that no limit can use any more. Each attempt adds at most one row, so removing
 * up to a hundred ended ones every twentieth attempt keeps the table at about the number of
 * buckets active within the longest window, in every process.
 */
async function maybePrune(db: DB, now: number): Promise<void> {
  if (++sincePrune < PRUNE_EVERY) return;
  sincePrune = 0;
  await db
    .deleteFrom('rate_limits')
    .where('bucket', 'in', (qb) => qb.selectFrom('rate_limits').select('bucket').where('window_start', '<=', now - LONGEST_WINDOW).limit(PRUNE_BATCH))
    .execute();
}
