/**
 * SIGHUP: an operator who changed catalogue rows by hand (SQL) tells the running server, which
 * forgets what it keeps of the catalogue without a restart (docs/operations.md). Shown with the
 * catalogue's count of series, which the server keeps a minute: a series listed on the
 * Portuguese site by hand is counted there only after the signal, by a lone server and by every
 * worker of a cluster (the primary passes it on). On a database of its own per dialect.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogEdited, preparedDatabase, selectedDialects, startExtraServer, withDb, type ServerHandle } from './harness';

for (const dialect of selectedDialects()) {
  describe(`catalogue edited by hand (${dialect})`, () => {
    let own: Awaited<ReturnType<typeof preparedDatabase>> | undefined;
    const servers: (ServerHandle & { pid: number })[] = [];

    beforeAll(async () => {
      own = await preparedDatabase(dialect, {});
      servers.push(await startExtraServer({ dialect, databaseUrl: own.url }, { WORKERS: '1' }));
      const cluster = await startExtraServer({ dialect, databaseUrl: own.url }, { WORKERS: '2' });
      servers.push(cluster);
    }, 180_000);
    afterAll(async () => {
      await Promise.all(servers.map((s) => s.stop()));
      await own?.drop();
    });

    /** The Portuguese site's count of series, as `tries` requests see it (each its own connection: a cluster hands them to its workers in turn). */
    const counts = async (server: ServerHandle, tries: number) => {
      const seen = new Set<number>();
      for (let i = 0; i < tries; i++) {
        const res = await server.request('/sapi/comics/?page=999', { site: 'br' });
        expect(res.status).toBe(200);
        seen.add(res.json().count as number);
      }
      return [...seen];
    };

    it('a series listed on the Portuguese site by hand is counted there after SIGHUP, by a lone server and by every worker', { timeout: 60_000 }, async () => {
      const [lone, cluster] = [servers[0]!, servers[1]!];
      const before = await counts(lone, 1);
      expect(before).toHaveLength(1);
      // Every worker has counted once (and keeps the count a minute).
      expect(await counts(cluster, 6)).toEqual(before);

      await withDb(lone, async (db) => {
        const english = await db.selectFrom('series').select('id').where('state', '=', 'ACTIVE')
          .where((eb) => eb.exists(eb.selectFrom('series_languages').select('series_id').whereRef('series_languages.series_id', '=', 'series.id').where('site_id', '=', 1)))
          .where((eb) => eb.not(eb.exists(eb.selectFrom('series_languages').select('series_id').whereRef('series_languages.series_id', '=', 'series.id').where('site_id', '=', 3))))
          .orderBy('id').executeTakeFirstOrThrow();
        await db.insertInto('series_languages').values({ series_id: english.id, language: 'pt-br', site_id: 3, chapter_count: 0, last_updated: 0 }).execute();
      });
      // Without the signal, the kept count stands.
      expect(await counts(lone, 1)).toEqual(before);
      expect(await counts(cluster, 6)).toEqual(before);

      await catalogEdited(lone);
      await catalogEdited(cluster);
      expect(await counts(lone, 1)).toEqual([before[0]! + 1]);
      expect(await counts(cluster, 6)).toEqual([before[0]! + 1]);
      // The signal stopped nothing.
      expect((await lone.request('/')).status).toBe(200);
      expect((await cluster.request('/')).status).toBe(200);
    });
  });
}
