/**
 * Refunds over real HTTP on both databases (issue 28; docs/payments.md "Refunds", docs/staff.md
 * "Support desk: payments"), through the demo sandboxes: a `money` member refunds a card order on
 * the desk (and who may not: `support`, a reader, the signed-out, another site), twice and twenty
 * times at once; a refund racing unlocks of the same keys; a partial refund after keys were spent
 * (and the card sandbox refusing a part of a sale that has not settled); the reader's 7-day
 * withdrawal on the Portuguese site (Pix); the "to refund" queue (a Pix order expired by the
 * status poll, then its sandbox charge marked paid in its last seconds and the signed webhook
 * delivered, so the payment is one the Pix sandbox can give back); and the audit's four refund
 * rules, each broken by hand and watched by `npm run keys -- audit`.
 *
 * Every test ends with the keys audit passing (auditLedger + auditOrders, which runs the refund
 * rules), as purchase.test.ts does.
 */
import crypto from 'node:crypto';
import { sql } from 'kysely';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { APP_CHECK_FIELD, APP_CHECK_HEADER } from '~/lib/app-check';
import {
  appCheckToken, createReader, createStaff, forgetLimits, htmlText, message, npmRun, selectedDialects, useServer, withDb,
  type Reader, type SiteName, type TestResponse, CARD_EXPIRY, plain,
} from './harness';

const now = () => Math.floor(Date.now() / 1000);
const hex = (n: number) => crypto.randomBytes(n).toString('hex');
const DAY = 86_400;

/** The audit's refund rules as `npm run keys -- audit` names them (src/features/commerce/audit.server.ts). */
const RULES = {
  amounts: 'each refund held and reversed exactly its keys, never more than its order credited (a whole refund: all of them and the whole total)',
  state: 'an order or charge is refunded exactly when a refund of it was confirmed (REFUNDED: one whole; PARTIALLY_REFUNDED: one part)',
  reversal: 'no refund reversal without a refund its provider confirmed',
  held: 'the keys held for refunds are those of the refunds still asked of a provider',
};

function failedRules(stderr: string): string[] {
  return stderr.split('\n').map((l) => /^FAILED: (.+)$/.exec(l)?.[1]).filter((r): r is string => !!r);
}

function statusCounts(answers: TestResponse[]): Record<number, number> {
  const out: Record<number, number> = {};
  for (const a of answers) out[a.status] = (out[a.status] ?? 0) + 1;
  return out;
}

/** The text of the page's role="alert" notices. */
function alerts(html: string): string {
  return [...html.matchAll(/role="alert"[^>]*>([\s\S]*?)<\/p>/g)].map((m) => htmlText(m[1]!)).join(' | ');
}

interface Paid { e4pid: string; price: number; path: string }

