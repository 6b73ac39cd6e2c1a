/**
 * The input boundary, probed as an attacker would, on both databases: open redirects after
 * normalisation, forged or over-long signed URLs and tokens, forwarded headers from anyone,
 * unbounded and never-arriving bodies, values only one database can store (ids past 2^31,
 * NUL in text), dates after 2038, noise in the log and an unpruned table, and the one origin
 * rule for every mutation. Each class is probed with several spellings, not one example.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEMO } from '@db/seed/index';
import { createReader,
  htmlText, message, PG_ADMIN_URL, selectedDialects, startExtraServer, useServer, withDb,
  type RequestOptions, type ServerClient, type ServerHandle, type SiteName, type TestResponse,
} from './harness';

const FORM = 'application/x-www-form-urlencoded';
const PASSWORD = 'correct-horse-9';
const now = () => Math.floor(Date.now() / 1000);
const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

/** `next` values that are, or normalise to, somewhere else. */
const OFFSITE_NEXT = [
  '/%2e%2e//evil.example', '/%2E%2E//evil.example', '/..//evil.example', '/.%2e//evil.example', '/%2e.//evil.example',
  '/a/..//evil.example', '/a/%2e%2e//evil.example/x', '/.//evil.example', '/./%2f/evil.example', '/%2e//evil.example',
  '//evil.example', '///evil.example', '/\\evil.example', '/%5c%5cevil.example', '\\\\evil.example', 'https://evil.example/',
  'http:evil.example', '/\t/evil.example', '/%09/evil.example', 'javascript:alert(1)', '/..\\evil.example',
];

/** Where a Location header sends the browser, or why it is off-site. */
function offsite(res: TestResponse, server: ServerClient, site: SiteName = 'en'): string | null {
  const loc = res.headers.location;
  if (!loc) return `no Location (status ${res.status})`;
  if (/^[/\\]{2}/.test(loc) || /^[/\\][/\\]/.test(loc)) return `scheme-relative Location ${loc}`;
  let target: URL;
  try {
    target = new URL(loc, server.origin(site));
  } catch {
    return `unparsable Location ${loc}`;
  }
  return target.host === new URL(server.origin(site)).host ? null : `Location ${loc} leaves the site`;
}

/**
 * A raw request over a socket, for what http.request will not send: a body that never comes,
 * a Content-Length larger than the body. Resolves with the status line's code (0 when the
 * server closed without answering) and how long the head of the answer took.
 */
function rawRequest(port: number, head: string, body = '', waitMs = 15_000): Promise<{ status: number; ms: number; text: string }> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = net.connect(port, '127.0.0.1');
    let data = '';
    const done = () => {
      const m = /^HTTP\/1\.1 (\d{3})/.exec(data);
      socket.destroy();
      resolve({ status: m ? Number(m[1]) : 0, ms: Date.now() - started, text: data });
    };
    socket.setTimeout(waitMs, done);
    // The status and headers are the answer; the body of a refusal does not matter here.
    socket.on('data', (c) => {
      data += c.toString('latin1');
      if (data.includes('\r\n\r\n')) done();
    });
    socket.on('end', done);
    socket.on('error', (e: NodeJS.ErrnoException) => (e.code === 'ECONNRESET' ? done() : reject(e)));
    socket.write(head + body);
  });
}

