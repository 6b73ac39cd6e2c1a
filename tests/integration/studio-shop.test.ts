/**
 * The studio's shop (issue 28, capability `pricing`), over real HTTP on both databases: key
 * packs, coupons and plans created and edited by form on both sites, each change with its audit
 * record (the changed fields only; a save that changes nothing writes none), checkout offering the
 * new price on the next request while an order created before keeps and is paid its own price
 * (Pix through the sandbox), a coupon made in the studio taken by the coupon box, refusals (422,
 * the field's message, the values kept, nothing written), the capability, login and origin
 * checks on every shop route, and `npm run shop` still working through the same rules.
 *
 * The packs, coupons and plans it makes are its own (codes starting `st`); each test leaves them
 * inactive, so the shared servers' other tests (which list the seeded packs exactly) never see them.
 */
import crypto from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { APP_CHECK_FIELD, APP_CHECK_HEADER } from '~/lib/app-check';
import { appCheckToken, createReader, createStaff, forgetLimits, htmlText, markup, message, npmRun, selectedDialects, useServer, withDb, type Reader, type SiteName, CARD_EXPIRY, plain } from './harness';

const now = () => Math.floor(Date.now() / 1000);
const hex = (n: number) => crypto.randomBytes(n).toString('hex');
const requestKey = () => `rk${hex(12)}`;

