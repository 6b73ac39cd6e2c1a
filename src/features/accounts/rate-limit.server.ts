import { sql } from 'kysely';
import type { DB } from '../../server/db';
import { type Limit, type Verdict, verdict } from './rate-limit';

/**
 * Counts one attempt in `bucket` and says whether it is allowed. One statement (an upsert that
 * resets an ended window), valid on SQLite and PostgreSQL, so concurrent processes count right.
 */
export async function hit(db: DB, bucket: string, limit: Limit, now: number): Promise<Verdict> {
  const ended = now - limit.window;
  const row = await db
    .insertInto('rate_limits')
    .values({ bucket, window_start: now, count: 1 })
    .onConflict((oc) =>
      oc.column('bucket').doUpdateSet({
        count: sql<number>`case when rate_limits.window_start <= ${ended} then 1 else rate_limits.count + 1 end`,
        window_start: sql<number>`case when rate_limits.window_start <= ${ended} then ${now} else rate_limits.window_start end`,
      }),
    )
    .returning(['window_start', 'count'])
    .executeTakeFirstOrThrow();
  return verdict({ window_start: Number(row.window_start), count: Number(row.count) }, now, limit);
}

/** Forgets a bucket (after a successful login, the account's failures no longer count). */
export async function clear(db: DB, bucket: string): Promise<void> {
  await db.deleteFrom('rate_limits').where('bucket', '=', bucket).execute();
}
