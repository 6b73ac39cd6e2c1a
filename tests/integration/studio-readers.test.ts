/**
 * The support desk's readers (issue 28, docs/staff.md "Support desk: readers"), over real HTTP on
 * both databases: `support` finds a reader by every kind of key (email, reader number, order id,
 * subscription charge id that is also the Pix correlationID, the provider's payment id, a coupon
 * code) and reads balances, the ledger with what each entry was for, and orders with their events,
 * without any form to act; `money` grants keys with a reason the reader then reads in /my/keys/,
 * once however often the form is sent, and signs a reader out everywhere; every route refuses a
 * reader (403) and sends the signed-out to the login page; audit records are written; bad input
 * answers 4xx.
 */
import crypto from 'node:crypto';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { APP_CHECK_FIELD } from '~/lib/app-check';
import { appCheckToken, createReader, createStaff, htmlText, message, selectedDialects, useServer, withDb, type Reader, type ServerClient, CARD_EXPIRY } from './harness';

const now = () => Math.floor(Date.now() / 1000);
const hex = (n: number) => crypto.randomBytes(n).toString('hex');
const FORM = 'application/x-www-form-urlencoded';

interface Bought { orderId: string; paymentId: string; coupon: string; chargeId: string; chargePaymentId: string }

/** A reader who bought a key pack by card with a coupon (through the checkout, as a person does) and pays a subscription by Pix. */
export async function readerWithHistory(server: ServerClient): Promise<{ reader: Reader; bought: Bought }> {
  const reader = await createReader(server);
  const coupon = `DESK${hex(4).toUpperCase()}`;
  await withDb(server, async (db) => {
    const { saveCoupon } = await import('~/features/commerce/index.server');
    await saveCoupon(db, { site_id: 1, code: coupon, percent_off: 10, amount_off: null, currency: null, xtra_keys: 0, starts_at: null, ends_at: null, max_redemptions: null, per_reader_limit: 1, active: 1 }, now());
  });
  const post = async (path: string, fields: Record<string, string>) => server.request(path, {
    method: 'POST', body: new URLSearchParams(fields).toString(), timeoutMs: 60_000,
    headers: { 'content-type': FORM, origin: server.origin(), cookie: reader.cookie },
  });
  const nonce = await post('/payments/sandbox/nonce/', { method: 'card', number: '4111111111111111', expiry: CARD_EXPIRY, cvv: '123' });
  expect(nonce.status, nonce.text).toBe(200);
  const paid = await post('/my/purchase/checkout/', {
    method: 'card', pack: 'starter', coupon, nonce: (nonce.json() as { nonce: string }).nonce, request_key: `rk${hex(12)}`, next: '/comics/',
    [APP_CHECK_FIELD]: await appCheckToken(server, reader),
  });
  expect(paid.status, paid.text).toBe(303);
  const order = await withDb(server, (db) => db.selectFrom('orders').select(['public_id', 'payment_id', 'state']).where('user_id', '=', reader.id).executeTakeFirstOrThrow());
  expect(order.state).toBe('PAID');
  // A subscription paid by Pix: its charge's public id is the correlationID, its payment id the end-to-end id.
  const chargeId = `sub${hex(12)}`;
  const chargePaymentId = `E${hex(15)}X`;
  await withDb(server, async (db) => {
    const plan = await db.selectFrom('plans').select(['id', 'site_id', 'price', 'currency']).orderBy('id').executeTakeFirstOrThrow();
    const t = now();
    const sub = await db.insertInto('subscriptions').values({
      public_id: `sbs${hex(12)}`, user_id: reader.id, site_id: plan.site_id, plan_id: plan.id, state: 'ACTIVE', anchor_at: t, paid_until: t + 30 * 86_400,
      canceled_at: null, method: 'pix', provider: 'pix-sandbox', payment_token: null, payer_name: 'Test Reader', payer_doc: null, created_at: t, updated_at: t,
    }).returning('id').executeTakeFirstOrThrow();
    const charge = await db.insertInto('subscription_charges').values({
      public_id: chargeId, subscription_id: sub.id, user_id: reader.id, period_start: t, period_end: t + 30 * 86_400, currency: plan.currency, amount: Number(plan.price),
      method: 'pix', provider: 'pix-sandbox', state: 'PAID', payment_id: chargePaymentId, br_code: null, expires_at: null, failure: null, created_at: t, updated_at: t, paid_at: t,
    }).returning('id').executeTakeFirstOrThrow();
    await db.insertInto('subscription_events').values({ subscription_id: sub.id, state: 'ACTIVE', source: 'webhook', detail: 'desk test', charge_id: charge.id, created_at: t }).execute();
  });
  return { reader, bought: { orderId: order.public_id, paymentId: order.payment_id!, coupon, chargeId, chargePaymentId } };
}

