/** Favorites: pure rules shared by pages, the client script and tests. */
import { parseSeriesRef } from '~/lib/params';

export const FAVORITES_PAGE_SIZE = 24;

/** Number of pages for a total (at least 1). */
export function favoritesPageCount(total: number, limit = FAVORITES_PAGE_SIZE): number {
  return Math.max(1, Math.ceil(Math.max(0, total) / limit));
}

/** The series reference an endpoint accepts: a series e4pid (`SER-…`) or a numeric id in range. */
export function isSeriesRef(ref: string): boolean {
  return parseSeriesRef(ref) !== null;
}
