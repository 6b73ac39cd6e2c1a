/**
 * Accounts over real HTTP on both dialects: sign-up, login, logout, sessions, rate limits and
 * the cross-site and malformed-input refusals (docs/accounts.md).
 */
import crypto from 'node:crypto';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createReader, htmlText, message, selectedDialects, useServer, withDb, type SiteName, type TestResponse } from './harness';

const DAY = 86400;
const FORM = 'application/x-www-form-urlencoded';

function form(fields: Record<string, string>): string {
  return new URLSearchParams(fields).toString();
}

/** The inkpass_session value a response sets ('' when it clears it), or undefined. */
function sessionCookie(res: TestResponse): string | undefined {
  const line = (res.headers['set-cookie'] ?? '').split('\n').find((l) => l.startsWith('inkpass_session='));
  return line === undefined ? undefined : line.slice('inkpass_session='.length).split(';')[0];
}

function setCookieLine(res: TestResponse): string {
  return (res.headers['set-cookie'] ?? '').split('\n').find((l) => l.startsWith('inkpass_session=')) ?? '';
}

/** Page user data from a page. */
function pageUser(html: string): unknown {
  const m = /<script type="application\/json" id="page-user-data">([\s\S]*?)<\/script>/.exec(html);
  if (!m) throw new Error('no page-user-data script in the page');
  return JSON.parse(m[1]!);
}


