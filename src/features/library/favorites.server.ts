/**
 * Favorites (docs/favorites.md): the service. Its rows come from the library's repository, where
 * every query that reads or changes a reader's favorites carries `favorites.user_id = ?` beside
 * the series id, so one reader can never see or change another reader's rows.
 */
import type { DB } from '~/server/db';
import { intentOf, withIntent } from '~/lib/intent';
import * as repo from './repository.server';
import { findSeries } from '~/features/catalog/index.server';
import { SERIES_CARD_COLUMNS, toSeriesCard, type SeriesCard } from '~/features/catalog';
import { seriesLocalizer } from '~/features/catalog/index.server';
import type { Format } from '~/features/catalog';
import { FAVORITES_PAGE_SIZE, favoritesPageCount } from './favorites';
import { continueLinks, type ContinueContext, type ContinueLink } from './continue.server';

export type ToggleResult = { ok: true; favorited: boolean; seriesId: number } | { ok: false; reason: 'not-found' };

/** Favorites (`on`) or unfavorites a series by e4pid or id for a user. Idempotent. */
export async function setFavorite(db: DB, userId: number, seriesRef: string, on: boolean, now: number): Promise<ToggleResult> {
  const series = await findSeries(db, seriesRef);
  if (!series || (on && series.state === 'BLOCKED')) return { ok: false, reason: 'not-found' };
  if (on) await repo.insertFavorite(db, userId, series.id, now);
  else await repo.deleteFavorite(db, userId, series.id);
  return { ok: true, favorited: on, seriesId: series.id };
}

/**
 * After a login or a sign-up: a `next` carrying a favorite intent (the star pressed while signed
 * out) favorites the series, and the reader lands on `next` without it. The caller is the login
 * or sign-up form's POST, which the origin rule guards and whose page says what it will do, so a
 * link alone never favorites anything. Other intents (unlock) stay for the page to resume.
 */
export async function finishLoginIntent(db: DB, userId: number, next: string, now: number): Promise<string> {
  const intent = intentOf(next);
  if (intent?.kind !== 'favorite') return next;
  // A series that is gone or blocked is simply not favorited: the reader still lands on `next`.
  await setFavorite(db, userId, intent.e4pid, true, now);
  return withIntent(next, null);
}

export interface FavoriteEntry extends SeriesCard {
  lastUpdated: number;
  /** The notify switch: tell the reader when a chapter is released. */
  notify: boolean;
  favoritedAt: number;
  /** Newest reading_progress.last_read of this user for the series, or null. */
  lastRead: number | null;
  /** By the one continue rule (continue.server.ts); null when not asked for or nothing is available. */
  continueChapter: ContinueLink | null;
}

export interface FavoritesPage {
  entries: FavoriteEntry[];
  total: number;
  page: number;
  limit: number;
  lastPage: number;
}

/**
 * One page of a user's favorites, newest first, with last-read and (given `continueFor`)
 * continue-reading data. `language` keeps only series with that language.
 */
export async function listFavorites(
  db: DB,
  userId: number,
  options: { page: number; now: number; language?: string | null; limit?: number; continueFor?: ContinueContext; /** The site's language, for the series' texts (defaults to the continue context's). */ preferLanguage?: string },
): Promise<FavoritesPage> {
  const limit = options.limit ?? FAVORITES_PAGE_SIZE;
  const language = options.language || null;
  const [found, total, localize] = await Promise.all([
    repo.favoriteRows(db, userId, language, [...SERIES_CARD_COLUMNS, 'series.chapter_name_format'], limit, (Math.max(1, options.page) - 1) * limit),
    repo.favoriteCount(db, userId, language),
    // Series texts in the site's language (the catalogue's translations).
    seriesLocalizer(db, options.continueFor?.site.language ?? options.preferLanguage ?? 'en'),
  ]);
  const rows = found.map(localize);
  const ctx = options.continueFor;
  const series = rows.map((r) => ({ id: Number(r.id), slug: r.slug, format: r.format as Format, chapter_name_format: r.chapter_name_format }));
  const { links: next, lastRead } = ctx ? await continueLinks(db, userId, series, ctx) : { links: new Map<number, ContinueLink>(), lastRead: new Map<number, number>() };
  const entries: FavoriteEntry[] = rows.map((r) => {
    const id = Number(r.id);
    return {
      ...toSeriesCard(r),
      lastUpdated: Number(r.last_updated),
      notify: Number(r.notify) === 1,
      favoritedAt: Number(r.created_at),
      lastRead: lastRead.get(id) ?? null,
      continueChapter: next.get(id) ?? null,
    };
  });
  return { entries, total, page: options.page, limit, lastPage: favoritesPageCount(total, limit) };
}

/** Distinct languages of the user's favorited series (the list API's `available_languages`). */
export async function favoriteLanguages(db: DB, userId: number): Promise<string[]> {
  return (await repo.favoriteLanguages(db, userId)).map((r) => r.language);
}

export type NotifyResult = { ok: true; notify: boolean; seriesId: number } | { ok: false; reason: 'not-found' };

/**
 * Turns the favorite's notify switch on or off for a series (e4pid or id). On favorites the
 * series too (asking to be told of a series is following it); off keeps the favorite.
 */
export async function setNotify(db: DB, userId: number, seriesRef: string, on: boolean, now: number): Promise<NotifyResult> {
  const series = await findSeries(db, seriesRef);
  if (!series || (on && series.state === 'BLOCKED')) return { ok: false, reason: 'not-found' };
  await repo.setFavoriteNotify(db, userId, series.id, on, now);
  return { ok: true, notify: on, seriesId: series.id };
}

export const notifiedAmong = repo.notifiedAmong;
export const notifiedReaders = repo.notifiedReaders;

/** Favorited series ids among `seriesIds` for this user (for marking lists). */
export const favoritedAmong = repo.favoritedAmong;
export const isFavorited = repo.isFavorited;
