/**
 * Card payments through Braintree, wired end to end: a server process configured with
 * PAYMENTS_CARD=braintree whose gateway is a local stand-in speaking Braintree's XML
 * (tests/support/braintree-fake.ts; the real sandbox cannot be reached from here). The checkout
 * gets a client token for its page, sells the Drop-in's nonce for the server-computed amount,
 * credits the keys once, and a decline or a used nonce credits nothing. Refunds from the desk
 * (issue 28): a void before the sale settles, a refund after, the gateway's refusal (nothing
 * changes, the keys come back), and a lost answer (the refund stays PENDING with its keys held
 * until `npm run payments -- reconcile`, run with this server's settings, finds it at the gateway).
 * Both databases; the keys and order audits hold after every test.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFakeBraintree, type FakeBraintree } from '../support/braintree-fake';
import { APP_CHECK_FIELD } from '~/lib/app-check';
import { appCheckToken, createReader, createStaff, htmlText, message, npmRun, selectedDialects, startExtraServer, useServer, withDb, type Reader, type ServerHandle } from './harness';

for (const dialect of selectedDialects()) {
  describe(`Braintree checkout (${dialect})`, () => {
    const base = useServer(dialect);
    let gateway: FakeBraintree;
    let server: ServerHandle;

    beforeAll(async () => {
      gateway = await startFakeBraintree();
      const { host, port } = gateway.environment;
      server = await startExtraServer(base, {
        PAYMENTS_CARD: 'braintree', BRAINTREE_ENVIRONMENT: `http://${host}:${port}`,
        BRAINTREE_MERCHANT_ID: gateway.merchantId, BRAINTREE_PUBLIC_KEY: gateway.publicKey, BRAINTREE_PRIVATE_KEY: gateway.privateKey,
      });
    }, 90_000);
    afterAll(async () => {
      await server?.stop();
      await gateway?.close();
    });
    afterEach(async () => {
      const findings = await withDb(base, async (db) => [
        ...(await (await import('~/features/wallet/index.server')).auditLedger(db)),
        ...(await (await import('~/features/commerce/index.server')).auditOrders(db)),
      ]);
      expect(findings).toEqual([]);
    });

    const balances = (r: Reader) => withDb(base, async (db) => (await import('~/features/wallet/index.server')).balancesOf(db, r.id));
    /** The checkout form as the island submits it, its bot-check token in a hidden field. */
    const checkout = async (r: Reader, fields: Record<string, string>) =>
      server.request('/my/purchase/checkout/', {
        method: 'POST',
        body: new URLSearchParams({ pack: 'popular', next: '/comics/', [APP_CHECK_FIELD]: await appCheckToken(server, r), ...fields }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.origin(), cookie: r.cookie },
      });
    const sales = () => gateway.requests.filter((q) => q.path.endsWith('/transactions') && q.method === 'POST');

    /** A paid order of the popular pack through the gateway: its public id and the gateway's sale id. */
    const buy = async (r: Reader) => {
      const res = await checkout(r, { method: 'card', nonce: 'fake-valid-nonce', request_key: `braintree-refund-${r.id}-${Date.now()}` });
      expect(res.status).toBe(303);
      const o = await withDb(base, (db) => db.selectFrom('orders').select(['public_id', 'payment_id', 'state']).where('user_id', '=', r.id).orderBy('id', 'desc').executeTakeFirstOrThrow());
      expect(o.state).toBe('PAID');
      return { id: o.public_id, sale: o.payment_id! };
    };
    const refundOnDesk = (staff: Reader, id: string, reason = 'the reader asked support') =>
      server.request(`/studio/payments/${id}/`, {
        method: 'POST', body: new URLSearchParams({ action: 'refund', reason }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.origin(), cookie: staff.cookie },
      });
    const refundOf = async (id: string) => {
      const rows = await withDb(base, (db) => db.selectFrom('refunds').select(['public_id', 'state', 'provider_action', 'provider_refund_id', 'failure']).where('payable_id', '=', id).orderBy('id').execute());
      return rows;
    };
    const orderState = async (id: string) => (await withDb(base, (db) => db.selectFrom('orders').select('state').where('public_id', '=', id).executeTakeFirstOrThrow())).state;
    const calls = (sale: string, end: '/void' | '/refund') => gateway.requests.filter((q) => q.path.endsWith(`/transactions/${sale}${end}`));

    it('a refund on the desk before the sale settles is a void at the gateway: REFUNDED, the keys taken back', async () => {
      const reader = await createReader(server);
      const money = await createStaff(server, 'money');
      const { id, sale } = await buy(reader);
      const res = await refundOnDesk(money, id);
      expect(res.status, htmlText(res.text).slice(0, 300)).toBe(303);
      expect(res.headers.location).toBe(`/studio/payments/${id}/?done=confirmed`);
      expect(calls(sale, '/void')).toHaveLength(1);
      expect(calls(sale, '/refund')).toHaveLength(0);
      expect(gateway.transactions.find((t) => t.id === sale)?.status).toBe('voided');
      expect(await refundOf(id)).toMatchObject([{ state: 'CONFIRMED', provider_action: 'void', provider_refund_id: sale }]);
      expect(await orderState(id)).toBe('REFUNDED');
      expect(await balances(reader)).toEqual({ keys: 0, xtra: 0 });
    });

    it('after the sale settles the desk refunds it with a credit transaction: REFUNDED', async () => {
      const reader = await createReader(server);
      const money = await createStaff(server, 'money');
      const { id, sale } = await buy(reader);
      gateway.settle(sale);
      const res = await refundOnDesk(money, id);
      expect(res.status, htmlText(res.text).slice(0, 300)).toBe(303);
      expect(calls(sale, '/void')).toHaveLength(0);
      expect(calls(sale, '/refund')).toHaveLength(1);
      const [refund] = await refundOf(id);
      expect(refund).toMatchObject({ state: 'CONFIRMED', provider_action: 'refund' });
      const credit = gateway.transactions.find((t) => t.id === refund!.provider_refund_id);
      expect(credit).toMatchObject({ type: 'credit', orderId: refund!.public_id });
      expect(await orderState(id)).toBe('REFUNDED');
      expect(await balances(reader)).toEqual({ keys: 0, xtra: 0 });
    });

    it('a refusal at the gateway: the desk shows its message, the order stays PAID and the keys come back', async () => {
      const reader = await createReader(server);
      const money = await createStaff(server, 'money');
      const { id, sale } = await buy(reader);
      gateway.settle(sale);
      gateway.refuseNextRefund('91512', 'Transaction has already been completely refunded.');
      const res = await refundOnDesk(money, id);
      expect(res.status).toBe(409);
      const alert = htmlText(/role="alert"[^>]*>([\s\S]*?)<\/p>/.exec(res.text)?.[1] ?? '');
      expect(alert).toContain('Transaction has already been completely refunded.');
      expect(alert).toContain(message('en', 'desk.refund.done.refused', { message: '\u0000' }).split('\u0000')[0]!);
      expect(await refundOf(id)).toMatchObject([{ state: 'FAILED' }]);
      expect(await orderState(id)).toBe('PAID');
      expect(await balances(reader)).toEqual({ keys: 100, xtra: 10 });
      // Nothing changed, so it can be refunded afterwards.
      const again = await refundOnDesk(money, id);
      expect(again.status).toBe(303);
      expect(await orderState(id)).toBe('REFUNDED');
      expect(await balances(reader)).toEqual({ keys: 0, xtra: 0 });
    });

    it('an answer lost after the gateway refunded: PENDING with the keys held, then the reconciler finds the refund and confirms it once', { timeout: 90_000 }, async () => {
      const reader = await createReader(server);
      const money = await createStaff(server, 'money');
      const { id, sale } = await buy(reader);
      gateway.settle(sale);
      gateway.dropNextAnswer('/refund');
      const res = await refundOnDesk(money, id);
      expect(res.status, htmlText(res.text).slice(0, 300)).toBe(303);
      expect(res.headers.location).toBe(`/studio/payments/${id}/?done=pending`);
      const [pending] = await refundOf(id);
      expect(pending).toMatchObject({ state: 'PENDING', provider_refund_id: null });
      expect(await orderState(id)).toBe('PAID');
      // The keys are neither the reader's nor given back yet: held for the refund.
      expect(await balances(reader)).toEqual({ keys: 0, xtra: 0 });
      const held = await withDb(base, async (db) => (await db.selectFrom('wallet_accounts').select(['currency', 'balance']).where('system_code', '=', 'refunds_held').orderBy('currency').execute()).map((a) => ({ currency: a.currency, balance: Number(a.balance) })));
      expect(held.find((h) => h.currency === 'keys')!.balance).toBeGreaterThanOrEqual(100);
      // The page lists it as waiting, with "ask again".
      const page = await server.request(`/studio/payments/${id}/`, { headers: { cookie: money.cookie } });
      expect(page.text).toContain(`name="refund" value="${pending!.public_id}"`);
      // The reconciler asks about refunds older than a minute.
      await withDb(base, (db) => db.updateTable('refunds').set({ created_at: Math.floor(Date.now() / 1000) - 120 }).where('public_id', '=', pending!.public_id).execute());
      const { host, port } = gateway.environment;
      const run = await npmRun(base.databaseUrl, 'payments', ['reconcile'], {
        PAYMENTS_CARD: 'braintree', BRAINTREE_ENVIRONMENT: `http://${host}:${port}`,
        BRAINTREE_MERCHANT_ID: gateway.merchantId, BRAINTREE_PUBLIC_KEY: gateway.publicKey, BRAINTREE_PRIVATE_KEY: gateway.privateKey,
      });
      expect(run.code, run.stdout + run.stderr).toBe(0);
      const [done] = await refundOf(id);
      expect(done).toMatchObject({ state: 'CONFIRMED', provider_action: 'refund' });
      // Found at the gateway by its order id, not refunded a second time.
      expect(calls(sale, '/refund')).toHaveLength(1);
      expect(gateway.transactions.filter((t) => t.type === 'credit' && t.orderId === pending!.public_id)).toHaveLength(1);
      expect(await orderState(id)).toBe('REFUNDED');
      expect(await balances(reader)).toEqual({ keys: 0, xtra: 0 });
    });

    it('the checkout page carries a client token from the gateway, and the sandbox nonce call is gone', async () => {
      const reader = await createReader(server);
      const page = await server.request('/my/purchase/checkout/?pack=popular', { headers: { cookie: reader.cookie } });
      expect(page.status).toBe(200);
      expect(page.text).toContain('&quot;provider&quot;:[0,&quot;braintree&quot;]');
      expect(gateway.requests.some((q) => q.path.endsWith('/client_token') && q.authOk)).toBe(true);
      const nonce = await server.request('/payments/sandbox/nonce/', {
        method: 'POST', body: 'method=card&number=4111111111111111&expiry=12%2F30&cvv=123',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.origin(), cookie: reader.cookie },
      });
      expect(nonce.status).toBe(404);
    });

    it('sells the nonce for the pack price computed on the server and credits the keys once', async () => {
      const reader = await createReader(server);
      const before = sales().length;
      // A tampered price and currency in the form change nothing: the server sends the pack's.
      const res = await checkout(reader, { method: 'card', nonce: 'fake-valid-nonce', price: '1', total: '1', currency: 'BRL', request_key: `braintree-${reader.id}-first` });
      expect(res.status).toBe(303);
      expect(res.headers.location).toMatch(/^\/comics\/\?paid=[\w-]+$/);
      const sale = sales().slice(before);
      expect(sale).toHaveLength(1);
      const sent = JSON.stringify(sale[0]!.body);
      expect(sent).toContain('"amount":"9.99"');
      expect(sent).toContain('"payment_method_nonce":"fake-valid-nonce"');
      expect(await balances(reader)).toEqual({ keys: 100, xtra: 10 });
      const order = await withDb(base, (db) => db.selectFrom('orders').select(['state', 'provider', 'total', 'card_brand', 'card_last4']).where('user_id', '=', reader.id).executeTakeFirstOrThrow());
      expect({ ...order, total: Number(order.total) }).toEqual({ state: 'PAID', provider: 'braintree', total: 999, card_brand: 'Visa', card_last4: '1111' });
      // The same form again (a double click, a retry): no second sale, no second credit.
      const again = await checkout(reader, { method: 'card', nonce: 'fake-valid-nonce', request_key: `braintree-${reader.id}-first` });
      expect(again.status).toBe(303);
      expect(sales().length).toBe(before + 1);
      expect(await balances(reader)).toEqual({ keys: 100, xtra: 10 });
    });

    it('a processor decline and a used nonce answer with the localized message and credit nothing', async () => {
      const reader = await createReader(server);
      const declined = await checkout(reader, { method: 'card', nonce: 'fake-processor-declined-visa-nonce' });
      expect(declined.status).toBe(402);
      expect(declined.text).toContain(message('en', 'purchase.error.declined'));
      const used = await checkout(reader, { method: 'card', nonce: 'fake-consumed-nonce' });
      expect(used.status).toBe(422);
      expect(used.text).toContain(message('en', 'purchase.error.nonce'));
      expect(await balances(reader)).toEqual({ keys: 0, xtra: 0 });
      const states = await withDb(base, (db) => db.selectFrom('orders').select('state').where('user_id', '=', reader.id).execute());
      expect(states.map((s) => s.state).sort()).toEqual(['FAILED', 'FAILED']);
    });
  });
}