for (const dialect of selectedDialects()) {
  describe(`studio shop (${dialect})`, () => {
    const server = useServer(dialect);
    let pricing: Reader;

    beforeAll(async () => {
      pricing = await createStaff(server, 'pricing');
    });
    afterEach(async () => {
      await forgetLimits(server, pricing);
      const problems = await withDb(server, async (db) => {
        const { auditLedger } = await import('~/features/wallet/index.server');
        const { auditOrders } = await import('~/features/commerce/index.server');
        return [...(await auditLedger(db)), ...(await auditOrders(db))];
      });
      expect(problems).toEqual([]);
    });
    afterAll(async () => {
      // Whatever a failed test left on sale goes off it: the other files list the seeded shop exactly.
      await withDb(server, async (db) => {
        await db.updateTable('key_packs').set({ active: 0 }).where('code', 'like', 'st-%').execute();
        await db.updateTable('coupons').set({ active: 0 }).where('code', 'like', 'ST%').execute();
        await db.updateTable('plans').set({ active: 0 }).where('code', 'like', 'st-%').execute();
      });
    });

    const get = (path: string, who: Reader | null, site: SiteName = 'en') => server.request(path, { site, headers: who ? { cookie: who.cookie } : {} });
    const post = (path: string, who: Reader | null, fields: Record<string, string>, o: { site?: SiteName; origin?: string } = {}) => server.request(path, {
      site: o.site ?? 'en', method: 'POST', body: new URLSearchParams(fields).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html', origin: o.origin ?? server.origin(o.site ?? 'en'), 'sec-fetch-site': o.origin ? 'cross-site' : 'same-origin', ...(who ? { cookie: who.cookie } : {}) },
    });
    /** A money call as the checkout's scripts send it, with its bot-check token. */
    const buy = async (reader: Reader, path: '/my/purchase/checkout/' | '/my/purchase/pix/' | '/my/purchase/coupon/' | '/payments/sandbox/nonce/', fields: Record<string, string>, site: SiteName = 'en') => {
      const token = path === '/my/purchase/checkout/' || path === '/my/purchase/pix/' ? await appCheckToken(server, reader, site) : null;
      return server.request(path, {
        site, method: 'POST', body: new URLSearchParams(token && path === '/my/purchase/checkout/' ? { ...fields, [APP_CHECK_FIELD]: token } : fields).toString(), timeoutMs: 60_000,
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.origin(site), cookie: reader.cookie, ...(token && path === '/my/purchase/pix/' ? { [APP_CHECK_HEADER]: token } : {}) },
      });
    };
    const auditOf = (table: string, id: number) => withDb(server, async (db) => (await db.selectFrom('audit_log').selectAll().where('object_table', '=', table).where('object_id', '=', String(id)).orderBy('id').execute())
      .map((a) => ({ action: a.action, actor: a.actor_id == null ? null : Number(a.actor_id), capability: a.capability, before: a.before_json ? JSON.parse(a.before_json) : null, after: a.after_json ? JSON.parse(a.after_json) : null })));
    const idFrom = (location: string | undefined, kind: string) => {
      const m = new RegExp(`^/studio/shop/${kind}/(\\d+)/\\?done=created$`).exec(location ?? '');
      expect(m, location).toBeTruthy();
      return Number(m![1]);
    };
    /** The checkout page's subtotal for a pack, as a reader sees it. */
    const subtotal = async (reader: Reader, code: string, site: SiteName) => {
      const page = await get(`/my/purchase/checkout/?pack=${code}`, reader, site);
      expect(page.status, page.text.slice(0, 300)).toBe(200);
      return plain(htmlText(/class="checkout-subtotal"[^>]*>[^<]*<span[^>]*>([\s\S]*?)<\/span>/.exec(page.text)?.[1] ?? ''));
    };
    const order = (publicId: string) => withDb(server, async (db) => {
      const o = await db.selectFrom('orders').selectAll().where('public_id', '=', publicId).executeTakeFirstOrThrow();
      return { state: o.state, subtotal: Number(o.subtotal), total: Number(o.total), keys: Number(o.keys), xtra_keys: Number(o.xtra_keys), currency: o.currency };
    });
    const balances = (reader: Reader) => withDb(server, async (db) => (await import('~/features/wallet/index.server')).balancesOf(db, reader.id));

    /** A card order through the sandbox widget and the checkout form (paid at once); the order's row. */
    const cardOrder = async (reader: Reader, pack: string, coupon = '') => {
      const nonce = await buy(reader, '/payments/sandbox/nonce/', { method: 'card', number: '4111111111111111', expiry: CARD_EXPIRY, cvv: '123' });
      expect(nonce.status, nonce.text).toBe(200);
      const res = await buy(reader, '/my/purchase/checkout/', { method: 'card', pack, coupon, nonce: (nonce.json() as { nonce: string }).nonce, request_key: requestKey(), next: '/comics/' });
      expect(res.status, res.text.slice(0, 500)).toBe(303);
      const paid = /[?&]paid=([^&]+)/.exec(res.headers.location ?? '')?.[1];
      expect(paid, res.headers.location).toBeTruthy();
      return order(paid!);
    };

    it('a pack made and repriced in the studio (pt-BR, "4,99") reaches checkout at once; a Pix order made before is paid its own price', async () => {
      const code = `st-${hex(4)}`;
      const overview = await get('/studio/shop/', pricing, 'br');
      expect(overview.status).toBe(200);
      expect(overview.headers['cache-control']).toContain('no-store');
      expect(overview.text).toContain('<meta name="robots" content="noindex"');
      expect(htmlText(overview.text)).toContain(message('pt-BR', 'studio.shop.packs'));
      expect(overview.text).toContain('href="/studio/shop/packs/new/"');
      const form = await get('/studio/shop/packs/new/', pricing, 'br');
      expect(form.status).toBe(200);
      expect(form.text).toMatch(/<label for="shop-price"[^>]*>/);

      const created = await post('/studio/shop/packs/new/', pricing, { code, currency: 'BRL', price: '4,99', keys: '40', xtra_keys: '5', position: '90', active: '1' }, { site: 'br' });
      expect(created.status, created.text.slice(0, 500)).toBe(303);
      const id = idFrom(created.headers.location, 'packs');
      const row = await withDb(server, (db) => db.selectFrom('key_packs').selectAll().where('id', '=', id).executeTakeFirstOrThrow());
      expect([Number(row.site_id), row.code, row.currency, Number(row.price), Number(row.keys), Number(row.xtra_keys), Number(row.active)]).toEqual([3, code, 'BRL', 499, 40, 5, 1]);
      expect(await auditOf('key_packs', id)).toEqual([{ action: 'pack.create', actor: pricing.id, capability: 'pricing', before: null, after: { site_id: 3, code, currency: 'BRL', price: 499, keys: 40, xtra_keys: 5, position: 90, active: 1 } }]);
      const saved = await get(created.headers.location!, pricing, 'br');
      expect(htmlText(saved.text)).toContain(message('pt-BR', 'studio.shop.created'));
      expect(saved.text).toMatch(/id="shop-price"[^>]*value="4,99"/);

      const reader = await createReader(server, { site: 'br' });
      expect(await subtotal(reader, code, 'br')).toBe('R$ 4,99');
      const pix = await buy(reader, '/my/purchase/pix/', { pack: code, request_key: requestKey() }, 'br');
      expect(pix.status, pix.text).toBe(200);
      const publicId = (pix.json() as { checkout: { correlationID: string } }).checkout.correlationID;
      expect(await order(publicId)).toMatchObject({ state: 'PENDING', total: 499, currency: 'BRL' });

      const repriced = await post(`/studio/shop/packs/${id}/`, pricing, { code: 'ignored-on-edit', currency: 'BRL', price: '7,5', keys: '40', xtra_keys: '5', position: '90', active: '1' }, { site: 'br' });
      expect([repriced.status, repriced.headers.location]).toEqual([303, `/studio/shop/packs/${id}/?done=saved`]);
      // Checkout offers the new price on the very next request.
      expect(await subtotal(reader, code, 'br')).toBe('R$ 7,50');
      const audit = await auditOf('key_packs', id);
      expect(audit).toHaveLength(2);
      expect(audit[1]).toEqual({ action: 'pack.update', actor: pricing.id, capability: 'pricing', before: { price: 499 }, after: { price: 750 } });
      expect((await withDb(server, (db) => db.selectFrom('key_packs').select('code').where('id', '=', id).executeTakeFirstOrThrow())).code).toBe(code);
      // The same form again changes nothing and writes no record.
      const again = await post(`/studio/shop/packs/${id}/`, pricing, { currency: 'BRL', price: '7,50', keys: '40', xtra_keys: '5', position: '90', active: '1' }, { site: 'br' });
      expect(again.headers.location).toBe(`/studio/shop/packs/${id}/?done=unchanged`);
      expect(await auditOf('key_packs', id)).toHaveLength(2);

      // The order made before the change is paid, and credited, at its own price.
      const pay = await npmRun(server.databaseUrl, 'payments', ['pay', publicId, '--url', `http://127.0.0.1:${server.port}`]);
      expect(pay.code, pay.stdout + pay.stderr).toBe(0);
      expect(await order(publicId)).toMatchObject({ state: 'PAID', subtotal: 499, total: 499, keys: 40, xtra_keys: 5 });
      expect(await balances(reader)).toEqual({ keys: 40, xtra: 5 });
      // A new order takes the new price.
      const next = await buy(reader, '/my/purchase/pix/', { pack: code, request_key: requestKey() }, 'br');
      expect(next.status, next.text).toBe(200);
      expect(await order((next.json() as { checkout: { correlationID: string } }).checkout.correlationID)).toMatchObject({ state: 'PENDING', total: 750 });

      // Off sale: the checkout no longer offers it; the row and its orders stay.
      const off = await post(`/studio/shop/packs/${id}/`, pricing, { currency: 'BRL', price: '7,50', keys: '40', xtra_keys: '5', position: '90' }, { site: 'br' });
      expect(off.headers.location).toBe(`/studio/shop/packs/${id}/?done=saved`);
      expect((await auditOf('key_packs', id))[2]).toMatchObject({ action: 'pack.update', before: { active: 1 }, after: { active: 0 } });
      expect((await get(`/my/purchase/checkout/?pack=${code}`, reader, 'br')).status).toBe(404);
      expect(htmlText((await get('/studio/shop/', pricing, 'br')).text)).toContain(code);
    });

    it('on the English site a card order before a price change keeps its price, and the next one pays the new one', async () => {
      const code = `st-${hex(4)}`;
      const created = await post('/studio/shop/packs/new/', pricing, { code, currency: 'USD', price: '4.99', keys: '50', xtra_keys: '0', position: '91', active: '1' });
      expect(created.status, created.text.slice(0, 500)).toBe(303);
      const id = idFrom(created.headers.location, 'packs');
      const reader = await createReader(server);
      const card = () => cardOrder(reader, code);
      expect(await subtotal(reader, code, 'en')).toBe('$4.99');
      const first = await card();
      expect(first).toMatchObject({ state: 'PAID', total: 499, keys: 50 });
      const saved = await post(`/studio/shop/packs/${id}/`, pricing, { currency: 'USD', price: '12', keys: '50', xtra_keys: '0', position: '91', active: '1' });
      expect(saved.headers.location).toBe(`/studio/shop/packs/${id}/?done=saved`);
      expect(await subtotal(reader, code, 'en')).toBe('$12.00');
      expect(await card()).toMatchObject({ state: 'PAID', total: 1200, keys: 50 });
      expect(await withDb(server, async (db) => (await db.selectFrom('orders').select('total').where('user_id', '=', reader.id).where('pack_id', '=', id).orderBy('id').execute()).map((o) => Number(o.total)))).toEqual([499, 1200]);
      await post(`/studio/shop/packs/${id}/`, pricing, { currency: 'USD', price: '12', keys: '50', xtra_keys: '0', position: '91' });
    });

    it('a coupon made in the studio is taken by the coupon box, its window is typed in the site zone, and off it is refused', async () => {
      const code = `ST${hex(4).toUpperCase()}`;
      const created = await post('/studio/shop/coupons/new/', pricing, { code: code.toLowerCase(), percent_off: '25', amount_off: '', currency: 'USD', xtra_keys: '3', max_redemptions: '', per_reader_limit: '1', starts_at: '', ends_at: '', active: '1' });
      expect(created.status, created.text.slice(0, 500)).toBe(303);
      const id = idFrom(created.headers.location, 'coupons');
      expect(await auditOf('coupons', id)).toEqual([{ action: 'coupon.create', actor: pricing.id, capability: 'pricing', before: null,
        after: { site_id: 1, code, percent_off: 25, amount_off: null, currency: null, xtra_keys: 3, starts_at: null, ends_at: null, max_redemptions: null, per_reader_limit: 1, active: 1 } }]);
      const reader = await createReader(server);
      const box = await buy(reader, '/my/purchase/coupon/', { pack: 'popular', coupon: code });
      expect(box.status, box.text).toBe(200);
      const answer = box.json() as { checkout: { discount: { string: string }; total: { string: string } }; xtra_key_bonus: number };
      expect(answer.xtra_key_bonus).toBe(3);
      expect(answer.checkout.discount.string).not.toBe('$0.00');

      // Two readers use it; the limit cannot go below the two uses taken, and that refusal writes nothing.
      const other = await createReader(server);
      expect(await cardOrder(reader, 'popular', code)).toMatchObject({ state: 'PAID', total: 749 });
      expect(await cardOrder(other, 'popular', code)).toMatchObject({ state: 'PAID', total: 749 });
      const below = await post(`/studio/shop/coupons/${id}/`, pricing, { percent_off: '25', currency: 'USD', xtra_keys: '3', max_redemptions: '1', per_reader_limit: '1', active: '1' });
      expect(below.status).toBe(422);
      expect(plain(htmlText(/id="shop-max_redemptions-error"[^>]*>([\s\S]*?)<\/p>/.exec(below.text)?.[1] ?? ''))).toBe(message('en', 'studio.shop.error.belowUses', { n: 2 }));
      expect(htmlText(below.text)).toContain(message('en', 'studio.shop.usesSoFar', { n: 2 }));
      expect(await auditOf('coupons', id)).toHaveLength(1);

      // A window typed in the site's zone (UTC here), kept as typed.
      const windowed = await post(`/studio/shop/coupons/${id}/`, pricing, { percent_off: '25', currency: 'USD', xtra_keys: '3', max_redemptions: '50', per_reader_limit: '1', starts_at: '2026-01-01T00:00', ends_at: '2036-01-01T00:00', active: '1' });
      expect(windowed.headers.location).toBe(`/studio/shop/coupons/${id}/?done=saved`);
      expect((await auditOf('coupons', id))[1]).toEqual({ action: 'coupon.update', actor: pricing.id, capability: 'pricing',
        before: { starts_at: null, ends_at: null, max_redemptions: null }, after: { starts_at: Date.UTC(2026, 0, 1) / 1000, ends_at: Date.UTC(2036, 0, 1) / 1000, max_redemptions: 50 } });
      expect((await get(`/studio/shop/coupons/${id}/`, pricing)).text).toMatch(/id="shop-starts_at"[^>]*value="2026-01-01T00:00"/);

      const off = await post(`/studio/shop/coupons/${id}/`, pricing, { percent_off: '25', currency: 'USD', xtra_keys: '3', max_redemptions: '50', per_reader_limit: '1', starts_at: '2026-01-01T00:00', ends_at: '2036-01-01T00:00' });
      expect(off.headers.location).toBe(`/studio/shop/coupons/${id}/?done=saved`);
      const refused = await buy(reader, '/my/purchase/coupon/', { pack: 'popular', coupon: code });
      expect(refused.status).toBe(422);
    });

    it('a plan made and repriced in the studio shows on the plans page at once', async () => {
      const code = `st-${hex(4)}`;
      const fields = { code, name: 'Studio plan', benefits: 'Line one\n\nLine two', currency: 'USD', price: '3.99', period_months: '1', series_slots: '2', rent_capacity: '4', rent_hours: '48', trial_days: '0', position: '99', active: '1' };
      const created = await post('/studio/shop/plans/new/', pricing, fields);
      expect(created.status, created.text.slice(0, 500)).toBe(303);
      const id = idFrom(created.headers.location, 'plans');
      expect((await auditOf('plans', id))[0]).toMatchObject({ action: 'plan.create', after: { site_id: 1, code, name: 'Studio plan', benefits: '["Line one","Line two"]', price: 399, rent_ttl: 48 * 3600, active: 1 } });
      const plansText = async () => plain(htmlText((await get('/plans/', null)).text));
      expect(await plansText()).toContain('Studio plan');
      const repriced = await post(`/studio/shop/plans/${id}/`, pricing, { ...fields, price: '5.49' });
      expect(repriced.headers.location).toBe(`/studio/shop/plans/${id}/?done=saved`);
      expect((await auditOf('plans', id))[1]).toEqual({ action: 'plan.update', actor: pricing.id, capability: 'pricing', before: { price: 399 }, after: { price: 549 } });
      expect(await plansText()).toContain('$5.49');
      const off = await post(`/studio/shop/plans/${id}/`, pricing, { ...fields, price: '5.49', active: '' });
      expect(off.headers.location).toBe(`/studio/shop/plans/${id}/?done=saved`);
      expect(await plansText()).not.toContain('Studio plan');
    });

    it('refuses bad input with 422, the field\'s message beside it, the values kept, and writes nothing', async () => {
      const taken = `st-${hex(4)}`;
      const first = await post('/studio/shop/packs/new/', pricing, { code: taken, currency: 'USD', price: '1.00', keys: '1', xtra_keys: '0', position: '92' });
      expect(first.status).toBe(303);
      const pack = { code: `st-${hex(4)}`, currency: 'USD', price: '4.99', keys: '10', xtra_keys: '0', position: '0', active: '1' };
      const coupon = { code: `ST${hex(4).toUpperCase()}`, percent_off: '10', amount_off: '', currency: 'USD', xtra_keys: '0', max_redemptions: '', per_reader_limit: '1', starts_at: '', ends_at: '', active: '1' };
      const plan = { code: `st-${hex(4)}`, name: 'P', benefits: '', currency: 'USD', price: '4.99', period_months: '1', series_slots: '3', rent_capacity: '0', rent_hours: '72', trial_days: '0', position: '0', active: '1' };
      const price = { min: '$1.00', max: '$10,000.00' };
      const cases: [string, Record<string, string>, string, string, Record<string, string | number>?][] = [
        ['packs', { ...pack, price: '-1' }, 'price', 'studio.shop.error.price', price],
        ['packs', { ...pack, price: '0' }, 'price', 'studio.shop.error.price', price],
        ['packs', { ...pack, price: '0.99' }, 'price', 'studio.shop.error.price', price],
        ['packs', { ...pack, price: '4.999' }, 'price', 'studio.shop.error.price', price],
        ['packs', { ...pack, price: '99999999' }, 'price', 'studio.shop.error.price', price],
        ['packs', { ...pack, price: '1e9' }, 'price', 'studio.shop.error.price', price],
        ['packs', { ...pack, keys: '0' }, 'keys', 'studio.shop.error.keys', { max: '1,000,000' }],
        ['packs', { ...pack, keys: '99999999999999999999' }, 'keys', 'studio.shop.error.keys', { max: '1,000,000' }],
        ['packs', { ...pack, xtra_keys: '-5' }, 'xtra_keys', 'studio.shop.error.xtraKeys', { max: '1,000,000' }],
        ['packs', { ...pack, currency: 'BRL' }, 'currency', 'studio.shop.error.currency', { currency: 'USD' }],
        ['packs', { ...pack, code: 'Bad Code!' }, 'code', 'studio.shop.error.packCode'],
        ['packs', { ...pack, code: taken }, 'code', 'studio.shop.error.codeTaken'],
        ['coupons', { ...coupon, code: 'BAD CODE!' }, 'code', 'studio.shop.error.couponCode'],
        ['coupons', { ...coupon, code: 'WELCOME10' }, 'code', 'studio.shop.error.codeTaken'],
        ['coupons', { ...coupon, percent_off: '101' }, 'percent_off', 'studio.shop.error.percent'],
        ['coupons', { ...coupon, percent_off: '10', amount_off: '1.00' }, 'percent_off', 'studio.shop.error.bothDiscounts'],
        ['coupons', { ...coupon, percent_off: '', amount_off: '2.00', currency: 'BRL' }, 'currency', 'studio.shop.error.currency', { currency: 'USD' }],
        ['coupons', { ...coupon, max_redemptions: '99999999999' }, 'max_redemptions', 'studio.shop.error.maxUses', { max: '1,000,000' }],
        ['coupons', { ...coupon, starts_at: '2026-06-01T00:00', ends_at: '2026-05-01T00:00' }, 'ends_at', 'studio.shop.error.window'],
        ['coupons', { ...coupon, starts_at: '2026-02-30T00:00' }, 'starts_at', 'studio.shop.error.time'],
        ['coupons', { ...coupon, percent_off: '' }, 'percent_off', 'studio.shop.error.givesNothing'],
        ['plans', { ...plan, price: '0' }, 'price', 'studio.shop.error.price', price],
        ['plans', { ...plan, name: '' }, 'name', 'studio.shop.error.planName'],
        ['plans', { ...plan, period_months: '13' }, 'period_months', 'studio.shop.error.months'],
        ['plans', { ...plan, rent_hours: '0' }, 'rent_hours', 'studio.shop.error.rentHours', { max: '8,760' }],
        ['plans', { ...plan, code: 'reader' }, 'code', 'studio.shop.error.codeTaken'],
      ];
      const counts = () => withDb(server, async (db) => Promise.all(['key_packs', 'coupons', 'plans', 'audit_log'].map(async (t) => Number((await db.selectFrom(t as 'plans').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n))));
      const before = await counts();
      for (const [kind, fields, field, key, params] of cases) {
        await forgetLimits(server, pricing);
        const res = await post(`/studio/shop/${kind}/new/`, pricing, fields);
        const label = `${kind} ${JSON.stringify(fields)}`;
        expect(res.status, label).toBe(422);
        const html = markup(res.text);
        const error = new RegExp(`<p class="field-error" id="shop-${field}-error"[^>]*>([\\s\\S]*?)</p>`).exec(html)?.[1];
        expect(error === undefined ? undefined : plain(htmlText(error)), label).toBe(plain(message('en', key, params)));
        expect(html, label).toMatch(new RegExp(`id="shop-${field}"[^>]*aria-describedby="[^"]*shop-${field}-error`));
        expect(htmlText(html), label).toContain(message('en', 'studio.shop.error.form'));
        const typed = fields[field] ?? '';
        // What was typed is shown again in its field.
        if (typed) expect(html, label).toMatch(new RegExp(`id="shop-${field}"[^>]*value="${typed.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"`));
      }
      expect(await counts()).toEqual(before);

      // The Portuguese site speaks its language and its currency.
      const br = await post('/studio/shop/packs/new/', pricing, { ...pack, currency: 'BRL', price: '0,50' }, { site: 'br' });
      expect(br.status).toBe(422);
      expect(plain(htmlText(/id="shop-price-error"[^>]*>([\s\S]*?)<\/p>/.exec(br.text)?.[1] ?? ''))).toBe(plain(message('pt-BR', 'studio.shop.error.price', { min: 'R$ 1,00', max: 'R$ 10.000,00' })));
      expect(br.text).toMatch(/id="shop-price"[^>]*value="0,50"/);

      // Another site's rows, unknown ids and kinds are not found, for reading and for saving.
      const brPack = await withDb(server, (db) => db.selectFrom('key_packs').select('id').where('site_id', '=', 3).where('code', '=', 'popular').executeTakeFirstOrThrow());
      for (const path of [`/studio/shop/packs/${brPack.id}/`, '/studio/shop/packs/999999999/', '/studio/shop/packs/abc/', '/studio/shop/things/new/', '/studio/shop/coupons/0/']) {
        expect((await get(path, pricing)).status, path).toBe(404);
      }
      expect((await post(`/studio/shop/packs/${brPack.id}/`, pricing, pack)).status).toBe(404);
      expect(await counts()).toEqual(before);
      await post(`/studio/shop/packs/${idFrom(first.headers.location, 'packs')}/`, pricing, { currency: 'USD', price: '1.00', keys: '1', xtra_keys: '0', position: '92' });
    });

    it('every shop route: 303 to the login signed out, 403 without `pricing`, 403 from another origin; nothing written', async () => {
      const content = await createStaff(server, 'content', 'support');
      const reader = await createReader(server);
      const packId = Number((await withDb(server, (db) => db.selectFrom('key_packs').select('id').where('site_id', '=', 1).where('code', '=', 'popular').executeTakeFirstOrThrow())).id);
      const couponId = Number((await withDb(server, (db) => db.selectFrom('coupons').select('id').where('site_id', '=', 1).where('code', '=', 'WELCOME10').executeTakeFirstOrThrow())).id);
      const planId = Number((await withDb(server, (db) => db.selectFrom('plans').select('id').where('site_id', '=', 1).where('code', '=', 'reader').executeTakeFirstOrThrow())).id);
      const routes = ['/studio/shop/', '/studio/shop/packs/new/', `/studio/shop/packs/${packId}/`, '/studio/shop/coupons/new/', `/studio/shop/coupons/${couponId}/`, '/studio/shop/plans/new/', `/studio/shop/plans/${planId}/`];
      const audits = () => withDb(server, async (db) => Number((await db.selectFrom('audit_log').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n));
      const before = await audits();
      const hostile = { code: `st-${hex(4)}`, currency: 'USD', price: '1.00', keys: '1', percent_off: '99', name: 'x', series_slots: '1', rent_hours: '1' };
      for (const site of ['en', 'br'] as const) {
        for (const path of routes) {
          const out = await get(path, null, site);
          expect([out.status, out.headers.location], path).toEqual([303, `/auth/login/?next=${encodeURIComponent(path)}`]);
          for (const who of [content, reader]) {
            const res = await get(path, who, site);
            expect(res.status, `${site} ${path}`).toBe(403);
            expect(res.text).toContain(message(site === 'br' ? 'pt-BR' : 'en', 'staff.error.forbidden'));
            if (path !== '/studio/shop/') expect((await post(path, who, hostile, { site })).status, `POST ${site} ${path}`).toBe(403);
          }
          if (path !== '/studio/shop/') {
            expect((await post(path, null, hostile, { site })).status, `POST signed out ${path}`).toBe(303);
            expect((await post(path, pricing, hostile, { site, origin: 'https://evil.example' })).status, `cross-origin ${path}`).toBe(403);
          }
        }
      }
      expect(await audits()).toBe(before);
      expect(await withDb(server, async (db) => (await db.selectFrom('key_packs').select('id').where('code', '=', hostile.code).execute()).length)).toBe(0);
      // The studio home lists the section for `pricing` only.
      expect((await get('/studio/', pricing)).text).toContain('href="/studio/shop/"');
      expect((await get('/studio/', content)).text).not.toContain('href="/studio/shop/"');
    });

    it('`npm run shop` keeps working through the same rules, and writes its audit record as the command line', async () => {
      const code = `st-${hex(4)}`;
      const refused = await npmRun(server.databaseUrl, 'shop', ['pack', '--site', '1', '--code', code, '--price', '0', '--keys', '10']);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toMatch(/^price must be a whole number of minor units, at least 100 and at most 1000000$/m);
      const saved = await npmRun(server.databaseUrl, 'shop', ['pack', '--site', '1', '--code', code, '--price', '250', '--keys', '10', '--inactive']);
      expect([saved.code, saved.stdout.trim()], saved.stderr).toEqual([0, `Saved pack ${code} on site 1.`]);
      const id = Number((await withDb(server, (db) => db.selectFrom('key_packs').select('id').where('code', '=', code).executeTakeFirstOrThrow())).id);
      expect(await auditOf('key_packs', id)).toEqual([{ action: 'pack.create', actor: null, capability: 'pricing', before: null, after: { site_id: 1, code, currency: 'USD', price: 250, keys: 10, xtra_keys: 0, position: 0, active: 0 } }]);
      // The studio shows what the command line wrote, in the site's format.
      expect((await get(`/studio/shop/packs/${id}/`, pricing)).text).toMatch(/id="shop-price"[^>]*value="2.50"/);
    });
  });
}