for (const dialect of selectedDialects()) {
  describe(`studio readers (${dialect})`, () => {
    const server = useServer(dialect);
    let support: Reader;
    let money: Reader;
    let subject: Reader;
    let bought: Bought;

    beforeAll(async () => {
      [support, money] = [await createStaff(server, 'support'), await createStaff(server, 'support', 'money')];
      ({ reader: subject, bought } = await readerWithHistory(server));
    }, 120_000);
    afterEach(async () => {
      expect(await withDb(server, async (db) => (await import('~/features/wallet/index.server')).auditLedger(db))).toEqual([]);
    });

    const get = (path: string, who: Reader | null, site: 'en' | 'br' = 'en') => server.request(path, { site, headers: who ? { cookie: who.cookie } : {} });
    const postForm = (path: string, who: Reader | null, fields: Record<string, string>, site: 'en' | 'br' = 'en') => server.request(path, {
      site, method: 'POST', body: new URLSearchParams(fields).toString(),
      headers: { 'content-type': FORM, accept: 'text/html', origin: server.origin(site), 'sec-fetch-site': 'same-origin', ...(who ? { cookie: who.cookie } : {}) },
    });
    const search = (q: string, who: Reader = support, site: 'en' | 'br' = 'en') => get(`/studio/readers/?q=${encodeURIComponent(q)}`, who, site);
    const pageOf = (r: { id: number }) => `/studio/readers/${r.id}/`;
    const requestKeyIn = (html: string) => /name="request" value="([^"]+)"/.exec(html)?.[1];
    const auditRows = (action: string, objectId: number) => withDb(server, (db) => db.selectFrom('audit_log').selectAll().where('action', '=', action).where('object_id', '=', String(objectId)).execute());

    it('finds a reader by email, number, order id, charge id (the Pix correlationID), payment ids and coupon code: one match goes to the page', async () => {
      for (const q of [subject.email, subject.email.toUpperCase(), String(subject.id), bought.orderId, bought.chargeId, bought.paymentId, bought.chargePaymentId, bought.coupon, bought.coupon.toLowerCase()]) {
        const res = await search(q);
        expect(res.status, q).toBe(303);
        expect(res.headers.location, q).toBe(pageOf(subject));
      }
      // The start of emails lists them; nothing found says so, in the site's language.
      const others = [await createReader(server), await createReader(server)];
      const prefix = await search('reader-');
      expect(prefix.status).toBe(200);
      expect(prefix.headers['cache-control']).toBe('private, no-store');
      expect(prefix.text).toContain('noindex');
      expect(prefix.text).toMatch(/class="desk-matches"/);
      const listed = prefix.text.match(/<a href="\/studio\/readers\/\d+\/"/g) ?? [];
      expect(listed.length).toBeGreaterThanOrEqual(2);
      expect(listed.length).toBeLessThanOrEqual(20);
      // A narrower start finds exactly the ones it names.
      const narrow = await search(others[0]!.email.slice(0, -8));
      expect(narrow.status).toBe(303);
      expect(narrow.headers.location).toBe(pageOf(others[0]!));
      const none = await search(`nobody-${hex(4)}@example.test`);
      expect(none.status).toBe(200);
      expect(htmlText(none.text)).toContain((message('en', 'desk.search.none', { q: '' })).replace('“”.', ''));
      const noneBr = await search(`nobody-${hex(4)}@example.test`, support, 'br');
      expect(htmlText(noneBr.text)).toContain((message('pt-BR', 'desk.search.none', { q: '' })).replace('“”.', ''));
    });

    it('refuses bad search terms with 400, never 500, and keeps ids away from SQL unless shaped', async () => {
      for (const q of ['a'.repeat(300), 'ab\u0000cd', 'x\u0007y', '%E0%A4%A']) {
        const res = await get(`/studio/readers/?q=${q === '%E0%A4%A' ? q : encodeURIComponent(q)}`, support);
        expect(res.status, q).toBe(400);
        expect(htmlText(res.text)).toMatch(/too long|not allowed/);
      }
      for (const q of ["' OR 1=1 --", 'ord123', '99999999999999', '<script>alert(1)</script>']) {
        const res = await search(q);
        expect(res.status, q).toBe(200);
        // Astro escapes quotes in attributes; the term shows only inside the box's quoted value.
        expect(res.text.replace('value="<script>alert(1)</script>"', '')).not.toContain('<script>alert(1)');
      }
      expect((await get('/studio/readers/abc/', support)).status).toBe(404);
      expect((await get('/studio/readers/2147483648/', support)).status).toBe(404);
      expect((await get('/studio/readers/999999999/', support)).status).toBe(404);
      expect((await get(`${pageOf(subject)}?ledger=-1&orders=abc`, support)).status).toBe(200);
    });

    it('shows support the account, balances, the ledger with what each entry was for, orders with events, the subscription and coupon, and no forms to act', async () => {
      // A second session, begun in a phone's browser: listed with a summary of it, never its token.
      const login = await server.request('/auth/login/', {
        method: 'POST', body: new URLSearchParams({ email: subject.email, password: subject.password }).toString(),
        headers: { 'content-type': FORM, origin: server.origin(), 'sec-fetch-site': 'same-origin', 'user-agent': 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36' },
      });
      expect(login.status).toBe(303);
      const phoneToken = /(?:^|\n)inkpass_session=([^;]+)/.exec(login.headers['set-cookie'] ?? '')?.[1];
      expect(phoneToken).toBeTruthy();
      const res = await get(pageOf(subject), support);
      expect(res.status).toBe(200);
      expect(res.headers['cache-control']).toBe('private, no-store');
      expect(res.text).toContain('noindex');
      const text = htmlText(res.text);
      expect(text).toContain(subject.email);
      expect(text).toContain(message('en', 'desk.reader.sessionCount', { n: 2 }));
      expect(text).toContain('Chrome · Android');
      for (const secret of [subject.token, phoneToken!, subject.token.split('.')[0]!, phoneToken!.split('.')[0]!]) expect(res.text).not.toContain(secret);
      expect(text).toContain(message('en', 'keys.what.purchase'));
      expect(res.text).toContain(`href="/studio/payments/${bought.orderId}/"`);
      expect(res.text).toContain(`href="/studio/payments/${bought.chargeId}/"`);
      expect(text).toContain(bought.paymentId);
      expect(text).toContain(bought.chargePaymentId);
      expect(text).toContain(bought.coupon);
      expect(text).toMatch(/PAID/);
      expect(text).toContain('desk test');
      const balances = await withDb(server, async (db) => (await import('~/features/wallet/index.server')).balancesOf(db, subject.id));
      expect(/class="desk-balance-keys"[^>]*>(\d+)</.exec(res.text)?.[1]).toBe(String(balances.keys));
      expect(/class="desk-balance-xtra"[^>]*>(\d+)</.exec(res.text)?.[1]).toBe(String(balances.xtra));
      // Order events: every state the order went through, from the order_events table.
      const events = await withDb(server, (db) => db.selectFrom('order_events').innerJoin('orders', 'orders.id', 'order_events.order_id').select(['order_events.state', 'order_events.source']).where('orders.public_id', '=', bought.orderId).execute());
      expect(events.length).toBeGreaterThan(0);
      for (const e of events) expect(text).toContain(`${e.state} ${e.source}`);
      // Read only for support: no grant form, no sign-out button, and their posts are refused.
      expect(res.text).not.toContain('/grant/"');
      expect(res.text).not.toContain('/sign-out/"');
      const grant = await postForm(`${pageOf(subject)}grant/`, support, { keys: '5', reason: 'not allowed', request: `rq${hex(12)}` });
      expect(grant.status).toBe(403);
      expect((await postForm(`${pageOf(subject)}sign-out/`, support, {})).status).toBe(403);
      // Portuguese site, its own words and zone.
      const br = await get(pageOf(subject), support, 'br');
      expect(htmlText(br.text)).toContain(message('pt-BR', 'keys.what.purchase'));
    });

    it('lets money grant with a reason the reader reads in /my/keys/, once for a double submit and for ten at once, with one audit record', async () => {
      const reader = await createReader(server);
      const page = await get(pageOf(reader), money);
      expect(page.status).toBe(200);
      const key = requestKeyIn(page.text);
      expect(key).toBeTruthy();
      expect(page.text).toContain(`action="/studio/readers/${reader.id}/sign-out/"`);
      const reason = `Sorry about chapter 12 ${hex(3)}`;
      const before = await withDb(server, async (db) => (await import('~/features/wallet/index.server')).balancesOf(db, reader.id));
      const first = await postForm(`${pageOf(reader)}grant/`, money, { keys: '7', xtra: '3', reason, request: key! });
      expect(first.status).toBe(303);
      expect(first.headers.location).toBe(`${pageOf(reader)}?done=granted`);
      const again = await postForm(`${pageOf(reader)}grant/`, money, { keys: '7', xtra: '3', reason, request: key! });
      expect(again.headers.location).toBe(`${pageOf(reader)}?done=already`);
      const after = await withDb(server, async (db) => (await import('~/features/wallet/index.server')).balancesOf(db, reader.id));
      expect(after).toEqual({ keys: before.keys + 7, xtra: before.xtra + 3 });
      expect(htmlText((await get(`${pageOf(reader)}?done=granted`, money)).text)).toContain(message('en', 'desk.grant.done'));
      // The reader sees the reason, in both languages.
      const mine = htmlText((await get('/my/keys/', reader)).text);
      expect(mine).toContain(message('en', 'keys.what.grant', { reason }));
      const mineBr = htmlText((await get('/my/keys/', reader, 'br')).text);
      expect(mineBr).toContain(message('pt-BR', 'keys.what.grant', { reason }));
      // Support reads the reason in the ledger too.
      expect(htmlText((await get(pageOf(reader), support)).text)).toContain(message('en', 'keys.what.grant', { reason }));
      const records = await auditRows('reader.grant', reader.id);
      expect(records).toHaveLength(1);
      expect(records[0]).toMatchObject({ actor_id: money.id, capability: 'money', object_table: 'users' });
      expect(JSON.parse(records[0]!.after_json!)).toMatchObject({ keys: 7, xtra: 3, reason });

      // Ten at once with one form's key: one grant.
      const burstKey = requestKeyIn((await get(pageOf(reader), money)).text)!;
      const answers = await Promise.all(Array.from({ length: 10 }, () => postForm(`${pageOf(reader)}grant/`, money, { keys: '2', xtra: '', reason: 'burst grant', request: burstKey })));
      expect(answers.map((a) => a.status)).toEqual(Array(10).fill(303));
      expect(answers.filter((a) => a.headers.location?.endsWith('done=granted'))).toHaveLength(1);
      const final = await withDb(server, async (db) => (await import('~/features/wallet/index.server')).balancesOf(db, reader.id));
      expect(final).toEqual({ keys: after.keys + 2, xtra: after.xtra });
      expect(await auditRows('reader.grant', reader.id)).toHaveLength(2);
    });

    it('refuses a bad grant with 422 and messages, granting nothing', async () => {
      const reader = await createReader(server);
      const key = requestKeyIn((await get(pageOf(reader), money)).text)!;
      const cases: [Record<string, string>, string][] = [
        [{ keys: '0', xtra: '0', reason: 'nothing at all', request: key }, message('en', 'desk.grant.error.none')],
        [{ keys: '10001', reason: 'too many keys', request: key }, message('en', 'desk.grant.error.amount', { max: 10000 })],
        [{ keys: '-3', reason: 'negative keys', request: key }, message('en', 'desk.grant.error.amount', { max: 10000 })],
        [{ keys: '5', reason: 'ab', request: key }, message('en', 'desk.grant.error.reasonShort', { min: 3 })],
        [{ keys: '5', reason: 'x'.repeat(201), request: key }, message('en', 'desk.grant.error.reasonLong', { reasonMax: 200 })],
        [{ keys: '5', reason: 'no request key' }, message('en', 'desk.grant.error.request')],
      ];
      for (const [fields, text] of cases) {
        const res = await postForm(`${pageOf(reader)}grant/`, money, fields);
        expect(res.status, JSON.stringify(fields)).toBe(422);
        expect(htmlText(res.text)).toContain(text);
      }
      expect((await postForm(`${pageOf(reader)}grant/`, money, { keys: '5', reason: 'ctl\u0000char', request: key })).status).toBeGreaterThanOrEqual(400);
      expect((await postForm('/studio/readers/999999999/grant/', money, { keys: '5', reason: 'nobody here', request: key })).status).toBe(404);
      expect(await withDb(server, async (db) => (await import('~/features/wallet/index.server')).balancesOf(db, reader.id))).toEqual({ keys: 0, xtra: 0 });
      expect(await auditRows('reader.grant', reader.id)).toHaveLength(0);
      // A foreign origin is refused before the page runs.
      const foreign = await server.request(`${pageOf(reader)}grant/`, { method: 'POST', body: new URLSearchParams({ keys: '5', reason: 'foreign', request: key }).toString(), headers: { 'content-type': FORM, origin: 'https://evil.example', 'sec-fetch-site': 'cross-site', cookie: money.cookie } });
      expect(foreign.status).toBe(403);
    });

    it('signs a reader out everywhere: their cookies are signed out, with an audit record', async () => {
      const reader = await createReader(server);
      expect((await get('/my/keys/', reader)).status).toBe(200);
      const res = await postForm(`${pageOf(reader)}sign-out/`, money, {});
      expect(res.status).toBe(303);
      expect(res.headers.location).toBe(`${pageOf(reader)}?done=signedOut&n=1`);
      const after = await get('/my/keys/', reader);
      expect(after.status).toBe(303);
      expect(after.headers.location).toMatch(/^\/auth\/login\//);
      const records = await auditRows('reader.sign_out_everywhere', reader.id);
      expect(records).toHaveLength(1);
      expect(records[0]).toMatchObject({ actor_id: money.id, capability: 'money' });
      expect(htmlText((await get(`${pageOf(reader)}?done=signedOut&n=1`, money)).text)).toContain(message('en', 'desk.signOut.done', { n: 1 }));
      expect(htmlText((await get(pageOf(reader), money)).text)).toContain(message('en', 'desk.reader.sessionCount', { n: 0 }));
    });

    it('asks a money member who signed in over 15 minutes ago for the password before granting, and grants nothing meanwhile', async () => {
      const late = await createStaff(server, 'support', 'money');
      const reader = await createReader(server);
      const key = requestKeyIn((await get(pageOf(reader), late)).text)!;
      await withDb(server, (db) => db.updateTable('sessions').set({ created_at: now() - 16 * 60 }).where('user_id', '=', late.id).execute());
      const res = await postForm(`${pageOf(reader)}grant/`, late, { keys: '5', reason: 'after a coffee', request: key });
      expect(res.status).toBe(303);
      expect(res.headers.location).toMatch(/^\/auth\/confirm\/\?next=/);
      expect((await postForm(`${pageOf(reader)}sign-out/`, late, {})).headers.location).toMatch(/^\/auth\/confirm\//);
      expect(await withDb(server, async (db) => (await import('~/features/wallet/index.server')).balancesOf(db, reader.id))).toEqual({ keys: 0, xtra: 0 });
      expect(await auditRows('reader.grant', reader.id)).toHaveLength(0);
      // Reading stays open to support without the password.
      expect((await get(pageOf(reader), late)).status).toBe(200);
    });

    it('answers 403 to a reader and to staff with neither support nor money, and sends the signed-out to the login page, on every route', async () => {
      const reader = await createReader(server);
      const moneyOnly = await createStaff(server, 'money');
      const pricing = await createStaff(server, 'pricing');
      const pages = ['/studio/readers/', `/studio/readers/?q=${encodeURIComponent(subject.email)}`, pageOf(subject)];
      for (const p of pages) {
        expect((await get(p, reader)).status, p).toBe(403);
        expect((await get(p, pricing)).status, p).toBe(403);
        // A money member reads the reader they act on (docs/staff.md, "Support desk").
        expect((await get(p, moneyOnly)).status, p).not.toBe(403);
        const out = await get(p, null);
        expect(out.status, p).toBe(303);
        expect(out.headers.location).toMatch(/^\/auth\/login\//);
      }
      for (const p of [`${pageOf(subject)}grant/`, `${pageOf(subject)}sign-out/`]) {
        expect((await postForm(p, reader, { keys: '5', reason: 'reader tries', request: `rq${hex(12)}` })).status, p).toBe(403);
        const out = await postForm(p, null, { keys: '5', reason: 'signed out', request: `rq${hex(12)}` });
        expect(out.status, p).toBe(303);
        expect(out.headers.location).toMatch(/^\/auth\/login\//);
      }
      // The studio home lists the desk for support and money, not for pricing.
      expect((await get('/studio/', support)).text).toContain('href="/studio/readers/"');
      expect((await get('/studio/', pricing)).text).not.toContain('href="/studio/readers/"');
      expect((await get('/studio/', moneyOnly)).text).toContain('href="/studio/readers/"');
    });
  });
}
