/**
 * Notifications (issue 32) over real HTTP and the fan-out with an injected clock, on both
 * dialects: the favorite's notify switch, one inbox item per notified reader per released chapter
 * (even when the release check runs twice, and twice at once), the 6-hour fold, the bell's count,
 * marking read, and the preferences. The release notices work on a copy of a demo series that no
 * site lists (no series_languages row), with chapters released a year ahead, so the server's own
 * once-a-minute fan-out (real clock) never touches them and no other suite sees them.
 */
import { beforeAll, afterAll, describe, expect, it } from 'vitest';
import { createReader, anySeries, htmlText, selectedDialects, useServer, withDb, type Reader, type SeriesSample } from './harness';
import { DEMO } from '@db/seed/index';

const form = (server: { origin(): string }, cookie: string | undefined) => ({
  'content-type': 'application/x-www-form-urlencoded', origin: server.origin(), 'sec-fetch-site': 'same-origin', ...(cookie ? { cookie } : {}),
});

for (const dialect of selectedDialects()) {
  describe(`notifications (${dialect})`, () => {
    const server = useServer(dialect);
    let a: Reader, b: Reader, c: Reader, d: Reader;
    let listed: SeriesSample;
    let seriesId = 0;
    let seriesE4pid = '';
    const realNow = Math.floor(Date.now() / 1000);
    const F = realNow + 365 * 86_400;
    const tag = `ntf${Date.now().toString(36)}${dialect}`;

    const post = (path: string, fields: Record<string, string>, cookie?: string) =>
      server.request(path, { method: 'POST', body: new URLSearchParams(fields).toString(), headers: form(server, cookie) });
    const items = (userId: number) =>
      withDb(server, (db) => db.selectFrom('notifications').selectAll().where('user_id', '=', userId).where('kind', '=', 'CHAPTER').where('series_id', '=', seriesId).orderBy('id').execute());
    const fanOut = async (since: number, now: number) => {
      const { fanOutReleases } = await import('~/features/notifications/index.server');
      return withDb(server, (db) => fanOutReleases(db, since, now));
    };
    const bell = async (reader: Reader) => {
      const page = await server.request('/my/favorites/', { headers: { cookie: reader.cookie } });
      expect(page.status).toBe(200);
      const m = /<span class="bell-count"[^>]*>([^<]+)<\/span>/.exec(page.text);
      return m ? m[1] : '0';
    };
    let chapterNo = 9000;
    const release = (at: number, price = 0) => withDb(server, async (db) => {
      const source = await db.selectFrom('chapters').selectAll().where('series_id', '=', listed.id).where('language', '=', 'en').limit(1).executeTakeFirstOrThrow();
      const { id: _c, ...copy } = source;
      const n = ++chapterNo;
      const row = await db.insertInto('chapters').values({ ...copy, e4pid: `EPI-${tag}-${n}`, series_id: seriesId, language: 'en', number: n, title: `Secret twist ${n}`, released_at: at, sale_at: at, original_price: price })
        .returning('id').executeTakeFirstOrThrow();
      return { id: Number(row.id), number: n };
    });

    beforeAll(async () => {
      [a, b, c, d] = await Promise.all([createReader(server, { name: 'Ana' }), createReader(server, { name: 'Bia' }), createReader(server, { name: 'Caio' }), createReader(server, { name: 'Duda' })]);
      listed = (await anySeries(server, 3)).find((s) => s.languages.includes('en'))!;
      await withDb(server, async (db) => {
        const source = await db.selectFrom('series').selectAll().where('slug', '=', DEMO.decimal).executeTakeFirstOrThrow();
        const { id: _omit, ...copy } = source;
        seriesE4pid = `SER-${tag}`;
        const inserted = await db.insertInto('series').values({ ...copy, e4pid: seriesE4pid, slug: `notify-${tag}`, state: 'ACTIVE', name: `Notify ${tag}` }).returning('id').executeTakeFirstOrThrow();
        seriesId = Number(inserted.id);
      });
      listed = { ...listed };
    });

    afterAll(async () => {
      await withDb(server, async (db) => {
        await db.deleteFrom('notifications').where('series_id', '=', seriesId).execute();
        await db.deleteFrom('favorites').where('series_id', '=', seriesId).execute();
        await db.deleteFrom('chapters').where('series_id', '=', seriesId).execute();
        await db.deleteFrom('series').where('id', '=', seriesId).execute();
      });
    });

    it('the notify switch: on from the series page favorites and notifies, off keeps the favorite, and the API says so', async () => {
      const anon = await post('/my/notifications/notify/', { series: listed.e4pid, notify: '1', next: `/comics/${listed.slug}/` });
      expect(anon.status).toBe(303);
      expect(anon.headers.location).toMatch(/^\/auth\/login\//);
      const before = await server.request(`/comics/${listed.slug}/`, { headers: { cookie: a.cookie } });
      expect(before.text).toMatch(/data-notify-button>[\s\S]*?Notify me of new chapters/);
      expect(before.text).toMatch(/<button class="btn notify-btn"[^>]*aria-pressed="false"/);

      const on = await post('/my/notifications/notify/', { series: listed.e4pid, notify: '1', next: `/comics/${listed.slug}/` }, a.cookie);
      expect(on.status).toBe(303);
      expect(on.headers.location).toBe(`/comics/${listed.slug}/`);
      const page = await server.request(`/comics/${listed.slug}/`, { headers: { cookie: a.cookie } });
      expect(page.text).toMatch(/<button class="btn notify-btn"[^>]*aria-pressed="true"/);
      expect(htmlText(page.text)).toContain('Notifying you of new chapters');
      // Another reader's page is not changed by it.
      const other = await server.request(`/comics/${listed.slug}/`, { headers: { cookie: b.cookie } });
      expect(other.text).toMatch(/<button class="btn notify-btn"[^>]*aria-pressed="false"/);

      let list = (await server.request('/api/favorites/', { headers: { cookie: a.cookie } })).json();
      expect(list.notify).toBe(true);
      expect(list.comics.find((e: { e4pid: string }) => e.e4pid === listed.e4pid)?.notify).toBe(true);
      const favorites = await server.request('/my/favorites/', { headers: { cookie: a.cookie } });
      expect(favorites.text).toMatch(new RegExp(`id="notify-${listed.e4pid}"[^>]*aria-pressed="true"`));

      expect((await post('/my/notifications/notify/', { series: listed.e4pid, notify: '0', next: '/my/favorites/' }, a.cookie)).status).toBe(303);
      list = (await server.request('/api/favorites/', { headers: { cookie: a.cookie } })).json();
      expect(list.notify).toBe(false);
      expect(list.comics.find((e: { e4pid: string }) => e.e4pid === listed.e4pid)?.notify).toBe(false);

      expect((await post('/my/notifications/notify/', { series: 'SER-doesnotexist0', notify: '1', next: '/' }, a.cookie)).status).toBe(404);
      expect((await post('/my/notifications/notify/', { series: '<script>', notify: '1', next: '/' }, a.cookie)).status).toBe(404);
    });

    it('a released chapter gives each notified reader exactly one item, even when the check runs twice and twice at once', async () => {
      await withDb(server, async (db) => {
        for (const r of [a, b, d]) await db.insertInto('favorites').values({ user_id: r.id, series_id: seriesId, created_at: realNow, notify: 1 }).execute();
        await db.insertInto('favorites').values({ user_id: c.id, series_id: seriesId, created_at: realNow, notify: 0 }).execute();
      });
      // Duda turns new-chapter items off in the inbox (the settings form: only checked boxes are sent).
      const saved = await server.request('/my/notifications/settings/', { method: 'POST', body: 'on=money.inbox&on=community.inbox', headers: form(server, d.cookie) });
      expect(saved.status).toBe(303);
      const settings = await server.request('/my/notifications/settings/?saved=1', { headers: { cookie: d.cookie } });
      expect(settings.text).toMatch(/value="chapters\.inbox"[^>]*>/);
      expect(settings.text).not.toMatch(/value="chapters\.inbox"[^>]*checked/);
      expect(settings.text).toMatch(/value="money\.inbox"[^>]*checked/);

      const ch = await release(F + 100);
      // Before its time: nothing.
      await fanOut(F, F + 50);
      expect(await items(a.id)).toHaveLength(0);
      // Its time came: two checks at once, then a third. On PostgreSQL the two run on two
      // connections, as two machines would; SQLite's one writer takes them one after the other on one
      // handle (two handles in one thread would wait on each other's lock, which two processes do not).
      const { fanOutReleases } = await import('~/features/notifications/index.server');
      if (dialect === 'postgres') await Promise.all([fanOut(F, F + 110), fanOut(F, F + 110)]);
      else await withDb(server, (db) => Promise.all([fanOutReleases(db, F, F + 110), fanOutReleases(db, F, F + 110)]));
      await fanOut(F, F + 170);
      for (const r of [a, b]) {
        const got = await items(r.id);
        expect(got).toHaveLength(1);
        expect(Number(got[0]!.chapter_id)).toBe(ch.id);
        expect(Number(got[0]!.chapter_count)).toBe(1);
      }
      expect(await items(c.id)).toHaveLength(0);
      expect(await items(d.id)).toHaveLength(0);
      const deliveries = await withDb(server, (db) => db.selectFrom('notification_deliveries').select('user_id').where('chapter_id', '=', ch.id).execute());
      expect(deliveries.map((r) => Number(r.user_id)).sort((x, y) => x - y)).toEqual([a.id, b.id].sort((x, y) => x - y));
      expect(await bell(a)).toBe('1');
      expect(await bell(c)).toBe('0');
    });

    it('caps: a later chapter within 6 hours folds into the item; after 6 hours it is a new item', async () => {
      const second = await release(F + 3600);
      await fanOut(F + 3000, F + 3601);
      let got = await items(a.id);
      expect(got).toHaveLength(1);
      expect(Number(got[0]!.chapter_id)).toBe(second.id);
      expect(Number(got[0]!.chapter_count)).toBe(2);
      expect(got[0]!.read_at).toBeNull();
      expect(await bell(a)).toBe('1');
      const inbox = htmlText((await server.request('/my/notifications/', { headers: { cookie: a.cookie } })).text);
      expect(inbox).toContain(`Notify ${tag}: 2 new chapters, up to chapter ${second.number}`);
      // Never the chapter's title.
      expect(inbox).not.toContain('Secret twist');

      const third = await release(F + 7 * 3600);
      await fanOut(F + 7 * 3600 - 60, F + 7 * 3600 + 1);
      got = await items(a.id);
      expect(got).toHaveLength(2);
      expect(Number(got[1]!.chapter_id)).toBe(third.id);
      expect(await bell(a)).toBe('2');
    });

    it('the inbox says free or the price, marks one read (only the owner can), and marks all read', async () => {
      const got = await items(a.id);
      // The newest chapter comes out now for real, free; the older one costs 5 keys.
      await withDb(server, async (db) => {
        await db.updateTable('chapters').set({ released_at: realNow - 60, sale_at: realNow - 60, original_price: 0 }).where('id', '=', Number(got[1]!.chapter_id)).execute();
        await db.updateTable('chapters').set({ released_at: realNow - 120, sale_at: realNow - 120, original_price: 5 }).where('id', '=', Number(got[0]!.chapter_id)).execute();
      });
      const page = await server.request('/my/notifications/', { headers: { cookie: a.cookie } });
      expect(page.status).toBe(200);
      expect(page.headers['cache-control']).toMatch(/no-store/);
      expect(page.text).toMatch(/data-access="free"[^>]*>Free</);
      expect(page.text.match(/data-access="/g) ?? []).toHaveLength(2);

      const stranger = await post('/my/notifications/read/', { id: String(got[0]!.id), next: '/my/notifications/' }, b.cookie);
      expect(stranger.status).toBe(404);
      expect(await bell(a)).toBe('2');
      expect((await post('/my/notifications/read/', { id: 'abc', next: '/my/notifications/' }, a.cookie)).status).toBe(404);
      const one = await post('/my/notifications/read/', { id: String(got[0]!.id), next: '/my/notifications/' }, a.cookie);
      expect(one.status).toBe(303);
      expect(await bell(a)).toBe('1');
      expect((await post('/my/notifications/read/', { next: '/my/notifications/' }, a.cookie)).status).toBe(303);
      expect(await bell(a)).toBe('0');
      expect(htmlText((await server.request('/my/notifications/', { headers: { cookie: a.cookie } })).text)).not.toContain('Mark all read');
    });

    it('anonymous visitors are sent to log in, and public pages carry no bell', async () => {
      const inbox = await server.request('/my/notifications/');
      expect(inbox.status).toBe(303);
      expect(inbox.headers.location).toMatch(/^\/auth\/login\//);
      const home = await server.request('/');
      expect(home.text).not.toContain('data-bell');
    });
  });
}
