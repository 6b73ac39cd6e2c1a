/**
 * The library's rows: favorites and reading progress. Each function takes `db` first and returns
 * rows; every query carries the reader's `user_id` beside the series or chapter it touches.
 * Private to the library feature.
 */
import { sql, type SelectExpression } from 'kysely';
import { preparedRead, type DB } from '~/server/db';
import type { Database } from '@db/schema';

// ---------------------------------------------------------------- favorites

/** Adds a favorite; a second add is a no-op (the (user_id, series_id) key holds one row). */
export async function insertFavorite(db: DB, userId: number, seriesId: number, now: number): Promise<void> {
  await db
    .insertInto('favorites')
    .values({ user_id: userId, series_id: seriesId, created_at: now })
    .onConflict((oc) => oc.columns(['user_id', 'series_id']).doNothing())
    .execute();
}

/** Removes a favorite of this user only; removing a missing one is a no-op. */
export async function deleteFavorite(db: DB, userId: number, seriesId: number): Promise<void> {
  await db.deleteFrom('favorites').where('user_id', '=', userId).where('series_id', '=', seriesId).execute();
}

// Prepared: every signed-in series page asks it, see preparedRead.
const favoriteRow = preparedRead((db, userId: number, seriesId: number) => db.selectFrom('favorites').select('series_id').where('user_id', '=', userId).where('series_id', '=', seriesId));
export async function isFavorited(db: DB, userId: number, seriesId: number): Promise<boolean> {
  return (await favoriteRow(db, userId, seriesId)).length > 0;
}

/** Favorited series ids among `seriesIds` for this user (for marking lists). */
export async function favoritedAmong(db: DB, userId: number, seriesIds: readonly number[]): Promise<Set<number>> {
  if (seriesIds.length === 0) return new Set();
  const rows = await db
    .selectFrom('favorites')
    .select('series_id')
    .where('user_id', '=', userId)
    .where('series_id', 'in', [...seriesIds])
    .execute();
  return new Set(rows.map((r) => Number(r.series_id)));
}

function favoritesBase(db: DB, userId: number, language: string | null) {
  let q = db
    .selectFrom('favorites')
    .innerJoin('series', 'series.id', 'favorites.series_id')
    .where('favorites.user_id', '=', userId)
    // Not a blocked series, nor one taken back to a draft (readers never see drafts).
    .where('series.state', 'not in', ['BLOCKED', 'DRAFT']);
  if (language) {
    q = q.where((eb) =>
      eb.exists(
        eb.selectFrom('series_languages')
          .select(sql.lit(1).as('one'))
          .whereRef('series_languages.series_id', '=', 'series.id')
          .where('series_languages.language', '=', language),
      ),
    );
  }
  return q;
}


