/**
 * Demo and production (docs/operations.md, "Demo and production"): what a default install shows,
 * what a production install refuses to start with, and what a production install without payment
 * providers lets a reader do (nothing that moves money), over real HTTP on both databases.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anySeries, appCheckToken, createReader, markup, message, npmRun, preparedDatabase, selectedDialects, startExtraServer, startOrRefuse, useServer, withDb, type Reader, type ServerClient, type ServerHandle, type SiteName } from './harness';

const FORM = 'application/x-www-form-urlencoded';
const SECRET = 'modes-test-secret-0123456789abcdef0123456789';

/** A form post as the site's pages send it: money calls carry a solved bot-check token (header, and the checkout's field). */
async function post(server: ServerClient, reader: Reader | null, path: string, fields: Record<string, string>, site: SiteName = 'en') {
  const check = reader && MONEY_CALLS.test(path) ? await appCheckToken(server, reader, site) : null;
  const body = new URLSearchParams({ ...fields, ...(check && path.endsWith('/checkout/') ? { app_check: check } : {}) }).toString();
  return server.request(path, {
    method: 'POST', site, body,
    headers: { 'content-type': FORM, origin: server.origin(site), ...(reader ? { cookie: reader.cookie } : {}), ...(check ? { 'x-app-check': check } : {}) },
  });
}

const MONEY_CALLS = /^\/(api\/redeem|my\/purchase\/(pix|checkout)|my\/subscribe\/(pix|card))\/$/;

const EXPIRY = `12/${String((new Date().getUTCFullYear() + 2) % 100).padStart(2, '0')}`;

