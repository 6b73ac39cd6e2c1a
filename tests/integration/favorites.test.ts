/**
 * Favorites over real HTTP on both dialects : the JSON endpoint, the
 * no-JavaScript toggle, the favorites page and list API, and the listing's favorited filter.
 * Two readers; B must never see or change A's favorites through any of them.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createReader, anySeries, htmlText, message, selectedDialects, useServer, withDb, type SeriesSample } from './harness';


for (const dialect of selectedDialects()) {
  describe(`favorites (${dialect})`, () => {
    const server = useServer(dialect);
    let a: { id: number; cookie: string };
    let b: { id: number; cookie: string };
    let series: SeriesSample[];

    const makeReader = (name: string) => createReader(server, { name });
    const rows = (userId: number) =>
      withDb(server, (db) => db.selectFrom('favorites').select('series_id').where('user_id', '=', userId).orderBy('series_id').execute()).then((r) => r.map((x) => Number(x.series_id)));
    const api = (method: 'POST' | 'DELETE', e4pid: string, o: { cookie?: string; headers?: Record<string, string> } = {}) =>
      server.request(`/api/favorites/${e4pid}/`, {
        method,
        headers: { origin: server.origin(), 'sec-fetch-site': 'same-origin', ...(o.cookie ? { cookie: o.cookie } : {}), ...o.headers },
      });
    const toggle = (fields: Record<string, string>, cookie?: string) =>
      server.request('/my/favorites/toggle/', {
        method: 'POST',
        body: new URLSearchParams(fields).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.origin(), ...(cookie ? { cookie } : {}) },
      });

    beforeAll(async () => {
      a = await makeReader('Ana');
      b = await makeReader('Bruno');
      series = await anySeries(server, 4);
      expect(series.length).toBeGreaterThanOrEqual(3);
    });

    it('favorites with POST and unfavorites with DELETE, idempotently', async () => {
      const s = series[0]!;
      const first = await api('POST', s.e4pid, { cookie: a.cookie });
      expect(first.status).toBe(200);
      expect(first.json()).toEqual({ favorited: true });
      expect(first.headers['cache-control']).toMatch(/no-store/);
      expect((await api('POST', s.e4pid, { cookie: a.cookie })).json()).toEqual({ favorited: true });
      expect(await rows(a.id)).toEqual([s.id]);
      const del = await api('DELETE', s.e4pid, { cookie: a.cookie });
      expect(del.status).toBe(200);
      expect(del.json()).toEqual({ favorited: false });
      const again = await api('DELETE', s.e4pid, { cookie: a.cookie });
      expect(again.status).toBe(200);
      expect(again.json()).toEqual({ favorited: false });
      expect(await rows(a.id)).toEqual([]);
    });

    it('answers 401 to anonymous readers and 404 to unknown series', async () => {
      const res = await api('POST', series[0]!.e4pid);
      expect(res.status).toBe(401);
      expect(res.json().detail).toBeTruthy();
      expect((await api('POST', 'SER-doesnotexist0', { cookie: a.cookie })).status).toBe(404);
      expect((await api('DELETE', 'nonsense', { cookie: a.cookie })).status).toBe(404);
      expect((await server.request('/api/favorites/')).status).toBe(401);
    });

    it('refuses cross-site requests with 403', async () => {
      const s = series[0]!;
      // Without a body type Astro's own origin check answers first (403, plain text); with a JSON
      // body the request reaches the endpoint, which refuses it with a JSON {detail}.
      const evil = await api('POST', s.e4pid, { cookie: a.cookie, headers: { origin: 'http://evil.example', 'sec-fetch-site': 'cross-site' } });
      expect(evil.status).toBe(403);
      const evilJson = await api('POST', s.e4pid, { cookie: a.cookie, headers: { origin: 'http://evil.example', 'sec-fetch-site': 'cross-site', 'content-type': 'application/json' } });
      expect(evilJson.status).toBe(403);
      expect(evilJson.json().detail).toBeTruthy();
      const sameSite = await api('DELETE', s.e4pid, { cookie: a.cookie, headers: { 'sec-fetch-site': 'cross-site', 'content-type': 'application/json' } });
      expect(sameSite.status).toBe(403);
      expect(sameSite.json().detail).toBeTruthy();
      expect((await api('POST', s.e4pid, { cookie: a.cookie, headers: { origin: 'http://evil.example' } })).status).toBe(403);
      expect((await api('DELETE', s.e4pid, { cookie: a.cookie, headers: { 'sec-fetch-site': 'same-site' } })).status).toBe(403);
      const form = await server.request('/my/favorites/toggle/', {
        method: 'POST',
        body: `series=${s.e4pid}&favorite=1&next=/`,
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://evil.example', 'sec-fetch-site': 'cross-site', cookie: a.cookie },
      });
      expect(form.status).toBe(403);
      expect(await rows(a.id)).toEqual([]);
    });

    it('toggles without JavaScript and redirects only to a safe next', async () => {
      const s = series[1]!;
      const on = await toggle({ series: s.e4pid, favorite: '1', next: `/comics/${s.slug}/` }, a.cookie);
      expect(on.status).toBe(303);
      expect(on.headers.location).toBe(`/comics/${s.slug}/`);
      expect(await rows(a.id)).toEqual([s.id]);
      const evil = await toggle({ series: s.e4pid, favorite: '1', next: '//evil.example/' }, a.cookie);
      expect(evil.headers.location).toBe('/my/favorites/');
      const anon = await toggle({ series: s.e4pid, favorite: '0', next: '/comics/' });
      expect(anon.status).toBe(303);
      expect(anon.headers.location).toMatch(/^\/auth\/login\/\?next=/);
      expect(await rows(a.id)).toEqual([s.id]);
    });

    it('renders the series page star from the database for the logged-in reader', async () => {
      const s = series[1]!;
      const mine = await server.request(`/comics/${s.slug}/`, { headers: { cookie: a.cookie } });
      expect(mine.text).toMatch(/class="btn favorite-btn"[^>]*aria-pressed="true"/);
      // On: the label says so too (not only the border), and the no-JS form comes back to this star.
      expect(mine.text).toContain(`<span data-favorite-label>${message('en', 'series.favorited')}</span>`);
      expect(mine.text).toContain(`id="fav-${s.e4pid}"`);
      expect(mine.text).toContain(`name="next" value="/comics/${s.slug}/#fav-${s.e4pid}"`);
      expect(mine.headers['cache-control']).toMatch(/private/);
      const theirs = await server.request(`/comics/${s.slug}/`, { headers: { cookie: b.cookie } });
      expect(theirs.text).toMatch(/class="btn favorite-btn"[^>]*aria-pressed="false"/);
      expect(theirs.text).toContain(`<span data-favorite-label>${message('en', 'series.favorite')}</span>`);
      const anon = await server.request(`/comics/${s.slug}/`);
      expect(anon.text).not.toMatch(/<button[^>]*favorite-btn/);
      expect(anon.text).toContain('/auth/login/?next=');
    });

    it('lists exactly the reader\'s favorites on the page and in the API', async () => {
      await api('POST', series[2]!.e4pid, { cookie: a.cookie });
      const page = await server.request('/my/favorites/', { headers: { cookie: a.cookie } });
      expect(page.status).toBe(200);
      expect(page.headers['cache-control']).toMatch(/private/);
      const text = htmlText(page.text);
      expect(text).toContain(series[1]!.name);
      expect(text).toContain(series[2]!.name);
      expect(text).not.toContain(series[3]!.name);
      const list = await server.request('/api/favorites/?page=1', { headers: { cookie: a.cookie } });
      expect(list.status).toBe(200);
      const body = list.json();
      expect(Object.keys(body).sort()).toEqual(['available_languages', 'comics', 'current_languages', 'notify', 'pagination']);
      expect(body.pagination).toEqual({ page: 1, limit: 24, total: 2, last_page: 1 });
      expect(body.comics.map((c: { e4pid: string }) => c.e4pid).sort()).toEqual([series[1]!.e4pid, series[2]!.e4pid].sort());
      expect(body.comics[0].comic.name).toBeTruthy();
      expect(list.headers['cache-control']).toMatch(/private|no-store/);
    });

    it('sends anonymous readers to log in', async () => {
      const res = await server.request('/my/favorites/');
      expect(res.status).toBe(303);
      expect(res.headers.location).toBe('/auth/login/?next=%2Fmy%2Ffavorites%2F');
    });

    it('shows the last read date and continues at the newest progress chapter', async () => {
      const s = series.find((x) => x.chapter && x.id === series[2]!.id) ?? null;
      if (!s?.chapter) return; // the sample series has no English chapter
      const now = Math.floor(Date.now() / 1000);
      await withDb(server, (db) => db.insertInto('reading_progress').values({ user_id: a.id, chapter_id: s.chapter!.id, series_id: s.id, completion: 40, completed: 0, first_read: now - 60, last_read: now - 30, token_issued_at: 0, seq: 0 }).execute());
      const list = (await server.request('/api/favorites/', { headers: { cookie: a.cookie } })).json();
      const entry = list.comics.find((c: { e4pid: string }) => c.e4pid === s.e4pid);
      expect(entry.last_read).toBeTruthy();
      expect(entry.continue_reading.e4pid).toBe(s.chapter.e4pid);
      const page = await server.request('/my/favorites/', { headers: { cookie: a.cookie } });
      expect(page.text).toContain(`href="${s.chapter.readerPath}"`);
    });

    it('never lets reader B see or change reader A\'s favorites', async () => {
      const before = await rows(a.id);
      expect(before.length).toBe(2);
      // B's views of the same endpoints show nothing of A's.
      const list = (await server.request('/api/favorites/', { headers: { cookie: b.cookie } })).json();
      expect(list.comics).toEqual([]);
      expect(list.pagination.total).toBe(0);
      const page = htmlText((await server.request('/my/favorites/', { headers: { cookie: b.cookie } })).text);
      expect(page).not.toContain(series[1]!.name);
      const filtered = await server.request('/comics/fragment/?filter=favorited&show_all_sites=true', { headers: { cookie: b.cookie } });
      expect(filtered.status).toBe(404);
      // B's removals only touch B's rows.
      expect((await api('DELETE', series[1]!.e4pid, { cookie: b.cookie })).status).toBe(200);
      await toggle({ series: series[2]!.e4pid, favorite: '0', next: '/' }, b.cookie);
      expect(await rows(a.id)).toEqual(before);
      // B's favorite is B's alone.
      await api('POST', series[3]!.e4pid, { cookie: b.cookie });
      expect(await rows(b.id)).toEqual([series[3]!.id]);
      const aList = (await server.request('/api/favorites/', { headers: { cookie: a.cookie } })).json();
      expect(aList.comics.map((c: { e4pid: string }) => c.e4pid)).not.toContain(series[3]!.e4pid);
    });

    it('marks the reader\'s favorites on listing cards, and only theirs', async () => {
      const s = series[2]!; // A favorited it above; POST again is a no-op
      expect((await api('POST', s.e4pid, { cookie: a.cookie })).status).toBe(200);
      const star = (html: string) => new RegExp(`<button[^>]*favorite-compact[^>]*aria-pressed="(true|false)"[^>]*aria-label="[^"]*${s.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/'/g, '&#39;')}`).exec(html)?.[1];
      const findPage = async (cookie?: string) => {
        for (let page = 1; page <= 5; page++) {
          const res = await server.request(`/comics/?show_all_sites=true&page=${page}`, cookie ? { headers: { cookie } } : {});
          if (res.text.includes(`/comics/${s.slug}/`)) return res.text;
        }
        return '';
      };
      expect(star(await findPage(a.cookie))).toBe('true');
      expect(star(await findPage(b.cookie))).toBe('false');
      const anon = await findPage();
      expect(anon).not.toMatch(/<button[^>]*favorite-compact/);
      expect(anon).toMatch(/<a class="btn btn-icon favorite-compact" href="\/auth\/login\/\?next=/);
    });

    it('filters the listing to the reader\'s favorites, privately; anonymous readers get the full listing', async () => {
      const mine = await server.request('/comics/fragment/?filter=favorited&show_all_sites=true', { headers: { cookie: a.cookie } });
      expect(mine.status).toBe(200);
      expect(mine.headers['cache-control']).toMatch(/private/);
      const text = htmlText(mine.text);
      expect(text).toContain(series[1]!.name);
      expect(text).toContain(series[2]!.name);
      expect(text).not.toContain(series[3]!.name);
      const pageRes = await server.request('/comics/?filter=favorited&show_all_sites=true', { headers: { cookie: a.cookie } });
      expect(pageRes.headers['cache-control']).toMatch(/private/);
      expect(htmlText(pageRes.text)).not.toContain(series[3]!.name);
      // Asked together: other tests on this shared server release chapters, which reorder the listing.
      const [anon, all] = await Promise.all([server.request('/comics/fragment/?filter=favorited&show_all_sites=true'), server.request('/comics/fragment/?show_all_sites=true')]);
      expect(anon.status).toBe(200);
      expect(anon.text).toBe(all.text);
    });
  });
}
