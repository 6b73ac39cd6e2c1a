/**
 * The library's part of a reader's own data (issue 32, docs/privacy.md): the favorites (with
 * their notify switch) and the reading progress for the data export, and their deletion with
 * the account. The accounts feature runs it (it takes the parts from the page, being below us).
 */
import type { DB, WriteTx } from '~/server/db';
import * as repo from './repository.server';

export const libraryAccountData = {
  name: 'library',
  async exportOf(db: DB, userId: number) {
    const [favorites, progress] = await Promise.all([repo.favoritesForExport(db, userId), repo.progressForExport(db, userId)]);
    return {
      favorites: favorites.map((f) => ({ series: f.e4pid, slug: f.slug, name: f.name, notify: Boolean(Number(f.notify)), created_at: Number(f.created_at) })),
      reading_history: progress.map((p) => ({
        series: p.series_e4pid, series_name: p.series_name, chapter: p.chapter_e4pid, number: Number(p.number), language: p.language,
        completion: Number(p.completion), completed: Boolean(Number(p.completed)), first_read: Number(p.first_read), last_read: Number(p.last_read),
      })),
    };
  },
  eraseFor(tx: WriteTx, userId: number): Promise<Record<string, number>> {
    return repo.eraseLibraryOf(tx, userId);
  },
};