for (const dialect of selectedDialects()) {
  describe(`refunds (${dialect})`, () => {
    const server = useServer(dialect);
    /** Paid, unlockable English chapters, the cheapest first. */
    let paid: Paid[] = [];

    const balances = (r: { id: number }) => withDb(server, async (db) => (await import('~/features/wallet/index.server')).balancesOf(db, r.id));
    const orderOf = async (publicId: string) => {
      const o = await withDb(server, (db) => db.selectFrom('orders').selectAll().where('public_id', '=', publicId).executeTakeFirstOrThrow());
      return { ...o, total: Number(o.total), keys: Number(o.keys), xtra_keys: Number(o.xtra_keys), paid_at: o.paid_at == null ? null : Number(o.paid_at) };
    };
    const refundsOf = async (publicId: string) =>
      (await withDb(server, (db) => db.selectFrom('refunds').selectAll().where('payable_id', '=', publicId).orderBy('id').execute()))
        .map((r) => ({ ...r, amount: Number(r.amount), keys: Number(r.keys), xtra_keys: Number(r.xtra_keys), whole: Number(r.whole) }));
    const audit = () =>
      withDb(server, async (db) => {
        const { auditLedger } = await import('~/features/wallet/index.server');
        const { auditOrders } = await import('~/features/commerce/index.server');
        return [...(await auditLedger(db)), ...(await auditOrders(db))];
      });

    /** A form POST from the site's own pages (same origin), as `who`. */
    const post = (path: string, who: Reader | null, fields: Record<string, string>, o: { site?: SiteName; headers?: Record<string, string> } = {}) =>
      server.request(path, {
        site: o.site, method: 'POST', body: new URLSearchParams(fields).toString(), timeoutMs: 60_000,
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.origin(o.site), ...(who ? { cookie: who.cookie } : {}), ...o.headers },
      });
    const get = (path: string, who: Reader | null, site: SiteName = 'en') => server.request(path, { site, headers: who ? { cookie: who.cookie } : {} });
    const desk = (id: string) => `/studio/payments/${id}/`;

    /** A card purchase through the sandbox widget's nonce call and the checkout form: the order's public id. */
    const buyCard = async (reader: Reader, pack = 'starter'): Promise<string> => {
      const nonce = await post('/payments/sandbox/nonce/', reader, { method: 'card', number: '4111111111111111', expiry: CARD_EXPIRY, cvv: '123' });
      expect(nonce.status, nonce.text).toBe(200);
      const res = await post('/my/purchase/checkout/', reader, {
        method: 'card', pack, nonce: (nonce.json() as { nonce: string }).nonce, request_key: `rk${hex(12)}`, next: '/comics/', [APP_CHECK_FIELD]: await appCheckToken(server, reader),
      });
      expect(res.status, res.text.slice(0, 300)).toBe(303);
      const row = await withDb(server, (db) => db.selectFrom('orders').select('public_id').where('user_id', '=', reader.id).where('state', '=', 'PAID').orderBy('id', 'desc').executeTakeFirstOrThrow());
      return row.public_id;
    };
    /** A Pix purchase on the Portuguese site, paid with `npm run payments -- pay` as purchase.test.ts does. */
    const buyPix = async (reader: Reader, pack = 'starter'): Promise<string> => {
      const res = await server.request('/my/purchase/pix/', {
        site: 'br', method: 'POST', body: new URLSearchParams({ pack }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.origin('br'), cookie: reader.cookie, [APP_CHECK_HEADER]: await appCheckToken(server, reader, 'br') },
      });
      expect(res.status, res.text).toBe(200);
      const id = (res.json() as { checkout: { correlationID: string } }).checkout.correlationID;
      const pay = await npmRun(server.databaseUrl, 'payments', ['pay', id, '--url', `http://127.0.0.1:${server.port}`]);
      expect(pay.code, pay.stdout + pay.stderr).toBe(0);
      expect((await orderOf(id)).state).toBe('PAID');
      return id;
    };
    /** The card sandbox settles a sale a day after it was made: this one as if made two days ago. */
    const settleSandboxSale = (orderId: string) =>
      withDb(server, (db) => db.updateTable('sandbox_card_nonces').set({ used_at: now() - 2 * DAY }).where('order_id', '=', orderId).execute());
    /** Unlocks a chapter with the no-JavaScript form (303 to the chapter when it opened). */
    const unlock = (reader: Reader, chapter: Paid) => post('/unlock/', reader, { content: chapter.e4pid });
    /** What the reader's key account lost to unlocks (paid keys). */
    const spentOnUnlocks = (reader: Reader) =>
      withDb(server, async (db) => {
        const row = await db.selectFrom('ledger_entries as e').innerJoin('ledger_transactions as t', 't.id', 'e.transaction_id').innerJoin('wallet_accounts as a', 'a.id', 'e.account_id')
          .select((eb) => eb.fn.coalesce(eb.fn.sum('e.amount'), sql.lit(0)).as('s'))
          .where('t.kind', '=', 'unlock').where('a.user_id', '=', reader.id).where('a.currency', '=', 'keys').where('e.currency', '=', 'keys').executeTakeFirstOrThrow();
        return -Number(row.s);
      });
    const refundForm = (staff: Reader | null, id: string, reason = 'customer asked by e-mail') => post(desk(id), staff, { action: 'refund', reason });

    beforeAll(async () => {
      paid = await withDb(server, async (db) => {
        const { pricingContext, accessIn } = await import('~/features/catalog/index.server');
        const { readerPath } = await import('~/lib/paths');
        const t = now();
        const rows = await db
          .selectFrom('chapters').innerJoin('series', 'series.id', 'chapters.series_id')
          .select(['chapters.e4pid', 'chapters.number', 'chapters.language', 'series.slug', 'series.format'])
          .where('series.state', '=', 'ACTIVE').where('series.geoblocks', 'in', ['[]', '']).where('chapters.language', '=', 'en')
          .where('chapters.original_price', '>', 0).where('chapters.released_at', '<=', t - DAY).where('chapters.sale_at', '<=', t - DAY)
          .orderBy('chapters.id').limit(300).execute();
        const rich = { owned: false, rentals: [], balances: { keys: 1e6, xtra: 0 }, dailyPassUsedAt: null, adsWatched: 0, subscription: null };
        const out: Paid[] = [];
        for (const r of rows) {
          const ctx = await pricingContext(db, r.e4pid, t);
          if (!ctx) continue;
          const access = accessIn(ctx, rich, null, t);
          if (accessIn(ctx, null, null, t).readable || !access.unlockMethods.keys.open || access.finalPrice <= 0 || access.readableUntil !== null) continue;
          out.push({ e4pid: r.e4pid, price: access.finalPrice, path: readerPath({ slug: r.slug, format: r.format }, { e4pid: r.e4pid, number: Number(r.number), language: r.language }) });
        }
        return out.sort((a, b) => a.price - b.price);
      });
      expect(paid.length).toBeGreaterThan(10);
      // A few keys, so a reader holding a 50-key pack can unlock several and not all at once.
      expect(paid[0]!.price).toBeLessThan(25);
    }, 120_000);

    afterEach(async () => {
      expect(await audit()).toEqual([]);
    });

    it('a money member refunds an unspent card order on the desk; support, readers, the signed-out and other sites may not', { timeout: 90_000 }, async () => {
      const reader = await createReader(server);
      const money = await createStaff(server, 'money');
      const support = await createStaff(server, 'support');
      expect(await balances(reader)).toEqual({ keys: 0, xtra: 0 });
      const id = await buyCard(reader);
      expect(await balances(reader)).toEqual({ keys: 50, xtra: 0 });

      // support reads the page, without a refund form, and may not refund.
      const read = await get(desk(id), support);
      expect(read.status).toBe(200);
      expect(htmlText(read.text)).toContain(message('en', 'desk.readOnly'));
      expect(read.text).not.toMatch(/name="action" value="refund"/);
      expect(plain(htmlText(read.text))).toContain(plain(message('en', 'desk.refund.quoteWhole', { amount: '$4.99', keys: 50, xtra: 0 })));
      const bySupport = await refundForm(support, id);
      expect(bySupport.status).toBe(403);
      // A reader: 403 for the page and the form; signed out: to the login page.
      expect((await get(desk(id), reader)).status).toBe(403);
      expect((await refundForm(reader, id)).status).toBe(403);
      const anonymous = await refundForm(null, id);
      expect(anonymous.status).toBe(303);
      expect(anonymous.headers.location).toMatch(/^\/auth\/login\//);
      // The money member's own session, from another site: refused before anything is read.
      for (const headers of [{ origin: 'http://evil.example' }, { origin: server.origin('br') }, { 'sec-fetch-site': 'cross-site' }] as Record<string, string>[]) {
        expect((await post(desk(id), money, { action: 'refund', reason: 'cross-site' }, { headers })).status, JSON.stringify(headers)).toBe(403);
      }
      expect(await refundsOf(id)).toEqual([]);
      // A reason too short: 422 with the desk's message, nothing refunded.
      const bad = await refundForm(money, id, 'x');
      expect(bad.status).toBe(422);
      expect(alerts(bad.text)).toContain(message('en', 'desk.refund.problem.reason'));
      expect(await refundsOf(id)).toEqual([]);
      expect((await orderOf(id)).state).toBe('PAID');
      expect(await balances(reader)).toEqual({ keys: 50, xtra: 0 });
    });

    it('a money member refunds an unspent card order: 303, REFUNDED on the desk and the reader\'s purchases, keys back to before, audited; twice and 20 at once refund once', { timeout: 120_000 }, async () => {
      const reader = await createReader(server);
      const money = await createStaff(server, 'money');
      const id = await buyCard(reader);
      const reason = `refund test ${hex(3)}: the reader bought the wrong pack`;
      const res = await refundForm(money, id, reason);
      expect(res.status, alerts(res.text)).toBe(303);
      expect(res.headers.location).toBe(`${desk(id)}?done=confirmed`);
      const page = await get(res.headers.location!, money);
      expect(page.status).toBe(200);
      const text = plain(htmlText(page.text));
      expect(text).toContain(message('en', 'desk.refund.done.confirmed'));
      expect(text).toContain(message('en', 'purchases.state.refunded'));
      expect(text).toContain(message('en', 'desk.refund.problem.refunded'));
      expect(page.text).not.toMatch(/name="action" value="refund"/);
      const [refund] = await refundsOf(id);
      expect(refund).toMatchObject({ state: 'CONFIRMED', amount: 499, keys: 50, xtra_keys: 0, whole: 1, origin: 'staff', reason, provider: 'sandbox', provider_action: 'void' });
      expect(text).toContain(refund!.public_id);
      expect((await orderOf(id)).state).toBe('REFUNDED');
      expect(await balances(reader)).toEqual({ keys: 0, xtra: 0 });
      // The reader's inbox tells of the payment and of its refund (issue 32).
      const told = await withDb(server, (db) => db.selectFrom('notifications').select('kind').where('user_id', '=', reader.id).orderBy('id').execute());
      expect(told.map((n) => n.kind)).toEqual(['PAYMENT_PAID', 'PAYMENT_REFUNDED']);
      const mine = await get('/my/purchases/', reader);
      const row = new RegExp(`<li[^>]*id="order-${id}"[\\s\\S]*?</li>`).exec(mine.text)?.[0] ?? '';
      expect(htmlText(row)).toContain(message('en', 'purchases.state.refunded'));
      expect(row).not.toContain('/withdraw/');
      const trail = await withDb(server, (db) => db.selectFrom('audit_log').select(['actor_id', 'capability', 'action', 'after_json']).where('object_table', '=', 'orders').where('object_id', '=', id).execute());
      expect(trail).toHaveLength(1);
      expect(trail[0]).toMatchObject({ action: 'refund.request', capability: 'money' });
      expect(Number(trail[0]!.actor_id)).toBe(money.id);
      expect(JSON.parse(trail[0]!.after_json!)).toMatchObject({ refund: refund!.public_id, amount: 499, reason });

      // Again: the page says it was refunded already, and nothing more is given back.
      const again = await refundForm(money, id);
      expect(again.status).toBe(409);
      expect(alerts(again.text)).toContain(message('en', 'desk.refund.problem.refunded'));
      expect(await refundsOf(id)).toHaveLength(1);
      expect(await balances(reader)).toEqual({ keys: 0, xtra: 0 });

      // Twenty at once on another order: one refund, confirmed once, the keys taken once.
      const racer = await createReader(server);
      const raced = await buyCard(racer, 'popular');
      expect(await balances(racer)).toEqual({ keys: 100, xtra: 10 });
      await forgetLimits(server, money);
      const answers = await Promise.all(Array.from({ length: 20 }, () => refundForm(money, raced, 'twenty clicks at once')));
      const counts = statusCounts(answers);
      expect((counts[303] ?? 0) + (counts[409] ?? 0), JSON.stringify(counts)).toBe(20);
      expect(counts[303]).toBeGreaterThanOrEqual(1);
      for (const a of answers.filter((x) => x.status === 409)) expect(alerts(a.text)).toContain(message('en', 'desk.refund.problem.refunded'));
      const rows = await refundsOf(raced);
      expect(rows.map((r) => ({ state: r.state, keys: r.keys, xtra: r.xtra_keys, amount: r.amount }))).toEqual([{ state: 'CONFIRMED', keys: 100, xtra: 10, amount: 999 }]);
      expect(await withDb(server, (db) => db.selectFrom('sandbox_refunds').select('refund_id').where('correlation_id', '=', rows[0]!.public_id).execute())).toHaveLength(1);
      expect((await orderOf(raced)).state).toBe('REFUNDED');
      expect(await balances(racer)).toEqual({ keys: 0, xtra: 0 });
      await forgetLimits(server, money);
    });

    it('a refund racing unlocks of the same keys: it takes exactly the keys left at its moment, or is refused as spent; no balance below zero', { timeout: 90_000 }, async () => {
      const reader = await createReader(server);
      const money = await createStaff(server, 'money');
      const id = await buyCard(reader);
      // Settled at the sandbox, so a part can be refunded too (a void is only for a whole unsettled sale).
      await settleSandboxSale(id);
      const chapters = paid.slice(0, 8);
      const answers = await Promise.all([refundForm(money, id, 'racing the unlocks'), ...chapters.map((c) => unlock(reader, c))]);
      const [refundAnswer, ...unlocks] = answers;
      expect([303, 409]).toContain(refundAnswer!.status);
      for (const u of unlocks) expect(u.status).toBe(303);
      const after = await balances(reader);
      expect(after.keys).toBeGreaterThanOrEqual(0);
      expect(after.xtra).toBe(0);
      const spent = await spentOnUnlocks(reader);
      const order = await orderOf(id);
      const rows = await refundsOf(id);
      if (refundAnswer!.status === 303) {
        expect(rows).toHaveLength(1);
        const r = rows[0]!;
        expect(r.state).toBe('CONFIRMED');
        // The refund took every paid key left; unlocks after it found none.
        expect(after.keys).toBe(0);
        expect(r.keys).toBe(50 - spent);
        if (r.keys === 50) expect({ state: order.state, amount: r.amount, whole: r.whole }).toEqual({ state: 'REFUNDED', amount: 499, whole: 1 });
        else expect({ state: order.state, amount: r.amount, whole: r.whole }).toEqual({ state: 'PARTIALLY_REFUNDED', amount: Math.floor((499 * r.keys) / 50), whole: 0 });
      } else {
        // Refused as spent: nothing was left when it looked.
        expect(alerts(refundAnswer!.text)).toContain(message('en', 'desk.refund.problem.spent'));
        expect(rows).toEqual([]);
        expect(order.state).toBe('PAID');
        expect(spent).toBe(50 - after.keys);
        expect(after.keys).toBe(0);
      }
      // The unlocks that opened are the ones the ledger charged.
      const opened = unlocks.filter((u) => !String(u.headers.location).includes('unlock=insufficient')).length;
      const charged = await withDb(server, async (db) => (await db.selectFrom('ledger_transactions').select('id').where('kind', '=', 'unlock').where('user_id', '=', reader.id).execute()).length);
      expect(charged).toBe(opened);
    });

    it('a partial refund after keys were spent: PARTIALLY_REFUNDED for floor(total × unspent / keys), shown on the desk; an unsettled sale\'s part is refused and changes nothing', { timeout: 90_000 }, async () => {
      const reader = await createReader(server);
      const money = await createStaff(server, 'money');
      const id = await buyCard(reader);
      const chapter = paid[0]!;
      expect((await unlock(reader, chapter)).headers.location).toBe(chapter.path);
      const left = 50 - chapter.price;
      expect(await balances(reader)).toEqual({ keys: left, xtra: 0 });
      const amount = Math.floor((499 * left) / 50);
      const money$ = (n: number) => `$${(n / 100).toFixed(2)}`;
      const page = await get(desk(id), money);
      expect(plain(htmlText(page.text))).toContain(plain(message('en', 'desk.refund.quotePart', { amount: money$(amount), keys: left, xtra: 0 })));

      // The sale has not settled at the sandbox yet (a day): a part of it is refused, as Braintree refuses it.
      const refused = await refundForm(money, id, 'a part before settlement');
      expect(refused.status).toBe(409);
      expect(alerts(refused.text)).toContain(message('en', 'desk.refund.done.refused', { message: 'The sale has not settled yet; refund it once it settles.' }));
      expect((await orderOf(id)).state).toBe('PAID');
      expect(await balances(reader)).toEqual({ keys: left, xtra: 0 });
      expect((await refundsOf(id)).map((r) => r.state)).toEqual(['FAILED']);

      await settleSandboxSale(id);
      const res = await refundForm(money, id, 'a part after settlement');
      expect(res.status, alerts(res.text)).toBe(303);
      expect((await orderOf(id)).state).toBe('PARTIALLY_REFUNDED');
      const rows = await refundsOf(id);
      expect(rows.map((r) => ({ state: r.state, amount: r.amount, keys: r.keys, whole: r.whole, action: r.provider_action }))).toEqual([
        { state: 'FAILED', amount, keys: left, whole: 0, action: null },
        { state: 'CONFIRMED', amount, keys: left, whole: 0, action: 'refund' },
      ]);
      expect(await balances(reader)).toEqual({ keys: 0, xtra: 0 });
      const after = plain(htmlText((await get(desk(id), money)).text));
      expect(after).toContain(message('en', 'purchases.state.partiallyRefunded'));
      expect(after).toContain(`${money$(amount)} · ${message('en', 'desk.refund.state.CONFIRMED')}`);
      expect(after).toContain(message('en', 'desk.refund.problem.refunded'));
      // The reader's list says so too, with no withdrawal offered.
      const row = new RegExp(`<li[^>]*id="order-${id}"[\\s\\S]*?</li>`).exec((await get('/my/purchases/', reader)).text)?.[0] ?? '';
      expect(htmlText(row)).toContain(message('en', 'purchases.state.partiallyRefunded'));
    });

    it('the reader\'s 7-day withdrawal on the Portuguese site (Pix): within 7 days and unspent it refunds; twice, another reader\'s, spent and too late are refused with the reason', { timeout: 120_000 }, async () => {
      const reader = await createReader(server, { site: 'br' });
      const intruder = await createReader(server, { site: 'br' });
      const withdraw = (who: Reader, id: string) => post(`/my/purchases/${id}/withdraw/`, who, {}, { site: 'br' });
      const list = async () => (await get('/my/purchases/', reader, 'br')).text;
      const rowOf = (html: string, id: string) => new RegExp(`<li[^>]*id="order-${id}"[\\s\\S]*?</li>`).exec(html)?.[0] ?? '';
      const a = await buyPix(reader);
      expect(await balances(reader)).toEqual({ keys: 50, xtra: 0 });
      const offered = rowOf(await list(), a);
      expect(offered).toContain(`action="/my/purchases/${a}/withdraw/"`);
      expect(plain(htmlText(offered))).toContain(plain(message('pt-BR', 'purchases.withdraw.button', { amount: 'R$\u00a019,90' })));

      // Another reader's order: 404 with the reason, nothing refunded.
      const stolen = await withdraw(intruder, a);
      expect(stolen.status).toBe(404);
      expect(htmlText(stolen.text)).toContain(message('pt-BR', 'purchases.withdraw.error.unknown'));
      expect(await refundsOf(a)).toEqual([]);

      const done = await withdraw(reader, a);
      expect(done.status, htmlText(done.text).slice(0, 300)).toBe(303);
      expect(done.headers.location).toBe(`/my/purchases/?withdrawn=${a}#order-${a}`);
      const notice = await get(done.headers.location!.split('#')[0]!, reader, 'br');
      expect(plain(htmlText(notice.text))).toContain(plain(message('pt-BR', 'purchases.withdraw.done', { amount: 'R$\u00a019,90' })));
      expect(htmlText(rowOf(notice.text, a))).toContain(message('pt-BR', 'purchases.state.refunded'));
      expect(rowOf(notice.text, a)).not.toContain('/withdraw/');
      expect(await balances(reader)).toEqual({ keys: 0, xtra: 0 });
      expect((await refundsOf(a)).map((r) => ({ state: r.state, origin: r.origin, amount: r.amount, provider: r.provider }))).toEqual([{ state: 'CONFIRMED', origin: 'reader', amount: 1990, provider: 'pix-sandbox' }]);
      // Twice: 409 with the reason in Portuguese, nothing more refunded.
      const twice = await withdraw(reader, a);
      expect(twice.status).toBe(409);
      expect(htmlText(twice.text)).toContain(message('pt-BR', 'purchases.withdraw.error.refunded'));
      expect(await refundsOf(a)).toHaveLength(1);

      // A key spent: the offer gives way to the reason, and a POST is refused.
      await forgetLimits(server, reader);
      const b = await buyPix(reader);
      await withDb(server, async (db) => {
        const { unlockChapter } = await import('~/features/wallet/index.server');
        expect((await unlockChapter(db, { userId: reader.id, e4pid: paid[0]!.e4pid, now: now(), country: null })).kind).toBe('unlocked');
      });
      const spentRow = rowOf(await list(), b);
      expect(spentRow).not.toContain('/withdraw/');
      expect(htmlText(spentRow)).toContain(message('pt-BR', 'purchases.withdraw.spent'));
      const spent = await withdraw(reader, b);
      expect(spent.status).toBe(409);
      expect(htmlText(spent.text)).toContain(message('pt-BR', 'purchases.withdraw.error.spent'));
      expect((await orderOf(b)).state).toBe('PAID');

      // More than 7 days after payment: the reason with the date the period ended, and 409.
      const c = await buyPix(reader);
      const paidAt = now() - 8 * DAY;
      await withDb(server, (db) => db.updateTable('orders').set({ paid_at: paidAt }).where('public_id', '=', c).execute());
      const lateRow = htmlText(rowOf(await list(), c));
      const { absoluteDate } = await import('~/lib/dates');
      const { SITES } = await import('~/lib/site');
      expect(plain(lateRow)).toContain(plain(message('pt-BR', 'purchases.withdraw.window', { date: absoluteDate(paidAt + 7 * DAY, 'pt-BR', SITES[3].timeZone) })));
      expect(rowOf(await list(), c)).not.toContain('/withdraw/');
      const late = await withdraw(reader, c);
      expect(late.status).toBe(409);
      expect(htmlText(late.text)).toContain(message('pt-BR', 'purchases.withdraw.error.window'));
      expect((await orderOf(c)).state).toBe('PAID');
      expect(await refundsOf(c)).toEqual([]);
      await forgetLimits(server, reader);
    });

    it('the to-refund queue: a Pix payment after its order expired is refunded (money) or dismissed with a reason; support 403, a bad reason 422', { timeout: 90_000 }, async () => {
      const reader = await createReader(server, { site: 'br' });
      const money = await createStaff(server, 'money');
      const support = await createStaff(server, 'support');
      const { sandboxEventBody, signWebhook, sandboxWebhookKey } = await import('~/features/payments/sandbox.server');
      /** A Pix charge paid at the PSP only after its order expired: a payment recorded "to refund". */
      const latePayment = async (): Promise<{ dueId: number; order: string; payment: string }> => {
        const res = await server.request('/my/purchase/pix/', {
          site: 'br', method: 'POST', body: new URLSearchParams({ pack: 'starter' }).toString(),
          headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.origin('br'), cookie: reader.cookie, [APP_CHECK_HEADER]: await appCheckToken(server, reader, 'br') },
        });
        expect(res.status, res.text).toBe(200);
        const id = (res.json() as { checkout: { correlationID: string } }).checkout.correlationID;
        // The charge runs out and the order expires, as the status poll finds it.
        await withDb(server, (db) => db.updateTable('sandbox_pix_charges').set({ expires_at: now() - 5 }).where('correlation_id', '=', id).execute());
        const poll = await server.request(`/my/purchase/pix/${id}/`, { site: 'br', headers: { cookie: reader.cookie } });
        expect([poll.status, poll.json()]).toEqual([200, { status: 'EXPIRED', paid: false }]);
        // Yet the PSP took a payment in the charge's last seconds (its side of the story, in the sandbox's table).
        const paymentId = `E2E${hex(12).toUpperCase()}`;
        const row = await withDb(server, async (db) => {
          await db.updateTable('sandbox_pix_charges').set({ status: 'COMPLETED', payment_id: paymentId, paid_at: now() - 6 }).where('correlation_id', '=', id).execute();
          return db.selectFrom('sandbox_pix_charges').selectAll().where('correlation_id', '=', id).executeTakeFirstOrThrow();
        });
        const charge = { correlationID: id, value: Number(row.value), status: 'COMPLETED' as const, brCode: row.br_code, expiresAt: Number(row.expires_at), paymentId };
        const body = Buffer.from(sandboxEventBody('OPENPIX:CHARGE_COMPLETED', charge));
        const hook = await server.request('/webhooks/pix/', { method: 'POST', body, headers: { 'content-type': 'application/json', 'x-inkpass-signature': signWebhook(body, sandboxWebhookKey()) } });
        expect([hook.status, hook.json()]).toEqual([200, { ok: true, result: 'closed' }]);
        const due = await withDb(server, (db) => db.selectFrom('refunds_due').select(['id', 'resolved_at']).where('payment_id', '=', charge.paymentId!).executeTakeFirstOrThrow());
        expect(due.resolved_at).toBeNull();
        return { dueId: Number(due.id), order: id, payment: charge.paymentId! };
      };
      const first = await latePayment();
      const second = await latePayment();
      expect(await balances(reader)).toEqual({ keys: 0, xtra: 0 });
      const queue = (who: Reader, fields: Record<string, string>) => post('/studio/payments/', who, fields);

      const page = await get('/studio/payments/', support);
      expect(page.status).toBe(200);
      expect(page.text).toContain(`id="due-${first.dueId}"`);
      expect(page.text).not.toMatch(/name="due"/);
      expect((await queue(support, { due: String(first.dueId), action: 'refund', reason: 'support tries' })).status).toBe(403);
      expect((await queue(reader, { due: String(first.dueId), action: 'refund', reason: 'reader tries' })).status).toBe(403);
      const bad = await queue(money, { due: String(first.dueId), action: 'refund', reason: 'no' });
      expect(bad.status).toBe(422);
      expect(alerts(bad.text)).toContain(message('en', 'desk.refund.problem.reason'));
      expect(await withDb(server, (db) => db.selectFrom('refunds').select('id').where('payable_kind', '=', 'due').where('payable_id', '=', String(first.dueId)).execute())).toEqual([]);

      const refunded = await queue(money, { due: String(first.dueId), action: 'refund', reason: 'paid after the order expired' });
      expect(refunded.status, alerts(refunded.text)).toBe(303);
      expect(refunded.headers.location).toBe('/studio/payments/?done=confirmed');
      const dismissed = await queue(money, { due: String(second.dueId), action: 'dismiss', reason: 'settled with the reader by e-mail' });
      expect(dismissed.status, alerts(dismissed.text)).toBe(303);
      expect(dismissed.headers.location).toBe('/studio/payments/?done=dismissed');
      const dues = await withDb(server, (db) => db.selectFrom('refunds_due').select(['id', 'resolution', 'resolved_by', 'refund_id']).where('id', 'in', [first.dueId, second.dueId]).orderBy('id').execute());
      const refund = await withDb(server, (db) => db.selectFrom('refunds').selectAll().where('payable_kind', '=', 'due').where('payable_id', '=', String(first.dueId)).executeTakeFirstOrThrow());
      expect(refund).toMatchObject({ state: 'CONFIRMED', payment_id: first.payment, provider: 'pix-sandbox' });
      expect(Number(refund.amount)).toBe(1990);
      expect(dues.map((d) => ({ resolution: d.resolution, by: Number(d.resolved_by), refund: d.refund_id == null ? null : Number(d.refund_id) }))).toEqual([
        { resolution: `refunded (${refund.public_id})`, by: money.id, refund: Number(refund.id) },
        { resolution: 'dismissed: settled with the reader by e-mail', by: money.id, refund: null },
      ]);
      const resolved = plain(htmlText((await get('/studio/payments/', money)).text));
      expect(resolved).toContain(`refunded (${refund.public_id})`);
      expect(resolved).toContain('dismissed: settled with the reader by e-mail');
      const after = await get('/studio/payments/', money);
      expect(after.text).not.toContain(`id="due-${first.dueId}"`);
      expect(after.text).not.toContain(`id="due-${second.dueId}"`);
      // Resolved: neither can be refunded or dismissed again.
      expect((await queue(money, { due: String(second.dueId), action: 'refund', reason: 'again' })).status).toBe(409);
      expect((await queue(money, { due: String(first.dueId), action: 'dismiss', reason: 'again' })).status).toBe(409);
      expect(await balances(reader)).toEqual({ keys: 0, xtra: 0 });
      const trail = await withDb(server, (db) => db.selectFrom('audit_log').select(['action', 'object_id']).where('object_table', '=', 'refunds_due').where('object_id', 'in', [String(first.dueId), String(second.dueId)]).orderBy('id').execute());
      expect(trail).toEqual([{ action: 'refund.request', object_id: String(first.dueId) }, { action: 'refund_due.dismiss', object_id: String(second.dueId) }]);
      await forgetLimits(server, money);
    });
  });

  describe(`the audit's refund rules (${dialect})`, () => {
    const server = useServer(dialect);
    let refund: { id: number; public_id: string; keys: number; provider_refund_id: string; confirmed_at: number; order: string; paidOrder: string };

    const keysAudit = () => npmRun(server.databaseUrl, 'keys', ['audit']);
    const failing = async () => {
      const r = await keysAudit();
      expect(r.code, r.stdout + r.stderr).toBe(1);
      return failedRules(r.stderr);
    };
    const clean = async () => {
      const r = await keysAudit();
      expect(r.code, r.stdout + r.stderr).toBe(0);
    };

    beforeAll(async () => {
      const reader = await createReader(server);
      const money = await createStaff(server, 'money');
      const buy = async () => {
        const nonce = await server.request('/payments/sandbox/nonce/', {
          method: 'POST', body: new URLSearchParams({ method: 'card', number: '4111111111111111', expiry: CARD_EXPIRY, cvv: '123' }).toString(),
          headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.origin(), cookie: reader.cookie },
        });
        const res = await server.request('/my/purchase/checkout/', {
          method: 'POST', body: new URLSearchParams({ method: 'card', pack: 'starter', nonce: (nonce.json() as { nonce: string }).nonce, request_key: `rk${hex(12)}`, next: '/comics/', [APP_CHECK_FIELD]: await appCheckToken(server, reader) }).toString(),
          headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.origin(), cookie: reader.cookie },
        });
        expect(res.status).toBe(303);
        return (await withDb(server, (db) => db.selectFrom('orders').select('public_id').where('user_id', '=', reader.id).orderBy('id', 'desc').executeTakeFirstOrThrow())).public_id;
      };
      const order = await buy();
      const res = await server.request(`/studio/payments/${order}/`, {
        method: 'POST', body: new URLSearchParams({ action: 'refund', reason: 'for the audit tests' }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.origin(), cookie: money.cookie },
      });
      expect(res.status).toBe(303);
      const paidOrder = await buy();
      const r = await withDb(server, (db) => db.selectFrom('refunds').selectAll().where('payable_id', '=', order).executeTakeFirstOrThrow());
      refund = { id: Number(r.id), public_id: r.public_id, keys: Number(r.keys), provider_refund_id: r.provider_refund_id!, confirmed_at: Number(r.confirmed_at), order, paidOrder };
      expect(r.state).toBe('CONFIRMED');
    }, 120_000);

    it('holds with a confirmed refund in the database', { timeout: 60_000 }, async () => {
      await clean();
    });

    it('(a) a confirmed refund whose reversal moved other amounts than it says', { timeout: 60_000 }, async () => {
      await withDb(server, (db) => db.updateTable('refunds').set({ keys: refund.keys - 1 }).where('id', '=', refund.id).execute());
      try {
        expect(await failing()).toContain(RULES.amounts);
      } finally {
        await withDb(server, (db) => db.updateTable('refunds').set({ keys: refund.keys }).where('id', '=', refund.id).execute());
      }
      await clean();
    });

    it('(b) an order REFUNDED without a confirmed refund, and PAID with one', { timeout: 60_000 }, async () => {
      await withDb(server, (db) => db.updateTable('orders').set({ state: 'REFUNDED' }).where('public_id', '=', refund.paidOrder).execute());
      try {
        expect(await failing()).toEqual([RULES.state]);
      } finally {
        await withDb(server, (db) => db.updateTable('orders').set({ state: 'PAID' }).where('public_id', '=', refund.paidOrder).execute());
      }
      await withDb(server, (db) => db.updateTable('orders').set({ state: 'PAID' }).where('public_id', '=', refund.order).execute());
      try {
        expect(await failing()).toContain(RULES.state);
      } finally {
        await withDb(server, (db) => db.updateTable('orders').set({ state: 'REFUNDED' }).where('public_id', '=', refund.order).execute());
      }
      await clean();
    });

    it('(c) a refund reversal whose refund is not CONFIRMED; and the database itself refuses a CONFIRMED refund without its provider id or time', { timeout: 60_000 }, async () => {
      // The CHECK: CONFIRMED exactly when confirmed_at and provider_refund_id are set.
      await expect(withDb(server, (db) => db.updateTable('refunds').set({ provider_refund_id: null }).where('id', '=', refund.id).execute())).rejects.toThrow(/refunds_confirmed|CHECK constraint/i);
      await expect(withDb(server, (db) => db.updateTable('refunds').set({ confirmed_at: null }).where('id', '=', refund.id).execute())).rejects.toThrow(/refunds_confirmed|CHECK constraint/i);
      await expect(withDb(server, (db) => db.updateTable('refunds').set({ state: 'FAILED' }).where('id', '=', refund.id).execute())).rejects.toThrow(/refunds_confirmed|CHECK constraint/i);
      expect((await withDb(server, (db) => db.selectFrom('refunds').select('state').where('id', '=', refund.id).executeTakeFirstOrThrow())).state).toBe('CONFIRMED');
      // FAILED with its provider facts cleared, as the CHECK wants, yet its reversal still in the ledger.
      await withDb(server, (db) => db.updateTable('refunds').set({ state: 'FAILED', provider_refund_id: null, confirmed_at: null }).where('id', '=', refund.id).execute());
      try {
        expect(await failing()).toContain(RULES.reversal);
      } finally {
        await withDb(server, (db) => db.updateTable('refunds').set({ state: 'CONFIRMED', provider_refund_id: refund.provider_refund_id, confirmed_at: refund.confirmed_at }).where('id', '=', refund.id).execute());
      }
      await clean();
    });

    it('(d) keys held for refunds when no refund is pending (a balanced transaction into refunds_held)', { timeout: 60_000 }, async () => {
      const key = `refund-audit:held:${hex(4)}`;
      const account = (code: string) => withDb(server, async (db) => Number((await db.selectFrom('wallet_accounts').select('id').where('system_code', '=', code).where('currency', '=', 'keys').executeTakeFirstOrThrow()).id));
      const [held, grants] = [await account('refunds_held'), await account('grants')];
      await withDb(server, async (db) => {
        const tx = await db.insertInto('ledger_transactions').values({ idempotency_key: key, kind: 'grant', user_id: null, chapter_id: null, reason: 'drift', created_at: now() }).returning('id').executeTakeFirstOrThrow();
        await db.insertInto('ledger_entries').values([
          { transaction_id: Number(tx.id), account_id: grants, currency: 'keys', amount: -3 },
          { transaction_id: Number(tx.id), account_id: held, currency: 'keys', amount: 3 },
        ]).execute();
        await db.updateTable('wallet_accounts').set({ balance: sql`balance - 3` }).where('id', '=', grants).execute();
        await db.updateTable('wallet_accounts').set({ balance: sql`balance + 3` }).where('id', '=', held).execute();
      });
      try {
        const r = await keysAudit();
        expect(r.code, r.stdout + r.stderr).toBe(1);
        expect(failedRules(r.stderr)).toContain(RULES.held);
      } finally {
        await withDb(server, async (db) => {
          const tx = await db.selectFrom('ledger_transactions').select('id').where('idempotency_key', '=', key).executeTakeFirstOrThrow();
          await db.deleteFrom('ledger_entries').where('transaction_id', '=', tx.id).execute();
          await db.deleteFrom('ledger_transactions').where('id', '=', tx.id).execute();
          await db.updateTable('wallet_accounts').set({ balance: sql`balance + 3` }).where('id', '=', grants).execute();
          await db.updateTable('wallet_accounts').set({ balance: sql`balance - 3` }).where('id', '=', held).execute();
        });
      }
      await clean();
    });
  });
}

