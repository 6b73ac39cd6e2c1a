/**
 * The payables' owner on a real database of each dialect: a key-pack order and a subscription
 * charge are confirmed exactly once with their amount checked, closed records never grant, and
 * every payment that must go back is recorded once "to refund" — a charge whose subscription was
 * replaced included (issue 25's revived subscription).
 */
import { describe, expect, it } from 'vitest';
import { balancesOf } from '~/features/wallet/index.server';
import type { DB } from '~/server/db';
import { testDialects, useTestDatabase } from '~/server/test-databases';
import { chargeForPeriod, closePayable, confirmPayment, createOrder, findCharge, findOrder } from './payables.server';
import * as repo from './repository.server';
import { seedShopRows } from './shop.server';

const T0 = 1_800_000_000;
let n = 0;

async function reader(db: DB): Promise<number> {
  const row = await db.insertInto('users').values({ email: `payables-${++n}-${Math.random().toString(36).slice(2)}@example.test`, display_name: 'R', password_hash: 'x', is_staff: 0, created_at: T0, password_changed_at: T0 }).returning('id').executeTakeFirstOrThrow();
  return Number(row.id);
}

async function order(db: DB, userId: number) {
  const made = await createOrder(db, { userId, siteId: 3, packCode: 'popular', couponCode: null, method: 'pix', provider: 'pix-sandbox', requestKey: null, next: null, expiresIn: 900, now: T0 });
  if (!made.ok) throw new Error(made.problem);
  return made.order;
}

/** A subscription waiting for its first payment, arranged in rows (its owner's moves are tested in subscriptions). */
async function beginSubscriptionForTest(db: DB, userId: number, now: number): Promise<{ subscriptionId: number; planId: number }> {
  const code = `p${Math.random().toString(36).slice(2, 10)}`;
  const plan = await db.insertInto('plans').values({ site_id: 3, code, name: 'P', benefits: '[]', currency: 'BRL', price: 1490, period_months: 1, series_slots: 3, rent_capacity: 5, rent_ttl: 86_400, trial_days: 0, position: 1, active: 1, created_at: now, updated_at: now }).returning('id').executeTakeFirstOrThrow();
  const sub = await db.insertInto('subscriptions').values({ public_id: `sbs${userId}${code}`, user_id: userId, site_id: 3, plan_id: Number(plan.id), state: 'PENDING', anchor_at: now, paid_until: now, method: 'pix', provider: 'pix', payer_name: null, payer_doc: null, created_at: now, updated_at: now }).returning('id').executeTakeFirstOrThrow();
  return { subscriptionId: Number(sub.id), planId: Number(plan.id) };
}

const pay = (id: string, over: Partial<Parameters<typeof confirmPayment>[1]> = {}) => (db: DB) =>
  confirmPayment(db, { orderId: id, paymentId: `E2E${id}`, amount: 3990, currency: 'BRL', source: 'webhook', now: T0 + 60, ...over });

