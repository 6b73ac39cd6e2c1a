/**
 * The fan-out row of `npm run bench` (issue 32, BENCH_ONLY=fanout): 10,000 readers with the
 * notify switch on for one series of the large catalogue, a chapter of it released, and the
 * server's own release check (once a minute, on requests) writing their inbox items while the
 * series page is loaded at 300 req/s arriving. Readers are written straight into the tables
 * (creating 10,000 accounts through sign-up would hash 10,000 passwords) and kept for the next
 * run; the released chapter and its items are removed afterwards.
 */
import { sql } from 'kysely';
import type { DB } from '~/server/db';

export const FANOUT_READERS = 10_000;
/** The bound: every notified reader's item written within this of the release. */
export const FANOUT_TARGET_SECONDS = 60;

/** A listed English series (not adult, not geoblocked) with the 10,000 notified readers; returns its slug and id. */
export async function notifiedSeries(db: DB): Promise<{ seriesId: number; slug: string }> {
  const s = await db.selectFrom('series').innerJoin('chapters', 'chapters.series_id', 'series.id')
    .select(['series.id', 'series.slug'])
    .where('series.state', '=', 'ACTIVE').where('series.adult', '=', 0).where('series.geoblocks', 'in', ['[]', ''])
    .where('chapters.language', '=', 'en')
    .where((eb) => eb.exists(eb.selectFrom('series_languages').select('series_id').whereRef('series_languages.series_id', '=', 'series.id').where('series_languages.site_id', '=', 1)))
    .orderBy('series.id').limit(1).executeTakeFirstOrThrow();
  const seriesId = Number(s.id);
  const now = Math.floor(Date.now() / 1000);
  const have = await db.selectFrom('users').select(sql<number>`count(*)`.as('n')).where('email', 'like', 'bench-fanout-%').executeTakeFirstOrThrow();
  for (let i = Number(have.n); i < FANOUT_READERS; i += 500) {
    const rows = Array.from({ length: Math.min(500, FANOUT_READERS - i) }, (_, k) => ({
      email: `bench-fanout-${i + k}@example.test`, display_name: `Fan ${i + k}`, password_hash: '!bench-no-login', is_staff: 0, created_at: now, password_changed_at: now,
    }));
    await db.insertInto('users').values(rows).onConflict((oc) => oc.column('email').doNothing()).execute();
  }
  const ids = (await db.selectFrom('users').select('id').where('email', 'like', 'bench-fanout-%').orderBy('id').limit(FANOUT_READERS).execute()).map((r) => Number(r.id));
  for (let i = 0; i < ids.length; i += 500) {
    await db.insertInto('favorites')
      .values(ids.slice(i, i + 500).map((user_id) => ({ user_id, series_id: seriesId, created_at: now - 86_400, notify: 1 })))
      .onConflict((oc) => oc.columns(['user_id', 'series_id']).doUpdateSet({ notify: 1 }))
      .execute();
  }
  return { seriesId, slug: s.slug };
}

/** Slugs of the series the English site lists (the series page row's pages; a Portuguese-only series is a 404 there). */
export async function englishSlugs(db: DB): Promise<string[]> {
  const rows = await db.selectFrom('series').innerJoin('series_languages', 'series_languages.series_id', 'series.id')
    .select('series.slug').where('series.state', '=', 'ACTIVE').where('series_languages.site_id', '=', 1).execute();
  return rows.map((r) => r.slug);
}

/** A new English chapter of the series, released at `at` (a copy of its first, numbered after its last). */
export async function releaseChapter(db: DB, seriesId: number, at: number): Promise<number> {
  const source = await db.selectFrom('chapters').selectAll().where('series_id', '=', seriesId).where('language', '=', 'en').orderBy('number', 'desc').limit(1).executeTakeFirstOrThrow();
  const { id: _id, ...copy } = source;
  const row = await db.insertInto('chapters').values({
    ...copy, e4pid: `EPI-BENCHFANOUT${Date.now().toString(36).toUpperCase()}`, number: Number(source.number) + 1, released_at: at, sale_at: at, created_at: at,
  }).returning('id').executeTakeFirstOrThrow();
  return Number(row.id);
}

/** Items written for the chapter so far, and the first and last write times. */
export async function itemsFor(db: DB, chapterId: number): Promise<number> {
  const r = await db.selectFrom('notification_deliveries').select(sql<number>`count(*)`.as('n')).where('chapter_id', '=', chapterId).executeTakeFirstOrThrow();
  return Number(r.n);
}

export async function inboxItemsOf(db: DB, chapterId: number): Promise<number> {
  const r = await db.selectFrom('notifications').select(sql<number>`count(distinct user_id)`.as('n')).where('chapter_id', '=', chapterId).executeTakeFirstOrThrow();
  return Number(r.n);
}

/** Removes the bench's chapter and what the fan-out wrote for it (the readers and favorites stay for the next run). */
export async function removeChapter(db: DB, chapterId: number): Promise<void> {
  await db.deleteFrom('notifications').where('chapter_id', '=', chapterId).execute();
  await db.deleteFrom('notification_deliveries').where('chapter_id', '=', chapterId).execute();
  await db.deleteFrom('chapters').where('id', '=', chapterId).execute();
}
