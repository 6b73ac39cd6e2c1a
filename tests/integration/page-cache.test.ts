/**
 * The page cache over real HTTP (src/server/page-cache.mjs): anonymous pages come from memory,
 * and nothing personal, private or failed ever does. A server process of its own with the cache
 * on (the shared test servers run without it, since other suites change rows behind the app).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO } from '@db/seed/index';
import { FRESH_MS } from '~/server/page-cache.mjs';
import { createReader, selectedDialects, startExtraServer, useServer, withDb, type Reader, type ServerHandle } from './harness';

for (const dialect of selectedDialects()) {
  describe(`page cache (${dialect})`, () => {
    const base = useServer(dialect);
    let server: ServerHandle;
    let reader: Reader;
    const series = `/comics/${DEMO.readerComic}/`;
    const get = (p: string, headers: Record<string, string> = {}, site: 'en' | 'br' = 'en') =>
      server.request(p, { site, headers: { 'accept-encoding': 'br', ...headers } });

    beforeAll(async () => {
      server = await startExtraServer(base, { PAGE_CACHE_MB: '16' });
      reader = await createReader(server, { name: 'Cached Reader' });
    });
    afterAll(async () => {
      await server?.stop();
    });

    it('serves a hot anonymous page from memory: the same bytes, marked HIT', async () => {
      const first = await get(series);
      expect(first.status).toBe(200);
      let hit = await get(series);
      for (let i = 0; i < 5 && hit.headers['x-cache'] !== 'HIT'; i++) hit = await get(series);
      expect(hit.headers['x-cache']).toBe('HIT');
      expect(hit.text).toBe((await get(series)).text);
      expect(hit.headers['content-encoding']).toBe('br');
      expect(Number(hit.headers['content-length'])).toBe(hit.raw.length);
      expect(hit.headers['cache-control']).toMatch(/public/);
      const head = await server.request(series, { method: 'HEAD', headers: { 'accept-encoding': 'br' } });
      expect(head.headers['x-cache']).toBe('HIT');
      expect(head.raw.length).toBe(0);
    });

    it('keeps each site, encoding and country apart', async () => {
      for (let i = 0; i < 2; i++) {
        expect((await get(series, {}, 'br')).text).toMatch(/lang="pt-BR"/);
        expect((await get(series, { 'accept-encoding': 'gzip' })).headers['content-encoding']).toBe('gzip');
      }
      const blocked = `/comics/${DEMO.geoblockedJp}/`;
      for (let i = 0; i < 3; i++) {
        const jp = await get(blocked, { 'cf-ipcountry': 'JP' });
        const br = await get(blocked, { 'cf-ipcountry': 'BR' });
        expect(jp.text).not.toBe(br.text);
        expect(br.text).toMatch(/chapter-list|data-chapter/);
      }
    });

    it('never answers a signed-in reader, a theme cookie or an API client from it', async () => {
      for (let i = 0; i < 3; i++) await get(series);
      const mine = await get(series, { cookie: reader.cookie });
      expect(mine.headers['x-cache']).toBeUndefined();
      expect(mine.headers['cache-control']).toMatch(/private/);
      expect(mine.text).toMatch(new RegExp(`id="page-user-data">\\{"id":${reader.id},`));
      const themed = await get(series, { cookie: 'dark=1' });
      expect(themed.headers['x-cache']).toBeUndefined();
      expect(themed.text).toMatch(/data-theme="dark"/);
      const cors = await get(series, { origin: server.origin('br') });
      expect(cors.headers['x-cache']).toBeUndefined();
      expect(cors.headers['access-control-allow-origin']).toBe(server.origin('br'));
    });

    it("never hands a staff member's series page (with its link buttons) to anyone else, nor a kept page to staff", async () => {
      const staff = await createReader(server, { name: 'Cached Staff' });
      await withDb(server, async (db) => {
        const { changeCapability } = await import('~/features/accounts/index.server');
        const { commandLineActor } = await import('~/server/audit');
        await changeCapability(db, { email: staff.email, capability: 'content', change: 'grant', actor: commandLineActor('admin') });
      });
      const page = `${series}?order=asc`;
      const buttons = (html: string) => (html.match(/<button class="btn-share"/g) ?? []).length;
      const first = await get(page, { cookie: staff.cookie });
      expect(first.headers['x-cache']).toBeUndefined();
      expect(buttons(first.text)).toBeGreaterThan(0);
      let anonymous = await get(page);
      for (let i = 0; i < 5 && anonymous.headers['x-cache'] !== 'HIT'; i++) {
        expect(buttons(anonymous.text)).toBe(0);
        anonymous = await get(page);
      }
      expect(anonymous.headers['x-cache']).toBe('HIT');
      expect(buttons(anonymous.text)).toBe(0);
      const again = await get(page, { cookie: staff.cookie });
      expect(again.headers['x-cache']).toBeUndefined();
      expect(buttons(again.text)).toBe(buttons(first.text));
    });

    it('never keeps private, failed or personal answers', async () => {
      for (const p of ['/comics/no-such-series/', '/auth/logout/', '/my/favorites/', '/sapi/app/token?ttl=3600']) {
        for (let i = 0; i < 3; i++) {
          const res = await get(p);
          expect(res.headers['x-cache'], p).toBeUndefined();
        }
      }
      // A reader's page never reaches anonymous visitors either.
      await get('/', { cookie: reader.cookie });
      for (let i = 0; i < 3; i++) expect((await get('/')).text).toContain('<script type="application/json" id="page-user-data">null</script>');
    });

    it('forgets a kept page as soon as a chapter comes out, well before the page would go stale', async () => {
      // Its own process, looking for releases every second (a minute by default) so the test need
      // not wait; the other tests keep the default, or the demo's own releases would empty their cache.
      const server = await startExtraServer(base, { PAGE_CACHE_MB: '16', RELEASE_CHECK_SECONDS: '1' });
      try {
        await forgetsOnRelease(server);
      } finally {
        await server.stop();
      }
    });

    async function forgetsOnRelease(server: ServerHandle) {
      const get = (p: string, headers: Record<string, string> = {}) => server.request(p, { headers: { 'accept-encoding': 'br', ...headers } });
      const t = Math.floor(Date.now() / 1000);
      const target = await withDb(server, (db) => db.selectFrom('series').innerJoin('series_languages', 'series_languages.series_id', 'series.id')
        .select(['series.id', 'series.slug', 'series.chapter_count', 'series.last_updated', 'series.largest_chapter'])
        .where('series.state', '=', 'ACTIVE').where('series.slug', 'not in', Object.values(DEMO)).where('series.geoblocks', 'in', ['[]', ''])
        .where('series_languages.language', '=', 'en').where('series_languages.chapter_count', '>', 0)
        .orderBy('series.id', 'desc').executeTakeFirstOrThrow());
      const path = `/comics/${target.slug}/`;
      const counters = await withDb(server, (db) => db.selectFrom('series_languages').selectAll().where('series_id', '=', target.id).execute());
      const title = `Hot off the press ${t}`;
      const e4pid = `EPI-itcache${t}`;
      // The process's first release check (started by its first render) looks back a week and
      // forgets what was kept when demo chapters came out in that time; on a busy machine it can
      // land after the page is kept. So the page counts as kept once it is still kept 1.5 s later.
      let hit = await get(path);
      for (let i = 0; i < 10; i++) {
        if (hit.headers['x-cache'] === 'HIT') {
          await new Promise((r) => setTimeout(r, 1_500));
          hit = await get(path);
          if (hit.headers['x-cache'] === 'HIT') break;
        }
        hit = await get(path);
      }
      expect(hit.headers['x-cache']).toBe('HIT');
      const keptAt = Date.now();
      try {
        // Out two seconds from now: a release check still running from the renders above (they
        // start one) cannot see it yet, so the kept copy stays until the release itself.
        const out = Math.floor(Date.now() / 1000) + 2;
        await withDb(server, (db) => db.insertInto('chapters').values({
          e4pid, series_id: target.id, language: 'en', number: 99_999, title, subtitle: null, released_at: out, sale_at: out, expired_at: null,
          original_price: 0, thumbnail: null, purchase_enabled: 1, purchase_many_enabled: 0, daily_pass_enabled: 0, ads_enabled: 0,
          rental_enabled: 0, subscription_enabled: 0, page_count: 0, created_at: t,
        }).execute());
        // The kept copy is still what anonymous visitors get: the chapter is not on it yet.
        expect((await get(path)).text).not.toContain(title);
        let page = '';
        while (Date.now() - keptAt < FRESH_MS) {
          // A request Astro renders (a theme cookie keeps it out of the page cache) runs the release check.
          await get('/about/', { cookie: 'dark=1' });
          await new Promise((r) => setTimeout(r, 250));
          page = (await get(path)).text;
          if (page.includes(title)) break;
        }
        expect(page).toContain(title);
        expect(Date.now() - keptAt).toBeLessThan(FRESH_MS);
      } finally {
        await withDb(server, async (db) => {
          await db.deleteFrom('chapters').where('e4pid', '=', e4pid).execute();
          await db.updateTable('series').set({ chapter_count: target.chapter_count, last_updated: target.last_updated, largest_chapter: target.largest_chapter }).where('id', '=', target.id).execute();
          for (const c of counters) await db.updateTable('series_languages').set({ chapter_count: c.chapter_count, last_updated: c.last_updated }).where('series_id', '=', target.id).where('language', '=', c.language).execute();
        });
      }
    }
  });
}
