/**
 * Favorites (docs/favorites.md): the service. Its rows come from the library's repository, where
 * every query that reads or changes a reader's favorites carries `favorites.user_id = ?` beside
 * the series id, so one reader can never see or change another reader's rows.
 */
import type { DB } from '~/server/db';
import * as repo from './repository.server';
import { findSeries } from '~/features/catalog/index.server';
import { parseImages, type SeriesImages, SERIES_CARD_COLUMNS, toSeriesCard, type SeriesCard } from '~/features/catalog';
import { seriesLocalizer } from '~/features/catalog/index.server';
import type { Format } from '~/features/catalog';
import { FAVORITES_PAGE_SIZE, favoritesPageCount } from './favorites';

export type ToggleResult = { ok: true; favorited: boolean; seriesId: number } | { ok: false; reason: 'not-found' };

/** Favorites (`on`) or unfavorites a series by e4pid or id for a user. Idempotent. */
export async function setFavorite(db: DB, userId: number, seriesRef: string, on: boolean, now: number): Promise<ToggleResult> {
  const series = await findSeries(db, seriesRef);
  if (!series || (on && series.state === 'BLOCKED')) return { ok: false, reason: 'not-found' };
  if (on) await repo.insertFavorite(db, userId, series.id, now);
  else await repo.deleteFavorite(db, userId, series.id);
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
  const [found, total, localize] = await Promise.all([
    repo.favoriteRows(db, userId, language, SERIES_CARD_COLUMNS, limit, (Math.max(1, options.page) - 1) * limit),
    repo.favoriteCount(db, userId, language),
    // Series texts in the site's language (the catalogue's translations).
    seriesLocalizer(db, options.preferLanguage ?? 'en'),
  ]);
  const rows = found.map(localize);
  const ids = rows.map((r) => Number(r.id));
  const progress = new Map<number, { lastRead: number; chapter: ContinueChapter }>();
  if (ids.length > 0) {
    const prows = await repo.progressInSeries(db, userId, ids);
    for (const p of prows) {
      const sid = Number(p.series_id);
      if (!progress.has(sid)) progress.set(sid, { lastRead: Number(p.last_read), chapter: { e4pid: p.e4pid, number: Number(p.number), language: p.language } });
    }
  }
  const prefer = options.preferLanguage ?? 'en';
  const firsts = new Map<number, ContinueChapter>();
  await Promise.all(
    ids.filter((id) => !progress.has(id)).map(async (id) => {
      const c = await repo.firstReleasedChapter(db, id, options.now, prefer);
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
  return (await repo.favoriteLanguages(db, userId)).map((r) => r.language);
}

/** Favorited series ids among `seriesIds` for this user (for marking lists). */
export const favoritedAmong = repo.favoritedAmong;
export const isFavorited = repo.isFavorited;
