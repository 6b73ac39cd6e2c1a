/**
 * Card payments through Braintree, wired end to end: a server process configured with
 * PAYMENTS_CARD=braintree whose gateway is a local stand-in speaking Braintree's XML
 * (tests/support/braintree-fake.ts; the real sandbox cannot be reached from here). The checkout
 * gets a client token for its page, sells the Drop-in's nonce for the server-computed amount,
 * credits the keys once, and a decline or a used nonce credits nothing. Both databases; the keys
 * and order audits hold after every test.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFakeBraintree, type FakeBraintree } from '../support/braintree-fake';
import { APP_CHECK_FIELD } from '~/lib/app-check';
import { appCheckToken, createReader, message, selectedDialects, startExtraServer, useServer, withDb, type Reader, type ServerHandle } from './harness';

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
