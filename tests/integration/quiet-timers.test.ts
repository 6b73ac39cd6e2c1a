/**
 * The machine's timers run without visitors: a chapter that comes out while nobody requests a
 * page is still announced to the readers who asked (src/middleware/context.ts, machineTimers).
 * A server of its own on a database of its own per dialect, which gets no request after the
 * chapter is written: only the database is read while the test waits.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anySeries, createReader, preparedDatabase, selectedDialects, startExtraServer, until, withDb, type ServerHandle } from './harness';

for (const dialect of selectedDialects()) {
  describe(`timers on a quiet site (${dialect})`, () => {
    let own: Awaited<ReturnType<typeof preparedDatabase>> | undefined;
    let server: ServerHandle | undefined;

    beforeAll(async () => {
      own = await preparedDatabase(dialect, {});
      server = await startExtraServer({ dialect, databaseUrl: own.url }, { RELEASE_CHECK_SECONDS: '1' });
    }, 180_000);
    afterAll(async () => {
      await server?.stop();
      await own?.drop();
    });

    it('a chapter released while no page is requested reaches the notified reader\'s inbox', { timeout: 90_000 }, async () => {
      const reader = await createReader(server!);
      const [series] = (await anySeries(server!, 5)).filter((s) => s.languages.includes('en'));
      const out = Math.floor(Date.now() / 1000) + 2;
      const chapterId = await withDb(server!, async (db) => {
        await db.insertInto('favorites').values({ user_id: reader.id, series_id: series!.id, created_at: out - 2, notify: 1 }).execute();
        const source = await db.selectFrom('chapters').selectAll().where('series_id', '=', series!.id).where('language', '=', 'en').limit(1).executeTakeFirstOrThrow();
        const { id: _id, ...copy } = source;
        const row = await db.insertInto('chapters').values({ ...copy, e4pid: `EPI-quiet${out}`, number: 90_000, title: 'Out while nobody looked', released_at: out, sale_at: out })
          .returning('id').executeTakeFirstOrThrow();
        return Number(row.id);
      });
      // No request from here on: the server's own timer must find the release.
      const items = () => withDb(server!, (db) => db.selectFrom('notifications').select('chapter_id').where('user_id', '=', reader.id).where('kind', '=', 'CHAPTER').execute());
      await until('the release is announced', async () => (await items()).some((i) => Number(i.chapter_id) === chapterId), 45_000);
    });
  });
}
