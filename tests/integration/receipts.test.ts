/**
 * Receipts over real HTTP on both databases (issue 28, docs/payments.md "Receipts"): a card
 * order's receipt on the English site and a Pix order's on the Portuguese one (seller, buyer,
 * keys, amounts, card or end-to-end id, dates, the print stylesheet), who may read one (its
 * reader and `support`; anyone else 404, signed out to the login page), unpaid and malformed ids,
 * subscription charges' receipts (card and Pix), the links from /my/purchases/ and
 * /my/subscriptions/, and a refund on the receipt.
 */
import crypto from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { APP_CHECK_FIELD, APP_CHECK_HEADER } from '~/lib/app-check';
import { absoluteDate } from '~/lib/dates';
import { ERROR_HANDLER_SCRIPT } from '~/lib/error-handler';
import { DEMO_SELLER } from '~/server/config.mjs';
import {
  appCheckHeader, appCheckToken, createReader, createStaff, htmlText, markup, message, npmRun, selectedDialects, useServer, withDb,
  type Reader, type SiteName, type TestResponse, CARD_EXPIRY, plain,
} from './harness';

const now = () => Math.floor(Date.now() / 1000);
const hex = (n: number) => crypto.randomBytes(n).toString('hex');
const textOf = (res: TestResponse) => plain(htmlText(res.text));
const receiptPath = (id: string) => `/my/purchases/${id}/receipt/`;