for (const dialect of selectedDialects()) {
  describe(`demo mode, the quick start's default (${dialect})`, () => {
    const server = useServer(dialect);

    it('says it is a demo on every page type, in the site\'s language', async () => {
      const [series] = await anySeries(server, 1);
      const reader = await createReader(server);
      const pages: [string, SiteName, Reader | null][] = [
        ['/', 'en', null], ['/', 'br', null], ['/comics/', 'en', null], [`/comics/${series!.slug}/`, 'br', null], [series!.chapter!.readerPath, 'en', null],
        ['/schedule/', 'en', null], ['/calendario/', 'br', null], ['/about/', 'en', null], ['/auth/login/', 'br', null], ['/no-such-page/', 'en', null],
        ['/plans/', 'br', null], ['/my/keys/', 'en', reader], ['/my/purchase/', 'en', reader], ['/my/purchase/checkout/?pack=popular', 'br', reader],
        ['/my/history/', 'br', reader], ['/my/subscriptions/', 'en', reader],
      ];
      for (const [path, site, who] of pages) {
        const res = await server.request(path, { site, headers: who ? { cookie: who.cookie } : {} });
        expect(res.status, `${site} ${path}`).toBeLessThan(500);
        const band = /<p class="demo-band" role="note">([^<]*)<\/p>/.exec(markup(res.text));
        expect(band?.[1], `${site} ${path} shows the demo band`).toBe(message(site === 'br' ? 'pt-BR' : 'en', 'demo.band'));
      }
    });

    it('binds a sandbox nonce to the reader who obtained it: another reader\'s checkout is refused and the nonce still works for its owner', async () => {
      const owner = await createReader(server);
      const thief = await createReader(server);
      const issued = await post(server, owner, '/payments/sandbox/nonce/', { method: 'paypal' });
      expect(issued.status).toBe(200);
      const { nonce } = issued.json() as { nonce: string };
      const stolen = await post(server, thief, '/my/purchase/checkout/', { pack: 'mega', method: 'paypal', nonce, next: '/' });
      expect(stolen.status).toBe(422);
      expect(stolen.text).toContain(message('en', 'purchase.error.nonce'));
      expect(await keysOf(server, thief)).toBe(0);
      const paid = await post(server, owner, '/my/purchase/checkout/', { pack: 'starter', method: 'paypal', nonce, next: '/' });
      expect(paid.status).toBe(303);
      expect(await keysOf(server, owner)).toBe(50);
    });

    it('a card subscription, trial or not, never starts on a nonce the provider did not issue to this reader', async () => {
      const reader = await createReader(server, { site: 'br' });
      const other = await createReader(server, { site: 'br' });
      const othersNonce = ((await post(server, other, '/payments/sandbox/nonce/', { method: 'card', number: '4111111111111111', expiry: EXPIRY, cvv: '123' }, 'br')).json() as { nonce: string }).nonce;
      for (const tier of ['teste', 'leitor']) {
        for (const nonce of ['made-up-nonce', othersNonce]) {
          const res = await post(server, reader, '/my/subscribe/card/', { tier_id: tier, method: 'card', nonce }, 'br');
          expect(res.status, `${tier} with ${nonce}`).toBe(422);
          expect(res.json()).toMatchObject({ success: false, error: 'nonce', message: message('pt-BR', 'purchase.error.nonce') });
        }
      }
      // A plan without a trial makes its subscription before the sale refuses the nonce; it never opened anything.
      const subs = await withDb(server, (db) => db.selectFrom('subscriptions').select(['state']).where('user_id', '=', reader.id).execute());
      for (const s of subs) expect(s).toMatchObject({ state: 'EXPIRED' });
      expect(await withDb(server, (db) => db.selectFrom('trial_uses').select('user_id').where('user_id', '=', reader.id).execute())).toEqual([]);
    });
  });

  describe(`production mode refuses to start when it is not safe (${dialect})`, () => {
    const server = useServer(dialect);
    const production = { INKPASS_MODE: 'production', INKPASS_SECRET: SECRET };

    it('on a database prepared as a demo (it holds demo accounts)', async () => {
      const r = await startOrRefuse(server, production);
      expect(r.code).toBe(1);
      expect(r.output).toMatch(/refusing to start: the database holds 2 demo account\(s\)/);
    });

    it('with a sandbox selected, or without a shared secret on PostgreSQL, or on an open address without INKPASS_MODE', async () => {
      const card = await startOrRefuse(server, { ...production, PAYMENTS_CARD: 'sandbox' });
      expect(card.code).toBe(1);
      expect(card.output).toContain('refusing to start: PAYMENTS_CARD=sandbox takes test cards');
      const pix = await startOrRefuse(server, { ...production, PAYMENTS_PIX: 'sandbox' });
      expect(pix.output).toContain('refusing to start: PAYMENTS_PIX=sandbox');
      const open = await startOrRefuse(server, { HOST: '0.0.0.0', INKPASS_MODE: '' });
      expect(open.code).toBe(1);
      expect(open.output).toContain('refusing to start: INKPASS_MODE is not set and HOST=0.0.0.0');
      if (dialect === 'postgres') {
        const secret = await startOrRefuse(server, { ...production, INKPASS_SECRET: '' });
        expect(secret.code).toBe(1);
        expect(secret.output).toContain('refusing to start: INKPASS_SECRET is not set while DATABASE_URL is PostgreSQL');
      }
    });

    it('`npm run doctor` says so, and exits 1', async () => {
      const r = await npmRun(server.databaseUrl, 'doctor', [], { INKPASS_MODE: 'production', PAYMENTS_CARD: 'sandbox' });
      expect(r.code).toBe(1);
      expect(r.stdout).toContain('a production server would refuse to start: PAYMENTS_CARD=sandbox');
      expect(r.stdout).toMatch(/a production server would refuse to start: the database holds 2 demo account/);
    });

    it('a demo may still be shown on an open address when it says so', async () => {
      const r = await startOrRefuse(server, { HOST: '0.0.0.0', INKPASS_MODE: 'demo' }, 60_000);
      expect(r.code).toBeNull();
      expect(r.output).toContain('[inkpass] DEMO mode');
    });
  });

  describe(`production mode without payment providers (${dialect})`, () => {
    let db: { url: string; drop(): Promise<void> } | undefined;
    let prod: ServerHandle | undefined;
    const env = { INKPASS_MODE: 'production', INKPASS_SECRET: SECRET };
    const client = (): ServerHandle => prod!;

    beforeAll(async () => {
      db = await preparedDatabase(dialect, env, { seed: true });
      prod = await startExtraServer({ dialect, databaseUrl: db.url }, env);
    }, 300_000);
    afterAll(async () => {
      await prod?.stop();
      await db?.drop();
    });

    it('prepares the database without demo accounts or demo coupons, and starts saying which mode it is in', async () => {
      const demo = await withDb({ databaseUrl: db!.url }, (d) => d.selectFrom('users').select('email').execute());
      expect(demo).toEqual([]);
      expect(await withDb({ databaseUrl: db!.url }, (d) => d.selectFrom('coupons').select('code').execute())).toEqual([]);
      expect(await withDb({ databaseUrl: db!.url }, (d) => d.selectFrom('key_packs').select('code').execute())).not.toEqual([]);
      expect(client().output()).toContain('[inkpass] production mode: no payment method configured');
    });

    it('`npm run doctor` finds nothing that would stop production, and says no method is offered', async () => {
      const r = await npmRun(db!.url, 'doctor', [], env);
      expect(r.code, r.stdout + r.stderr).toBe(0);
      expect(r.stdout).toContain('ok    production mode (INKPASS_MODE=production)');
      expect(r.stdout).toContain('production would offer no payment method');
      expect(r.stdout).toContain('ok    a production server would start');
    });

    it('shows no demo band, and the buy pages, the checkout and /plans/ say plainly that paying is unavailable', async () => {
      const reader = await createReader(client(), { site: 'br' });
      for (const site of ['en', 'br'] as const) {
        const locale = site === 'br' ? 'pt-BR' : 'en';
        const home = await client().request('/', { site });
        expect(markup(home.text)).not.toContain('demo-band');
        const buy = await client().request('/my/purchase/', { site, headers: { cookie: reader.cookie } });
        expect(buy.status).toBe(200);
        expect(buy.text).toContain(message(locale, 'purchase.unavailable'));
        expect(markup(buy.text)).not.toContain('shop-buy');
        const checkout = await client().request('/my/purchase/checkout/?pack=popular', { site, headers: { cookie: reader.cookie } });
        expect(checkout.text).toContain(message(locale, 'purchase.unavailable'));
        expect(markup(checkout.text)).not.toMatch(/checkout-form|card\.sandbox|4111/);
        const plans = await client().request('/plans/', { site, headers: { cookie: reader.cookie } });
        expect(plans.text).toContain(message(locale, 'plans.unavailable'));
        expect(markup(plans.text)).not.toMatch(/data-tier=/);
      }
    });

    it('offers no web push without VAPID keys: no push column or block in the settings, no key on the notify button, the subscription call is a 404', async () => {
      const reader = await createReader(client());
      const settings = await client().request('/my/notifications/settings/', { headers: { cookie: reader.cookie } });
      expect(settings.status).toBe(200);
      expect(settings.text).toContain('value="chapters.inbox"');
      expect(settings.text).not.toContain('value="chapters.push"');
      expect(settings.text).not.toContain('data-push-settings');
      expect(settings.text).not.toContain(message('en', 'push.quiet.title'));
      const [series] = await anySeries(client(), 1);
      const page = await client().request(`/comics/${series!.slug}/`, { headers: { cookie: reader.cookie } });
      expect(page.text).toContain('data-notify-button');
      expect(page.text).not.toContain('data-push-key');
      const sub = await client().request('/my/notifications/push/', {
        method: 'POST', body: JSON.stringify({ endpoint: 'https://fcm.googleapis.com/fcm/send/x', keys: { p256dh: Buffer.alloc(65, 4).toString('base64url'), auth: Buffer.alloc(16, 1).toString('base64url') } }),
        headers: { 'content-type': 'application/json', origin: client().origin(), 'sec-fetch-site': 'same-origin', cookie: reader.cookie },
      });
      expect(sub.status).toBe(404);
      expect(sub.json().detail).toBe(message('en', 'push.error.unavailable'));
      // Saving the settings keeps the push choices it did not show, for when the keys are set.
      await withDb({ databaseUrl: db!.url }, (d) => d.insertInto('notification_prefs').values({ user_id: reader.id, category: 'chapters', channel: 'push', enabled: 1 }).execute());
      expect((await post(client(), reader, '/my/notifications/settings/', { on: 'chapters.inbox', digest_was: 'off', digest: 'off' })).status).toBe(303);
      const prefs = await withDb({ databaseUrl: db!.url }, (d) => d.selectFrom('notification_prefs').select(['category', 'channel', 'enabled']).where('user_id', '=', reader.id).execute());
      expect(prefs.filter((p) => p.channel === 'push').map((p) => [p.category, Number(p.enabled)])).toEqual([['chapters', 1]]);
      expect(prefs.filter((p) => p.category === 'money' && p.channel === 'inbox').map((p) => Number(p.enabled))).toEqual([0]);
    });

    it('has no sandbox: no nonce route, no webhook, no `payments pay`, and no payment call grants keys or a subscription', async () => {
      const reader = await createReader(client(), { site: 'br' });
      expect((await post(client(), reader, '/payments/sandbox/nonce/', { method: 'paypal' })).status).toBe(404);
      expect((await post(client(), reader, '/payments/sandbox/nonce/', { method: 'card', number: '4111111111111111', expiry: EXPIRY, cvv: '123' }, 'br')).status).toBe(404);
      const calls = [
        await post(client(), reader, '/my/purchase/checkout/', { pack: 'mega', method: 'paypal', nonce: 'sandbox-anything', next: '/' }),
        await post(client(), reader, '/my/purchase/checkout/', { pack: 'mega', method: 'card', nonce: 'sandbox-anything', next: '/' }, 'br'),
        await post(client(), reader, '/my/purchase/pix/', { pack: 'mega' }, 'br'),
        await post(client(), reader, '/my/subscribe/card/', { tier_id: 'leitor', method: 'card', nonce: 'sandbox-anything' }, 'br'),
        await post(client(), reader, '/my/subscribe/pix/', { tier_id: 'leitor', pix_name: 'Maria Silva', pix_doc: '52998224725' }, 'br'),
      ];
      for (const c of calls) {
        expect(c.status, c.text.slice(0, 200)).toBeGreaterThanOrEqual(400);
        expect(c.status).toBeLessThan(500);
      }
      expect(calls[1]!.text).toContain(message('pt-BR', 'purchase.error.methodUnavailable'));
      const hook = await client().request('/webhooks/pix/', { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
      expect(hook.status).toBe(404);
      expect(await keysOf(client(), reader)).toBe(0);
      await withDb({ databaseUrl: db!.url }, async (d) => {
        expect(await d.selectFrom('orders').select('id').where('user_id', '=', reader.id).execute()).toEqual([]);
        expect(await d.selectFrom('subscriptions').select('id').where('user_id', '=', reader.id).execute()).toEqual([]);
      });
      const pay = await npmRun(db!.url, 'payments', ['pay', 'ordanything'], env);
      expect(pay.code).not.toBe(0);
      expect(pay.stderr + pay.stdout).toMatch(/sandbox|demo/i);
    });
  });
}

async function keysOf(server: { databaseUrl: string }, reader: Reader): Promise<number> {
  return withDb(server, async (db) => {
    const { balancesOf } = await import('~/features/wallet/index.server');
    return (await balancesOf(db, reader.id)).keys;
  });
}
