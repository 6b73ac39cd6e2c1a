/**
 * Pix refunds through OpenPix/Woovi, wired end to end from the desk (issue 28): a server process
 * configured with PAYMENTS_PIX=openpix whose API is tests/support/openpix-fake.ts (the real API
 * cannot be reached from here). The fake makes no charges (it has no charge-creation call), so
 * the order is made in the test process through the commerce door's `createOrder` (as the Pix
 * checkout would make it), its charge added and paid at the fake (`addCharge`, `pay`), and
 * `npm run payments -- reconcile` (with this server's settings) reads the charge from the fake
 * and confirms the payment. From there everything goes over HTTP or the command line: a refund Woovi confirms
 * at once; one it answers IN_PROCESSING (PENDING, keys held) that `finishRefund` and then
 * `npm run payments -- reconcile` (run with this server's settings) confirm; one it refuses
 * (nothing changes, the keys come back). Both databases; the keys and order audits hold after
 * every test.
 */
import crypto from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenPix, type FakeOpenPix } from '../support/openpix-fake';
import { createReader, createStaff, htmlText, message, npmRun, selectedDialects, startExtraServer, useServer, withDb, type Reader, type ServerHandle } from './harness';

const now = () => Math.floor(Date.now() / 1000);

for (const dialect of selectedDialects()) {
  describe(`OpenPix refunds (${dialect})`, () => {
    const base = useServer(dialect);
    let psp: FakeOpenPix;
    let server: ServerHandle;
    let money: Reader;
    const env = () => ({ PAYMENTS_PIX: 'openpix', OPENPIX_BASE_URL: psp.baseUrl, OPENPIX_APP_ID: psp.appId });

    beforeAll(async () => {
      psp = await startFakeOpenPix();
      server = await startExtraServer(base, env());
      money = await createStaff(server, 'money');
    }, 90_000);
    afterAll(async () => {
      await server?.stop();
      await psp?.close();
    });
    afterEach(async () => {
      psp.refundStatus = 'CONFIRMED';
      const findings = await withDb(base, async (db) => [
        ...(await (await import('~/features/wallet/index.server')).auditLedger(db)),
        ...(await (await import('~/features/commerce/index.server')).auditOrders(db)),
      ]);
      expect(findings).toEqual([]);
    });

    const balances = (r: Reader) => withDb(base, async (db) => (await import('~/features/wallet/index.server')).balancesOf(db, r.id));
    const reconcile = () => npmRun(base.databaseUrl, 'payments', ['reconcile'], env());
    /**
     * A paid Pix order of the starter pack on the Portuguese site: made by the commerce door's
     * createOrder (the fake makes no charges), paid at the fake, and found paid by the reconciler,
     * which reads the charge from the fake: its id, its total and the payment's id.
     */
    const paidOrder = async (reader: Reader) => {
      const made = await withDb(base, async (db) => {
        const { createOrder } = await import('~/features/commerce/index.server');
        const r = await createOrder(db, {
          userId: reader.id, siteId: 3, packCode: 'starter', couponCode: null, method: 'pix', provider: 'openpix', requestKey: `rk${crypto.randomBytes(12).toString('hex')}`, next: null, expiresIn: 900, now: now(),
        });
        if (!r.ok) throw new Error(`createOrder: ${r.problem}`);
        // The reconciler asks about orders older than a minute.
        await db.updateTable('orders').set({ created_at: now() - 120 }).where('public_id', '=', r.order.public_id).execute();
        return { id: r.order.public_id, total: Number(r.order.total) };
      });
      psp.addCharge(made.id, made.total);
      const payment = psp.pay(made.id);
      const run = await reconcile();
      expect(run.code, run.stdout + run.stderr).toBe(0);
      const order = await withDb(base, (db) => db.selectFrom('orders').select(['state', 'payment_id']).where('public_id', '=', made.id).executeTakeFirstOrThrow());
      expect(order).toEqual({ state: 'PAID', payment_id: payment });
      return { ...made, payment };
    };
    const refundOnDesk = (id: string, reason = 'the reader asked support') =>
      server.request(`/studio/payments/${id}/`, {
        method: 'POST', body: new URLSearchParams({ action: 'refund', reason }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.origin(), cookie: money.cookie },
      });
    const refundsOf = async (id: string) =>
      (await withDb(base, (db) => db.selectFrom('refunds').select(['public_id', 'state', 'amount', 'provider', 'provider_refund_id', 'provider_action']).where('payable_id', '=', id).orderBy('id').execute()))
        .map((r) => ({ ...r, amount: Number(r.amount) }));
    const orderState = async (id: string) => (await withDb(base, (db) => db.selectFrom('orders').select('state').where('public_id', '=', id).executeTakeFirstOrThrow())).state;

    it('a refund Woovi confirms: REFUNDED, the keys taken back, one refund at Woovi for the whole value', async () => {
      const reader = await createReader(server, { site: 'br' });
      const { id, total, payment } = await paidOrder(reader);
      expect(await balances(reader)).toEqual({ keys: 50, xtra: 0 });
      const res = await refundOnDesk(id);
      expect(res.status, htmlText(res.text).slice(0, 300)).toBe(303);
      expect(res.headers.location).toBe(`/studio/payments/${id}/?done=confirmed`);
      const [refund] = await refundsOf(id);
      expect(refund).toMatchObject({ state: 'CONFIRMED', amount: total, provider: 'openpix', provider_action: 'refund' });
      const atPsp = psp.refunds.get(refund!.public_id);
      expect(atPsp).toMatchObject({ value: total, transactionID: payment, status: 'CONFIRMED' });
      expect(refund!.provider_refund_id).toBe(atPsp!.refundId);
      expect(await orderState(id)).toBe('REFUNDED');
      expect(await balances(reader)).toEqual({ keys: 0, xtra: 0 });
    });

    it('a refund Woovi is still processing: PENDING with the keys held, then finished at Woovi and confirmed by the reconciler', { timeout: 90_000 }, async () => {
      const reader = await createReader(server, { site: 'br' });
      const { id } = await paidOrder(reader);
      psp.refundStatus = 'IN_PROCESSING';
      const res = await refundOnDesk(id);
      expect(res.status, htmlText(res.text).slice(0, 300)).toBe(303);
      expect(res.headers.location).toBe(`/studio/payments/${id}/?done=pending`);
      const [pending] = await refundsOf(id);
      expect(pending).toMatchObject({ state: 'PENDING', provider_refund_id: null });
      expect(await orderState(id)).toBe('PAID');
      expect(await balances(reader)).toEqual({ keys: 0, xtra: 0 });
      // Still processing when the reconciler asks: it stays PENDING.
      await withDb(base, (db) => db.updateTable('refunds').set({ created_at: now() - 120 }).where('public_id', '=', pending!.public_id).execute());
      const early = await reconcile();
      expect(early.code, early.stdout + early.stderr).toBe(0);
      expect((await refundsOf(id))[0]!.state).toBe('PENDING');
      psp.finishRefund(pending!.public_id, 'CONFIRMED');
      const later = await reconcile();
      expect(later.code, later.stdout + later.stderr).toBe(0);
      expect((await refundsOf(id))[0]).toMatchObject({ state: 'CONFIRMED', provider_refund_id: psp.refunds.get(pending!.public_id)!.refundId });
      // Asked about, never asked again: one refund at Woovi.
      expect(psp.requests.filter((q) => q.method === 'POST' && q.url === '/api/v1/refund' && q.body.includes(pending!.public_id))).toHaveLength(1);
      expect(await orderState(id)).toBe('REFUNDED');
      expect(await balances(reader)).toEqual({ keys: 0, xtra: 0 });
    });

    it('a refund Woovi refuses: the desk shows its message, nothing changes and the keys come back', async () => {
      const reader = await createReader(server, { site: 'br' });
      const { id } = await paidOrder(reader);
      psp.refuseNextRefund(400, 'Saldo insuficiente para realizar o reembolso');
      const res = await refundOnDesk(id);
      expect(res.status).toBe(409);
      const alert = htmlText(/role="alert"[^>]*>([\s\S]*?)<\/p>/.exec(res.text)?.[1] ?? '');
      expect(alert).toContain('Saldo insuficiente para realizar o reembolso');
      expect(alert).toContain(message('en', 'desk.refund.done.refused', { message: '\u0000' }).split('\u0000')[0]!);
      const [failed] = await refundsOf(id);
      expect(failed!.state).toBe('FAILED');
      expect(psp.refunds.has(failed!.public_id)).toBe(false);
      expect(await orderState(id)).toBe('PAID');
      expect(await balances(reader)).toEqual({ keys: 50, xtra: 0 });
    });
  });
}
