/**
 * Favorites (spec sections 2, 3, 4, 7): repository and service. Every query that reads or
 * changes a reader's favorites carries `favorites.user_id = ?` in the same WHERE clause as the
 * series id, so one reader can never see or change another reader's rows.
 */
import { sql } from 'kysely';
import type { DB } from '~/server/db';
import { findSeries } from '~/features/catalog/index.server';
import { parseImages, type SeriesImages, SERIES_CARD_COLUMNS, toSeriesCard, type SeriesCard } from '~/features/catalog';
import type { Format } from '~/features/catalog';
import { FAVORITES_PAGE_SIZE, favoritesPageCount } from './favorites';

// ---------------------------------------------------------------------------------------------
// Repository

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

export async function isFavorited(db: DB, userId: number, seriesId: number): Promise<boolean> {
  const row = await db
    .selectFrom('favorites')
    .select('series_id')
    .where('user_id', '=', userId)
    .where('series_id', '=', seriesId)
    .executeTakeFirst();
  return row !== undefined;
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
    .where('series.state', '<>', 'BLOCKED');
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

// ---------------------------------------------------------------------------------------------
// Service

export type ToggleResult = { ok: true; favorited: boolean; seriesId: number } | { ok: false; reason: 'not-found' };

/** Favorites (`on`) or unfavorites a series by e4pid or id for a user. Idempotent. */
export async function setFavorite(db: DB, userId: number, seriesRef: string, on: boolean, now: number): Promise<ToggleResult> {
  const series = await findSeries(db, seriesRef);
  if (!series || (on && series.state === 'BLOCKED')) return { ok: false, reason: 'not-found' };
  if (on) await insertFavorite(db, userId, series.id, now);
  else await deleteFavorite(db, userId, series.id);
  return { ok: true, favorited: on, seriesId: series.id };
}

export interface ContinueChapter {
  e4pid: string;
  number: number;
  language: string;
}

export interface FavoriteEntry extends SeriesCard {
  lastUpdated: number;
  favoritedAt: number;
  /** Newest reading_progress.last_read of this user for the series, or null. */
  lastRead: number | null;
  /** The chapter of the newest progress row, else the first released chapter; null when none. */
  continueChapter: ContinueChapter | null;
}

export interface FavoritesPage {
  entries: FavoriteEntry[];
  total: number;
  page: number;
  limit: number;
  lastPage: number;
}

/**
 * One page of a user's favorites, newest first, with last-read and continue-reading data.
 * `language` keeps only series with that language; `preferLanguage` picks the first chapter.
 */
export async function listFavorites(
  db: DB,
  userId: number,
  options: { page: number; now: number; language?: string | null; preferLanguage?: string; limit?: number },
): Promise<FavoritesPage> {
  const limit = options.limit ?? FAVORITES_PAGE_SIZE;
  const language = options.language || null;
  const [rows, countRow] = await Promise.all([
    favoritesBase(db, userId, language)
      .select([
        ...SERIES_CARD_COLUMNS, 'series.last_updated', 'favorites.created_at',
      ])
      .orderBy('favorites.created_at', 'desc')
      .orderBy('series.id', 'desc')
      .limit(limit)
      .offset((Math.max(1, options.page) - 1) * limit)
      .execute(),
    favoritesBase(db, userId, language).select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirst(),
  ]);
  const total = Number(countRow?.count ?? 0);
  const ids = rows.map((r) => Number(r.id));
  const progress = new Map<number, { lastRead: number; chapter: ContinueChapter }>();
  if (ids.length > 0) {
    const prows = await db
      .selectFrom('reading_progress')
      .innerJoin('chapters', 'chapters.id', 'reading_progress.chapter_id')
      .select(['reading_progress.series_id', 'reading_progress.last_read', 'chapters.e4pid', 'chapters.number', 'chapters.language'])
      .where('reading_progress.user_id', '=', userId)
      .where('reading_progress.series_id', 'in', ids)
      .orderBy('reading_progress.last_read', 'desc')
      .orderBy('reading_progress.chapter_id', 'desc')
      .execute();
    for (const p of prows) {
      const sid = Number(p.series_id);
      if (!progress.has(sid)) progress.set(sid, { lastRead: Number(p.last_read), chapter: { e4pid: p.e4pid, number: Number(p.number), language: p.language } });
    }
  }
  const prefer = options.preferLanguage ?? 'en';
  const firsts = new Map<number, ContinueChapter>();
  await Promise.all(
    ids.filter((id) => !progress.has(id)).map(async (id) => {
      const c = await db
        .selectFrom('chapters')
        .select(['e4pid', 'number', 'language'])
        .where('series_id', '=', id)
        .where('released_at', '<=', options.now)
        .orderBy(sql`case when language = ${prefer} then 0 else 1 end`)
        .orderBy('number', 'asc')
        .orderBy('id', 'asc')
        .limit(1)
        .executeTakeFirst();
      if (c) firsts.set(id, { e4pid: c.e4pid, number: Number(c.number), language: c.language });
    }),
  );
  const entries: FavoriteEntry[] = rows.map((r) => {
    const id = Number(r.id);
    const p = progress.get(id);
    return {
      ...toSeriesCard(r),
      lastUpdated: Number(r.last_updated),
      favoritedAt: Number(r.created_at),
      lastRead: p ? p.lastRead : null,
      continueChapter: p ? p.chapter : (firsts.get(id) ?? null),
    };
  });
  return { entries, total, page: options.page, limit, lastPage: favoritesPageCount(total, limit) };
}

/** Distinct languages of the user's favorited series (the list API's `available_languages`). */
export async function favoriteLanguages(db: DB, userId: number): Promise<string[]> {
  const rows = await db
    .selectFrom('favorites')
    .innerJoin('series_languages', 'series_languages.series_id', 'favorites.series_id')
    .select('series_languages.language')
    .distinct()
    .where('favorites.user_id', '=', userId)
    .orderBy('series_languages.language')
    .execute();
  return rows.map((r) => r.language);
}
