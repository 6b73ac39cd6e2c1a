/**
 * The refunds' owner on a real database of each dialect, with a provider whose answers the test
 * chooses: a refund asked twice, or 20 times at once, refunds once and asks the provider once; a
 * process that stops after holding the keys is finished by the reconciler's resume; a refusal
 * changes nothing; a Pix refund in processing waits; a subscription charge's refund ends its
 * subscription now or at the period's end; a payment "to refund" is given back or dismissed. The
 * ledger's and the orders' audits (refund rules included) hold after every test.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { useProviders, type CardProvider, type RefundOutcome, type RefundRequest } from '~/features/payments/index.server';
import { auditLedger, balancesOf } from '~/features/wallet/index.server';
import type { DB } from '~/server/db';
import { testDialects, useTestDatabase } from '~/server/test-databases';
import { auditOrders } from './audit.server';
import { chargeForPeriod, confirmPayment, createOrder, findCharge, findOrder } from './payables.server';
import { dismissDue, refundDue, refundPayable, resumeRefunds } from './refunds.server';
import * as repo from './repository.server';
import { seedShopRows } from './shop.server';

const T0 = 1_800_000_000;
const ACTOR = { userId: 1, capability: 'money' as const, ip: '127.0.0.1', userAgent: 'test' };
let n = 0;

/** A card provider whose refund answers are scripted; it counts what it was asked. */
function scriptedCard(answer: (r: RefundRequest) => Promise<RefundOutcome>, found: (r: RefundRequest) => Promise<RefundOutcome | null> = async () => null, id: 'sandbox' | 'braintree' = 'sandbox') {
  const asked: RefundRequest[] = [];
  const provider = {
    id,
    async refund(r: RefundRequest) { asked.push(r); return answer(r); },
    findRefund: found,
  } as unknown as CardProvider;
  return { provider, asked };
}

async function reader(db: DB): Promise<number> {
  const row = await db.insertInto('users').values({ email: `refunds-${++n}-${Math.random().toString(36).slice(2)}@example.test`, display_name: 'R', password_hash: 'x', is_staff: 0, created_at: T0, password_changed_at: T0 }).returning('id').executeTakeFirstOrThrow();
  return Number(row.id);
}

/** A paid card order of the 'popular' pack (100 keys and 10 Xtra keys for $9.99). */
async function paidOrder(db: DB, userId: number, provider: 'sandbox' | 'braintree' = 'sandbox') {
  const made = await createOrder(db, { userId, siteId: 1, packCode: 'popular', couponCode: null, method: 'card', provider, requestKey: null, next: null, expiresIn: null, now: T0 });
  if (!made.ok) throw new Error(made.problem);
  const paid = await confirmPayment(db, { orderId: made.order.public_id, paymentId: `sbx_${made.order.public_id}`, amount: 999, currency: 'USD', source: 'checkout', now: T0 + 1 });
  expect(paid.kind).toBe('paid');
  return made.order.public_id;
}

const confirmed = async (r: RefundRequest): Promise<RefundOutcome> => ({ status: 'confirmed', providerRefundId: `re_${r.refundId}`, action: 'refund' });

