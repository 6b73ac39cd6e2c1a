/**
 * Buying keys over real HTTP on both databases (issue 14, docs/payments.md): the packs page, the
 * coupon box, card checkouts through the sandbox (success, decline, gateway rejection, used
 * nonces, tampered fields, replays, off-site `next`), Pix on the Portuguese site (BR Code, QR,
 * status polls, `npm run payments -- pay`, signed webhooks delivered many times at once, wrong
 * signatures, late and expired events), a single-use coupon raced by 50 readers on one and on two
 * server processes, other readers' orders, the purchase favorite star, the per-reader rate limit
 * and the reconciler after a crash between sale and confirmation.
 *
 * Every test ends with the keys audit passing: the ledger's invariants (auditLedger) and the
 * orders' (auditOrders: each paid order credited once by its own purchase transaction, coupon
 * counts equal to the orders holding them, closed orders gave their coupon back).
 */
import crypto from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { APP_CHECK_FIELD, APP_CHECK_HEADER } from '~/lib/app-check';
import { appCheckToken, createReader, htmlText, message, npmRun, selectedDialects, startExtraServer, useServer, withDb, type Reader, type ServerClient, type SiteName, type Run, type TestResponse } from './harness';

const now = () => Math.floor(Date.now() / 1000);
const hex = (n: number) => crypto.randomBytes(n).toString('hex');
const requestKey = () => `rk${hex(12)}`;
/** An expiry a few years ahead, as the sandbox widget's reader would type it. */
const EXPIRY = `12/${String((new Date().getUTCFullYear() + 4) % 100).padStart(2, '0')}`;
const CARDS = { visa: '4111111111111111', mastercard: '5555555555554444', declined: '4000111111111115' } as const;
/** Money text with Intl's non-breaking spaces made plain (pt-BR writes "R$\u00a039,90"). */
const plain = (s: string) => s.replace(/\s+/g, ' ').trim();


/** `npm run payments -- …args` on the server's database, as staff (or the sandbox payer) would type it. */
const payments = (server: { databaseUrl: string }, args: string[], env: Record<string, string> = {}): Promise<Run> => npmRun(server.databaseUrl, 'payments', args, env);

/** The text of the page's role="alert" (the checkout's refusal), or null. */
function alertText(html: string): string | null {
  const m = /role="alert"[^>]*>([\s\S]*?)<\/(?:div|p)>/.exec(html);
  return m ? htmlText(m[1]!) : null;
}

/** HMAC-SHA256 over the raw body, as a PSP (and the Pix sandbox) signs its deliveries. */
const sign = (body: Buffer, key: Buffer) => `sha256=${crypto.createHmac('sha256', key).update(body).digest('hex')}`;

interface ChargeRow { correlation_id: string; value: number; status: string; br_code: string; expires_at: number; payment_id: string | null }

/** A webhook body in the Woovi/OpenPix shape the sandbox delivers. */
function eventBody(c: ChargeRow, status: 'COMPLETED' | 'EXPIRED', paymentId = c.payment_id): Buffer {
  return Buffer.from(JSON.stringify({
    event: status === 'COMPLETED' ? 'OPENPIX:CHARGE_COMPLETED' : 'OPENPIX:CHARGE_EXPIRED',
    charge: { correlationID: c.correlation_id, value: Number(c.value), status, brCode: c.br_code, expiresDate: new Date(Number(c.expires_at) * 1000).toISOString() },
    pix: status === 'COMPLETED' && paymentId ? { endToEndId: paymentId, value: Number(c.value) } : null,
  }));
}

function statusCounts(answers: TestResponse[]): Record<number, number> {
  const out: Record<number, number> = {};
  for (const a of answers) out[a.status] = (out[a.status] ?? 0) + 1;
  return out;
}