/** One page of a reader's favorites, newest first, with the given series columns. */
export function favoriteRows<C extends readonly SelectExpression<Database, 'favorites' | 'series'>[]>(db: DB, userId: number, language: string | null, columns: C, limit: number, offset: number) {
  return favoritesBase(db, userId, language)
    .select([...columns, 'series.last_updated', 'favorites.created_at', 'favorites.notify'])
    .orderBy('favorites.created_at', 'desc')
    .orderBy('series.id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
}

export async function favoriteCount(db: DB, userId: number, language: string | null): Promise<number> {
  const row = await favoritesBase(db, userId, language).select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirst();
  return Number(row?.count ?? 0);
}

export function favoriteLanguages(db: DB, userId: number) {
  return db
    .selectFrom('favorites')
    .innerJoin('series_languages', 'series_languages.series_id', 'favorites.series_id')
    .select('series_languages.language')
    .distinct()
    .where('favorites.user_id', '=', userId)
    .orderBy('series_languages.language')
    .execute();
}

// ---------------------------------------------------------------- reading progress

/** A chapter by e4pid, with what a progress row needs of it. */
export function chapterForProgress(db: DB, e4pid: string) {
  return db.selectFrom('chapters').select(['id', 'series_id', 'e4pid']).where('e4pid', '=', e4pid).executeTakeFirst();
}

/**
 * Stores a progress report in one upsert that applies only when (token_issued_at, seq) is newer
 * than the stored pair; undefined when it was not (a stale report).
 */
export function upsertProgress(db: DB, row: { user_id: number; chapter_id: number; series_id: number; completion: number; completed: number; first_read: number; last_read: number; token_issued_at: number; seq: number }) {
  return db
    .insertInto('reading_progress')
    .values(row)
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
}

/** The reader's progress rows of one series, newest first. */
export const progressRowsOfSeries = preparedRead((db, userId: number, seriesId: number) => db
    .selectFrom('reading_progress')
    .innerJoin('chapters', 'chapters.id', 'reading_progress.chapter_id')
    .select([
      'reading_progress.chapter_id', 'chapters.e4pid', 'reading_progress.completion', 'reading_progress.completed',
      'reading_progress.first_read', 'reading_progress.last_read',
    ])
    .where('reading_progress.user_id', '=', userId)
    .where('reading_progress.series_id', '=', seriesId)
    .orderBy('reading_progress.last_read', 'desc')
    .orderBy('reading_progress.chapter_id', 'desc'));

/**
 * The reader's newest progress row per series, newest first: the row no other row of the same
 * reader and series beats on (last_read, chapter_id).
 */
export function newestProgressPerSeries<C extends readonly SelectExpression<Database, 'series'>[]>(db: DB, userId: number, columns: C, limit: number, skip: number) {
  return db
    .selectFrom('reading_progress as rp')
    .innerJoin('chapters', 'chapters.id', 'rp.chapter_id')
    .innerJoin('series', 'series.id', 'rp.series_id')
    .select([
      'rp.completion', 'rp.completed', 'rp.last_read', 'rp.chapter_id',
      'chapters.e4pid as chapter_e4pid', 'chapters.number', 'chapters.language',
      ...columns, 'series.free_availability',
    ])
    .where('rp.user_id', '=', userId)
    // A series taken back to a draft is not shown, not even in one's own history.
    .where('series.state', '<>', 'DRAFT')
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
    .limit(limit)
    .offset(skip)
    .execute();
}

// ---------------------------------------------------------------- continue reading

/** Every progress row of the reader in some series, with its chapter's number and language (the continue rule's input). */
export function progressRowsInSeries(db: DB, userId: number, seriesIds: readonly number[]) {
  return db
    .selectFrom('reading_progress')
    .innerJoin('chapters', 'chapters.id', 'reading_progress.chapter_id')
    .select(['reading_progress.series_id', 'chapters.e4pid', 'chapters.number', 'chapters.language', 'reading_progress.completion', 'reading_progress.completed', 'reading_progress.last_read'])
    .where('reading_progress.user_id', '=', userId)
    .where('reading_progress.series_id', 'in', [...seriesIds])
    .execute();
}

/**
 * The released chapters of several series from a position on, each in its language: all the
 * continue rule reads after the reader's position (served by the (series_id, language, number) key).
 */
export function chaptersFrom(db: DB, from: readonly { seriesId: number; language: string; number: number }[], now: number) {
  return db
    .selectFrom('chapters')
    .select(['series_id', 'e4pid', 'number', 'language', 'released_at', 'expired_at'])
    .where('released_at', '<=', now)
    .where((eb) => eb.or(from.map((f) => eb.and([eb('series_id', '=', f.seriesId), eb('language', '=', f.language), eb('number', '>=', f.number)]))))
    .execute();
}

/** The first available chapter of each language of several series (the start target without progress). */
export function firstChaptersOf(db: DB, seriesIds: readonly number[], now: number) {
  return db
    .selectFrom('chapters')
    .select(['series_id', 'e4pid', 'number', 'language', 'released_at', 'expired_at'])
    .where('series_id', 'in', [...seriesIds])
    .where('released_at', '<=', now)
    .where((eb) => eb.or([eb('expired_at', 'is', null), eb('expired_at', '>', now)]))
    .where((eb) => eb('number', '=', eb.selectFrom('chapters as first')
      .select((f) => f.fn.min('first.number').as('n'))
      .whereRef('first.series_id', '=', 'chapters.series_id')
      .whereRef('first.language', '=', 'chapters.language')
      .where('first.released_at', '<=', now)
      .where((f) => f.or([f('first.expired_at', 'is', null), f('first.expired_at', '>', now)]))))
    .execute();
}

// ---------------------------------------------------------------- the notify switch (issue 32)

/** Sets the favorite's notify switch; turning it on favorites the series too. Returns nothing: idempotent. */
export async function setFavoriteNotify(db: DB, userId: number, seriesId: number, on: boolean, now: number): Promise<void> {
  if (on) {
    await db
      .insertInto('favorites')
      .values({ user_id: userId, series_id: seriesId, created_at: now, notify: 1 })
      .onConflict((oc) => oc.columns(['user_id', 'series_id']).doUpdateSet({ notify: 1 }))
      .execute();
  } else {
    await db.updateTable('favorites').set({ notify: 0 }).where('user_id', '=', userId).where('series_id', '=', seriesId).execute();
  }
}

/** Series among `seriesIds` whose notify switch this reader has on. */
export async function notifiedAmong(db: DB, userId: number, seriesIds: readonly number[]): Promise<Set<number>> {
  if (seriesIds.length === 0) return new Set();
  const rows = await db.selectFrom('favorites').select('series_id').where('user_id', '=', userId).where('series_id', 'in', [...seriesIds]).where('notify', '=', 1).execute();
  return new Set(rows.map((r) => Number(r.series_id)));
}

/** Whether any of this reader's favorites has the switch on (the list API's `notify`). */
export async function anyNotified(db: DB, userId: number): Promise<boolean> {
  return (await db.selectFrom('favorites').select('series_id').where('user_id', '=', userId).where('notify', '=', 1).limit(1).execute()).length > 0;
}

/**
 * One batch of the readers with the switch on for a series, in user-id order after `afterUserId`,
 * who favorited it before `before` (a reader who follows a series after a chapter came out is not
 * told of that chapter). Served by favorites_notify_idx.
 */
export async function notifiedReaders(db: DB, seriesId: number, before: number, afterUserId: number, limit: number): Promise<number[]> {
  const rows = await db
    .selectFrom('favorites')
    .select('user_id')
    .where('series_id', '=', seriesId)
    .where('notify', '=', 1)
    .where('user_id', '>', afterUserId)
    .where('created_at', '<=', before)
    .orderBy('user_id')
    .limit(limit)
    .execute();
  return rows.map((r) => Number(r.user_id));
}

// ---------------------------------------------------------------- the reader's own data (export, account deletion)

/** Every favorite of the reader with its series, for the data export. */
export function favoritesForExport(db: DB, userId: number) {
  return db.selectFrom('favorites as f').innerJoin('series as s', 's.id', 'f.series_id')
    .select(['s.e4pid', 's.slug', 's.name', 'f.notify', 'f.created_at'])
    .where('f.user_id', '=', userId).orderBy('f.created_at').orderBy('f.series_id').execute();
}

/** Every chapter the reader opened, with its series and chapter, for the data export. */
export function progressForExport(db: DB, userId: number) {
  return db.selectFrom('reading_progress as p').innerJoin('chapters as c', 'c.id', 'p.chapter_id').innerJoin('series as s', 's.id', 'p.series_id')
    .select(['s.e4pid as series_e4pid', 's.name as series_name', 'c.e4pid as chapter_e4pid', 'c.number', 'c.language', 'p.completion', 'p.completed', 'p.first_read', 'p.last_read'])
    .where('p.user_id', '=', userId).orderBy('p.last_read').orderBy('p.chapter_id').execute();
}

/** Deletes the reader's favorites and reading progress (account deletion, in its transaction); how many of each. */
export async function eraseLibraryOf(tx: DB, userId: number): Promise<{ favorites: number; progress: number }> {
  const f = await tx.deleteFrom('favorites').where('user_id', '=', userId).executeTakeFirst();
  const p = await tx.deleteFrom('reading_progress').where('user_id', '=', userId).executeTakeFirst();
  return { favorites: Number(f.numDeletedRows), progress: Number(p.numDeletedRows) };
}
