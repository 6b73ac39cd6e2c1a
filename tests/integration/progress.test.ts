/**
 * Reading progress and history over real HTTP on both dialects (docs/library-progress.md):
 * progress tokens, the ordered upsert, forged and cross-site refusals, the history API and its
 * token errors, the signed-in episodes endpoint and the read/reading chapter rows.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createReader, htmlText, markup, message, selectedDialects, useServer, withDb } from './harness';
import { readerPath } from '~/lib/paths';


interface Reader { id: number; cookie: string }
interface FreeChapter { e4pid: string; seriesId: number; slug: string; name: string; path: string }

for (const dialect of selectedDialects()) {
  describe(`reading progress and history (${dialect})`, () => {
    const server = useServer(dialect);
    let a: Reader;
    let b: Reader;
    let chapters: FreeChapter[];

    const newReader = async (): Promise<Reader> => {
      return createReader(server, { name: 'Pat' });
    };
    const tokenFrom = async (r: Reader, c: FreeChapter): Promise<string> => {
      const res = await server.request(c.path, { headers: { cookie: r.cookie } });
      expect(res.status).toBe(200);
      const m = /data-progress-token="([^"]+)"/.exec(res.text);
      expect(m, 'the reader page embeds a progress token').not.toBeNull();
      return m![1]!;
    };
    const report = (r: Reader | null, body: unknown, headers: Record<string, string> = {}) =>
      server.request('/api/progress/', {
        method: 'POST',
        body: JSON.stringify(body),
        headers: { 'content-type': 'application/json', origin: server.origin(), 'sec-fetch-site': 'same-origin', ...(r ? { cookie: r.cookie } : {}), ...headers },
      });
    const stored = (r: Reader, c: FreeChapter) =>
      withDb(server, (db) =>
        db.selectFrom('reading_progress').innerJoin('chapters', 'chapters.id', 'reading_progress.chapter_id')
          .select(['completion', 'completed', 'seq', 'token_issued_at', 'first_read'])
          .where('reading_progress.user_id', '=', r.id).where('chapters.e4pid', '=', c.e4pid).executeTakeFirst());
    const appToken = async (r: Reader) => (await server.request('/sapi/app/token?ttl=3600', { headers: { cookie: r.cookie } })).json<{ token: string }>().token;

    beforeAll(async () => {
      a = await newReader();
      b = await newReader();
      const now = Math.floor(Date.now() / 1000);
      const rows = await withDb(server, (db) =>
        db.selectFrom('chapters').innerJoin('series', 'series.id', 'chapters.series_id')
          .select(['chapters.e4pid', 'chapters.number', 'series.id as series_id', 'series.slug', 'series.name', 'series.format'])
          .where('series.state', '=', 'ACTIVE').where('series.geoblocks', 'in', ['[]', ''])
          .where('chapters.language', '=', 'en').where('chapters.released_at', '<=', now).where('chapters.original_price', '=', 0)
          .orderBy('series.id').orderBy('chapters.number').limit(400).execute());
      const seen = new Set<number>();
      chapters = [];
      for (const r of rows) {
        if (seen.has(Number(r.series_id))) continue;
        seen.add(Number(r.series_id));
        chapters.push({ e4pid: r.e4pid, seriesId: Number(r.series_id), slug: r.slug, name: r.name, path: readerPath({ slug: r.slug, format: r.format }, { e4pid: r.e4pid, number: Number(r.number), language: 'en' }) });
        if (chapters.length === 4) break;
      }
      expect(chapters.length).toBeGreaterThanOrEqual(3);
    });

    it('accepts a progress update with the token from the reader page, and text/plain beacons', async () => {
      const c = chapters[0]!;
      const token = await tokenFrom(a, c);
      const res = await report(a, { e4pid: c.e4pid, completion: 40, completed: false, progress_token: token, seq: 1 });
      expect(res.status, res.text).toBe(200);
      expect(res.json()).toMatchObject({ e4pid: c.e4pid, completion: 40, completed: false });
      const beacon = await report(a, { e4pid: c.e4pid, completion: 60, completed: false, progress_token: token, seq: 2 }, { 'content-type': 'text/plain;charset=UTF-8' });
      expect(beacon.status, beacon.text).toBe(200);
      expect(await stored(a, c)).toMatchObject({ completion: 60, completed: 0, seq: 2 });
    });

    it('ignores a stale update (older seq, or an older token) and keeps completed once set', async () => {
      const { signProgressToken } = await import('~/features/library/index.server');
      const c = chapters[1]!;
      const now = Math.floor(Date.now() / 1000);
      const newer = signProgressToken(a.id, c.e4pid, now);
      const older = signProgressToken(a.id, c.e4pid, now - 600);
      expect((await report(a, { e4pid: c.e4pid, completion: 100, completed: true, progress_token: newer, seq: 5 })).status).toBe(200);
      const first = await stored(a, c);
      const oldSeq = await report(a, { e4pid: c.e4pid, completion: 10, completed: false, progress_token: newer, seq: 4 });
      expect(oldSeq.status).toBe(409);
      expect(oldSeq.json().detail).toBeTruthy();
      expect((await report(a, { e4pid: c.e4pid, completion: 10, completed: false, progress_token: older, seq: 99 })).status).toBe(409);
      expect(await stored(a, c)).toEqual(first);
      // A newer update applies: completion is the latest value, completed stays 1, first_read is kept.
      expect((await report(a, { e4pid: c.e4pid, completion: 20, completed: false, progress_token: newer, seq: 6 })).status).toBe(200);
      expect(await stored(a, c)).toMatchObject({ completion: 20, completed: 1, seq: 6, first_read: first!.first_read });
      // Back to 100 for the rows test below.
      expect((await report(a, { e4pid: c.e4pid, completion: 100, completed: true, progress_token: newer, seq: 7 })).status).toBe(200);
    });

    it("refuses forged tokens: another reader's, tampered, another chapter, too old", async () => {
      const { signProgressToken } = await import('~/features/library/index.server');
      const c = chapters[2]!;
      const tokenA = await tokenFrom(a, c);
      // IDOR: reader B cannot write A's progress with A's token.
      const asB = await report(b, { e4pid: c.e4pid, completion: 50, completed: false, progress_token: tokenA, seq: 1 });
      expect(asB.status).toBe(403);
      expect(asB.headers['content-type']).toMatch(/application\/json/);
      const tampered = tokenA.replace(/\.p?(\d+)\.EPI/, (m) => m).replace(/[0-9a-f]$/, (ch) => (ch === '0' ? '1' : '0'));
      expect((await report(a, { e4pid: c.e4pid, completion: 50, completed: false, progress_token: tampered, seq: 1 })).status).toBe(403);
      const otherChapter = await tokenFrom(a, chapters[0]!);
      expect((await report(a, { e4pid: c.e4pid, completion: 50, completed: false, progress_token: otherChapter, seq: 1 })).status).toBe(403);
      const tooOld = signProgressToken(a.id, c.e4pid, Math.floor(Date.now() / 1000) - 25 * 3600);
      expect((await report(a, { e4pid: c.e4pid, completion: 50, completed: false, progress_token: tooOld, seq: 1 })).status).toBe(409);
      expect(await stored(a, c)).toBeUndefined();
      expect(await stored(b, c)).toBeUndefined();
    });

    it('refuses cross-site posts (403) and anonymous ones (401)', async () => {
      const c = chapters[2]!;
      const token = await tokenFrom(a, c);
      const body = { e4pid: c.e4pid, completion: 50, completed: false, progress_token: token, seq: 1 };
      expect((await report(a, body, { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' })).status).toBe(403);
      expect((await report(a, body, { origin: 'https://evil.example' })).status).toBe(403);
      const anon = await report(null, body);
      expect(anon.status).toBe(401);
      expect(anon.json().detail).toBeTruthy();
      expect(await stored(a, c)).toBeUndefined();
    });

    it('does not embed a progress token for anonymous readers', async () => {
      const res = await server.request(chapters[0]!.path);
      expect(res.text).not.toContain('data-progress-token');
    });

    it('answers the history API one entry per series, newest first, paginated; B never sees A', async () => {
      const token = await appToken(a);
      const page = await server.request(`/api/house/history/me?limit=1&skip=0&token=${encodeURIComponent(token)}`);
      expect(page.status).toBe(200);
      const body = page.json();
      expect(body.history).toHaveLength(1);
      expect(body.pagination).toEqual({ limit: 1, skip: 0, last_page: false });
      const all = (await server.request(`/api/house/history/me?limit=25&skip=0&token=${encodeURIComponent(token)}`)).json();
      const series = all.history.map((h: { comic: { id: number } }) => h.comic.id);
      expect(new Set(series).size).toBe(series.length);
      expect(series).toEqual(expect.arrayContaining([chapters[0]!.seriesId, chapters[1]!.seriesId]));
      expect(all.pagination.last_page).toBe(true);
      const entry = all.history.find((h: { comic: { id: number } }) => h.comic.id === chapters[1]!.seriesId);
      expect(entry).toMatchObject({ progress: { e4pid: chapters[1]!.e4pid, completed: true, completion: 100, progress: 100 }, comic: { name: chapters[1]!.name, uslug: chapters[1]!.slug } });
      expect(entry.content_url).toContain(chapters[1]!.path);
      expect(Date.parse(entry.progress.lastRead)).toBeGreaterThan(0);
      const skipped = (await server.request(`/api/house/history/me?limit=1&skip=1&token=${encodeURIComponent(token)}`)).json();
      expect(skipped.history[0].comic.id).not.toBe(body.history[0].comic.id);
      // B's own token shows B's (empty) history; B's session cannot pass A's id anywhere.
      const mine = (await server.request(`/api/house/history/me?token=${encodeURIComponent(await appToken(b))}`)).json();
      expect(mine.history).toEqual([]);
    });

    it('answers expired and bad tokens with 401 and distinct codes; the token needs a session', async () => {
      const { signAppToken } = await import('~/features/library/index.server');
      const sessionOfA = a.cookie.split('=')[1]!.split('.')[0]!;
      const expired = signAppToken(sessionOfA, a.id, Math.floor(Date.now() / 1000) - 1);
      const res = await server.request(`/api/house/history/me?token=${encodeURIComponent(expired)}`);
      expect(res.status).toBe(401);
      expect(res.json()).toMatchObject({ code: 'token_expired' });
      expect(typeof res.json().detail).toBe('string');
      const bad = await server.request('/api/house/history/me?token=a1.1.9999999999.0123456789abcdef0123456789abcdef');
      expect(bad.status).toBe(401);
      expect(bad.json()).toMatchObject({ code: 'token_invalid' });
      expect((await server.request('/sapi/app/token?ttl=3600')).status).toBe(401);
      expect((await server.request('/api/house/history/me')).status).toBe(401);
      const tok = await server.request('/sapi/app/token?ttl=5', { headers: { cookie: a.cookie } });
      const exp = Number(tok.json().token.split('.')[3]);
      expect(exp - Math.floor(Date.now() / 1000)).toBeGreaterThanOrEqual(55);
      expect(exp - Math.floor(Date.now() / 1000)).toBeLessThanOrEqual(61);
    });

    it('ends a token with the session that asked for it (logout), and never lets it name another user', async () => {
      const r = await newReader();
      const token = await appToken(r);
      expect((await server.request(`/api/house/history/me?token=${encodeURIComponent(token)}`)).status).toBe(200);
      // A forged token naming another user with this session's id fails the signature; a validly
      // signed one for another user is refused because the session is not theirs.
      const [, sid, , exp] = token.split('.');
      const { signAppToken } = await import('~/features/library/index.server');
      const asA = signAppToken(sid!, a.id, Number(exp));
      expect((await server.request(`/api/house/history/me?token=${encodeURIComponent(asA)}`)).json()).toMatchObject({ code: 'token_invalid' });
      const out = await server.request('/auth/logout/', {
        method: 'POST', body: '', headers: { cookie: r.cookie, origin: server.origin(), 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(out.status).toBe(303);
      const after = await server.request(`/api/house/history/me?token=${encodeURIComponent(token)}`);
      expect(after.status).toBe(401);
      expect(after.json()).toMatchObject({ code: 'token_invalid' });
      expect((await server.request(`/api/comic/1/episodes?language=en&token=${encodeURIComponent(token)}`)).status).toBe(401);
    });

    it('fills readingProgress and the continue button in the signed-in episodes response', async () => {
      const c = chapters[0]!;
      const token = await appToken(a);
      const res = await server.request(`/api/comic/${c.seriesId}/episodes?language=en&token=${encodeURIComponent(token)}`);
      expect(res.status).toBe(200);
      const body = res.json();
      const ep = body.episodes.find((e: { id: string }) => e.id === c.e4pid);
      expect(ep.readingProgress).toEqual({ completed: false, completion: 60 });
      expect(ep.owned).toBe(false);
      expect(body.highlighted_e4pid).toBe(c.e4pid);
      expect(body.reading_button.e4pid).toBe(c.e4pid);
      expect(body.continue_text).toContain(message('en', 'series.continueReading', { chapter: '' }).trim());
      const asB = (await server.request(`/api/comic/${c.seriesId}/episodes?language=en&token=${encodeURIComponent(await appToken(b))}`)).json();
      expect(asB.episodes.find((e: { id: string }) => e.id === c.e4pid).readingProgress).toEqual({ completed: false, completion: 0 });
      expect((await server.request(`/api/comic/${c.seriesId}/episodes?language=en`)).status).toBe(401);
    });

    it('shows Read Again and Continue on the right chapter rows, only for their reader', async () => {
      const readAgain = message('en', 'chapter.readAgain');
      const cont = message('en', 'chapter.continue');
      const rowOf = (html: string, e4pid: string) => {
        const id = e4pid.replace(/^EPI-/, '');
        const m = new RegExp(`<li class="chapter-row[^"]*"[^>]*>(?:(?!</li>).)*?/${id}/(?:(?!</li>).)*</li>`, 's').exec(html);
        return m?.[0] ?? '';
      };
      const done = chapters[1]!;
      const pageA = await server.request(`/comics/${done.slug}/`, { headers: { cookie: a.cookie } });
      const rowDone = rowOf(pageA.text, done.e4pid);
      expect(rowDone).toContain('is-read');
      expect(htmlText(rowDone)).toContain(readAgain);
      const reading = chapters[0]!;
      const pageR = await server.request(`/comics/${reading.slug}/`, { headers: { cookie: a.cookie } });
      const rowR = rowOf(pageR.text, reading.e4pid);
      expect(rowR).toContain('is-reading');
      expect(htmlText(rowR)).toContain(cont);
      expect(htmlText(pageR.text)).toContain(message('en', 'series.continueReading', { chapter: '' }).trim());
      const pageB = await server.request(`/comics/${done.slug}/`, { headers: { cookie: b.cookie } });
      expect(markup(pageB.text)).not.toContain('read-state');
      const anon = await server.request(`/comics/${done.slug}/`);
      expect(markup(anon.text)).not.toContain('read-state');
    });

    it('renders /my/history/ for the reader and redirects anonymous visitors to login', async () => {
      const anon = await server.request('/my/history/');
      expect(anon.status).toBe(303);
      expect(anon.headers.location).toBe('/auth/login/?next=%2Fmy%2Fhistory%2F');
      const page = await server.request('/my/history/', { headers: { cookie: a.cookie } });
      expect(page.status).toBe(200);
      expect(page.headers['cache-control']).toMatch(/private/);
      expect(page.text).toContain('aria-valuenow="100"');
      expect(htmlText(page.text)).toContain(chapters[1]!.name);
      // The entry's button: its state's label, then the chapter the one continue rule picks (continue.test.ts checks which).
      expect(htmlText(page.text)).toMatch(new RegExp(`(${message('en', 'chapter.readAgain')}|${message('en', 'chapter.continue')}) (Chapter|Episode) \\d+`));
      const br = await server.request('/my/history/', { site: 'br', headers: { cookie: a.cookie } });
      expect(htmlText(br.text)).toMatch(/(Continuar|Reler) (Capítulo|Episódio) \d+/);
      const home = await server.request('/', { headers: { cookie: a.cookie } });
      expect(home.text).toContain('data-continue-shelf');
      expect((await server.request('/')).text).not.toContain('data-continue-shelf');
    });
  });
}