for (const dialect of selectedDialects()) {
  describe(`accounts (${dialect})`, () => {
    const server = useServer(dialect);
    const unique = (name: string) => `${name}-${crypto.randomBytes(4).toString('hex')}@example.test`;
    const PASSWORD = 'correct-horse-9';
    let reader: { email: string; id: number };

    const post = (path: string, body: string, o: { site?: SiteName; cookie?: string; headers?: Record<string, string> } = {}) =>
      server.request(path, {
        site: o.site,
        method: 'POST',
        body,
        headers: {
          'content-type': FORM,
          origin: server.origin(o.site),
          ...(o.cookie ? { cookie: `inkpass_session=${o.cookie}` } : {}),
          ...o.headers,
        },
      });
    const login = (email: string, password: string, o: { next?: string; cookie?: string; site?: SiteName } = {}) =>
      post('/auth/login/', form({ email, password, next: o.next ?? '' }), o);
    /** Who the server thinks we are with this cookie (page user data on the home page). */
    const whoAmI = async (cookie: string) => pageUser((await server.request('/', { headers: { cookie: `inkpass_session=${cookie}` } })).text);

    beforeAll(async () => {
      const user = await createReader(server, { name: 'Rita Reader', password: PASSWORD });
      reader = { email: user.email, id: user.id };
    });
    // Every request comes from 127.0.0.1: start each test with fresh per-IP counters.
    beforeEach(async () => {
      await withDb(server, (db) => db.deleteFrom('rate_limits').execute());
    });

    it('refuses a sign-up without the terms box, with the localized warning and 400, on both sites', async () => {
      for (const site of ['en', 'br'] as const) {
        const email = unique('noterms');
        const res = await post('/auth/signup/', form({ email, display_name: 'Ana', password: PASSWORD }), { site });
        expect(res.status, site).toBe(400);
        const locale = site === 'br' ? 'pt-BR' : 'en';
        expect(htmlText(res.text)).toContain(message(locale, 'auth.signup.termsRequired', { product: 'Inkpass' }));
        expect(sessionCookie(res)).toBeUndefined();
        const row = await withDb(server, (db) => db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst());
        expect(row).toBeUndefined();
      }
      expect(message('en', 'auth.signup.termsRequired', { product: 'Inkpass' })).toBe("To register you must accept Inkpass's Terms of Service and Privacy Policy");
    });

    it('signs up with the terms accepted, sets a HttpOnly SameSite=Lax cookie and shows the reader in the header', async () => {
      const email = unique('Signup').replace('signup', 'SignUp');
      const res = await post('/auth/signup/', form({ email, display_name: 'Ana Souza', password: PASSWORD, terms: '1', next: '/comics/' }));
      expect(res.status).toBe(303);
      expect(res.headers.location).toBe('/comics/');
      const line = setCookieLine(res);
      expect(line).toMatch(/; HttpOnly/);
      expect(line).toMatch(/; SameSite=Lax/);
      expect(line).toMatch(/; Path=\//);
      expect(line).toMatch(new RegExp(`; Max-Age=${30 * DAY}`));
      expect(line, 'plain http: no Secure').not.toMatch(/Secure/);
      const row = await withDb(server, (db) => db.selectFrom('users').selectAll().where('email', '=', email.toLowerCase()).executeTakeFirstOrThrow());
      expect(row.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
      const home = await server.request('/', { headers: { cookie: `inkpass_session=${sessionCookie(res)}` } });
      expect(home.headers['cache-control']).toMatch(/private/);
      expect(htmlText(home.text)).toContain('Ana Souza');
      expect(pageUser(home.text)).toEqual({ id: Number(row.id), profile: { keys: 0, free_keys: 0 }, is_staff: false });
      // The same email again: a generic refusal.
      const again = await post('/auth/signup/', form({ email, display_name: 'Other', password: PASSWORD, terms: '1' }));
      expect(again.status).toBe(400);
      expect(htmlText(again.text)).toContain(message('en', 'auth.signup.taken'));
    });

    it('stores only a hash of the session secret, never the cookie value', async () => {
      const res = await login(reader.email, PASSWORD);
      expect(res.status).toBe(303);
      const cookie = sessionCookie(res)!;
      const [id, secret] = cookie.split('.');
      expect(Buffer.from(secret!, 'base64url').length * 8).toBeGreaterThanOrEqual(128);
      const row = await withDb(server, (db) => db.selectFrom('sessions').selectAll().where('id', '=', id!).executeTakeFirstOrThrow());
      expect(row.secret_hash).not.toBe(cookie);
      expect(row.secret_hash).not.toContain(secret!);
      expect(row.secret_hash).toBe(crypto.createHash('sha256').update(secret!).digest('hex'));
      expect(Object.values(row).map(String)).not.toContain(cookie);
      expect(Number(row.user_id)).toBe(reader.id);
      expect(Number(row.expires_at) - Number(row.created_at)).toBe(90 * DAY);
    });

    it('gives a new session on every login and ends the one the browser had', async () => {
      const first = sessionCookie(await login(reader.email, PASSWORD))!;
      const res = await login(reader.email, PASSWORD, { cookie: first });
      const second = sessionCookie(res)!;
      expect(second).toBeTruthy();
      expect(second).not.toBe(first);
      expect(second.split('.')[0]).not.toBe(first.split('.')[0]);
      expect(await whoAmI(first)).toBeNull();
      expect(await whoAmI(second)).toMatchObject({ id: reader.id });
    });

    it('refuses a session cookie replayed after logout', async () => {
      const cookie = sessionCookie(await login(reader.email, PASSWORD))!;
      expect(await whoAmI(cookie)).toMatchObject({ id: reader.id });
      const out = await post('/auth/logout/', '', { cookie });
      expect(out.status).toBe(303);
      expect(out.headers.location).toBe('/');
      expect(sessionCookie(out)).toBe('');
      expect(setCookieLine(out)).toMatch(/Max-Age=0/);
      const gone = await withDb(server, (db) => db.selectFrom('sessions').select('id').where('id', '=', cookie.split('.')[0]!).executeTakeFirst());
      expect(gone).toBeUndefined();
      const replay = await server.request('/', { headers: { cookie: `inkpass_session=${cookie}` } });
      expect(pageUser(replay.text)).toBeNull();
      expect(sessionCookie(replay), 'the dead cookie is cleared').toBe('');
    });

    it('refuses (and deletes) a session idle for 30 days or past its absolute lifetime', async () => {
      const now = Math.floor(Date.now() / 1000);
      const idle = sessionCookie(await login(reader.email, PASSWORD))!;
      const old = sessionCookie(await login(reader.email, PASSWORD))!;
      await withDb(server, async (db) => {
        await db.updateTable('sessions').set({ last_seen_at: now - 31 * DAY }).where('id', '=', idle.split('.')[0]!).execute();
        await db.updateTable('sessions').set({ expires_at: now - 1 }).where('id', '=', old.split('.')[0]!).execute();
      });
      expect(await whoAmI(idle)).toBeNull();
      expect(await whoAmI(old)).toBeNull();
      const left = await withDb(server, (db) => db.selectFrom('sessions').select('id').where('id', 'in', [idle.split('.')[0]!, old.split('.')[0]!]).execute());
      expect(left).toEqual([]);
    });

    it('slides the idle expiry: a day-old session is refreshed and its cookie re-sent', async () => {
      const now = Math.floor(Date.now() / 1000);
      const cookie = sessionCookie(await login(reader.email, PASSWORD))!;
      const id = cookie.split('.')[0]!;
      await withDb(server, (db) => db.updateTable('sessions').set({ last_seen_at: now - 2 * DAY }).where('id', '=', id).execute());
      const res = await server.request('/', { headers: { cookie: `inkpass_session=${cookie}` } });
      expect(pageUser(res.text)).toMatchObject({ id: reader.id });
      expect(sessionCookie(res)).toBe(cookie);
      const row = await withDb(server, (db) => db.selectFrom('sessions').select('last_seen_at').where('id', '=', id).executeTakeFirstOrThrow());
      expect(Number(row.last_seen_at)).toBeGreaterThanOrEqual(now);
      // Fresh sessions are not rewritten on every request.
      expect(sessionCookie(await server.request('/', { headers: { cookie: `inkpass_session=${cookie}` } }))).toBeUndefined();
    });

    it('ends the other sessions of an account when its password changes', async () => {
      // Passwords change through the account command (docs/accounts.md), which calls the accounts door.
      const { changePassword } = await import('~/features/accounts/index.server');
      const user = await createReader(server, { name: 'Chang', password: PASSWORD });
      const email = user.email;
      const keep = sessionCookie(await login(email, PASSWORD))!;
      const other = sessionCookie(await login(email, PASSWORD))!;
      await withDb(server, (db) => changePassword(db, user.id, 'a-new-password-1', keep.split('.')[0]!));
      expect(await whoAmI(other)).toBeNull();
      expect(await whoAmI(keep)).toMatchObject({ id: user.id });
      expect((await login(email, PASSWORD)).status).toBe(401);
      expect((await login(email, 'a-new-password-1')).status).toBe(303);
    });

    it('follows next only to same-site paths; open-redirect attempts land on the home page', async () => {
      const hostile = ['//evil.example', 'https://evil.example', '/\\evil.example', 'javascript:alert(1)', '\\\\evil.example', 'http:/evil.example'];
      for (const next of hostile) {
        const res = await login(reader.email, PASSWORD, { next });
        expect(res.status, next).toBe(303);
        expect(res.headers.location, next).toBe('/');
      }
      // Through the query string too (the form keeps it when the field is empty).
      const viaQuery = await post(`/auth/login/?next=${encodeURIComponent('//evil.example')}`, form({ email: reader.email, password: PASSWORD }));
      expect(viaQuery.headers.location).toBe('/');
      const ok = await login(reader.email, PASSWORD, { next: '/comics/?order=name#top' });
      expect(ok.headers.location).toBe('/comics/?order=name#top');
    });

    it('answers an unknown email and a wrong password the same way, in similar time', async () => {
      const unknown = unique('nobody');
      const times = { unknown: [] as number[], wrong: [] as number[] };
      let a: TestResponse | undefined;
      let b: TestResponse | undefined;
      for (let i = 0; i < 3; i++) {
        let t = performance.now();
        a = await login(unknown, 'wrong-password-1');
        times.unknown.push(performance.now() - t);
        t = performance.now();
        b = await login(reader.email, 'wrong-password-1');
        times.wrong.push(performance.now() - t);
      }
      expect(a!.status).toBe(401);
      expect(b!.status).toBe(401);
      const invalid = message('en', 'auth.login.invalid');
      expect(htmlText(a!.text)).toContain(invalid);
      expect(a!.text.replaceAll(unknown, 'EMAIL')).toBe(b!.text.replaceAll(reader.email, 'EMAIL'));
      // The fastest of each: the work an answer takes is its floor, and a busy machine only adds
      // to single samples (a median of three still failed once at load average 16).
      const ratio = Math.min(...times.unknown) / Math.min(...times.wrong);
      expect(ratio, `unknown ${times.unknown.map(Math.round)} ms vs wrong ${times.wrong.map(Math.round)} ms`).toBeGreaterThan(0.33);
      expect(ratio).toBeLessThan(3);
    });

    it('answers 429 with a localized message after 10 failed logins for one account', async () => {
      const email = unique('target');
      for (let i = 0; i < 10; i++) expect((await login(email, 'guess-' + i)).status).toBe(401);
      const res = await login(email, 'guess-10', { site: 'br' });
      expect(res.status).toBe(429);
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      expect(htmlText(res.text)).toContain(message('pt-BR', 'auth.error.rateLimited', { minutes: 15 }));
      // The counter is in the database: it is the same for any process reading it.
      const row = await withDb(server, (db) => db.selectFrom('rate_limits').selectAll().where('bucket', '=', `login:email:${email}`).executeTakeFirstOrThrow());
      expect(Number(row.count)).toBe(11);
    });

    it('refuses cross-origin form POSTs with 403', async () => {
      const evil = { origin: 'http://evil.example' };
      for (const path of ['/auth/login/', '/auth/signup/', '/auth/logout/']) {
        const res = await post(path, form({ email: reader.email, password: PASSWORD, display_name: 'X', terms: '1' }), { headers: evil });
        expect(res.status, path).toBe(403);
        expect(sessionCookie(res), path).toBeUndefined();
      }
      // Bodies Astro's origin check does not cover are refused by the pages themselves.
      const json = await post('/auth/login/', JSON.stringify({ email: reader.email }), { headers: { ...evil, 'content-type': 'application/json' } });
      expect(json.status).toBe(403);
      const fetchSite = await post('/auth/login/', form({ email: reader.email, password: PASSWORD }), { headers: { 'sec-fetch-site': 'cross-site' } });
      expect(fetchSite.status).toBe(403);
    });

    it('answers bodies of the wrong type with 415, oversized ones with 413 and malformed ones with 400, each with a clear message', async () => {
      const wrongType = message('en', 'error.body.type');
      const json = await post('/auth/login/', JSON.stringify({ email: reader.email, password: PASSWORD }), { headers: { 'content-type': 'application/json' } });
      expect(json.status).toBe(415);
      expect(htmlText(json.text)).toContain(wrongType);
      const none = await post('/auth/signup/', 'email=x', { headers: { 'content-type': 'text/xml' } });
      expect(none.status).toBe(415);
      const big = await post('/auth/signup/', form({ email: 'a@b.cd', display_name: 'x'.repeat(20_000), password: PASSWORD, terms: '1' }));
      expect(big.status).toBe(413);
      expect(htmlText(big.text)).toContain(message('en', 'error.body.tooLarge'));
      const badUtf8 = await post('/auth/login/', Buffer.from([0x65, 0x6d, 0x61, 0x69, 0x6c, 0x3d, 0xff, 0xfe]) as unknown as string, { site: 'br' });
      expect(badUtf8.status).toBe(400);
      expect(htmlText(badUtf8.text)).toContain(message('pt-BR', 'error.body.malformed'));
      const logout = await post('/auth/logout/', '{}', { headers: { 'content-type': 'application/json' } });
      expect(logout.status).toBe(415);
      expect(logout.text).toBe(wrongType);
    });

    it('serves the logout prompt as an HTML fragment, and as a full page without JavaScript', async () => {
      for (const site of ['en', 'br'] as const) {
        const locale = site === 'br' ? 'pt-BR' : 'en';
        const res = await server.request('/auth/logout/', { site });
        expect(res.status).toBe(200);
        expect(res.headers['content-type']).toMatch(/^text\/html/);
        expect(res.headers['cache-control']).toBe('no-store');
        expect(res.text).not.toMatch(/<html|<!doctype/i);
        expect(res.text).toMatch(/<form[^>]*method="post" action="\/auth\/logout\/"/);
        const text = htmlText(res.text);
        expect(text).toContain(message(locale, 'auth.logout.confirm'));
        expect(text).toContain(message(locale, 'auth.logout.cancel'));
      }
      const full = await server.request('/auth/logout/?full=1');
      expect(full.status).toBe(200);
      expect(full.text).toMatch(/<html/);
      expect(full.text).toMatch(/action="\/auth\/logout\/"/);
    });

    it('keeps anonymous pages public and identical, with null page user data', async () => {
      for (const path of ['/', '/auth/login/', '/auth/signup/']) {
        // Two visitors at the same moment get the same bytes. Asked together, and up to three
        // times: other tests on this shared server publish chapters (the home page's strips
        // change, and say "in 5 seconds" one second and "in 4" the next); a page made for its
        // visitor (a token, a nonce) would differ every time.
        let [a, b] = await Promise.all([server.request(path), server.request(path)]);
        for (let tries = 1; tries < 3 && a.text !== b.text; tries++) [a, b] = await Promise.all([server.request(path), server.request(path)]);
        expect(a.status, path).toBe(200);
        expect(a.headers['cache-control'], path).toMatch(/public/);
        expect(a.headers['set-cookie'], path).toBeUndefined();
        expect(pageUser(a.text), path).toBeNull();
        expect(a.text, path).toBe(b.text);
      }
      const login = await server.request('/auth/login/', { site: 'br' });
      expect(htmlText(login.text)).toContain(message('pt-BR', 'auth.field.password'));
    });
  });
}
