/**
 * Page sizes of the latest-updates carousel. Pure.
 *
 * Precedence when several conditions hold (the spec lists them without an order): the shelves
 * above the list decide first, because they take the room (both favorites and continue-reading
 * → 8, one of them → 10); then the 'longer' layout (15); then the Portuguese site (10); else 12.
 */
export const LATEST_UPDATES_PAGES = 3;

export interface PageSizeInput {
  siteId: number;
  /** The home page's long layout (no side column). */
  longer?: boolean;
  hasFavorites?: boolean;
  hasContinueReading?: boolean;
}

export function latestUpdatesPageSize({ siteId, longer = false, hasFavorites = false, hasContinueReading = false }: PageSizeInput): number {
  if (hasFavorites && hasContinueReading) return 8;
  if (hasFavorites || hasContinueReading) return 10;
  if (longer) return 15;
  if (siteId === 3) return 10;
  return 12;
}

/** Entries split into at most LATEST_UPDATES_PAGES pages of `size`. */
export function latestUpdatesPages<T>(entries: readonly T[], size: number, pages = LATEST_UPDATES_PAGES): T[][] {
  const out: T[][] = [];
  const n = Math.max(1, Math.floor(size));
  for (let i = 0; i < entries.length && out.length < pages; i += n) out.push(entries.slice(i, i + n));
  return out;
}
