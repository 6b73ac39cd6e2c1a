/**
 * The bot check before money calls, over real HTTP on both databases (docs/decisions.md, "App
 * check"): the redeem call refuses a missing, reused, expired, forged or garbage token with 403
 * and charges nothing, and takes a solved one; one token raced by twenty requests passes once;
 * each money route refuses in its callers' shape; the no-JavaScript unlock form passes without a
 * token up to its free limit, then says to turn JavaScript on or wait; the challenge call is
 * counted; Turnstile, against a local stand-in for Cloudflare; and a demo without APP_CHECK asks
 * for nothing. Every test server runs with APP_CHECK=on (tests/integration/harness.ts).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { altchaToken, APP_CHECK_FIELD, APP_CHECK_HEADER, APP_CHECK_REFUSED_HEADER, fromBase64Url, splitToken, type AltchaPayload } from '~/lib/app-check';
import {
  appCheckToken, createReader, htmlText, message, selectedDialects, startExtraServer, TEST_APP_CHECK_DIFFICULTY, useServer, withDb,
  type Reader, type ServerClient, type SiteName, type TestResponse,
} from './harness';

const now = () => Math.floor(Date.now() / 1000);
const FORM = 'application/x-www-form-urlencoded';
const EXPIRY = `12/${String((new Date().getUTCFullYear() + 4) % 100).padStart(2, '0')}`;
const HEADER = APP_CHECK_HEADER.toLowerCase();
const REFUSED = APP_CHECK_REFUSED_HEADER.toLowerCase();
let seq = 0;

const decode = (token: string) => JSON.parse(fromBase64Url(splitToken(token)!.body)!) as AltchaPayload;
const reencode = (token: string, change: (p: AltchaPayload) => void) => {
  const p = decode(token);
  change(p);
  return altchaToken(p);
};

for (const dialect of selectedDialects()) {
  describe(`the bot check (${dialect})`, () => {
    const server = useServer(dialect);
    /** Paid chapters any reader may unlock with keys, all at one price. */
    let chapters: { e4pid: string; id: number }[];
    let price: number;
    let next = 0;
    const chapter = () => {
      const c = chapters[next++];
      if (!c) throw new Error('out of unlockable chapters');
      return c;
    };

    const grant = (reader: Reader, keys: number) =>
      withDb(server, async (db) => {
        const { grantKeys } = await import('~/features/wallet/index.server');
        return grantKeys(db, { userId: reader.id, keys, xtra: 0, reason: 'test', key: `app-check:${reader.id}:${++seq}`, now: now() });
      });
    const balances = (reader: Reader) => withDb(server, async (db) => (await import('~/features/wallet/index.server')).balancesOf(db, reader.id));
    const owned = (reader: Reader) => withDb(server, (db) => db.selectFrom('chapter_unlocks').select('chapter_id').where('user_id', '=', reader.id).execute());
    const post = (s: ServerClient, reader: Reader | null, path: string, fields: Record<string, string>, headers: Record<string, string> = {}, site: SiteName = 'en') =>
      s.request(path, {
        site, method: 'POST', body: new URLSearchParams(fields).toString(), timeoutMs: 60_000,
        headers: { 'content-type': FORM, origin: s.origin(site), ...(reader ? { cookie: reader.cookie } : {}), ...headers },
      });
    const redeem = (reader: Reader, e4pid: string, token?: string, s: ServerClient = server) => post(s, reader, '/api/redeem/', { content: e4pid }, token === undefined ? {} : { [HEADER]: token });
    /** A refusal of the bot check: the status, its reason header, no caching. */
    const refused = (res: TestResponse, reason: string, status = 403) => {
      expect([res.status, res.headers[REFUSED]], res.text.slice(0, 200)).toEqual([status, reason]);
      expect(res.headers['cache-control']).toBe('no-store');
    };
    /**
     * A token for a challenge the server would have signed `age` seconds ago: signed here with the
     * server's own keys (the test runs from the same directory, so it reads the same generated
     * secret, as the purchase tests' webhook key does).
     */
    const mintedToken = async (age: number) => {
      const { altchaProvider } = await import('~/server/app-check');
      const { keyFor } = await import('~/server/secrets');
      const { solveChallenge } = await import('altcha-lib');
      const { deriveKey } = await import('altcha-lib/algorithms/pbkdf2');
      const provider = altchaProvider({ difficulty: TEST_APP_CHECK_DIFFICULTY, signatureSecret: keyFor('app-check').toString('base64url'), keySecret: keyFor('app-check-key').toString('base64url') });
      const answer = await provider.challenge(now() - age);
      if (answer.provider !== 'altcha') throw new Error('not the proof of work');
      const solution = await solveChallenge({ challenge: answer.challenge, deriveKey });
      return altchaToken({ challenge: answer.challenge, solution: solution! });
    };

    beforeAll(async () => {
      const found = await withDb(server, async (db) => {
        const { pricingContext, accessIn } = await import('~/features/catalog/index.server');
        const t = now();
        const rows = await db
          .selectFrom('chapters').innerJoin('series', 'series.id', 'chapters.series_id')
          .select(['chapters.id', 'chapters.e4pid'])
          .where('series.state', '=', 'ACTIVE').where('series.geoblocks', 'in', ['[]', ''])
          .where('chapters.original_price', '>', 0).where('chapters.released_at', '<=', t - 86400).where('chapters.sale_at', '<=', t - 86400)
          .orderBy('chapters.id').limit(1500).execute();
        const rich = { owned: false, rentals: [], balances: { keys: 1e6, xtra: 0 }, dailyPassUsedAt: null, adsWatched: 0, subscription: null };
        const byPrice = new Map<number, { e4pid: string; id: number }[]>();
        for (const r of rows) {
          const ctx = await pricingContext(db, r.e4pid, t);
          const access = ctx && accessIn(ctx, rich, null, t);
          if (!access || !access.unlockMethods.keys.open || access.finalPrice <= 0) continue;
          byPrice.set(access.finalPrice, [...(byPrice.get(access.finalPrice) ?? []), { e4pid: r.e4pid, id: Number(r.id) }]);
        }
        return [...byPrice.entries()].sort((a, b) => b[1].length - a[1].length)[0]!;
      });
      [price, chapters] = found;
      expect(chapters.length).toBeGreaterThan(40);
    });

    it('the redeem call: no token, a reused one, an expired one or a forged one is 403 and charges nothing; a solved one is 200', async () => {
      const reader = await createReader(server);
      await grant(reader, 10 * price);
      const target = chapter();

      const none = await redeem(reader, target.e4pid);
      refused(none, 'missing');
      expect(none.json()).toMatchObject({ detail: message('en', 'error.appCheck.missing'), code: 'app_check_missing' });

      const token = await appCheckToken(server, reader);
      const forgeries: Record<string, string> = {
        'an easier cost': reencode(token, (p) => (p.challenge.parameters.cost = 1)),
        'a later expiry': reencode(token, (p) => (p.challenge.parameters.expiresAt = now() + 86_400)),
        'another derived key': reencode(token, (p) => (p.solution.derivedKey = 'ab'.repeat(32))),
        'a signature of zeros': reencode(token, (p) => (p.challenge.signature = '0'.repeat(64))),
        'garbage': 'altcha.bm90IGpzb24',
        'no provider': 'hello',
        'oversized': `altcha.${'A'.repeat(5000)}`,
        'another provider': 'turnstile.XXXX.DUMMY.TOKEN.XXXX',
      };
      for (const [what, forged] of Object.entries(forgeries)) {
        const res = await redeem(reader, target.e4pid, forged);
        expect(res.status, what).toBe(403);
        expect(res.json().detail, what).toBe(message('en', 'error.appCheck.invalid'));
      }
      expect(await balances(reader)).toEqual({ keys: 10 * price, xtra: 0 });

      // Signed by this server, but ten minutes and a second ago.
      refused(await redeem(reader, target.e4pid, await mintedToken(601)), 'expired');
      expect(await owned(reader)).toEqual([]);

      // The genuine token, which none of the above used up.
      const paid = await redeem(reader, target.e4pid, token);
      expect(paid.status, paid.text).toBe(200);
      expect(paid.json().charged.price).toBe(price);
      expect(await owned(reader)).toEqual([{ chapter_id: target.id }]);

      // Used once: refused for another chapter, in Portuguese on the Brazilian site.
      const reused = await post(server, reader, '/api/redeem/', { content: chapter().e4pid }, { [HEADER]: token }, 'br');
      refused(reused, 'used');
      expect(reused.json().detail).toBe(message('pt-BR', 'error.appCheck.used'));
      expect(await owned(reader)).toHaveLength(1);
      // A token minted the same way but fresh passes: the expired one was refused for its age.
      expect((await redeem(reader, chapter().e4pid, await mintedToken(0))).status).toBe(200);
    });

    it('one token brought by twenty requests at once passes once', async () => {
      const reader = await createReader(server);
      await grant(reader, 20 * price);
      const token = await appCheckToken(server, reader);
      const targets = Array.from({ length: 20 }, () => chapter());
      const answers = await Promise.all(targets.map((c) => redeem(reader, c.e4pid, token)));
      expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
      expect(answers.filter((a) => a.status === 403 && a.headers[REFUSED] === 'used')).toHaveLength(19);
      expect(await owned(reader)).toHaveLength(1);
      expect((await balances(reader)).keys).toBe(19 * price);
    });

    it('signed out, the redeem call is 401 without a token: nothing to check before the route says so', async () => {
      const res = await post(server, null, '/api/redeem/', { content: chapters[0]!.e4pid });
      expect(res.status).toBe(401);
    });

    it('each money route refuses in its callers\' shape: JSON, the checkout\'s text, the checkout form\'s page', async () => {
      const reader = await createReader(server, { site: 'br' });
      const pix = await post(server, reader, '/my/purchase/pix/', { pack: 'popular' }, {}, 'br');
      refused(pix, 'missing');
      expect(pix.headers['content-type']).toMatch(/^text\/plain/);
      expect(pix.text).toBe(message('pt-BR', 'error.appCheck.missing'));
      for (const path of ['/my/subscribe/pix/', '/my/subscribe/card/']) {
        const res = await post(server, reader, path, { tier_id: 'leitor' }, { [HEADER]: 'altcha.e30' }, 'br');
        refused(res, 'malformed');
        expect(res.json()).toMatchObject({ success: false, message: message('pt-BR', 'error.appCheck.invalid') });
      }
      const form = await post(server, reader, '/my/purchase/checkout/', { pack: 'popular', method: 'card', nonce: 'x' }, { referer: `${server.origin('br')}/my/purchase/checkout/?pack=popular` }, 'br');
      refused(form, 'missing');
      expect(form.headers['content-type']).toMatch(/^text\/html/);
      expect(htmlText(form.text)).toContain(message('pt-BR', 'error.appCheck.missing'));
      expect(form.text).toContain('href="/my/purchase/checkout/?pack=popular"');
    });

    it('the checkout form passes with its token in a hidden field, as the island submits it', async () => {
      const reader = await createReader(server);
      const nonce = await post(server, reader, '/payments/sandbox/nonce/', { method: 'card', number: '4111111111111111', expiry: EXPIRY, cvv: '123' });
      expect(nonce.status, nonce.text).toBe(200);
      const fields = { pack: 'popular', method: 'card', nonce: nonce.json().nonce, request_key: `rk${++seq}x${now()}`, next: '/comics/' };
      const token = await appCheckToken(server, reader);
      const paid = await post(server, reader, '/my/purchase/checkout/', { ...fields, [APP_CHECK_FIELD]: token });
      expect([paid.status, paid.headers.location?.replace(/\?paid=[\w-]+$/, '')]).toEqual([303, '/comics/']);
      expect((await balances(reader)).keys).toBeGreaterThan(0);
      // The same token in a second submission is spent.
      refused(await post(server, reader, '/my/purchase/checkout/', { ...fields, [APP_CHECK_FIELD]: token }), 'used');
    });

    it('the unlock form works without JavaScript up to its free limit, then says to turn JavaScript on or wait', async () => {
      const { LIMITS } = await import('~/server/rate-limit');
      const free = LIMITS.appCheckFree.max;
      const reader = await createReader(server, { site: 'br' });
      await grant(reader, price);
      const unlock = (fields: Record<string, string>, site: SiteName = 'br') => post(server, reader, '/unlock/', { content: 'EPI-nope', ...fields }, {}, site);
      // Each one reaches the form's route (an unknown chapter: 404), no token asked.
      for (let i = 0; i < free; i++) expect((await unlock({})).status, `form ${i + 1}`).toBe(404);
      const beyond = await unlock({ content: chapter().e4pid });
      refused(beyond, 'missing', 429);
      expect(Number(beyond.headers['retry-after'])).toBeGreaterThan(0);
      expect(beyond.headers['content-type']).toMatch(/^text\/html/);
      const minutes = Math.max(1, Math.ceil(Number(beyond.headers['retry-after']) / 60));
      expect(htmlText(beyond.text)).toContain(message('pt-BR', 'error.appCheck.noScript', { count: free, minutes }));
      expect(await owned(reader)).toEqual([]);
      // The English site says it in English.
      expect(htmlText((await unlock({}, 'en')).text)).toContain(message('en', 'error.appCheck.noScript', { count: free, minutes }));
      // A browser with JavaScript has a token: past the free limit it still unlocks.
      const target = chapter();
      const withToken = await unlock({ content: target.e4pid, [APP_CHECK_FIELD]: await appCheckToken(server, reader, 'br') });
      expect(withToken.status).toBe(303);
      expect(await owned(reader)).toEqual([{ chapter_id: target.id }]);
    });

    it('the challenge: never cached, good for ten minutes, counted per reader', async () => {
      const reader = await createReader(server);
      const ask = () => server.request('/api/app-check/challenge/', { headers: { cookie: reader.cookie } });
      const first = await ask();
      expect(first.status).toBe(200);
      expect(first.headers['cache-control']).toBe('no-store');
      const body = first.json();
      expect(body).toMatchObject({ provider: 'altcha', expires_in: 600, challenge: { parameters: { algorithm: 'PBKDF2/SHA-256', cost: 5000 } } });
      expect(body.challenge.parameters.expiresAt - now()).toBeGreaterThan(590);
      // HEAD signs nothing, and counts like the GET it stands for (the route table counts HEAD as GET).
      const head = await server.request('/api/app-check/challenge/', { method: 'HEAD', headers: { cookie: reader.cookie } });
      expect([head.status, head.raw.length, head.headers['cache-control']]).toEqual([200, 0, 'no-store']);
      const { LIMITS } = await import('~/server/rate-limit');
      const statuses: number[] = [];
      for (let i = 2; i <= LIMITS.appCheck.max; i++) statuses.push((await ask()).status);
      expect(statuses.slice(0, -1).every((s) => s === 200)).toBe(true);
      const over = statuses.at(-1)!;
      expect(over).toBe(429);
    });

    it('the unlock dialog and the checkouts learn the provider from the page; other pages load nothing of it', async () => {
      const reader = await createReader(server);
      const listing = await server.request('/comics/', { headers: { cookie: reader.cookie } });
      expect(listing.text).not.toContain('app-check');
      // The series page has the unlock dialog, which loads the token keeper with itself, on first use.
      const checkout = await server.request('/my/purchase/checkout/?pack=popular', { headers: { cookie: reader.cookie } });
      expect(checkout.text).toContain('/api/app-check/challenge/');
      const series = await withDb(server, (db) => db.selectFrom('series').select('slug').where('state', '=', 'ACTIVE').orderBy('id').executeTakeFirstOrThrow());
      const page = await server.request(`/comics/${series.slug}/`, { headers: { cookie: reader.cookie } });
      const config = /<script type="application\/json" id="unlock-dialog-config">([\s\S]*?)<\/script>/.exec(page.text)?.[1];
      expect(config && JSON.parse(config).appCheck).toEqual({ provider: 'altcha', challenge: '/api/app-check/challenge/', debug: false });
      expect(page.text).not.toMatch(/<link[^>]*app-check/);
    });

    describe('with Turnstile, against a stand-in for Cloudflare', () => {
      let standIn: http.Server;
      const calls: URLSearchParams[] = [];
      /** What the stand-in answers per token; anything else is an invalid token. */
      const answers: Record<string, { status: number; body: string }> = {
        'good-1': { status: 200, body: JSON.stringify({ success: true, hostname: 'localhost' }) },
        'good-2': { status: 200, body: JSON.stringify({ success: true }) },
        'stale': { status: 200, body: JSON.stringify({ success: false, 'error-codes': ['timeout-or-duplicate'] }) },
        'down': { status: 500, body: 'internal error' },
      };
      let turnstile: Awaited<ReturnType<typeof startExtraServer>>;
      beforeAll(async () => {
        standIn = http.createServer((req, res) => {
          let body = '';
          req.on('data', (c) => (body += c));
          req.on('end', () => {
            const form = new URLSearchParams(body);
            calls.push(form);
            const a = form.get('secret') === 'stand-in-secret' ? answers[form.get('response') ?? ''] : undefined;
            res.writeHead(a?.status ?? 200, { 'content-type': 'application/json' });
            res.end(a?.body ?? JSON.stringify({ success: false, 'error-codes': ['invalid-input-response'] }));
          });
        });
        await new Promise<void>((r) => standIn.listen(0, '127.0.0.1', r));
        turnstile = await startExtraServer(server, {
          TURNSTILE_SITE_KEY: 'stand-in-site-key', TURNSTILE_SECRET_KEY: 'stand-in-secret',
          TURNSTILE_VERIFY_URL: `http://127.0.0.1:${(standIn.address() as AddressInfo).port}/siteverify`,
        });
      }, 90_000);
      afterAll(async () => {
        await turnstile?.stop();
        await new Promise<void>((r) => standIn.close(() => r()));
      });

      it('hands out the site key, and the checkout page gives it to the island', async () => {
        const challenge = await turnstile.request('/api/app-check/challenge/');
        expect(challenge.json()).toEqual({ provider: 'turnstile', site_key: 'stand-in-site-key', expires_in: 300 });
        const reader = await createReader(turnstile);
        const page = await turnstile.request('/my/purchase/checkout/?pack=popular', { headers: { cookie: reader.cookie } });
        expect(page.text).toContain('stand-in-site-key');
        expect(page.text).not.toContain('stand-in-secret');
      });

      it('takes a token Cloudflare vouches for, once, asking Cloudflare once; refuses the rest', async () => {
        const reader = await createReader(turnstile);
        await grant(reader, 5 * price);
        const ok = await redeem(reader, chapter().e4pid, 'turnstile.good-1', turnstile);
        expect(ok.status, ok.text).toBe(200);
        const asked = calls.filter((c) => c.get('response') === 'good-1');
        expect(asked).toHaveLength(1);
        expect(asked[0]!.get('remoteip')).toBe('127.0.0.1');
        refused(await redeem(reader, chapter().e4pid, 'turnstile.good-1', turnstile), 'used');
        expect(calls.filter((c) => c.get('response') === 'good-1')).toHaveLength(1);

        // Ten requests with one token: one reaches Cloudflare, one passes.
        const raced = await Promise.all(Array.from({ length: 10 }, () => redeem(reader, chapter().e4pid, 'turnstile.good-2', turnstile)));
        expect(raced.filter((a) => a.status === 200)).toHaveLength(1);
        expect(calls.filter((c) => c.get('response') === 'good-2')).toHaveLength(1);

        refused(await redeem(reader, chapter().e4pid, 'turnstile.made-up', turnstile), 'forged');
        refused(await redeem(reader, chapter().e4pid, 'turnstile.stale', turnstile), 'expired');
        refused(await redeem(reader, chapter().e4pid, await appCheckToken(server, reader), turnstile), 'wrong-provider');
        refused(await redeem(reader, chapter().e4pid, 'turnstile.<b>', turnstile), 'malformed');
        refused(await redeem(reader, chapter().e4pid, undefined, turnstile), 'missing');
        const down = await redeem(reader, chapter().e4pid, 'turnstile.down', turnstile);
        refused(down, 'unavailable', 503);
        expect(down.headers['retry-after']).toBe('5');
        expect(down.json().detail).toBe(message('en', 'error.appCheck.unavailable'));
        expect((await owned(reader)).length).toBe(2);
      });
    });

    it('a demo started without APP_CHECK asks for no token', { timeout: 90_000 }, async () => {
      const demo = await startExtraServer(server, { APP_CHECK: '' });
      try {
        const reader = await createReader(demo);
        await grant(reader, price);
        const res = await redeem(reader, chapter().e4pid, undefined, demo);
        expect(res.status, res.text).toBe(200);
        const page = await demo.request('/my/purchase/checkout/?pack=popular', { headers: { cookie: reader.cookie } });
        expect(page.text).not.toContain('/api/app-check/challenge/');
      } finally {
        await demo.stop();
      }
    });
  });
}