for (const dialect of selectedDialects()) {
  describe(`input boundary (${dialect})`, () => {
    const server = useServer(dialect);
    let reader: { id: number; email: string; cookie: string };
    let seriesE4pid: string;

    const post = (p: string, body: string, o: RequestOptions & { cookie?: string } = {}) =>
      server.request(p, {
        ...o,
        method: o.method ?? 'POST',
        body,
        headers: {
          'content-type': FORM,
          origin: server.origin(o.site),
          'sec-fetch-site': 'same-origin',
          ...(o.cookie ? { cookie: `inkpass_session=${o.cookie}` } : {}),
          ...o.headers,
        },
      });

    beforeAll(async () => {
      const r = await createReader(server, { name: 'Hana', password: PASSWORD });
      reader = { id: r.id, email: r.email, cookie: r.token };
      seriesE4pid = await withDb(server, async (db) =>
        (await db.selectFrom('series').select('e4pid').where('slug', '=', DEMO.readerManga).executeTakeFirstOrThrow()).e4pid);
    });
    beforeEach(async () => {
      await withDb(server, (db) => db.deleteFrom('rate_limits').execute());
    });

    describe('redirects', () => {
      it('never leave the site, whatever next normalises to, on every endpoint that redirects', { timeout: 120_000 }, async () => {
        const problems: string[] = [];
        const check = (what: string, res: TestResponse, site: SiteName = 'en') => {
          if (res.status < 300 || res.status > 399) return problems.push(`${what} → ${res.status}, expected a redirect`);
          const why = offsite(res, server, site);
          if (why) problems.push(`${what}: ${why}`);
        };
        for (const next of OFFSITE_NEXT) {
          const q = encodeURIComponent(next);
          for (const site of ['en', 'br'] as const) {
            check(`GET /auth/login/?next=${next} signed in [${site}]`, await server.request(`/auth/login/?next=${q}`, { site, headers: { cookie: `inkpass_session=${reader.cookie}` } }), site);
          }
          check(`GET /auth/signup/?next=${next} signed in`, await server.request(`/auth/signup/?next=${q}`, { headers: { cookie: `inkpass_session=${reader.cookie}` } }));
          const login = await post('/auth/login/', form({ email: reader.email, password: PASSWORD, next }));
          check(`POST /auth/login/ next=${next}`, login);
          const viaQuery = await post(`/auth/login/?next=${q}`, form({ email: reader.email, password: PASSWORD }));
          check(`POST /auth/login/?next=${next}`, viaQuery);
          check(`POST /prefs/theme/ next=${next}`, await post('/prefs/theme/', form({ current: 'dark', next })));
          check(`POST /prefs/adult/ next=${next}`, await post('/prefs/adult/', form({ next })));
          check(`POST /my/favorites/toggle/ next=${next} signed in`, await post('/my/favorites/toggle/', form({ series: seriesE4pid, favorite: '1', next }), { cookie: reader.cookie }));
          check(`POST /my/favorites/toggle/ next=${next} anonymous`, await post('/my/favorites/toggle/', form({ series: seriesE4pid, favorite: '1', next })));
          await withDb(server, (db) => db.deleteFrom('rate_limits').execute());
          const email = `r-${crypto.randomBytes(4).toString('hex')}@example.test`;
          check(`POST /auth/signup/ next=${next}`, await post('/auth/signup/', form({ email, display_name: 'R', password: PASSWORD, terms: '1', next })));
        }
        expect(problems).toEqual([]);
      });

      it('still follow a next that stays on the site, dot segments resolved', async () => {
        const res = await post('/prefs/theme/', form({ current: 'dark', next: '/comics/?page=2#top' }));
        expect(res.headers.location).toBe('/comics/?page=2#top');
        const dotted = await post('/prefs/theme/', form({ current: 'dark', next: '/comics/../schedule/' }));
        expect(dotted.headers.location).toBe('/schedule/');
        const login = await post('/auth/login/', form({ email: reader.email, password: PASSWORD, next: '/my/history/' }));
        expect(login.headers.location).toBe('/my/history/');
      });
    });

    describe('signed URLs and tokens', () => {
      const OLD_PUBLIC_SECRET = 'inkpass-local-development-secret';
      const mac = (key: crypto.BinaryLike, msg: string) => crypto.createHmac('sha256', key).update(msg).digest('hex').slice(0, 32);
      let paid: { e4pid: string; position: number };
      /** A page of a chapter free for everyone: only its signature decides whether it is served. */
      let freePage: { e4pid: string; position: number };
      let free: { path: string };

      beforeAll(async () => {
        const t = now();
        paid = await withDb(server, async (db) => {
          const row = await db.selectFrom('chapters').innerJoin('chapter_pages', 'chapter_pages.chapter_id', 'chapters.id')
            .select(['chapters.e4pid', 'chapter_pages.position']).where('chapters.original_price', '>', 0).where('chapters.released_at', '<=', t)
            .orderBy('chapters.id').limit(1).executeTakeFirstOrThrow();
          return { e4pid: row.e4pid, position: Number(row.position) };
        });
        freePage = await withDb(server, async (db) => {
          const { pricingContext, accessIn } = await import('~/features/catalog/index.server');
          const rows = await db.selectFrom('chapters').innerJoin('chapter_pages', 'chapter_pages.chapter_id', 'chapters.id')
            .select(['chapters.e4pid', 'chapter_pages.position']).where('chapters.released_at', '<=', t - 86400).where('chapter_pages.position', '=', 0)
            .orderBy('chapters.id').limit(50).execute();
          for (const r of rows) {
            const ctx = await pricingContext(db, r.e4pid, t);
            if (ctx && accessIn(ctx, null, null, t).reason === 'free') return { e4pid: r.e4pid, position: Number(r.position) };
          }
          throw new Error('no chapter free for everyone');
        });
        const { anySeries } = await import('./harness');
        const sample = (await anySeries(server, 10)).find((s) => s.chapter)!;
        free = { path: sample.chapter!.readerPath };
      });

      it('refuses page URLs, app tokens and progress tokens signed with the value that used to be in the repository', async () => {
        const exp = now() + 3600;
        for (const position of [freePage.position, freePage.position + 1]) {
          const sig = mac(OLD_PUBLIC_SECRET, `${freePage.e4pid}:${position}:${exp}`);
          const res = await server.request(`/media/p/${freePage.e4pid}/${position}.webp?exp=${exp}&sig=${sig}`);
          expect(res.status).toBe(403);
          expect(res.headers['content-type'] ?? '').not.toMatch(/^image\//);
        }
        const sessionId = reader.cookie.split('.')[0]!;
        const app = `a2.${sessionId}.${reader.id}.${now() + 600}.${mac(OLD_PUBLIC_SECRET, `app:v2:${sessionId}:${reader.id}:${now() + 600}`)}`;
        const history = await server.request(`/api/house/history/me?limit=25&skip=0&token=${app}`);
        expect(history.status).toBe(401);
        const issued = now();
        const progress = `p1.${reader.id}.${paid.e4pid}.${issued}.${mac(OLD_PUBLIC_SECRET, `progress:v1:${reader.id}:${paid.e4pid}:${issued}`)}`;
        const report = await server.request('/api/progress/', {
          method: 'POST',
          body: JSON.stringify({ e4pid: paid.e4pid, completion: 100, completed: true, progress_token: progress, seq: 1 }),
          headers: { 'content-type': 'application/json', origin: server.origin(), cookie: `inkpass_session=${reader.cookie}` },
        });
        expect(report.status).toBe(403);
      });

      describe('with a secret of its own', () => {
        const SECRET = crypto.randomBytes(32).toString('base64url');
        const keyFor = (purpose: string) => Buffer.from(crypto.hkdfSync('sha256', SECRET, 'inkpass', `inkpass:${purpose}:v1`, 32));
        let configured: ServerHandle | undefined;
        let generated: ServerHandle | undefined;
        const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'inkpass-data-'));
        afterAll(async () => {
          await configured?.stop();
          await generated?.stop();
          fs.rmSync(dataDir, { recursive: true, force: true });
        });

        it('refuses a correctly signed URL that expires far ahead, and signatures made with another purpose\'s key', async () => {
          configured = await startExtraServer(server, { INKPASS_SECRET: SECRET });
          const position = freePage.position;
          const url = (key: Buffer, exp: number) => `/media/p/${freePage.e4pid}/${position}.webp?exp=${exp}&sig=${mac(key, `${freePage.e4pid}:${position}:${exp}`)}`;
          // The page key signs: a near expiry reaches the file check (the chapter's page exists).
          expect((await configured.request(url(keyFor('page-url'), now() + 600))).status).toBe(200);
          for (const exp of [now() + 3 * 86400, now() + 365 * 86400, 4_102_444_800]) {
            expect((await configured.request(url(keyFor('page-url'), exp))).status, `exp ${exp}`).toBe(403);
          }
          for (const purpose of ['progress-token', 'app-token', 'payment-webhook']) {
            expect((await configured.request(url(keyFor(purpose), now() + 600))).status, purpose).toBe(403);
          }
        });

        it('generates a private secret in the data directory on first start and keeps it across restarts', { timeout: 60_000 }, async () => {
          generated = await startExtraServer(server, { DATA_DIR: dataDir });
          const page = await generated.request(free.path);
          expect(page.status).toBe(200);
          const file = path.join(dataDir, 'secret.key');
          expect(fs.existsSync(file)).toBe(true);
          expect(fs.statSync(file).mode & 0o777).toBe(0o600);
          expect(fs.readFileSync(file, 'utf8').trim()).not.toBe(OLD_PUBLIC_SECRET);
          const src = /<img[^>]+src="(\/media\/p\/[^"]+)"/.exec(page.text)?.[1]?.replace(/&(amp|#38);/g, '&');
          expect(src, 'the free chapter shows signed page images').toBeTruthy();
          expect((await generated.request(src!)).status).toBe(200);
          // Another install (another data directory) cannot verify it.
          expect((await server.request(src!)).status).toBe(403);
          await generated.stop();
          generated = await startExtraServer(server, { DATA_DIR: dataDir });
          expect((await generated.request(src!)).status).toBe(200);
        });
      });
    });

    describe('forwarded headers', () => {
      const PAGES = ['/about/', '/', '/comics/', `/comics/${DEMO.readerManga}/`, '/feeds/latest.xml', '/sitemap.xml', '/robots.txt'];
      const FORGED: Record<string, string>[] = [
        { 'x-forwarded-host': 'br.localhost:9999' }, { 'x-forwarded-host': 'localhost:1' }, { 'x-forwarded-host': 'evil.example' },
        { 'x-forwarded-host': 'br.localhost' }, { 'x-forwarded-proto': 'https' }, { 'x-forwarded-port': '8443' },
        { 'x-forwarded-host': 'br.localhost', 'x-forwarded-proto': 'https', 'x-forwarded-port': '443' },
        { forwarded: 'host=br.localhost;proto=https' }, { 'x-forwarded-host': 'br.localhost:9999, localhost' },
      ];

      it('are ignored without TRUST_PROXY: same site, same links, same bytes as without them', { timeout: 120_000 }, async () => {
        const problems: string[] = [];
        for (const p of PAGES) {
          const plain = await server.request(p);
          for (const headers of FORGED) {
            const res = await server.request(p, { headers });
            const label = `${p} with ${JSON.stringify(headers)}`;
            if (res.status !== plain.status) problems.push(`${label} → ${res.status}, plain ${plain.status}`);
            if (/lang="pt-BR"/.test(res.text) && !/lang="pt-BR"/.test(plain.text)) problems.push(`${label} switched to the Portuguese site`);
            for (const bad of ['9999', 'https://localhost', 'https://br.localhost', 'evil.example', ':8443', 'localhost:1/']) {
              if (res.text.includes(bad) && !plain.text.includes(bad)) problems.push(`${label} reflects ${bad}`);
            }
          }
        }
        expect(problems).toEqual([]);
      });

      it('are believed with TRUST_PROXY=1, from the proxy that sets them', async () => {
        const proxied = await startExtraServer(server, { TRUST_PROXY: '1' });
        try {
          const res = await proxied.request('/about/', { headers: { 'x-forwarded-host': `br.localhost:${proxied.port}`, 'x-forwarded-proto': 'https' } });
          expect(res.text).toMatch(/lang="pt-BR"/);
          expect(res.text).toContain(`<link rel="canonical" href="https://br.localhost:${proxied.port}/about/">`);
        } finally {
          await proxied.stop();
        }
      });

      it('a country header counts only when COUNTRY_HEADER names it', async () => {
        const blockedText = async (s: ServerClient, headers: Record<string, string>) => htmlText((await s.request(`/comics/${DEMO.geoblockedJp}/`, { headers })).text);
        const region = (message('en', 'series.blocked.region', { countries: 'JP' })).split('(')[0]!.trim();
        const none = await startExtraServer(server, { COUNTRY_HEADER: '' });
        const custom = await startExtraServer(server, { COUNTRY_HEADER: 'x-geo-country' });
        try {
          for (const headers of [{ 'cf-ipcountry': 'JP' }, { 'x-country-code': 'JP' }, { 'x-geo-country': 'JP' }] as Record<string, string>[]) {
            expect(await blockedText(none, headers), JSON.stringify(headers)).not.toContain(region);
          }
          const page = await none.request(`/comics/${DEMO.geoblockedJp}/`, { headers: { 'cf-ipcountry': 'JP' } });
          expect(page.headers.vary ?? '').not.toMatch(/country/i);
          expect(await blockedText(custom, { 'cf-ipcountry': 'JP' })).not.toContain(region);
          expect(await blockedText(custom, { 'x-geo-country': 'JP' })).toContain(region);
          const varied = await custom.request(`/comics/${DEMO.geoblockedJp}/`, { headers: { 'x-geo-country': 'BR' } });
          expect(varied.headers.vary ?? '').toMatch(/x-geo-country/i);
        } finally {
          await none.stop();
          await custom.stop();
        }
      });
    });

    describe('request bodies', () => {
      /** Every endpoint that reads a body, with a valid-looking content type for it. */
      const READERS = [
        { path: '/prefs/theme/', type: FORM }, { path: '/prefs/adult/', type: FORM }, { path: '/my/favorites/toggle/', type: FORM }, { path: '/auth/login/', type: FORM },
        { path: '/auth/signup/', type: FORM }, { path: '/auth/logout/', type: FORM }, { path: '/api/progress/', type: 'application/json' },
      ];
      const head = (p: string, type: string, extra: string) =>
        `POST ${p} HTTP/1.1\r\nHost: localhost:${server.port}\r\nOrigin: ${server.origin()}\r\nCookie: inkpass_session=${reader.cookie}\r\nContent-Type: ${type}\r\n${extra}\r\n`;

      it('answers 413 at once to a body announced larger than any endpoint takes, without waiting for it', async () => {
        for (const r of READERS) {
          for (const size of [70_000, 100 * 1024 * 1024, 10 ** 15]) {
            const res = await rawRequest(server.port, head(r.path, r.type, `Content-Length: ${size}\r\n`), 'x'.repeat(100), 5_000);
            expect(res.status, `${r.path} ${size}`).toBe(413);
            expect(res.ms, `${r.path} ${size}`).toBeLessThan(3_000);
          }
        }
      });

      it('stops reading a chunked body past the endpoint cap with 413', async () => {
        for (const r of READERS) {
          const chunk = 'a'.repeat(8192);
          const body = Array.from({ length: 16 }, () => `${(8192).toString(16)}\r\n${chunk}\r\n`).join('') + '0\r\n\r\n';
          const res = await rawRequest(server.port, head(r.path, r.type, 'Transfer-Encoding: chunked\r\n'), body, 10_000);
          expect(res.status, r.path).toBe(413);
        }
      });

      it('gives up on a body that is announced but never sent (408), and keeps serving others', { timeout: 60_000 }, async () => {
        const waiting = READERS.map((r) => rawRequest(server.port, head(r.path, r.type, 'Content-Length: 500\r\n'), 'current=dark', 15_000));
        const other = await server.request('/about/');
        expect(other.status).toBe(200);
        for (const [i, res] of (await Promise.all(waiting)).entries()) {
          expect(res.status, READERS[i]!.path).toBe(408);
          expect(res.ms, READERS[i]!.path).toBeLessThan(10_000);
        }
      });
    });

    describe('values only one database could store', () => {
      const BIG_IDS = ['2147483648', '2147483647', '4294967296', '9999999999', '99999999999', '18446744073709551616'];

      it('ids past 2^31 are unknown (404), never a database error, on every route that takes one', async () => {
        const problems: string[] = [];
        const { signAppToken } = await import('~/features/library/index.server');
        const sessionId = reader.cookie.split('.')[0]!;
        const token = signAppToken(sessionId, reader.id, now() + 600);
        for (const id of BIG_IDS) {
          const probes: [string, TestResponse][] = [
            [`/api/comic.public/${id}`, await server.request(`/api/comic.public/${id}`)],
            [`/api/comic.public/${id}/episodes`, await server.request(`/api/comic.public/${id}/episodes?language=en`)],
            [`/api/comic/${id}/episodes`, await server.request(`/api/comic/${id}/episodes?language=en&token=${token}`)],
            [`/sapi/comics/${id}`, await server.request(`/sapi/comics/${id}`)],
            [`POST /api/favorites/${id}`, await post(`/api/favorites/${id}`, '', { cookie: reader.cookie, headers: { 'content-type': 'application/json' } })],
            [`DELETE /api/favorites/${id}`, await post(`/api/favorites/${id}`, '', { method: 'DELETE', cookie: reader.cookie, headers: { 'content-type': 'application/json' } })],
            [`toggle ${id}`, await post('/my/favorites/toggle/', form({ series: id, favorite: '1', next: '/' }), { cookie: reader.cookie })],
            [`/my/favorites/?removed=${id}`, await server.request(`/my/favorites/?removed=${id}`, { headers: { cookie: `inkpass_session=${reader.cookie}` } })],
            [`/relay/…/${id}/updates`, await server.request(`/relay/consumer/inkpass/series/${id}/updates?clientid=it&after=${now() - 86400}`)],
          ];
          for (const [what, res] of probes) {
            if (res.status >= 500) problems.push(`${what} → ${res.status}`);
            // The favorites page shows its list (the removed id finds nothing); the relay may answer
            // an in-range unknown id with an empty list; everything else finds no such row.
            else if (what.startsWith('/my/favorites/')) { if (res.status !== 200) problems.push(`${what} → ${res.status}, expected 200`); }
            else if (!what.startsWith('/relay/') && res.status !== 404) problems.push(`${what} → ${res.status}, expected 404`);
          }
        }
        expect(problems).toEqual([]);
      });

      it('text with NUL or other control characters is refused with 400 in every form, never stored', async () => {
        const problems: string[] = [];
        const bad = ['a\u0000@b.cd', 'a@b.cd\u0000', '\u0000', 'x\u0001y@b.cd', 'x\u001f@b.cd', 'x\u007f@b.cd'];
        for (const v of bad) {
          const probes: [string, TestResponse][] = [
            ['login email', await post('/auth/login/', form({ email: v, password: PASSWORD }))],
            ['login password', await post('/auth/login/', form({ email: reader.email, password: `${PASSWORD}${v}` }))],
            ['signup email', await post('/auth/signup/', form({ email: v, display_name: 'N', password: PASSWORD, terms: '1' }))],
            ['signup name', await post('/auth/signup/', form({ email: `n-${crypto.randomBytes(3).toString('hex')}@b.cd`, display_name: v, password: PASSWORD, terms: '1' }))],
            ['theme next', await post('/prefs/theme/', form({ current: 'dark', next: `/${v}` }))],
            ['toggle series', await post('/my/favorites/toggle/', form({ series: `SER-${v}`, favorite: '1', next: '/' }), { cookie: reader.cookie })],
            ['multipart login', await post('/auth/login/', `--b\r\nContent-Disposition: form-data; name="email"\r\n\r\n${v}\r\n--b--\r\n`, { headers: { 'content-type': 'multipart/form-data; boundary=b' } })],
          ];
          for (const [what, res] of probes) if (res.status !== 400) problems.push(`${what} ${JSON.stringify(v)} → ${res.status}, expected 400`);
        }
        // Lone surrogates and bytes that are not UTF-8, percent-encoded.
        for (const raw of ['email=%ED%A0%80%40b.cd&password=x', 'email=%FF%40b.cd&password=x', 'email=%C0%80&password=x']) {
          const res = await post('/auth/login/', raw);
          if (res.status !== 400) problems.push(`login ${raw} → ${res.status}, expected 400`);
        }
        const progress = await server.request('/api/progress/', {
          method: 'POST',
          body: JSON.stringify({ e4pid: 'EPI-a\u0000', completion: 10, completed: false, progress_token: 'p1.x', seq: 1 }),
          headers: { 'content-type': 'application/json', origin: server.origin(), cookie: `inkpass_session=${reader.cookie}` },
        });
        if (progress.status !== 400) problems.push(`progress with NUL → ${progress.status}`);
        const stored = await withDb(server, (db) => db.selectFrom('users').select('email').where('email', 'like', '%b.cd%').execute());
        if (stored.some((u) => /[\u0000-\u001f\u007f]/.test(u.email))) problems.push('a control character was stored');
        expect(problems).toEqual([]);
      });

      it('NUL in a query string is harmless on every page that searches or filters', async () => {
        const problems: string[] = [];
        for (const p of ['/comics/?q=%00', '/comics/?q=a%00b', '/comics/fragment/?q=%00', '/search/suggest?q=ab%00&site_id=1', '/comics/?filter=%00', '/comics/?language=%00',
          `/comics/${DEMO.readerManga}/?language=%00`, '/sapi/comics?ordering=%00', '/api/favorites/?language=%00', '/schedule/?day=%00']) {
          const res = await server.request(p, { headers: { cookie: `inkpass_session=${reader.cookie}` } });
          if (res.status >= 500) problems.push(`${p} → ${res.status}`);
        }
        expect(problems).toEqual([]);
      });
    });

    describe('dates after 2038', () => {
      const AFTER_2038 = 2_147_483_647 + 30 * 86400; // 2038-02-18

      it('every time column is 64-bit', async () => {
        if (dialect !== 'postgres') return expect(dialect).toBe('sqlite'); // SQLite integers are always 64-bit
        const narrow = await withDb(server, async (db) => {
          const { sql } = await import('kysely');
          const r = await sql<{ table_name: string; column_name: string; data_type: string }>`
            select table_name, column_name, data_type from information_schema.columns
            where table_schema = 'public' and (column_name like '%\\_at' or column_name in ('last_updated', 'window_start', 'first_read', 'last_read', 'token_issued_at'))
          `.execute(db);
          return r.rows.filter((c) => c.data_type !== 'bigint').map((c) => `${c.table_name}.${c.column_name} ${c.data_type}`);
        });
        expect(narrow).toEqual([]);
      });

      it('a session that expires after 2038 and a chapter released after 2038 work through the app', async () => {
        const login = await post('/auth/login/', form({ email: reader.email, password: PASSWORD }));
        const token = /inkpass_session=([^;]+)/.exec(login.headers['set-cookie'] ?? '')![1]!;
        await withDb(server, (db) => db.updateTable('sessions').set({ expires_at: AFTER_2038 }).where('id', '=', token.split('.')[0]!).execute());
        const home = await server.request('/', { headers: { cookie: `inkpass_session=${token}` } });
        expect(home.text).toContain(`"id":${reader.id}`);

        const chapter = await withDb(server, async (db) => {
          const c = await db.selectFrom('chapters').innerJoin('series', 'series.id', 'chapters.series_id')
            .select(['chapters.id', 'chapters.e4pid', 'series.id as series_id']).where('series.slug', '=', DEMO.readerComic).where('chapters.language', '=', 'en')
            .orderBy('chapters.number', 'desc').limit(1).executeTakeFirstOrThrow();
          await db.updateTable('chapters').set({ released_at: AFTER_2038, sale_at: AFTER_2038 }).where('id', '=', c.id).execute();
          return c;
        });
        try {
          const res = await server.request(`/api/comic.public/${chapter.series_id}/episodes?language=en`);
          expect(res.status).toBe(200);
          const ep = (res.json() as { episodes: { id?: string; e4pid?: string; saleAt?: number; releasedAt?: string; released_at?: string }[] }).episodes
            .find((e) => (e.id ?? e.e4pid) === chapter.e4pid);
          expect(ep, 'the scheduled chapter is listed').toBeTruthy();
          expect(JSON.stringify(ep)).toMatch(new RegExp(`2038-02-18|${AFTER_2038}`));
        } finally {
          await withDb(server, (db) => db.updateTable('chapters').set({ released_at: now() - 86400, sale_at: now() - 86400 }).where('id', '=', chapter.id).execute());
        }
      });
    });

    describe('noise', () => {
      it('answers undecodable URLs 400 in the site language without an error line per request', { timeout: 60_000 }, async () => {
        const own = await startExtraServer(server);
        try {
          const paths = ['/%', '/comics/%E0%A4%A/', '/read/%/x/y/', '/%C0/', '/api/comic.public/%ZZ', '/comics/%00/', '/search/suggest/%FF%'];
          for (let i = 0; i < 5; i++) {
            for (const p of paths) {
              const res = await own.request(p, { site: i % 2 ? 'br' : 'en' });
              expect(res.status, p).toBe(400);
              expect(res.headers['cache-control'], p).toBe('no-store');
              const text = htmlText(res.text) || res.text;
              expect(text, p).toContain(message(i % 2 ? 'pt-BR' : 'en', 'error.url.malformed'));
            }
          }
          expect(own.output()).not.toMatch(/\[ERROR\]|URIError|Invalid URL encoding/);
        } finally {
          await own.stop();
        }
      });

      if (dialect === 'postgres') {
        it('keeps serving when PostgreSQL ends its idle connections (a restart, an administrator)', { timeout: 60_000 }, async () => {
          const own = await startExtraServer(server);
          try {
            // Warm the pool so that idle connections exist, then end every connection to the database.
            for (let i = 0; i < 3; i++) expect((await own.request('/my/favorites/', { headers: { cookie: `inkpass_session=${reader.cookie}` } })).status).toBe(200);
            const database = new URL(server.databaseUrl).pathname.slice(1);
            const pg = (await import('pg')).default;
            const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
            await admin.connect();
            try {
              const ended = await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [database]);
              expect(ended.rowCount).toBeGreaterThan(0);
            } finally {
              await admin.end();
            }
            await new Promise((r) => setTimeout(r, 300));
            // The process is still up and answers from new connections.
            for (let i = 0; i < 3; i++) expect((await own.request('/my/favorites/', { headers: { cookie: `inkpass_session=${reader.cookie}` } })).status).toBe(200);
            expect(own.output()).toContain('an idle PostgreSQL connection closed');
          } finally {
            await own.stop();
          }
        });
      }

      it('prunes rate-limit counters whose window has ended', async () => {
        // Older than the longest window (a day: the comments' daily limits).
        const t = now();
        await withDb(server, async (db) => {
          const rows = Array.from({ length: 150 }, (_, i) => ({ bucket: `login:email:stale-${i}@example.test`, window_start: t - 2 * 86_400 - i, count: 3 }));
          await db.insertInto('rate_limits').values(rows).execute();
          await db.insertInto('rate_limits').values({ bucket: 'login:email:fresh@example.test', window_start: t - 60, count: 2 }).execute();
        });
        // Each failed login counts twice (its address and its email); the limiter prunes every 20th count, 100 rows at a time.
        await withDb(server, (db) => db.deleteFrom('rate_limits').where('bucket', 'like', 'login:ip:%').execute());
        for (let i = 0; i < 20; i++) await post('/auth/login/', form({ email: `nobody-${i}@example.test`, password: 'wrong-password-1' }));
        const left = await withDb(server, (db) => db.selectFrom('rate_limits').select('bucket').execute());
        expect(left.filter((r) => r.bucket.includes('stale-'))).toEqual([]);
        expect(left.map((r) => r.bucket)).toContain('login:email:fresh@example.test');
      });
    });

    describe('the origin rule for every mutation', () => {
      const FOREIGN: Record<string, string>[] = [
        { origin: 'http://evil.example' }, { origin: 'null' }, { 'sec-fetch-site': 'cross-site' }, { 'sec-fetch-site': 'same-site' },
        { 'sec-fetch-site': 'none' }, { origin: 'http://evil.example', 'sec-fetch-site': 'cross-site' },
      ];
      const TYPES = [FORM, 'application/json', 'text/plain', 'multipart/form-data; boundary=b'];

      it('refuses foreign requests with 403 on every mutating endpoint, whatever the body type, and changes nothing', { timeout: 120_000 }, async () => {
        const own = { origin: server.origin() };
        const brOrigin = server.origin('br');
        const endpoints: { method: string; path: string; body: string }[] = [
          { method: 'POST', path: '/prefs/theme/', body: 'current=light&next=/' },
          { method: 'POST', path: '/auth/login/', body: form({ email: reader.email, password: PASSWORD }) },
          { method: 'POST', path: '/auth/signup/', body: form({ email: 'x@y.zz', display_name: 'X', password: PASSWORD, terms: '1' }) },
          { method: 'POST', path: '/auth/logout/', body: '' },
          { method: 'POST', path: '/my/favorites/toggle/', body: form({ series: seriesE4pid, favorite: '1', next: '/' }) },
          { method: 'POST', path: `/api/favorites/${seriesE4pid}`, body: '' },
          { method: 'DELETE', path: `/api/favorites/${seriesE4pid}`, body: '' },
          { method: 'POST', path: '/api/progress/', body: '{}' },
        ];
        await withDb(server, (db) => db.deleteFrom('favorites').where('user_id', '=', reader.id).execute());
        const problems: string[] = [];
        for (const e of endpoints) {
          for (const foreign of [...FOREIGN, { origin: brOrigin }, { origin: server.origin().replace('http:', 'https:') }]) {
            for (const type of TYPES) {
              const res = await server.request(e.path, { method: e.method, body: e.body, headers: { 'content-type': type, cookie: `inkpass_session=${reader.cookie}`, ...foreign } });
              if (res.status !== 403) problems.push(`${e.method} ${e.path} ${type} ${JSON.stringify(foreign)} → ${res.status}`);
              if (res.headers['set-cookie']) problems.push(`${e.method} ${e.path} ${JSON.stringify(foreign)} set a cookie`);
            }
          }
        }
        expect(problems).toEqual([]);
        // Nothing happened: still signed in, no favorite added.
        const fav = await withDb(server, (db) => db.selectFrom('favorites').select('series_id').where('user_id', '=', reader.id).execute());
        const home = await server.request('/', { headers: { cookie: `inkpass_session=${reader.cookie}` } });
        expect(home.text).toContain(`"id":${reader.id}`);
        // The same requests from our own pages work (the theme form as the control).
        const ok = await server.request('/prefs/theme/', { method: 'POST', body: 'current=light&next=/', headers: { 'content-type': FORM, 'sec-fetch-site': 'same-origin', ...own } });
        expect(ok.status).toBe(303);
        expect(fav).toEqual([]);
      });
    });
  });
}
