/**
 * The browse pages' sizes and input rules (docs/home.md, "Browse pages"). Pure.
 *
 * A page keeps within the slow-phone budget of the first document (HTML at most 60 KB, at most 40
 * images). Measured on the demo catalogue: the page's chrome and inline styles are about 25 KB,
 * a listing SeriesCard about 1.5 KB (24 of them put /new/ at 60.1 KB), the home's compact card
 * about 0.5 KB (so /genres/, with 15 genres, uses the compact card).
 */

/** Series cards (SeriesCard, about 1.5 KB each) on /new/ and on a collection's page: 20 keep the page near 55 KB. */
export const BROWSE_CARDS = 20;
/** Cards per format on /top/ (three formats: 18 in all). */
export const TOP_PER_FORMAT = 6;
/** Compact cards (the home's HomeCard, about 0.5 KB) on /genres/ in all, spread over the genres. */
export const GENRE_IMAGE_BUDGET = 32;
/** Fewest and most cards a genre shows. */
export const GENRE_CARDS_MIN = 2;
export const GENRE_CARDS_MAX = 6;

/** Cards per genre: the budget spread over the genres, at least 2 and at most 6 each. */
export function genreCardsPerTag(tags: number, budget = GENRE_IMAGE_BUDGET): number {
  if (tags <= 0) return GENRE_CARDS_MAX;
  return Math.max(GENRE_CARDS_MIN, Math.min(GENRE_CARDS_MAX, Math.floor(budget / tags)));
}

/** A collection slug as the studio and the seed write them: lower-case words and digits joined by dashes, at most 80 characters. */
export function isCollectionSlug(slug: string | undefined | null): slug is string {
  return typeof slug === 'string' && slug.length <= 80 && /^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(slug);
}

/**
 * The page number of /updates/ from its query: 1 when absent; null (a 404) when it is not a plain
 * positive integer or is past the last page. A bad page is not clamped: /updates/?page=9 showing
 * page 4 would be a second URL for the same list.
 */
export function updatesPage(raw: string | null, pages: number): number | null {
  if (raw === null) return 1;
  if (!/^[1-9][0-9]{0,3}$/.test(raw)) return null;
  const page = Number(raw);
  return page <= Math.max(1, pages) ? page : null;
}