for (const dialect of testDialects()) {
  describe(`the payables' owner (${dialect})`, () => {
    const t = useTestDatabase(dialect);
    const ready = async () => {
      if ((await t.db.selectFrom('key_packs').select('id').execute()).length === 0) {
        await seedShopRows(t.db, { packs: [{ site_id: 3, code: 'popular', currency: 'BRL', price: 3990, keys: 100, xtra_keys: 10, position: 1, active: 1 }], coupons: [] }, T0);
      }
    };

    it('confirms an order once, however many times and from however many sources at once', async () => {
      await ready();
      const userId = await reader(t.db);
      const o = await order(t.db, userId);
      const results = await Promise.all(Array.from({ length: 12 }, () => pay(o.public_id)(t.db)));
      expect(results.filter((r) => r.kind === 'paid')).toHaveLength(1);
      expect(results.filter((r) => r.kind !== 'paid').every((r) => r.kind === 'already')).toBe(true);
      expect(await balancesOf(t.db, userId)).toEqual({ keys: 100, xtra: 10 });
      expect((await repo.orderEvents(t.db, o.id)).filter((e) => e.state === 'PAID')).toHaveLength(1);
      expect(await t.db.selectFrom('refunds_due').select('id').where('payable_id', '=', o.public_id).execute()).toEqual([]);
    });

    it('a payment of another amount or currency is noted, never credited, and the order can still be paid right', async () => {
      await ready();
      const userId = await reader(t.db);
      const o = await order(t.db, userId);
      expect(await pay(o.public_id, { amount: 3989 })(t.db)).toEqual({ kind: 'mismatch' });
      expect(await pay(o.public_id, { currency: 'USD' })(t.db)).toEqual({ kind: 'mismatch' });
      expect(await findOrder(t.db, o.public_id)).toMatchObject({ state: 'PENDING' });
      expect(await balancesOf(t.db, userId)).toEqual({ keys: 0, xtra: 0 });
      expect(await pay(o.public_id)(t.db)).toEqual({ kind: 'paid' });
    });

    it('a payment for an expired order, and a second payment of a paid one, are recorded to refund once each and grant nothing', async () => {
      await ready();
      const userId = await reader(t.db);
      const expired = await order(t.db, userId);
      expect(await closePayable(t.db, { id: expired.public_id, state: 'EXPIRED', source: 'expiry', reason: 'ran out', now: T0 + 900 })).toEqual({ state: 'EXPIRED' });
      for (let i = 0; i < 3; i++) expect(await pay(expired.public_id)(t.db)).toEqual({ kind: 'closed' });
      const paid = await order(t.db, userId);
      expect(await pay(paid.public_id)(t.db)).toEqual({ kind: 'paid' });
      expect(await pay(paid.public_id, { paymentId: 'E2Esecond' })(t.db)).toEqual({ kind: 'already' });
      expect(await balancesOf(t.db, userId)).toEqual({ keys: 100, xtra: 10 });
      const refunds = await t.db.selectFrom('refunds_due').select(['payable_id', 'payment_id', 'amount', 'currency', 'user_id']).where('user_id', '=', userId).orderBy('id').execute();
      expect(refunds).toEqual([
        { payable_id: expired.public_id, payment_id: `E2E${expired.public_id}`, amount: 3990, currency: 'BRL', user_id: userId },
        { payable_id: paid.public_id, payment_id: 'E2Esecond', amount: 3990, currency: 'BRL', user_id: userId },
      ]);
      // A late "expired" never undoes PAID.
      expect(await closePayable(t.db, { id: paid.public_id, state: 'EXPIRED', source: 'webhook', reason: 'late', now: T0 + 999 })).toEqual({ state: 'PAID' });
    });

    it('a charge paid after its subscription was replaced grants nothing: the charge closes and its payment is to refund', async () => {
      const userId = await reader(t.db);
      const { subscriptionId, planId } = await beginSubscriptionForTest(t.db, userId, T0);
      const charge = await chargeForPeriod(t.db, { subscription_id: subscriptionId, user_id: userId, period_start: T0, period_end: T0 + 30 * 86_400, currency: 'BRL', amount: 1490, method: 'pix', provider: 'pix-sandbox', expires_at: T0 + 900 }, T0);
      // Replaced while its charge was still payable (the PSP's close did not reach it).
      await t.db.transaction().execute(async (trx) => {
        await trx.updateTable('subscriptions').set({ state: 'EXPIRED' }).where('id', '=', subscriptionId).execute();
      });
      expect(await confirmPayment(t.db, { orderId: charge.public_id, paymentId: 'E2Elate', amount: 1490, currency: 'BRL', source: 'webhook', now: T0 + 60 })).toEqual({ kind: 'closed' });
      expect(await findCharge(t.db, charge.public_id)).toMatchObject({ state: 'EXPIRED' });
      expect(await t.db.selectFrom('subscriptions').select(['state', 'paid_until']).where('id', '=', subscriptionId).executeTakeFirstOrThrow()).toEqual({ state: 'EXPIRED', paid_until: T0 });
      expect(await t.db.selectFrom('refunds_due').select(['payable_kind', 'payable_id', 'payment_id', 'amount']).where('user_id', '=', userId).execute())
        .toEqual([{ payable_kind: 'charge', payable_id: charge.public_id, payment_id: 'E2Elate', amount: 1490 }]);
      expect(planId).toBeGreaterThan(0);
    });

    it('a charge is made once per period, with its first event', async () => {
      const userId = await reader(t.db);
      const { subscriptionId } = await beginSubscriptionForTest(t.db, userId, T0);
      const period = { subscription_id: subscriptionId, user_id: userId, period_start: T0, period_end: T0 + 30 * 86_400, currency: 'BRL', amount: 1490, method: 'pix', provider: 'pix-sandbox', expires_at: T0 + 900 };
      const charges = await Promise.all(Array.from({ length: 8 }, () => chargeForPeriod(t.db, period, T0)));
      expect(new Set(charges.map((c) => c.public_id)).size).toBe(1);
      expect(await repo.chargeEvents(t.db, charges[0]!.id)).toHaveLength(1);
      // Paying it grants the period once, named by the charge.
      const paid = await Promise.all(Array.from({ length: 5 }, () => confirmPayment(t.db, { orderId: charges[0]!.public_id, paymentId: 'E2Eperiod', amount: 1490, currency: 'BRL', source: 'webhook', now: T0 + 60 })));
      expect(paid.filter((r) => r.kind === 'paid')).toHaveLength(1);
      const events = await t.db.selectFrom('subscription_events').select(['state', 'charge_id']).where('subscription_id', '=', subscriptionId).where('charge_id', 'is not', null).execute();
      expect(events).toEqual([{ state: 'ACTIVE', charge_id: charges[0]!.id }]);
    });
  });
}
