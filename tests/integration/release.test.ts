/**
 * Releasing scheduled chapters: the denormalised counters (series.last_updated,
 * chapter_count, largest_chapter and the per-language counts) catch up once a scheduled
 * chapter's time has passed, on both dialects. Works on a series of its own (a copy of a demo
 * series, BLOCKED so no page or listing shows it) so other suites are not disturbed.
 */
import { describe, expect, it } from 'vitest';
import { selectedDialects, useServer, withDb } from './harness';
import { DEMO } from '@db/seed/index';

describe.each(selectedDialects())('release counters (%s)', (dialect) => {
  const server = useServer(dialect);

  it('counts a chapter once its release time has passed, and only then', async () => {
    const { refreshReleasedSeries } = await import('~/features/catalog/index.server');
    await withDb(server, async (db) => {
      const now = Math.floor(Date.now() / 1000);
      const source = await db.selectFrom('series').selectAll().where('slug', '=', DEMO.decimal).executeTakeFirstOrThrow();
      const tag = `rel${Date.now().toString(36)}${dialect}`;
      const { id: _omit, ...copy } = source;
      const inserted = await db.insertInto('series')
        .values({ ...copy, e4pid: `SER-${tag}`, slug: `release-${tag}`, state: 'BLOCKED', chapter_count: 1, last_updated: now - 3600, largest_chapter: 1 })
        .returning('id').executeTakeFirstOrThrow();
      const seriesId = Number(inserted.id);
      await db.insertInto('series_languages').values({ series_id: seriesId, language: 'en', site_id: 1, chapter_count: 1, last_updated: now - 3600 }).execute();
      const chapter = await db.selectFrom('chapters').selectAll().where('series_id', '=', source.id).limit(1).executeTakeFirstOrThrow();
      const { id: _c, ...chapterCopy } = chapter;
      const chapterRow = (number: number, releasedAt: number) => ({
        ...chapterCopy, e4pid: `EPI-${tag}-${number}`, series_id: seriesId, language: 'en', number, released_at: releasedAt, sale_at: releasedAt,
      });
      await db.insertInto('chapters').values([chapterRow(1, now - 3600), chapterRow(2, now - 30), chapterRow(3, now + 3600)]).execute();

      const series = () => db.selectFrom('series').select(['chapter_count', 'last_updated', 'largest_chapter']).where('id', '=', seriesId).executeTakeFirstOrThrow();
      const language = () => db.selectFrom('series_languages').select(['chapter_count', 'last_updated']).where('series_id', '=', seriesId).executeTakeFirstOrThrow();

      // Chapter 2 came out 30 s ago: counted. Chapter 3 is an hour away: not yet.
      const touched = await refreshReleasedSeries(db, now - 60, now);
      expect(touched).toBeGreaterThanOrEqual(1);
      expect(await series()).toMatchObject({ chapter_count: 2, last_updated: now - 30, largest_chapter: 2 });
      expect(await language()).toMatchObject({ chapter_count: 2, last_updated: now - 30 });

      // An hour later chapter 3 is out; running again over an overlapping window does not double count.
      await refreshReleasedSeries(db, now - 60, now + 3601);
      await refreshReleasedSeries(db, now - 60, now + 3601);
      expect(await series()).toMatchObject({ chapter_count: 3, last_updated: now + 3600, largest_chapter: 3 });
      expect(await language()).toMatchObject({ chapter_count: 3, last_updated: now + 3600 });

      await db.deleteFrom('chapters').where('series_id', '=', seriesId).execute();
      await db.deleteFrom('series_languages').where('series_id', '=', seriesId).execute();
      await db.deleteFrom('series').where('id', '=', seriesId).execute();
    });
  });
});