for (const dialect of selectedDialects()) {
  describe(`buying keys (${dialect})`, () => {
    const server = useServer(dialect);

    const balances = (reader: Reader) => withDb(server, async (db) => (await import('~/features/wallet/index.server')).balancesOf(db, reader.id));
    const ordersOf = (reader: Reader) =>
      withDb(server, async (db) => (await db.selectFrom('orders').selectAll().where('user_id', '=', reader.id).orderBy('id').execute())
        .map((o) => ({ ...o, total: Number(o.total), discount: Number(o.discount), keys: Number(o.keys), xtra_keys: Number(o.xtra_keys), coupon_id: o.coupon_id == null ? null : Number(o.coupon_id) })));
    const orderById = async (publicId: string) => {
      const row = await withDb(server, (db) => db.selectFrom('orders').selectAll().where('public_id', '=', publicId).executeTakeFirstOrThrow());
      return { ...row, total: Number(row.total), keys: Number(row.keys), xtra_keys: Number(row.xtra_keys) };
    };
    /** Purchase transactions of the ledger for one order (its idempotency key is order:{id}). */
    const purchaseTxs = (publicId: string) =>
      withDb(server, (db) => db.selectFrom('ledger_transactions').select(['id', 'user_id']).where('kind', '=', 'purchase').where('idempotency_key', '=', `order:${publicId}`).execute());
    const paidEvents = (publicId: string) =>
      withDb(server, async (db) => {
        const o = await db.selectFrom('orders').select('id').where('public_id', '=', publicId).executeTakeFirstOrThrow();
        return (await db.selectFrom('order_events').selectAll().where('order_id', '=', o.id).where('state', '=', 'PAID').execute()).length;
      });
    const coupon = (code: string, siteId = 1) =>
      withDb(server, (db) => db.selectFrom('coupons').selectAll().where('site_id', '=', siteId).where('code', '=', code).executeTakeFirstOrThrow());
    const saveCoupon = (values: { site_id: number; code: string; percent_off?: number | null; xtra_keys?: number; max_redemptions?: number | null; per_reader_limit?: number }) =>
      withDb(server, async (db) => {
        const { saveCoupon: save } = await import('~/features/commerce/index.server');
        await save(db, { percent_off: null, amount_off: null, currency: null, xtra_keys: 0, starts_at: null, ends_at: null, max_redemptions: null, per_reader_limit: 1, active: 1, ...values }, now());
      });
    const charge = (correlationId: string) =>
      withDb(server, async (db) => (await db.selectFrom('sandbox_pix_charges').selectAll().where('correlation_id', '=', correlationId).executeTakeFirstOrThrow()) as ChargeRow);
    /**
     * The key the servers sign and check sandbox webhooks with, derived here exactly as they derive
     * it: the servers run from ROOT with this process's environment, so both read the same
     * INKPASS_SECRET or, as the harness sets none, the same generated {DATA_DIR}/secret.key. The
     * correctly signed deliveries below being accepted is what shows the two agree.
     */
    const webhookKey = async () => (await import('~/features/payments/sandbox.server')).sandboxWebhookKey();
    const audit = () =>
      withDb(server, async (db) => {
        const { auditLedger } = await import('~/features/wallet/index.server');
        const { auditOrders } = await import('~/features/commerce/index.server');
        return [...(await auditLedger(db)), ...(await auditOrders(db))];
      });

    /**
     * A form POST as the page's own scripts send it: same origin, the reader's session, and on the
     * money calls a bot-check token of its own, where the checkout island puts it: a hidden field
     * of the form it submits, the header of its Pix call.
     */
    const post = async (s: ServerClient, reader: Reader | null, path: string, fields: Record<string, string>, o: { site?: SiteName; headers?: Record<string, string> } = {}) => {
      const token = reader && (path === '/my/purchase/checkout/' || path === '/my/purchase/pix/') ? await appCheckToken(s, reader, o.site) : null;
      const form = token && path === '/my/purchase/checkout/' ? { ...fields, [APP_CHECK_FIELD]: token } : fields;
      return s.request(path, {
        site: o.site, method: 'POST', body: new URLSearchParams(form).toString(), timeoutMs: 60_000,
        headers: {
          'content-type': 'application/x-www-form-urlencoded', origin: s.origin(o.site), ...(reader ? { cookie: reader.cookie } : {}),
          ...(token && path === '/my/purchase/pix/' ? { [APP_CHECK_HEADER]: token } : {}), ...o.headers,
        },
      });
    };
    const couponBox = (reader: Reader | null, fields: Record<string, string>, o: { site?: SiteName; headers?: Record<string, string> } = {}) => post(server, reader, '/my/purchase/coupon/', fields, o);
    /** A single-use nonce for a test card from the sandbox widget's endpoint. */
    const nonceFor = async (reader: Reader, number: string = CARDS.visa, o: { cvv?: string; site?: SiteName; s?: ServerClient } = {}) => {
      const res = await post(o.s ?? server, reader, '/payments/sandbox/nonce/', { method: 'card', number, expiry: EXPIRY, cvv: o.cvv ?? '123' }, { site: o.site });
      expect(res.status, res.text).toBe(200);
      const body = res.json() as { nonce: string; brand: string; last4: string };
      expect(body.last4).toBe(number.slice(-4));
      return body.nonce;
    };
    const checkout = (reader: Reader, fields: Record<string, string>, o: { site?: SiteName; s?: ServerClient } = {}) =>
      post(o.s ?? server, reader, '/my/purchase/checkout/', { method: 'card', request_key: requestKey(), next: '/comics/', ...fields }, { site: o.site });
    const pixCharge = (reader: Reader, fields: Record<string, string>) => post(server, reader, '/my/purchase/pix/', fields, { site: 'br' });
    const pixStatus = (reader: Reader, id: string, site: SiteName = 'br') => server.request(`/my/purchase/pix/${id}/`, { site, headers: { cookie: reader.cookie } });
    const webhook = (body: Buffer, signature: string | null, s: ServerClient = server) =>
      s.request('/webhooks/pix/', { method: 'POST', body, headers: { 'content-type': 'application/json', ...(signature ? { 'x-inkpass-signature': signature } : {}) }, timeoutMs: 60_000 });
    /** Readers made through the sign-up form, four at a time (the per-address sign-up limit is five an hour; createReader resets it). */
    const readers = async (n: number, site: SiteName = 'en') => {
      const out: Reader[] = [];
      while (out.length < n) out.push(...(await Promise.all(Array.from({ length: Math.min(4, n - out.length) }, () => createReader(server, { site })))));
      return out;
    };

    afterEach(async () => {
      expect(await audit()).toEqual([]);
    });

    it('the packs page lists this site\'s packs in its currency and locale', async () => {
      const en = await createReader(server);
      const page = await server.request('/my/purchase/?next=%2Fcomics%2F', { headers: { cookie: en.cookie } });
      expect(page.status).toBe(200);
      const prices = [...page.text.matchAll(/class="shop-price"[^>]*>([^<]*)</g)].map((m) => plain(htmlText(m[1]!)));
      expect(prices).toEqual(['$4.99', '$9.99', '$19.99', '$49.99']);
      expect(page.text).toContain('/my/purchase/checkout/?pack=popular');
      expect(htmlText(page.text)).not.toMatch(/R\$/);

      const br = await createReader(server, { site: 'br' });
      const brPage = await server.request('/my/purchase/', { site: 'br', headers: { cookie: br.cookie } });
      expect(brPage.status).toBe(200);
      const brPrices = [...brPage.text.matchAll(/class="shop-price"[^>]*>([^<]*)</g)].map((m) => plain(htmlText(m[1]!)));
      expect(brPrices).toEqual(['R$ 19,90', 'R$ 39,90', 'R$ 79,90', 'R$ 199,90']);
      expect(htmlText(brPage.text)).not.toContain('$9.99');

      // The Pix error (spec section 8): its English text as the spec words it, kept for the day Pix
      // shows on the English site, and its Portuguese; each checkout's island carries its own.
      expect(message('en', 'checkout.pix.error')).toBe('Error retrieving data for PIX');
      const pixError = { en: message('en', 'checkout.pix.error'), br: message('pt-BR', 'checkout.pix.error') };
      expect(pixError.br).not.toBe(pixError.en);
      expect(pixError.br).toMatch(/Pix/);
      for (const [site, r, other] of [['en', en, 'br'], ['br', br, 'en']] as const) {
        const checkout = await server.request('/my/purchase/checkout/?pack=popular', { site, headers: { cookie: r.cookie } });
        expect(checkout.status, site).toBe(200);
        expect(checkout.text, site).toContain(pixError[site]);
        expect(checkout.text, site).not.toContain(pixError[other]);
      }

      // Signed out: to the login page, never the packs.
      const anonymous = await server.request('/my/purchase/');
      expect(anonymous.status).toBeGreaterThanOrEqual(300);
      expect(anonymous.status).toBeLessThan(400);
      expect(anonymous.headers.location).toMatch(/^\/auth\/login\//);
    });

    it('the coupon box answers discounts, bonuses and every refusal with its status and text', async () => {
      const reader = await createReader(server);
      const welcome = await couponBox(reader, { pack: 'popular', coupon: 'WELCOME10' });
      expect(welcome.status).toBe(200);
      expect(welcome.json()).toEqual({ checkout: { discount: { string: '$1.00' }, total: { string: '$8.99' } }, xtra_key_bonus: 0 });
      // Typed in lower case with spaces around: the same coupon.
      const typed = await couponBox(reader, { pack: 'popular', coupon: ' welcome10 ', next: '/comics/' });
      expect(typed.status).toBe(200);
      expect(typed.json().checkout.total.string).toBe('$8.99');
      const bonus = await couponBox(reader, { pack: 'popular', coupon: 'BONUS20' });
      expect(bonus.status).toBe(200);
      expect(bonus.json()).toEqual({ checkout: { discount: { string: '$0.00' }, total: { string: '$9.99' } }, xtra_key_bonus: 20 });

      const unknown = await couponBox(reader, { pack: 'popular', coupon: 'NOSUCHCOUPON' });
      expect([unknown.status, unknown.text]).toEqual([422, message('en', 'purchase.coupon.unknown')]);
      const brReader = await createReader(server, { site: 'br' });
      const unknownBr = await couponBox(brReader, { pack: 'popular', coupon: 'NOSUCHCOUPON' }, { site: 'br' });
      expect([unknownBr.status, unknownBr.text]).toEqual([422, message('pt-BR', 'purchase.coupon.unknown')]);
      const welcomeBr = await couponBox(brReader, { pack: 'popular', coupon: 'welcome10' }, { site: 'br' });
      expect(welcomeBr.status).toBe(200);
      expect({ discount: plain(welcomeBr.json().checkout.discount.string), total: plain(welcomeBr.json().checkout.total.string) }).toEqual({ discount: 'R$ 3,99', total: 'R$ 35,91' });

      for (const bad of ['AB', '<script>', 'WELCOME 10', 'x'.repeat(40)]) {
        const res = await couponBox(reader, { pack: 'popular', coupon: bad });
        expect([res.status, res.text], bad).toEqual([422, message('en', 'purchase.coupon.invalid')]);
        expect(res.text).not.toContain('<');
      }

      // A pack this site does not sell, including one the other site does sell.
      const brOnly = `br-only-${hex(3)}`;
      await withDb(server, async (db) => (await import('~/features/commerce/index.server')).savePack(db, { site_id: 3, code: brOnly, currency: 'BRL', price: 990, keys: 20, xtra_keys: 0, position: 9, active: 1 }, now()));
      try {
        for (const pack of ['nosuchpack', brOnly, '', 'POPULAR', '1']) {
          const res = await couponBox(reader, { pack, coupon: 'WELCOME10' });
          expect([res.status, res.text], pack).toEqual([404, message('en', 'purchase.error.pack')]);
        }
        expect((await couponBox(brReader, { pack: brOnly, coupon: 'WELCOME10' }, { site: 'br' })).status).toBe(200);
        expect((await server.request(`/my/purchase/checkout/?pack=${brOnly}`, { headers: { cookie: reader.cookie } })).status).toBe(404);
      } finally {
        await withDb(server, (db) => db.deleteFrom('key_packs').where('code', '=', brOnly).execute());
      }

      // Signed out, and from another origin (a page elsewhere, or the other language's site).
      const signedOut = await couponBox(null, { pack: 'popular', coupon: 'WELCOME10' });
      expect([signedOut.status, signedOut.text]).toEqual([401, message('en', 'purchase.error.login')]);
      for (const headers of [{ origin: 'http://evil.example' }, { origin: server.origin('br') }, { 'sec-fetch-site': 'cross-site' }] as Record<string, string>[]) {
        expect((await couponBox(reader, { pack: 'popular', coupon: 'WELCOME10' }, { headers })).status, JSON.stringify(headers)).toBe(403);
      }

      // Used by this reader already (a paid order holds it): 409.
      const paid = await checkout(reader, { pack: 'starter', coupon: 'WELCOME10', nonce: await nonceFor(reader) });
      expect(paid.status).toBe(303);
      const again = await couponBox(reader, { pack: 'popular', coupon: 'WELCOME10' });
      expect([again.status, again.text]).toEqual([409, message('en', 'purchase.coupon.readerLimit')]);
      // Used up by someone else: 409.
      const code = `ONE${hex(4).toUpperCase()}`;
      await saveCoupon({ site_id: 1, code, percent_off: 10, max_redemptions: 1 });
      const other = await createReader(server);
      expect((await checkout(other, { pack: 'starter', coupon: code, nonce: await nonceFor(other) })).status).toBe(303);
      const usedUp = await couponBox(reader, { pack: 'popular', coupon: code });
      expect([usedUp.status, usedUp.text]).toEqual([409, message('en', 'purchase.coupon.usedUp')]);
      expect(Number((await coupon(code)).redemptions)).toBe(1);
    });

    it('a card purchase with a coupon credits the pack once, lands on next, and ignores replays and tampered fields', async () => {
      const reader = await createReader(server);
      expect(await balances(reader)).toEqual({ keys: 0, xtra: 0 });
      const nonce = await nonceFor(reader);
      const form = {
        pack: 'popular', coupon: 'WELCOME10', method: 'card', nonce, device_data: '{"device_session_id":"x"}', next: '/comics/', request_key: requestKey(),
        // Tampering: none of these is read; the server computes the amount.
        price: '1', total: '1', currency: 'BRL', keys: '99999', xtra_keys: '99999', amount: '0.01', discount: '999',
      };
      const res = await post(server, reader, '/my/purchase/checkout/', form);
      expect(res.status, alertText(res.text) ?? '').toBe(303);
      expect(await balances(reader)).toEqual({ keys: 100, xtra: 10 });
      const [order, ...more] = await ordersOf(reader);
      // Back on next, with the order for its receipt moment.
      expect(res.headers.location).toBe(`/comics/?paid=${order!.public_id}`);
      expect(more).toEqual([]);
      // The reader's inbox tells of the payment once (issue 32, written in the payment's transaction).
      const told = await withDb(server, (db) => db.selectFrom('notifications').select(['kind', 'category', 'data']).where('user_id', '=', reader.id).execute());
      expect(told).toEqual([{ kind: 'PAYMENT_PAID', category: 'money', data: JSON.stringify({ id: order!.public_id, amount: 899, currency: 'USD' }) }]);
      expect(order).toMatchObject({ state: 'PAID', currency: 'USD', subtotal: 999, discount: 100, total: 899, keys: 100, xtra_keys: 10, method: 'card', card_brand: 'Visa', card_last4: '1111' });
      const sale = await withDb(server, (db) => db.selectFrom('sandbox_card_nonces').selectAll().where('nonce', '=', nonce).executeTakeFirstOrThrow());
      expect({ amount: Number(sale.amount), currency: sale.currency, order: sale.order_id }).toEqual({ amount: 899, currency: 'USD', order: order!.public_id });
      expect(await purchaseTxs(order!.public_id)).toHaveLength(1);

      // The reader's purchases list it.
      const list = await server.request('/my/purchases/', { headers: { cookie: reader.cookie } });
      expect(list.status).toBe(200);
      const row = new RegExp(`data-order="${order!.public_id}"[\\s\\S]*?</li>`).exec(list.text)?.[0] ?? '';
      const rowText = plain(htmlText(`<li ${row}`));
      expect(rowText).toContain('$8.99');
      expect(rowText).toContain(message('en', 'purchases.state.paid'));
      expect(rowText).toContain(message('en', 'purchase.keysCount', { n: 100 }));
      expect(rowText).toContain('Visa •••• 1111');

      // The same form again (a double click, a back-and-resend): the first order's answer, nothing more.
      const replay = await post(server, reader, '/my/purchase/checkout/', form);
      expect([replay.status, replay.headers.location]).toEqual([303, `/comics/?paid=${order!.public_id}`]);
      expect(await withDb(server, (db) => db.selectFrom('notifications').select('id').where('user_id', '=', reader.id).execute())).toHaveLength(1);
      expect(await balances(reader)).toEqual({ keys: 100, xtra: 10 });
      expect(await ordersOf(reader)).toHaveLength(1);

      // next off-site: a fresh purchase and replays of it all land on a local path.
      const starter = { pack: 'starter', method: 'card', nonce: await nonceFor(reader), request_key: requestKey() };
      const evil = await post(server, reader, '/my/purchase/checkout/', { ...starter, next: '//evil.example' });
      expect(evil.status).toBe(303);
      for (const next of ['//evil.example', 'https://evil.example', '/\\evil.example', '/%2e%2e//evil.example', 'javascript:alert(1)']) {
        const r = next === '//evil.example' ? evil : await post(server, reader, '/my/purchase/checkout/', { ...starter, next });
        expect(r.status, next).toBe(303);
        expect(r.headers.location, next).toMatch(/^\/(?![/\\])/);
        expect(r.headers.location, next).not.toContain('evil');
      }
      expect(await balances(reader)).toEqual({ keys: 150, xtra: 10 });
      expect(await ordersOf(reader)).toHaveLength(2);
    });

    it('refusals: a declined card, a gateway rejection, used and fake nonces, no method, an invalid coupon; nothing credited, coupons given back', async () => {
      const reader = await createReader(server);
      const declined = await checkout(reader, { pack: 'popular', coupon: 'WELCOME10', nonce: await nonceFor(reader, CARDS.declined) });
      expect(declined.status).toBe(402);
      expect(alertText(declined.text)).toContain(message('en', 'purchase.error.declined'));
      expect(await balances(reader)).toEqual({ keys: 0, xtra: 0 });
      const [failed] = await ordersOf(reader);
      expect(failed).toMatchObject({ state: 'FAILED', total: 899 });
      // The coupon the declined order held is the reader's again.
      expect((await couponBox(reader, { pack: 'popular', coupon: 'WELCOME10' })).status).toBe(200);

      const rejected = await checkout(reader, { pack: 'popular', coupon: 'WELCOME10', nonce: await nonceFor(reader, CARDS.mastercard, { cvv: '200' }) });
      expect(rejected.status).toBe(402);
      expect(alertText(rejected.text)).toContain(message('en', 'purchase.error.rejected'));
      expect(await balances(reader)).toEqual({ keys: 0, xtra: 0 });

      // In Portuguese on the Brazilian site.
      const brReader = await createReader(server, { site: 'br' });
      const declinedBr = await checkout(brReader, { pack: 'popular', nonce: await nonceFor(brReader, CARDS.declined, { site: 'br' }) }, { site: 'br' });
      expect(declinedBr.status).toBe(402);
      expect(alertText(declinedBr.text)).toContain(message('pt-BR', 'purchase.error.declined'));
      expect(await balances(brReader)).toEqual({ keys: 0, xtra: 0 });

      // A nonce is good for one sale: a used one, or the gateway's consumed test nonce, is 422.
      const good = await nonceFor(reader);
      const ok = await checkout(reader, { pack: 'starter', coupon: 'WELCOME10', nonce: good });
      expect(ok.status, alertText(ok.text) ?? '').toBe(303);
      expect(await balances(reader)).toEqual({ keys: 50, xtra: 0 });
      expect((await ordersOf(reader)).at(-1)).toMatchObject({ state: 'PAID', total: 449 });
      // A nonce past its lifetime (gateways' nonces last a few hours) is refused like a used one.
      const stale = await nonceFor(reader);
      await withDb(server, (db) => db.updateTable('sandbox_card_nonces').set({ created_at: now() - 4 * 3600 }).where('nonce', '=', stale).execute());
      for (const nonce of [good, 'fake-consumed-nonce', stale, 'sandbox-00000000000000000000000000000000', 'x'.repeat(5000)]) {
        const res = await checkout(reader, { pack: 'value', nonce });
        expect(res.status, nonce.slice(0, 40)).toBe(422);
        expect(alertText(res.text)).toContain(message('en', nonce.length > 4096 ? 'purchase.error.method' : 'purchase.error.nonce'));
      }
      expect(await balances(reader)).toEqual({ keys: 50, xtra: 0 });

      const noMethod = await checkout(reader, { pack: 'popular', method: '', nonce: await nonceFor(reader) });
      expect(noMethod.status).toBe(422);
      expect(alertText(noMethod.text)).toContain(message('en', 'purchase.error.method'));
      for (const method of ['bitcoin', 'CARD']) {
        const res = await checkout(reader, { pack: 'popular', method, nonce: 'whatever' });
        expect(res.status, method).toBe(422);
        expect(alertText(res.text), method).toContain(message('en', 'purchase.error.method'));
      }
      const noNonce = await checkout(reader, { pack: 'popular', nonce: '' });
      expect(alertText(noNonce.text)).toContain(message('en', 'purchase.error.method'));
      const badCoupon = await checkout(reader, { pack: 'popular', coupon: 'welcome 10!', nonce: await nonceFor(reader) });
      expect(badCoupon.status).toBe(422);
      expect(alertText(badCoupon.text)).toContain(message('en', 'purchase.error.couponNotApplied'));
      const unknownPack = await checkout(reader, { pack: 'giga', nonce: await nonceFor(reader) });
      expect(unknownPack.status).toBe(404);
      expect(alertText(unknownPack.text)).toContain(message('en', 'purchase.error.pack'));
      expect(await balances(reader)).toEqual({ keys: 50, xtra: 0 });
      // Declined, rejected, paid, then the four used, expired or unknown nonces; the rest never made an order.
      expect((await ordersOf(reader)).map((o) => o.state)).toEqual(['FAILED', 'FAILED', 'PAID', 'FAILED', 'FAILED', 'FAILED', 'FAILED']);
      // Signed out: to the login page, nothing sold.
      const anonymous = await server.request('/my/purchase/checkout/', { method: 'POST', body: new URLSearchParams({ pack: 'popular', method: 'card', nonce: await nonceFor(reader) }).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.origin() } });
      expect(anonymous.status).toBe(303);
      expect(anonymous.headers.location).toMatch(/^\/auth\/login\//);
    });

    it('double submits at once: the same form five times, one nonce in five forms, one coupon in ten: each pays once', { timeout: 60_000 }, async () => {
      const reader = await createReader(server);
      // The same form (one request key) sent five times at once: one order, one sale, one credit.
      const form = { pack: 'popular', method: 'card', nonce: await nonceFor(reader), request_key: requestKey(), next: '/comics/' };
      const same = await Promise.all(Array.from({ length: 5 }, () => post(server, reader, '/my/purchase/checkout/', form)));
      expect(same.every((a) => a.status === 303 || a.status === 409), same.map((a) => a.status).join()).toBe(true);
      expect(same.some((a) => a.status === 303)).toBe(true);
      for (const a of same.filter((x) => x.status === 409)) expect(alertText(a.text)).toContain(message('en', 'purchase.error.pending'));
      expect(await ordersOf(reader)).toHaveLength(1);
      expect(await balances(reader)).toEqual({ keys: 100, xtra: 10 });
      // Now paid, the same form answers as the first did.
      expect((await post(server, reader, '/my/purchase/checkout/', form)).status).toBe(303);

      // One nonce in five different forms at once: the gateway takes it once.
      const nonce = await nonceFor(reader);
      const shared = await Promise.all(Array.from({ length: 5 }, () => checkout(reader, { pack: 'starter', nonce })));
      expect(statusCounts(shared)).toEqual({ 303: 1, 422: 4 });
      expect(await balances(reader)).toEqual({ keys: 150, xtra: 10 });

      // A once-per-reader coupon in ten forms at once, each with its own nonce: held and paid once.
      const before = Number((await coupon('WELCOME10')).redemptions);
      const nonces = await Promise.all(Array.from({ length: 10 }, () => nonceFor(reader)));
      const raced = await Promise.all(nonces.map((n) => checkout(reader, { pack: 'popular', coupon: 'WELCOME10', nonce: n })));
      expect(statusCounts(raced)).toEqual({ 303: 1, 409: 9 });
      for (const a of raced.filter((x) => x.status === 409)) expect(alertText(a.text)).toContain(message('en', 'purchase.coupon.readerLimit'));
      expect(Number((await coupon('WELCOME10')).redemptions)).toBe(before + 1);
      expect(await balances(reader)).toEqual({ keys: 250, xtra: 20 });
      expect((await ordersOf(reader)).filter((o) => o.state === 'PAID').map((o) => o.total)).toEqual([999, 499, 899]);
    });

    it('a new Pix charge closes the one the reader abandoned, at the PSP too: it can no longer be paid and gives its coupon use back', async () => {
      const reader = await createReader(server, { site: 'br' });
      const first = await pixCharge(reader, { pack: 'popular', coupon: 'WELCOME10', request_key: requestKey() });
      expect(first.status, first.text).toBe(200);
      const abandoned = (first.json() as { checkout: { correlationID: string } }).checkout.correlationID;
      // The same once-per-reader coupon on the new charge: the abandoned order gave its use back first.
      const second = await pixCharge(reader, { pack: 'starter', coupon: 'WELCOME10', request_key: requestKey() });
      expect(second.status, second.text).toBe(200);
      expect(await orderById(abandoned)).toMatchObject({ state: 'EXPIRED' });
      const late = await payments(server, ['pay', abandoned, '--url', `http://127.0.0.1:${server.port}`]);
      expect(late.code).not.toBe(0);
      expect(await balances(reader)).toEqual({ keys: 0, xtra: 0 });
      expect((await pixStatus(reader, abandoned)).json()).toEqual({ status: 'EXPIRED', paid: false });
    });

    it('Pix on the Portuguese site: a valid BR Code for the order\'s total, paid with `npm run payments -- pay`, credited once', async () => {
      const reader = await createReader(server, { site: 'br' });
      const res = await pixCharge(reader, { pack: 'popular', coupon: 'WELCOME10', request_key: requestKey() });
      expect(res.status, res.text).toBe(200);
      const body = res.json() as { checkout: { correlationID: string; total: { string: string } }; brcode: string; qr_svg: string; expires_at: string };
      const id = body.checkout.correlationID;
      expect(plain(body.checkout.total.string)).toBe('R$ 35,91');
      const order = await orderById(id);
      expect(order).toMatchObject({ state: 'PENDING', total: 3591, currency: 'BRL', method: 'pix' });
      const { parseBrCode } = await import('~/features/payments/index.server');
      const parsed = parseBrCode(body.brcode);
      expect(parsed.ok, JSON.stringify(parsed)).toBe(true);
      if (parsed.ok) {
        expect(parsed.fields.amount).toBe(3591);
        expect(parsed.fields.txid).toBe(id.slice(0, 25));
      }
      // The CRC covers every character: one changed is caught.
      const altered = body.brcode.replace('5303986', '5303987');
      expect(parseBrCode(altered)).toMatchObject({ ok: false, reason: 'crc' });
      expect(body.qr_svg.startsWith('<svg')).toBe(true);
      expect(Date.parse(body.expires_at) / 1000).toBeGreaterThan(now());

      const pending = await pixStatus(reader, id);
      expect([pending.status, pending.json()]).toEqual([200, { status: 'PENDING', paid: false }]);
      // Not paid yet: the form cannot finish.
      const early = await checkout(reader, { method: 'pix', nonce: id, pack: 'popular' }, { site: 'br' });
      expect(early.status).toBe(409);
      expect(alertText(early.text)).toContain(message('pt-BR', 'purchase.error.notPaid'));

      const pay = await payments(server, ['pay', id, '--url', `http://127.0.0.1:${server.port}`]);
      expect(pay.code, pay.stdout + pay.stderr).toBe(0);
      expect(pay.stdout).toContain('HTTP 200');
      // The webhook confirmed it (before any poll): PAID in the database, keys and Xtra keys credited.
      expect(await orderById(id)).toMatchObject({ state: 'PAID' });
      expect(await balances(reader)).toEqual({ keys: 100, xtra: 10 });
      const paid = await pixStatus(reader, id);
      expect(paid.json()).toEqual({ status: 'PAID', paid: true });
      const done = await checkout(reader, { method: 'pix', nonce: id, pack: 'popular', next: '/comics/' }, { site: 'br' });
      expect([done.status, done.headers.location]).toEqual([303, `/comics/?paid=${id}`]);

      // Paying again delivers the webhook again (as a PSP retries): still credited once.
      const again = await payments(server, ['pay', id, '--url', `http://127.0.0.1:${server.port}`]);
      expect(again.code, again.stdout + again.stderr).toBe(0);
      expect(again.stdout).toContain('Already paid');
      expect(await balances(reader)).toEqual({ keys: 100, xtra: 10 });
      expect(await purchaseTxs(id)).toHaveLength(1);

      // Pix on the English site is refused, and makes no order.
      const en = await createReader(server);
      const onEn = await post(server, en, '/my/purchase/pix/', { pack: 'popular' });
      expect([onEn.status, onEn.text]).toEqual([422, message('en', 'purchase.error.pixOnly')]);
      expect(await ordersOf(en)).toEqual([]);
    });

    it('the same webhook 5 times at once while the status is polled credits once; bad signatures are 401 and change nothing', { timeout: 60_000 }, async () => {
      const key = await webhookKey();
      const reader = await createReader(server, { site: 'br' });
      const res = await pixCharge(reader, { pack: 'popular' });
      expect(res.status, res.text).toBe(200);
      const id = (res.json() as { checkout: { correlationID: string } }).checkout.correlationID;
      // The payer pays at the PSP; its webhook has not arrived yet.
      await withDb(server, async (db) => (await import('~/features/payments/sandbox.server')).paySandboxCharge(db, id, now()));
      const paidCharge = await charge(id);
      expect(paidCharge.status).toBe('COMPLETED');
      const body = eventBody(paidCharge, 'COMPLETED');

      const oneByteChanged = Buffer.from(body);
      const at = body.indexOf('"brCode":"') + '"brCode":"'.length;
      oneByteChanged[at] = oneByteChanged[at] === 0x30 ? 0x31 : 0x30;
      const forged: [string, Buffer, string | null][] = [
        ['no signature', body, null],
        ['a signature with another key', body, sign(body, crypto.randomBytes(32))],
        ['a malformed signature', body, 'sha256=zz'],
        ['the signature of another body', body, sign(Buffer.from('{}'), key)],
        ['a body changed by one byte', oneByteChanged, sign(body, key)],
      ];
      for (const [what, b, signature] of forged) {
        const r = await webhook(b, signature);
        expect(r.status, what).toBe(401);
      }
      expect(await orderById(id)).toMatchObject({ state: 'PENDING' });
      expect(await balances(reader)).toEqual({ keys: 0, xtra: 0 });
      // Correctly signed, but for less than the order's total: recorded, never credited.
      const short = eventBody({ ...paidCharge, value: Number(paidCharge.value) - 1 }, 'COMPLETED');
      const shortRes = await webhook(short, sign(short, key));
      expect([shortRes.status, shortRes.json()]).toEqual([200, { ok: true, result: 'mismatch' }]);
      expect(await orderById(id)).toMatchObject({ state: 'PENDING' });
      expect(await balances(reader)).toEqual({ keys: 0, xtra: 0 });

      const answers = await Promise.all([
        ...Array.from({ length: 5 }, () => webhook(body, sign(body, key))),
        ...Array.from({ length: 5 }, () => pixStatus(reader, id)),
      ]);
      expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
      const results = answers.slice(0, 5).map((a) => a.json().result as string);
      expect(results.every((r) => r === 'paid' || r === 'already'), results.join()).toBe(true);
      for (const poll of answers.slice(5)) expect(poll.json()).toEqual({ status: 'PAID', paid: true });
      expect(await balances(reader)).toEqual({ keys: 100, xtra: 10 });
      const txs = await purchaseTxs(id);
      expect(txs).toHaveLength(1);
      expect(Number(txs[0]!.user_id)).toBe(reader.id);
      expect(await paidEvents(id)).toBe(1);
      expect(await orderById(id)).toMatchObject({ state: 'PAID', payment_id: paidCharge.payment_id });

      // A signed event about a charge that is not ours: acknowledged, ignored.
      const stranger = eventBody({ ...paidCharge, correlation_id: `ord${hex(12)}` }, 'COMPLETED');
      const ignored = await webhook(stranger, sign(stranger, key));
      expect([ignored.status, ignored.json()]).toEqual([200, { ok: true, ignored: true }]);
      expect(await balances(reader)).toEqual({ keys: 100, xtra: 10 });
    });

    it('a signed webhook whose ids are not ids (a NUL in the correlationID or the end-to-end id) is acknowledged and ignored, never a 500', { timeout: 60_000 }, async () => {
      const key = await webhookKey();
      const reader = await createReader(server, { site: 'br' });
      const res = await pixCharge(reader, { pack: 'popular' });
      expect(res.status, res.text).toBe(200);
      const id = (res.json() as { checkout: { correlationID: string } }).checkout.correlationID;
      await withDb(server, async (db) => (await import('~/features/payments/sandbox.server')).paySandboxCharge(db, id, now()));
      const paid = await charge(id);
      const deliveries: [string, Buffer][] = [
        ['a NUL in the correlationID', eventBody({ ...paid, correlation_id: `${id}\u0000` }, 'COMPLETED')],
        ['a correlationID that is only a NUL', eventBody({ ...paid, correlation_id: '\u0000' }, 'EXPIRED')],
        ['a NUL in the end-to-end id', eventBody(paid, 'COMPLETED', `${paid.payment_id}\u0000`)],
        ['a correlationID of 5,000 characters', eventBody({ ...paid, correlation_id: `${id}${'x'.repeat(5000)}` }, 'COMPLETED')],
        ['markup for an end-to-end id', eventBody(paid, 'COMPLETED', '<script>alert(1)</script>')],
        ['a body that is not JSON', Buffer.from('{"event":"OPENPIX:CHARGE_COMPLETED",')],
      ];
      for (const [what, body] of deliveries) {
        // Signed with the server's own key: only the ids are wrong.
        const answer = await webhook(body, sign(body, key));
        expect([answer.status, answer.json()], what).toEqual([200, { ok: true, ignored: true }]);
      }
      expect(await orderById(id)).toMatchObject({ state: 'PENDING' });
      expect(await balances(reader)).toEqual({ keys: 0, xtra: 0 });
      // The well-formed delivery still confirms it.
      const good = eventBody(paid, 'COMPLETED');
      const confirmed = await webhook(good, sign(good, key));
      expect([confirmed.status, confirmed.json()]).toEqual([200, { ok: true, result: 'paid' }]);
      expect(await balances(reader)).toEqual({ keys: 100, xtra: 10 });
    });

    it('a late EXPIRED never undoes PAID, and an expired charge never credits', { timeout: 60_000 }, async () => {
      const key = await webhookKey();
      const reader = await createReader(server, { site: 'br' });
      const first = await pixCharge(reader, { pack: 'starter' });
      const paidId = (first.json() as { checkout: { correlationID: string } }).checkout.correlationID;
      const pay = await payments(server, ['pay', paidId, '--url', `http://127.0.0.1:${server.port}`]);
      expect(pay.code, pay.stdout + pay.stderr).toBe(0);
      expect(await balances(reader)).toEqual({ keys: 50, xtra: 0 });
      const late = eventBody(await charge(paidId), 'EXPIRED');
      const lateRes = await webhook(late, sign(late, key));
      expect([lateRes.status, lateRes.json()]).toEqual([200, { ok: true, state: 'PAID' }]);
      expect(await orderById(paidId)).toMatchObject({ state: 'PAID' });
      expect((await pixStatus(reader, paidId)).json()).toEqual({ status: 'PAID', paid: true });
      expect(await balances(reader)).toEqual({ keys: 50, xtra: 0 });

      // A charge (with a coupon) that runs out at the PSP before anyone pays.
      const second = await pixCharge(reader, { pack: 'popular', coupon: 'BONUS20' });
      expect(second.status, second.text).toBe(200);
      const id = (second.json() as { checkout: { correlationID: string } }).checkout.correlationID;
      expect(await orderById(id)).toMatchObject({ state: 'PENDING', xtra_keys: 30 });
      await withDb(server, (db) => db.updateTable('sandbox_pix_charges').set({ expires_at: now() - 5 }).where('correlation_id', '=', id).execute());
      const expired = await pixStatus(reader, id);
      expect([expired.status, expired.json()]).toEqual([200, { status: 'EXPIRED', paid: false }]);
      expect(await orderById(id)).toMatchObject({ state: 'EXPIRED' });
      const tooLate = await payments(server, ['pay', id, '--url', `http://127.0.0.1:${server.port}`]);
      expect(tooLate.code).toBe(1);
      expect(tooLate.stderr).toContain('EXPIRED');
      // Even a correctly signed COMPLETED event for it (a PSP's mistake, or a replay) credits nothing.
      const completed = eventBody({ ...(await charge(id)), payment_id: `E2E${hex(12).toUpperCase()}` }, 'COMPLETED');
      const after = await webhook(completed, sign(completed, key));
      expect([after.status, after.json()]).toEqual([200, { ok: true, result: 'closed' }]);
      expect(await orderById(id)).toMatchObject({ state: 'EXPIRED' });
      expect(await purchaseTxs(id)).toEqual([]);
      expect(await balances(reader)).toEqual({ keys: 50, xtra: 0 });
      const finish = await checkout(reader, { method: 'pix', nonce: id, pack: 'popular' }, { site: 'br' });
      expect(finish.status).toBe(409);
      expect(alertText(finish.text)).toContain(message('pt-BR', 'purchase.error.expired'));
      // The expired order gave its coupon back.
      expect((await couponBox(reader, { pack: 'popular', coupon: 'BONUS20' }, { site: 'br' })).status).toBe(200);
    });

    it('a single-use coupon raced by 50 readers is redeemed once, on one server process and over two', { timeout: 240_000 }, async () => {
      const race = async (servers: ServerClient[]) => {
        const code = `ONCE${hex(4).toUpperCase()}`;
        await saveCoupon({ site_id: 1, code, percent_off: 10, max_redemptions: 1 });
        const racers = await readers(50);
        const nonces = await Promise.all(racers.map((r, i) => nonceFor(r, CARDS.visa, { s: servers[i % servers.length] })));
        const answers = await Promise.all(racers.map((r, i) => checkout(r, { pack: 'popular', coupon: code, nonce: nonces[i]! }, { s: servers[i % servers.length] })));
        expect(statusCounts(answers)).toEqual({ 303: 1, 409: 49 });
        for (const a of answers.filter((x) => x.status === 409)) expect(alertText(a.text)).toContain(message('en', 'purchase.coupon.usedUp'));
        const winner = racers[answers.findIndex((a) => a.status === 303)]!;
        const c = await coupon(code);
        expect(Number(c.redemptions)).toBe(1);
        const holding = await withDb(server, (db) => db.selectFrom('orders').select(['user_id', 'state', 'total']).where('coupon_id', '=', c.id).execute());
        expect(holding.map((o) => ({ user: Number(o.user_id), state: o.state, total: Number(o.total) }))).toEqual([{ user: winner.id, state: 'PAID', total: 899 }]);
        expect(await balances(winner)).toEqual({ keys: 100, xtra: 10 });
        const credited = await Promise.all(racers.filter((r) => r !== winner).map((r) => balances(r)));
        expect(credited.every((b) => b.keys === 0 && b.xtra === 0)).toBe(true);
      };
      await race([server]);
      const second = await startExtraServer(server);
      try {
        await race([server, second]);
      } finally {
        await second.stop();
      }
    });

    it('another reader\'s order is 404 everywhere: status, favorite star and finishing the checkout with it', async () => {
      const owner = await createReader(server, { site: 'br' });
      const res = await pixCharge(owner, { pack: 'starter' });
      const id = (res.json() as { checkout: { correlationID: string } }).checkout.correlationID;
      const intruder = await createReader(server, { site: 'br' });
      const status = await pixStatus(intruder, id);
      expect([status.status, status.json().detail]).toEqual([404, message('pt-BR', 'purchase.error.order')]);
      for (const method of ['POST', 'DELETE']) {
        const star = await server.request(`/api/purchases/${id}/favorite/`, { site: 'br', method, headers: { origin: server.origin('br'), cookie: intruder.cookie } });
        expect(star.status, method).toBe(404);
      }
      const steal = await checkout(intruder, { method: 'pix', nonce: id, pack: 'starter' }, { site: 'br' });
      expect(steal.status).toBe(404);
      expect(alertText(steal.text)).toContain(message('pt-BR', 'purchase.error.order'));
      // Signed out: 401, and the owner's own view is unchanged.
      expect((await server.request(`/my/purchase/pix/${id}/`, { site: 'br' })).status).toBe(401);
      expect((await pixStatus(owner, id)).json()).toEqual({ status: 'PENDING', paid: false });
      expect(await withDb(server, (db) => db.selectFrom('pack_favorites').select('pack_id').where('user_id', 'in', [owner.id, intruder.id]).execute())).toEqual([]);
    });

    it('the purchase favorite star puts its pack first on the packs page, and DELETE takes it off', async () => {
      const reader = await createReader(server);
      expect((await checkout(reader, { pack: 'value', nonce: await nonceFor(reader) })).status).toBe(303);
      const [order] = await ordersOf(reader);
      const star = (method: string) => server.request(`/api/purchases/${order!.public_id}/favorite/`, { method, headers: { origin: server.origin(), cookie: reader.cookie } });
      const firstPack = async () => {
        const page = await server.request('/my/purchase/', { headers: { cookie: reader.cookie } });
        const li = /<li class="shop-pack[^"]*"[^>]*>([\s\S]*?)<\/li>/.exec(page.text);
        return { favorite: /is-favorite/.test(li?.[0] ?? ''), text: plain(htmlText(li?.[1] ?? '')) };
      };
      expect((await firstPack()).text).toContain('$4.99');
      const on = await star('POST');
      expect([on.status, on.json()]).toEqual([200, { favorited: true }]);
      const fav = await firstPack();
      expect(fav.favorite).toBe(true);
      expect(fav.text).toContain(message('en', 'purchase.favorite'));
      expect(fav.text).toContain('$19.99');
      const list = await server.request('/my/purchases/', { headers: { cookie: reader.cookie } });
      expect(list.text).toMatch(new RegExp(`data-endpoint="/api/purchases/${order!.public_id}/favorite/"[^>]*aria-pressed="true"`));
      const off = await star('DELETE');
      expect([off.status, off.json()]).toEqual([200, { favorited: false }]);
      expect(await firstPack()).toMatchObject({ favorite: false });
      expect((await firstPack()).text).toContain('$4.99');
      // From another origin: refused.
      const cross = await server.request(`/api/purchases/${order!.public_id}/favorite/`, { method: 'POST', headers: { origin: 'http://evil.example', cookie: reader.cookie } });
      expect(cross.status).toBe(403);
      expect(await firstPack()).toMatchObject({ favorite: false });
    });

    it('more than 40 payment calls in 10 minutes from one reader are 429 with Retry-After', async () => {
      const reader = await createReader(server);
      try {
        const answers = [];
        for (let i = 0; i < 40; i++) answers.push(await couponBox(reader, { pack: 'popular', coupon: 'WELCOME10' }));
        expect(statusCounts(answers)).toEqual({ 200: 40 });
        const over = await couponBox(reader, { pack: 'popular', coupon: 'WELCOME10' });
        expect(over.status).toBe(429);
        const retry = Number(over.headers['retry-after']);
        expect(retry).toBeGreaterThan(0);
        expect(retry).toBeLessThanOrEqual(600);
        expect(over.text).toBe(message('en', 'purchase.error.rate', { minutes: Math.ceil(retry / 60) }));
        // The same limit covers the checkout: refused before any sale.
        const nonce = await withDb(server, async (db) => (await import('~/features/payments/sandbox.server')).issueNonce(db, { userId: reader.id, method: 'card', number: CARDS.visa, expiry: EXPIRY, cvv: '123', now: now() }));
        expect(nonce.ok).toBe(true);
        const pay = await checkout(reader, { pack: 'popular', nonce: nonce.ok ? nonce.nonce : '' });
        expect(pay.status).toBe(429);
        expect(pay.headers['retry-after']).toBeDefined();
        expect(await ordersOf(reader)).toEqual([]);
        // Another reader is not affected.
        const other = await createReader(server);
        expect((await couponBox(other, { pack: 'popular', coupon: 'WELCOME10' })).status).toBe(200);
      } finally {
        await withDb(server, (db) => db.deleteFrom('rate_limits').where('bucket', '=', `payments:user:${reader.id}`).execute());
      }
    });

    it('reconcile confirms a sale whose confirmation was lost in a crash, once', { timeout: 60_000 }, async () => {
      const reader = await createReader(server);
      const nonce = await nonceFor(reader);
      // The checkout made the order and the provider made the sale; then the process died.
      const publicId = await withDb(server, async (db) => {
        const { createOrder } = await import('~/features/commerce/index.server');
        const made = await createOrder(db, {
          userId: reader.id, siteId: 1, packCode: 'popular', couponCode: 'WELCOME10', method: 'card', provider: 'sandbox', requestKey: requestKey(), next: '/comics/', expiresIn: null, now: now(),
        });
        if (!made.ok) throw new Error(`createOrder: ${made.problem}`);
        const id = made.order.public_id;
        // The sandbox's sale, as its sale() records it.
        await db.updateTable('sandbox_card_nonces').set({ order_id: id, payment_id: `sbx_${hex(8)}`, amount: made.order.total, currency: made.order.currency, used_at: now() })
          .where('nonce', '=', nonce).where('used_at', 'is', null).execute();
        await db.updateTable('orders').set({ created_at: now() - 120 }).where('public_id', '=', id).execute();
        return id;
      });
      expect(await orderById(publicId)).toMatchObject({ state: 'PENDING', total: 899 });
      expect(await balances(reader)).toEqual({ keys: 0, xtra: 0 });

      const first = await payments(server, ['reconcile']);
      expect(first.code, first.stdout + first.stderr).toBe(0);
      expect(first.stdout).toMatch(/; 1 paid,/);
      expect(await orderById(publicId)).toMatchObject({ state: 'PAID', card_brand: 'Visa', card_last4: '1111' });
      expect(await balances(reader)).toEqual({ keys: 100, xtra: 10 });

      const second = await payments(server, ['reconcile']);
      expect(second.code, second.stdout + second.stderr).toBe(0);
      expect(second.stdout).toMatch(/; 0 paid,/);
      expect(await balances(reader)).toEqual({ keys: 100, xtra: 10 });
      expect(await purchaseTxs(publicId)).toHaveLength(1);
      expect(await paidEvents(publicId)).toBe(1);
      const list = await server.request('/my/purchases/', { headers: { cookie: reader.cookie } });
      expect(plain(htmlText(list.text))).toContain('$8.99');
    });
  });
}