for (const dialect of selectedDialects()) {
  describe(`receipts (${dialect})`, () => {
    const server = useServer(dialect);

    afterEach(async () => {
      const problems = await withDb(server, async (db) => {
        const { auditLedger } = await import('~/features/wallet/index.server');
        const { auditOrders } = await import('~/features/commerce/index.server');
        return [...(await auditLedger(db)), ...(await auditOrders(db))];
      });
      expect(problems).toEqual([]);
    });

    // ------------------------------------------------------------------ buying, as the checkout does

    const form = async (reader: Reader | null, path: string, fields: Record<string, string>, site: SiteName = 'en', headers: Record<string, string> = {}) =>
      server.request(path, {
        site, method: 'POST', body: new URLSearchParams(fields).toString(), timeoutMs: 90_000,
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.origin(site), ...(reader ? { cookie: reader.cookie } : {}), ...headers },
      });
    const nonceFor = async (reader: Reader, number = '4111111111111111', site: SiteName = 'en') => {
      const res = await form(reader, '/payments/sandbox/nonce/', { method: 'card', number, expiry: CARD_EXPIRY, cvv: '123' }, site);
      expect(res.status, res.text).toBe(200);
      return (res.json() as { nonce: string }).nonce;
    };
    /** A card checkout through the sandbox; answers the order's public id. */
    const buyByCard = async (reader: Reader, fields: Record<string, string> = {}, o: { number?: string; site?: SiteName; status?: number } = {}) => {
      const site = o.site ?? 'en';
      const nonce = await nonceFor(reader, o.number, site);
      const res = await form(reader, '/my/purchase/checkout/', {
        pack: 'popular', method: 'card', nonce, request_key: `rk${hex(12)}`, next: '/comics/', ...fields, [APP_CHECK_FIELD]: await appCheckToken(server, reader, site),
      }, site);
      expect(res.status, res.text.slice(0, 300)).toBe(o.status ?? 303);
      return latestOrder(reader);
    };
    /** A Pix charge on the Portuguese site (PENDING until paid); answers the order's public id. */
    const pixOrder = async (reader: Reader) => {
      const res = await form(reader, '/my/purchase/pix/', { pack: 'popular', request_key: `rk${hex(12)}` }, 'br', { [APP_CHECK_HEADER]: await appCheckToken(server, reader, 'br') });
      expect(res.status, res.text).toBe(200);
      return (res.json() as { checkout: { correlationID: string } }).checkout.correlationID;
    };
    /** The Pix sandbox's payer: `npm run payments -- pay`, which delivers the signed webhook. */
    const pay = async (id: string) => {
      const run = await npmRun(server.databaseUrl, 'payments', ['pay', id, '--url', `http://127.0.0.1:${server.port}`], {}, 90_000);
      expect(run.code, run.stdout + run.stderr).toBe(0);
    };
    const latestOrder = (reader: Reader) =>
      withDb(server, async (db) => (await db.selectFrom('orders').select('public_id').where('user_id', '=', reader.id).orderBy('id', 'desc').executeTakeFirstOrThrow()).public_id);
    const order = (id: string) =>
      withDb(server, async (db) => {
        const o = await db.selectFrom('orders').selectAll().where('public_id', '=', id).executeTakeFirstOrThrow();
        return { ...o, created_at: Number(o.created_at), paid_at: o.paid_at == null ? null : Number(o.paid_at) };
      });
    const receipt = (reader: Reader | null, id: string, site: SiteName = 'en') =>
      server.request(receiptPath(id), { site, headers: reader ? { cookie: reader.cookie } : {} });

    const expectHidden = async (res: Promise<TestResponse>, why: string) => {
      const r = await res;
      expect(r.status, why).toBe(404);
      expect(r.headers['cache-control'] ?? '', why).not.toMatch(/public/);
      expect(r.text, why).not.toContain('data-receipt=');
    };

    // ------------------------------------------------------------------ orders

    it('a card order: its reader sees seller, email, pack and keys, amounts with the coupon, the card, the dates and the id, printable; listed on /my/purchases/', { timeout: 120_000 }, async () => {
      const reader = await createReader(server);
      const id = await buyByCard(reader, { coupon: 'WELCOME10' });
      const row = await order(id);
      expect(row).toMatchObject({ state: 'PAID', total: expect.anything() });

      const res = await receipt(reader, id);
      expect(res.status, res.text.slice(0, 300)).toBe(200);
      expect(res.headers['cache-control']).toBe('private, no-store');
      expect(res.text).toMatch(/<meta name="robots" content="noindex"/);
      expect(res.text).toContain('<html lang="en"');
      const text = textOf(res);
      for (const expected of [
        message('en', 'receipts.title'), DEMO_SELLER.name, DEMO_SELLER.address, DEMO_SELLER.taxId, reader.email,
        message('en', 'receipts.item.pack', { name: 'popular' }), message('en', 'receipts.item.keys', { keys: 100, xtra: 10 }),
        '$9.99', message('en', 'receipts.coupon', { name: 'WELCOME10' }), '−$1.00', `${message('en', 'receipts.total')} $8.99`,
        `${message('en', 'checkout.method.card')} · Visa •••• 1111`, row.payment_id!, id, message('en', 'purchases.state.paid'),
      ]) expect(text).toContain(expected);
      expect(text).not.toContain(message('en', 'receipts.endToEnd'));
      // Ordered and paid, to the minute, as <time> elements a printout and a machine both read.
      expect(res.text).toContain(`datetime="${new Date(row.created_at * 1000).toISOString()}"`);
      expect(res.text).toContain(`datetime="${new Date(row.paid_at! * 1000).toISOString()}"`);
      // Printable: the print button is an enhancement (hidden until the script shows it), and the
      // print stylesheet drops the site's chrome.
      expect(markup(res.text)).toMatch(/<button[^>]*hidden[^>]*data-print|<button[^>]*data-print[^>]*hidden/);
      expect(res.text).toMatch(/@media print\{[^]*site-header[^]*display:\s*none/);
      // Back to the list, and the list links here.
      expect(res.text).toContain(`href="/my/purchases/#order-${id}"`);
      const list = await server.request('/my/purchases/', { headers: { cookie: reader.cookie } });
      expect(list.text).toContain(`href="${receiptPath(id)}"`);
    });

    it('a Pix order on the Portuguese site: in Portuguese and reais, with the end-to-end id', { timeout: 180_000 }, async () => {
      const reader = await createReader(server, { site: 'br' });
      const id = await pixOrder(reader);
      // Pending: no receipt yet, and no link.
      await expectHidden(receipt(reader, id, 'br'), 'pending');
      expect((await server.request('/my/purchases/', { site: 'br', headers: { cookie: reader.cookie } })).text).not.toContain(receiptPath(id));
      await pay(id);
      const row = await order(id);
      expect(row.state).toBe('PAID');
      expect(row.payment_id).toBeTruthy();

      const res = await receipt(reader, id, 'br');
      expect(res.status, res.text.slice(0, 300)).toBe(200);
      expect(res.text).toContain('<html lang="pt-BR"');
      const text = textOf(res);
      for (const expected of [
        'Recibo', DEMO_SELLER.name, reader.email, message('pt-BR', 'receipts.item.keys', { keys: 100, xtra: 10 }),
        `${message('pt-BR', 'receipts.total')} R$ 39,90`, message('pt-BR', 'checkout.method.pix'),
        `${message('pt-BR', 'receipts.endToEnd')} ${row.payment_id}`, message('pt-BR', 'purchases.state.paid'), id,
      ]) expect(text).toContain(plain(expected));
      expect(text).not.toContain(message('pt-BR', 'receipts.discount'));
      expect((await server.request('/my/purchases/', { site: 'br', headers: { cookie: reader.cookie } })).text).toContain(`href="${receiptPath(id)}"`);
    });

    it('readable by its reader and by support only: another reader and staff without support get 404, signed out goes to the login page', { timeout: 120_000 }, async () => {
      const reader = await createReader(server);
      const id = await buyByCard(reader);
      // One at a time: granting writes from this process, which SQLite's lock makes wait for the server.
      const other = await createReader(server);
      const support = await createStaff(server, 'support');
      const money = await createStaff(server, 'money');
      const admin = await createStaff(server, 'admin', 'content', 'pricing');

      await expectHidden(receipt(other, id), 'another reader');
      await expectHidden(receipt(other, id, 'br'), 'another reader, Portuguese site');
      await expectHidden(receipt(money, id), 'money without support');
      await expectHidden(receipt(admin, id), 'admin without support');

      const staff = await receipt(support, id);
      expect(staff.status).toBe(200);
      expect(staff.headers['cache-control']).toBe('private, no-store');
      const text = textOf(staff);
      expect(text).toContain(reader.email);
      expect(text).toContain(message('en', 'receipts.staffNote'));
      // Not the support member's purchases: no link back to a list that is not theirs.
      expect(staff.text).not.toContain(`href="/my/purchases/#order-${id}"`);
      expect(textOf(await receipt(reader, id))).not.toContain(message('en', 'receipts.staffNote'));

      const signedOut = await receipt(null, id);
      expect(signedOut.status).toBe(303);
      expect(signedOut.headers.location).toBe(`/auth/login/?next=${encodeURIComponent(receiptPath(id))}`);
    });

    it('nothing unpaid or malformed has a receipt: a declined order, an unknown id, bad ids, other methods', { timeout: 120_000 }, async () => {
      const reader = await createReader(server);
      const failed = await buyByCard(reader, {}, { number: '4000111111111115', status: 402 });
      expect((await order(failed)).state).toBe('FAILED');
      await expectHidden(receipt(reader, failed), 'failed');
      const paidId = await buyByCard(reader);
      // An order that never paid, as the expiry check leaves it (no payment, no credit).
      const expiredId = `ord${hex(12)}`;
      await withDb(server, async (db) => {
        const { id: _id, ...paid } = await db.selectFrom('orders').selectAll().where('public_id', '=', paidId).executeTakeFirstOrThrow();
        await db.insertInto('orders').values({ ...paid, public_id: expiredId, state: 'EXPIRED', payment_id: null, card_brand: null, card_last4: null, request_key: null, ledger_transaction_id: null, paid_at: null }).execute();
      });
      await expectHidden(receipt(reader, expiredId), 'expired');
      const list = await server.request('/my/purchases/', { headers: { cookie: reader.cookie } });
      expect(list.text).not.toContain(receiptPath(failed));
      expect(list.text).not.toContain(receiptPath(expiredId));
      expect(list.text).toContain(receiptPath(paidId));

      for (const bad of [`ord${hex(12)}`, `sub${hex(12)}`, 'ordnope', paidId.toUpperCase(), `${paidId}0`, `sbs${paidId.slice(3)}`, '%3Cscript%3E', 'x'.repeat(300), `${paidId}%00`]) {
        const res = await receipt(reader, bad);
        expect(res.status, bad).toBeGreaterThanOrEqual(400);
        expect(res.status, bad).toBeLessThan(500);
        // Never reflected: the page's own scripts are the only ones.
        expect(res.text.replace(`<script>${ERROR_HANDLER_SCRIPT}</script>`, '').replace(/<script[^>]*>window\.dataLayer|<script type="(application\/json|module|speculationrules)"/g, ''), bad).not.toContain('<script');
        if (!bad.includes('%00')) expect(res.status, bad).toBe(404);
      }
      // A receipt takes no other method.
      const post = await server.request(receiptPath(paidId), { method: 'POST', body: '', headers: { cookie: reader.cookie, origin: server.origin(), 'content-type': 'application/x-www-form-urlencoded' } });
      expect(post.status).toBeGreaterThanOrEqual(400);
      expect(post.status).toBeLessThan(500);
    });

    // ------------------------------------------------------------------ subscription charges

    it('a subscription charge\'s receipt: the plan and the period it paid, by card on the English site and by Pix on the Portuguese one', { timeout: 180_000 }, async () => {
      const reader = await createReader(server);
      const card = await server.request('/my/subscribe/card/', {
        method: 'POST', timeoutMs: 90_000,
        body: new URLSearchParams({ tier_id: 'reader', method: 'card', nonce: await nonceFor(reader), device_data: '{}' }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.origin(), cookie: reader.cookie, ...(await appCheckHeader(server, reader)) },
      });
      expect([card.status, card.json()]).toEqual([200, { success: true, error: null, message: null }]);
      const charge = await latestCharge(reader);
      expect(charge.state).toBe('PAID');
      const res = await receipt(reader, charge.public_id);
      expect(res.status, res.text.slice(0, 300)).toBe(200);
      const text = textOf(res);
      const day = (at: number) => plain(absoluteDate(at, 'en', 'UTC'));
      for (const expected of [
        message('en', 'receipts.item.plan', { plan: 'Reader' }), `${message('en', 'receipts.item.period')}: ${day(charge.period_start)} – ${day(charge.period_end)}`,
        `${message('en', 'receipts.total')} $4.99`, message('en', 'checkout.method.card'), reader.email, charge.public_id, charge.payment_id!,
      ]) expect(text).toContain(expected);
      expect(res.text).toContain('href="/my/subscriptions/"');
      const mine = await server.request('/my/subscriptions/', { headers: { cookie: reader.cookie } });
      expect(mine.text).toContain(`href="${receiptPath(charge.public_id)}"`);
      // Another reader: 404; support: 200.
      await expectHidden(receipt(await createReader(server), charge.public_id), 'another reader');
      expect((await receipt(await createStaff(server, 'support'), charge.public_id)).status).toBe(200);

      const br = await createReader(server, { site: 'br' });
      const pix = await server.request('/my/subscribe/pix/', {
        site: 'br', method: 'POST', timeoutMs: 90_000,
        body: new URLSearchParams({ pix_name: 'Maria da Silva', pix_doc: '529.982.247-25', tier_id: 'leitor' }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.origin('br'), cookie: br.cookie, ...(await appCheckHeader(server, br, 'br')) },
      });
      expect(pix.status, pix.text).toBe(200);
      const check = (pix.json() as { check: string }).check;
      await expectHidden(receipt(br, check, 'br'), 'a charge not paid yet');
      await pay(check);
      const paid = await latestCharge(br);
      expect([paid.public_id, paid.state]).toEqual([check, 'PAID']);
      const brText = textOf(await receipt(br, check, 'br'));
      const brDay = (at: number) => plain(absoluteDate(at, 'pt-BR', 'America/Sao_Paulo'));
      for (const expected of [
        message('pt-BR', 'receipts.item.plan', { plan: 'Leitor' }), `${message('pt-BR', 'receipts.item.period')}: ${brDay(paid.period_start)} – ${brDay(paid.period_end)}`,
        `${message('pt-BR', 'receipts.total')} R$ 14,90`, `${message('pt-BR', 'receipts.payer')}: Maria da Silva`,
        `${message('pt-BR', 'receipts.endToEnd')} ${paid.payment_id}`, br.email,
      ]) expect(brText).toContain(plain(expected));
    });

    const latestCharge = (reader: Reader) =>
      withDb(server, async (db) => {
        const c = await db.selectFrom('subscription_charges').selectAll().where('user_id', '=', reader.id).orderBy('id', 'desc').executeTakeFirstOrThrow();
        return { ...c, period_start: Number(c.period_start), period_end: Number(c.period_end) };
      });

    // ------------------------------------------------------------------ refunds

    it('a withdrawal through the refund code shows on the receipt: card on the English site, Pix on the Portuguese one', { timeout: 180_000 }, async () => {
      const withdraw = (reader: Reader, id: string, site: SiteName) => form(reader, `/my/purchases/${id}/withdraw/`, {}, site);
      const refundOf = (id: string) =>
        withDb(server, async (db) => {
          const r = await db.selectFrom('refunds').selectAll().where('payable_kind', '=', 'order').where('payable_id', '=', id).executeTakeFirstOrThrow();
          return { state: r.state, confirmed_at: r.confirmed_at == null ? null : Number(r.confirmed_at) };
        });

      const en = await createReader(server);
      const card = await buyByCard(en);
      const back = await withdraw(en, card, 'en');
      expect(back.status, back.text.slice(0, 300)).toBe(303);
      const cardRefund = await refundOf(card);
      expect(cardRefund.state).toBe('CONFIRMED');
      const cardText = textOf(await receipt(en, card));
      expect(cardText).toContain(message('en', 'purchases.state.refunded'));
      expect(cardText).toContain(plain(message('en', 'receipts.refunded', { amount: '$9.99', date: absoluteDate(cardRefund.confirmed_at!, 'en', 'UTC') })));
      expect(cardText).toContain(message('en', 'receipts.refunded.keys', { keys: 100, xtra: 10 }));
      // Support reads the same refund.
      expect(textOf(await receipt(await createStaff(server, 'support'), card))).toContain(message('en', 'receipts.refunded.keys', { keys: 100, xtra: 10 }));

      const br = await createReader(server, { site: 'br' });
      const pix = await pixOrder(br);
      await pay(pix);
      const brBack = await withdraw(br, pix, 'br');
      expect(brBack.status, brBack.text.slice(0, 300)).toBe(303);
      const pixRefund = await refundOf(pix);
      expect(pixRefund.state).toBe('CONFIRMED');
      const pixText = textOf(await receipt(br, pix, 'br'));
      expect(pixText).toContain(message('pt-BR', 'purchases.state.refunded'));
      expect(pixText).toContain(plain(message('pt-BR', 'receipts.refunded', { amount: 'R$\u00a039,90', date: absoluteDate(pixRefund.confirmed_at!, 'pt-BR', 'America/Sao_Paulo') })));
      expect(pixText).toContain(plain(message('pt-BR', 'receipts.refunded.keys', { keys: 100, xtra: 10 })));
    });

    it('a refund shows on the receipt: a confirmed one with what it took back, one in progress as such', { timeout: 120_000 }, async () => {
      const reader = await createReader(server);
      const refundedId = await buyByCard(reader);
      const pendingId = await buyByCard(reader);
      const confirmedAt = now() - 3600;
      // Written directly (this test was written beside the refund code): a refund still waiting for
      // its provider is hard to hold still through the sandboxes, which answer at once. The rows
      // are taken away at the end so the audits, which want each refund to reverse its order's
      // credit, see nothing half-made.
      const refundRow = async (id: string, state: 'CONFIRMED' | 'PENDING') => {
        const o = await order(id);
        return {
          public_id: `rfd${hex(12)}`, user_id: reader.id, payable_kind: 'order' as const, payable_id: id, provider: o.provider, payment_id: o.payment_id!,
          amount: Number(o.total), currency: o.currency, keys: Number(o.keys), xtra_keys: Number(o.xtra_keys), whole: 1, state, origin: 'staff' as const,
          reason: 'receipts test', actor_id: null, ending: null, provider_action: state === 'CONFIRMED' ? 'refund' as const : null,
          provider_refund_id: state === 'CONFIRMED' ? `re_${hex(6)}` : null, hold_transaction_id: null, ledger_transaction_id: null, failure: null,
          created_at: confirmedAt - 60, updated_at: confirmedAt, confirmed_at: state === 'CONFIRMED' ? confirmedAt : null,
        };
      };
      const confirmed = await refundRow(refundedId, 'CONFIRMED');
      const pending = await refundRow(pendingId, 'PENDING');
      await withDb(server, async (db) => {
        await db.insertInto('refunds').values([confirmed, pending]).execute();
        await db.updateTable('orders').set({ state: 'REFUNDED' }).where('public_id', '=', refundedId).execute();
      });
      try {
        const res = await receipt(reader, refundedId);
        expect(res.status).toBe(200);
        const text = textOf(res);
        expect(text).toContain(message('en', 'purchases.state.refunded'));
        expect(text).toContain(plain(message('en', 'receipts.refunded', { amount: '$9.99', date: absoluteDate(confirmedAt, 'en', 'UTC') })));
        expect(text).toContain(message('en', 'receipts.refunded.keys', { keys: 100, xtra: 10 }));
        expect(text).not.toContain(message('en', 'receipts.inProgress', { date: absoluteDate(confirmed.created_at, 'en', 'UTC') }));
        // Still listed with its receipt.
        expect((await server.request('/my/purchases/', { headers: { cookie: reader.cookie } })).text).toContain(`href="${receiptPath(refundedId)}"`);

        const inProgress = textOf(await receipt(reader, pendingId));
        expect(inProgress).toContain(plain(message('en', 'receipts.inProgress', { date: absoluteDate(pending.created_at, 'en', 'UTC') })));
        expect(inProgress).toContain(message('en', 'receipts.refunds'));
        expect((await receipt(reader, pendingId)).text).not.toContain('data-refund="refunded"');
        expect(inProgress).toContain(message('en', 'purchases.state.paid'));
      } finally {
        await withDb(server, async (db) => {
          await db.deleteFrom('refunds').where('payable_id', 'in', [refundedId, pendingId]).execute();
          await db.updateTable('orders').set({ state: 'PAID' }).where('public_id', '=', refundedId).execute();
        });
      }
    });
  });
}