for (const dialect of testDialects()) {
  describe(`the refunds' owner (${dialect})`, () => {
    const t = useTestDatabase(dialect);
    const ready = async () => {
      if ((await t.db.selectFrom('key_packs').select('id').execute()).length === 0) {
        await seedShopRows(t.db, { packs: [{ site_id: 1, code: 'popular', currency: 'USD', price: 999, keys: 100, xtra_keys: 10, position: 1, active: 1 }], coupons: [] }, T0);
      }
    };
    afterEach(async () => {
      useProviders(null);
      expect([...(await auditLedger(t.db)), ...(await auditOrders(t.db))]).toEqual([]);
    });

    it('refunds once and asks the provider once, however many times it is asked at once', async () => {
      await ready();
      const card = scriptedCard(async (r) => { await new Promise((ok) => setTimeout(ok, 20)); return confirmed(r); });
      useProviders({ card: card.provider });
      const userId = await reader(t.db);
      const id = await paidOrder(t.db, userId);
      const answers = await Promise.all(Array.from({ length: 20 }, () => refundPayable(t.db, { payableId: id, origin: 'staff', reason: 'duplicate purchase', actor: ACTOR, now: T0 + 60 })));
      // Each is the one refund: made now, found under way, or (once confirmed) refunded already.
      expect(answers.every((a) => a.ok || a.problem === 'refunded')).toBe(true);
      expect(answers.filter((a) => a.ok && !a.existing)).toHaveLength(1);
      expect(card.asked).toHaveLength(1);
      expect(card.asked[0]).toMatchObject({ paymentId: `sbx_${id}`, money: { amount: 999, currency: 'USD' }, whole: true });
      expect((await findOrder(t.db, id))?.state).toBe('REFUNDED');
      expect(await balancesOf(t.db, userId)).toEqual({ keys: 0, xtra: 0 });
      // And once more afterwards: the same refund, nothing new.
      const again = await refundPayable(t.db, { payableId: id, origin: 'staff', reason: 'again', actor: ACTOR, now: T0 + 120 });
      expect(again).toEqual({ ok: false, problem: 'refunded' });
      expect(card.asked).toHaveLength(1);
      expect(await t.db.selectFrom('refunds').select('id').where('payable_id', '=', id).execute()).toHaveLength(1);
      const audit = await t.db.selectFrom('audit_log').select(['action', 'object_id']).where('object_id', '=', id).execute();
      expect(audit.map((a) => a.action)).toEqual(['refund.request']);
    });

    it('a process that stops after holding the keys leaves the refund pending with the keys set aside; the reconciler finishes it', async () => {
      await ready();
      const crashed = scriptedCard(async () => { throw new Error('the process stopped'); });
      useProviders({ card: crashed.provider });
      const userId = await reader(t.db);
      const id = await paidOrder(t.db, userId);
      const first = await refundPayable(t.db, { payableId: id, origin: 'staff', reason: 'asked by mail', actor: ACTOR, now: T0 + 60 });
      expect(first).toMatchObject({ ok: true, outcome: 'pending' });
      expect(await balancesOf(t.db, userId)).toEqual({ keys: 0, xtra: 0 });
      expect((await findOrder(t.db, id))?.state).toBe('PAID');
      // The audit holds with the keys held (the afterEach checks again at the end).
      expect(await auditOrders(t.db)).toEqual([]);

      // The provider had in fact refunded it: the resume finds it there and does not ask twice.
      const recovered = scriptedCard(async () => { throw new Error('must not be asked again'); }, async (r) => confirmed(r));
      useProviders({ card: recovered.provider });
      expect(await resumeRefunds(t.db, { before: T0 + 600, now: T0 + 600 })).toEqual({ confirmed: 1, refused: 0, pending: 0 });
      expect(recovered.asked).toHaveLength(0);
      expect((await findOrder(t.db, id))?.state).toBe('REFUNDED');
      expect(await balancesOf(t.db, userId)).toEqual({ keys: 0, xtra: 0 });
    });

    it('a refusal gives the keys back and changes nothing else; a later refund may be asked', async () => {
      await ready();
      useProviders({ card: scriptedCard(async () => ({ status: 'refused', message: '91506: Cannot refund transaction unless it is settled.' })).provider });
      const userId = await reader(t.db);
      const id = await paidOrder(t.db, userId);
      const refused = await refundPayable(t.db, { payableId: id, origin: 'staff', reason: 'asked by chat', actor: ACTOR, now: T0 + 60 });
      expect(refused).toMatchObject({ ok: true, outcome: 'refused', message: '91506: Cannot refund transaction unless it is settled.' });
      expect(await balancesOf(t.db, userId)).toEqual({ keys: 100, xtra: 10 });
      expect((await findOrder(t.db, id))?.state).toBe('PAID');

      useProviders({ card: scriptedCard(confirmed).provider });
      const later = await refundPayable(t.db, { payableId: id, origin: 'staff', reason: 'settled now', actor: ACTOR, now: T0 + 86_400 });
      expect(later).toMatchObject({ ok: true, outcome: 'confirmed', existing: false });
      expect((await findOrder(t.db, id))?.state).toBe('REFUNDED');
      expect((await t.db.selectFrom('refunds').select('state').where('payable_id', '=', id).orderBy('id').execute()).map((r) => r.state)).toEqual(['FAILED', 'CONFIRMED']);
    });

    it('a refund the provider is still processing waits, keys held, until it answers', async () => {
      await ready();
      useProviders({ card: scriptedCard(async () => ({ status: 'pending', providerRefundId: 'rf-1' })).provider });
      const userId = await reader(t.db);
      const id = await paidOrder(t.db, userId);
      expect(await refundPayable(t.db, { payableId: id, origin: 'staff', reason: 'pix refund', actor: ACTOR, now: T0 + 60 })).toMatchObject({ ok: true, outcome: 'pending' });
      expect(await resumeRefunds(t.db, { before: T0 + 120, now: T0 + 120 })).toEqual({ confirmed: 0, refused: 0, pending: 1 });
      useProviders({ card: scriptedCard(async () => ({ status: 'refused', message: 'REJECTED' }), async () => ({ status: 'refused', message: 'REJECTED' })).provider });
      expect(await resumeRefunds(t.db, { before: T0 + 180, now: T0 + 180 })).toEqual({ confirmed: 0, refused: 1, pending: 0 });
      expect(await balancesOf(t.db, userId)).toEqual({ keys: 100, xtra: 10 });
      expect((await findOrder(t.db, id))?.state).toBe('PAID');
    });

    it("a reader's withdrawal: within 7 days and unspent; after that the reason, and never another reader's order", async () => {
      await ready();
      useProviders({ card: scriptedCard(confirmed).provider });
      const userId = await reader(t.db);
      const other = await reader(t.db);
      const id = await paidOrder(t.db, userId);
      expect(await refundPayable(t.db, { payableId: id, origin: 'reader', readerId: other, reason: 'withdrawal', actor: null, now: T0 + 60 })).toEqual({ ok: false, problem: 'unknown' });
      expect(await refundPayable(t.db, { payableId: id, origin: 'reader', readerId: userId, reason: 'withdrawal', actor: null, now: T0 + 1 + 7 * 86_400 })).toEqual({ ok: false, problem: 'window' });
      expect(await refundPayable(t.db, { payableId: id, origin: 'reader', readerId: userId, reason: 'withdrawal', actor: null, now: T0 + 3600 })).toMatchObject({ ok: true, outcome: 'confirmed' });
      expect(await refundPayable(t.db, { payableId: id, origin: 'reader', readerId: userId, reason: 'withdrawal', actor: null, now: T0 + 3700 })).toEqual({ ok: false, problem: 'refunded' });
      expect(await balancesOf(t.db, userId)).toEqual({ keys: 0, xtra: 0 });
    });

    it("a subscription charge's refund ends its subscription now, or lets it run to the period's end", async () => {
      await ready();
      useProviders({ card: scriptedCard(confirmed).provider });
      for (const ending of ['now', 'period_end'] as const) {
        const userId = await reader(t.db);
        const code = `p${Math.random().toString(36).slice(2, 10)}`;
        const plan = await t.db.insertInto('plans').values({ site_id: 1, code, name: 'P', benefits: '[]', currency: 'USD', price: 499, period_months: 1, series_slots: 3, rent_capacity: 5, rent_ttl: 86_400, trial_days: 0, position: 1, active: 1, created_at: T0, updated_at: T0 }).returning('id').executeTakeFirstOrThrow();
        const sub = await t.db.insertInto('subscriptions').values({ public_id: `sbs${userId}${code}`, user_id: userId, site_id: 1, plan_id: Number(plan.id), state: 'PENDING', anchor_at: T0, paid_until: T0, method: 'card', provider: 'sandbox', payer_name: null, payer_doc: null, created_at: T0, updated_at: T0 }).returning('id').executeTakeFirstOrThrow();
        const charge = await chargeForPeriod(t.db, { subscription_id: Number(sub.id), user_id: userId, period_start: T0, period_end: T0 + 30 * 86_400, currency: 'USD', amount: 499, method: 'card', provider: 'sandbox', expires_at: null }, T0);
        expect((await confirmPayment(t.db, { orderId: charge.public_id, paymentId: `sbx_${charge.public_id}`, amount: 499, currency: 'USD', source: 'checkout', now: T0 + 1 })).kind).toBe('paid');
        const done = await refundPayable(t.db, { payableId: charge.public_id, origin: 'staff', reason: 'charged twice', actor: ACTOR, ending, now: T0 + 60 });
        expect(done).toMatchObject({ ok: true, outcome: 'confirmed' });
        expect((await findCharge(t.db, charge.public_id))?.state).toBe('REFUNDED');
        const after = await t.db.selectFrom('subscriptions').select(['state', 'cancel_at_period_end']).where('id', '=', Number(sub.id)).executeTakeFirstOrThrow();
        if (ending === 'now') expect(after.state).toBe('EXPIRED');
        else expect({ state: after.state, cancel: Number(after.cancel_at_period_end) }).toEqual({ state: 'ACTIVE', cancel: 1 });
        // A reader cannot withdraw a subscription charge.
        expect(await refundPayable(t.db, { payableId: charge.public_id, origin: 'reader', readerId: userId, reason: 'w', actor: null, now: T0 + 70 })).toEqual({ ok: false, problem: 'unknown' });
      }
    });

    it('a payment recorded to refund is given back once, or dismissed with a reason, never both', async () => {
      await ready();
      // Braintree's side is not in the database (the audit checks a sandbox's payments to refund against its own records).
      const card = scriptedCard(confirmed, async () => null, 'braintree');
      useProviders({ card: card.provider });
      const userId = await reader(t.db);
      const id = await paidOrder(t.db, userId, 'braintree');
      // A second payment of the paid order: recorded to refund, never credited.
      expect((await confirmPayment(t.db, { orderId: id, paymentId: `sbx_second_${id}`, amount: 999, currency: 'USD', source: 'webhook', now: T0 + 5 })).kind).toBe('already');
      const due = await t.db.selectFrom('refunds_due').select('id').where('payable_id', '=', id).executeTakeFirstOrThrow();
      const answers = await Promise.all(Array.from({ length: 5 }, () => refundDue(t.db, { dueId: Number(due.id), reason: 'paid twice', actor: ACTOR, now: T0 + 60 })));
      expect(answers.filter((a) => a.ok && !a.existing)).toHaveLength(1);
      expect(card.asked).toEqual([expect.objectContaining({ paymentId: `sbx_second_${id}`, money: { amount: 999, currency: 'USD' } })]);
      expect(await dismissDue(t.db, { dueId: Number(due.id), reason: 'too late', actor: ACTOR, now: T0 + 70 })).toEqual({ ok: false, problem: 'resolved' });
      const row = await repo.findRefundDue(t.db, Number(due.id));
      expect(row?.resolution).toMatch(/^refunded \(rfd/);
      // The order itself is untouched: its own payment stands.
      expect((await findOrder(t.db, id))?.state).toBe('PAID');
      expect(await balancesOf(t.db, userId)).toEqual({ keys: 100, xtra: 10 });
    });
  });
}
