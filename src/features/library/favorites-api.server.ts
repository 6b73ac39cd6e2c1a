/** JSON shapes of the favorites API ("Favorited comic list", "Favorites entries"). */
import type { DB } from '~/server/db';
import type { Site } from '~/lib/site';
import { seriesPath, type AbsoluteUrl } from '~/lib/paths';
import type { T } from '~/lib/i18n';
import { favoriteLanguages, listFavorites, type FavoriteEntry } from './favorites.server';
import { anyNotified } from './repository.server';
import { cardImage } from '~/features/catalog';


/** One favorites entry: comic, modified, e4pid (plus last-read and continue-reading). */
export function favoriteEntryJson(e: FavoriteEntry, abs: AbsoluteUrl) {
  return {
    comic: {
      id: e.id,
      e4pid: e.e4pid,
      slug: e.slug,
      name: e.name,
      format: e.format,
      color: e.color,
      url: abs(seriesPath(e)),
      thumbnail: abs(cardImage(e, 175)),
      last_updated: e.lastUpdated ? new Date(e.lastUpdated * 1000).toISOString() : null,
    },
    modified: new Date(e.favoritedAt * 1000).toISOString(),
    e4pid: e.e4pid,
    notify: e.notify,
    last_read: e.lastRead ? new Date(e.lastRead * 1000).toISOString() : null,
    continue_reading: e.continueChapter
      ? { e4pid: e.continueChapter.e4pid, number: e.continueChapter.number, language: e.continueChapter.language, kind: e.continueChapter.kind, text: e.continueChapter.label, url: abs(e.continueChapter.href) }
      : null,
  };
}

export async function favoritesListResponse(
  db: DB,
  userId: number,
  options: { page: number; language: string | null; now: number; site: Site; t: T; abs: AbsoluteUrl },
) {
  const [page, available, notify] = await Promise.all([
    listFavorites(db, userId, { page: options.page, now: options.now, language: options.language, continueFor: { now: options.now, t: options.t, site: options.site } }),
    favoriteLanguages(db, userId),
    anyNotified(db, userId),
  ]);
  return {
    comics: page.entries.map((e) => favoriteEntryJson(e, options.abs)),
    current_languages: options.language ? [options.language] : available,
    available_languages: available,
    // Whether any favorite has its notify switch on; each entry carries its own `notify`.
    notify,
    pagination: { page: page.page, limit: page.limit, total: page.total, last_page: page.lastPage },
  };
}
