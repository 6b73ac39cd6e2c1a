/** Favorites: pure rules shared by pages, the client script and tests. */

export const FAVORITES_PAGE_SIZE = 24;

/** Number of pages for a total (at least 1). */
export function favoritesPageCount(total: number, limit = FAVORITES_PAGE_SIZE): number {
  return Math.max(1, Math.ceil(Math.max(0, total) / limit));
}

/**
 * True for a JSON mutation that did not come from our own pages: a `Sec-Fetch-Site` other than
 * `same-origin`, or an `Origin` that is not this origin. Stricter than the form check in
 * accounts: a fetch from our own scripts always says `same-origin`.
 */
export function isForeignMutation(headers: { get(name: string): string | null }, origin: string): boolean {
  const fetchSite = headers.get('sec-fetch-site');
  if (fetchSite !== null && fetchSite.toLowerCase() !== 'same-origin') return true;
  const from = headers.get('origin');
  return from !== null && from !== origin;
}

/** The series reference an endpoint accepts: a series e4pid (`SER-…`) or a numeric id. */
export function isSeriesRef(ref: string): boolean {
  return /^\d{1,10}$/.test(ref) || /^SER-[a-z0-9]{1,32}$/i.test(ref);
}

/** The JSON endpoint for a series' favorite state. */
export function favoriteEndpoint(e4pid: string): string {
  return `/api/favorites/${encodeURIComponent(e4pid)}/`;
}
