/** Favorites: pure rules shared by pages, the client script and tests. */
import { parseSeriesRef } from '~/lib/params';

export const FAVORITES_PAGE_SIZE = 24;

/** Number of pages for a total (at least 1). */
export function favoritesPageCount(total: number, limit = FAVORITES_PAGE_SIZE): number {
  return Math.max(1, Math.ceil(Math.max(0, total) / limit));
}

/** The id of a series' favorite control: the no-JavaScript form comes back to it by this fragment. */
export function favoriteAnchor(e4pid: string): string {
  return `fav-${e4pid.replace(/[^A-Za-z0-9_-]/g, '')}`;
}

/** The series reference an endpoint accepts: a series e4pid (`SER-…`) or a numeric id in range. */
export function isSeriesRef(ref: string): boolean {
  return parseSeriesRef(ref) !== null;
}
