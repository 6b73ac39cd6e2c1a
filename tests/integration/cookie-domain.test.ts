/**
 * COOKIE_DOMAIN over real HTTP: with the setting, the session and theme cookies carry Domain=,
 * so a reader signed in on one site's host is signed in on the other's (the Host header picks
 * the site, as a browser's would); without it, or on a host outside the domain, cookies stay
 * host-only. A nonsense value stops the start with a message naming the setting.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEDIA_DIR, ROOT, clearAddressLimits, createReader, selectedDialects, startExtraServer, useServer, type Reader, type ServerHandle, type TestResponse } from './harness';

const DOMAIN = 'inkpass.test';
const EN_HOST = DOMAIN;
const BR_HOST = `br.${DOMAIN}`;

/** The Set-Cookie line for a cookie name, or ''. */
function setCookie(res: TestResponse, name: string): string[] {
  return (res.headers['set-cookie'] ?? '').split('\n').filter((l) => l.startsWith(`${name}=`));
}

/** Page user data (the signed-in reader's id, or null). */
function pageUserId(html: string): number | null {
  const m = /<script type="application\/json" id="page-user-data">([\s\S]*?)<\/script>/.exec(html);
  if (!m) throw new Error('no page-user-data script in the page');
  return (JSON.parse(m[1]!) as { id?: number } | null)?.id ?? null;
}

for (const dialect of selectedDialects()) {
  describe(`cookie domain (${dialect})`, () => {
    const server = useServer(dialect);
    let shared: ServerHandle;
    let reader: Reader;

    beforeAll(async () => {
      // Its theme and age posts are anonymous: preference posts, 30 a minute per address.
      await clearAddressLimits(server);
      reader = await createReader(server, { name: 'Domain Reader' });
      shared = await startExtraServer(server, { COOKIE_DOMAIN: DOMAIN });
    }, 60_000);
    afterAll(async () => {
      await shared?.stop();
    });

    /** A request on a named host (port-less, as behind the production proxy). */
    const on = (host: string, path: string, o: { method?: string; body?: string; cookie?: string } = {}) =>
      shared.request(path, {
        method: o.method ?? 'GET',
        body: o.body,
        headers: {
          host,
          ...(o.body !== undefined ? { 'content-type': 'application/x-www-form-urlencoded', origin: `http://${host}`, 'sec-fetch-site': 'same-origin' } : {}),
          ...(o.cookie ? { cookie: o.cookie } : {}),
        },
      });

    it('signs in on the English host with a session cookie for the whole domain, which the Portuguese host honours', async () => {
      const login = await on(EN_HOST, '/auth/login/', { method: 'POST', body: new URLSearchParams({ email: reader.email, password: reader.password, next: '' }).toString() });
      expect(login.status).toBe(303);
      const [line = ''] = setCookie(login, 'inkpass_session');
      expect(line).toContain(`; Domain=${DOMAIN};`);
      expect(line).toContain('HttpOnly');
      const token = /^inkpass_session=([^;]+)/.exec(line)?.[1];
      expect(token).toBeTruthy();
      // The browser sends a Domain cookie to br.inkpass.test too: the same session is signed in there.
      const br = await on(BR_HOST, '/', { cookie: `inkpass_session=${token}` });
      expect(br.status).toBe(200);
      expect(pageUserId(br.text)).toBe(reader.id);
      // Pages tell the header script which domain to write the theme cookies for.
      expect(br.text).toContain(`data-cookie-domain="${DOMAIN}"`);

      // Logging out on the Portuguese host clears the shared cookie (and any host-only one left from before).
      const out = await on(BR_HOST, '/auth/logout/', { method: 'POST', body: '', cookie: `inkpass_session=${token}` });
      expect(out.status).toBe(303);
      const cleared = setCookie(out, 'inkpass_session');
      expect(cleared.some((l) => l.includes(`Domain=${DOMAIN}`) && l.includes('Max-Age=0'))).toBe(true);
      expect(cleared.some((l) => !l.includes('Domain=') && l.includes('Max-Age=0'))).toBe(true);
      expect(pageUserId((await on(EN_HOST, '/', { cookie: `inkpass_session=${token}` })).text)).toBeNull();
    });

    it('writes the theme cookies for the whole domain from either host', async () => {
      const res = await on(BR_HOST, '/prefs/theme/', { method: 'POST', body: 'current=light&next=/' });
      expect(res.status).toBe(303);
      for (const name of ['dark', 'lite']) expect(setCookie(res, name)[0]).toContain(`; Domain=${DOMAIN};`);
    });

    it('remembers the adult confirmation for the whole domain', async () => {
      const res = await on(EN_HOST, '/prefs/adult/', { method: 'POST', body: 'next=/' });
      expect(res.status).toBe(303);
      expect(setCookie(res, 'adult')[0]).toContain(`; Domain=${DOMAIN};`);
    });

    it('keeps cookies host-only on a host outside the domain, and without the setting', async () => {
      const body = new URLSearchParams({ email: reader.email, password: reader.password, next: '' }).toString();
      const outside = await shared.request('/auth/login/', {
        method: 'POST', body,
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: shared.origin('en'), 'sec-fetch-site': 'same-origin' },
      });
      expect(outside.status).toBe(303);
      expect(setCookie(outside, 'inkpass_session')[0]).not.toContain('Domain=');
      const plain = await server.request('/prefs/theme/', { method: 'POST', body: 'current=dark&next=/', headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.origin('en') } });
      expect(setCookie(plain, 'dark')[0]).not.toContain('Domain=');
      expect((await server.request('/')).text).not.toContain('data-cookie-domain');
    });

    it('refuses to start with a cookie domain browsers would not honour', async () => {
      const run = promisify(execFile)(process.execPath, ['scripts/serve.mjs'], {
        cwd: ROOT,
        env: { ...process.env, DATABASE_URL: server.databaseUrl, MEDIA_DIR, PORT: '1', COOKIE_DOMAIN: 'localhost' },
        timeout: 30_000,
      });
      const failure = await run.then(() => null, (e: { stderr?: string; code?: number }) => e);
      expect(failure, 'the server started').not.toBeNull();
      expect(failure?.stderr).toContain('COOKIE_DOMAIN');
      expect(failure?.stderr).toContain('localhost and br.localhost');
    });
  });
}
