/**
 * The subscription owner's guarded move on a real database of each dialect: what the table
 * refuses changes nothing, a paid period never moves the paid time back, an EXPIRED subscription
 * is never revived, concurrent moves move once, and the database itself holds a reader to one
 * live subscription.
 */
import { describe, expect, it } from 'vitest';
import { isUniqueViolation, writeTransaction, type DB } from '~/server/db';
import { testDialects, useTestDatabase } from '~/server/test-databases';
import { beginSubscription, grantPaidPeriod, moveSubscription } from './moves.server';
import { SUBSCRIPTION_EVENTS, SUBSCRIPTION_STATES, nextSubscriptionState } from './states';
import * as repo from './repository.server';

const T0 = 1_800_000_000;
let users = 0;

async function reader(db: DB): Promise<number> {
  const row = await db.insertInto('users').values({ email: `moves-${++users}-${Math.random().toString(36).slice(2)}@example.test`, display_name: 'R', password_hash: 'x', is_staff: 0, created_at: T0, password_changed_at: T0 }).returning('id').executeTakeFirstOrThrow();
  return Number(row.id);
}

async function plan(db: DB): Promise<number> {
  const code = `p${Math.random().toString(36).slice(2, 10)}`;
  await db.insertInto('plans').values({ site_id: 3, code, name: 'P', benefits: '[]', currency: 'BRL', price: 1490, period_months: 1, series_slots: 3, rent_capacity: 5, rent_ttl: 86_400, trial_days: 0, position: 1, active: 1, created_at: T0, updated_at: T0 }).execute();
  return Number((await db.selectFrom('plans').select('id').where('code', '=', code).executeTakeFirstOrThrow()).id);
}

/** A subscription of a fresh reader, moved to `state` along allowed moves. */
async function subscriptionIn(db: DB, state: (typeof SUBSCRIPTION_STATES)[number]) {
  const userId = await reader(db);
  const planId = await plan(db);
  return writeTransaction(db, async (trx) => {
    const sub = await beginSubscription(trx, { public_id: `sbs${userId}x${Math.random().toString(36).slice(2, 8)}`, user_id: userId, site_id: 3, plan_id: planId, anchor_at: T0, paid_until: T0, method: 'pix', provider: 'pix', payer_name: null, payer_doc: null }, state === 'TRIAL' ? 'trial' : 'awaitingPayment', 'test', T0);
    const path: Record<string, ('periodPaid' | 'periodEnded' | 'givenUp')[]> = { PENDING: [], TRIAL: [], ACTIVE: ['periodPaid'], PAST_DUE: ['periodPaid', 'periodEnded'], EXPIRED: ['givenUp'] };
    for (const event of path[state]!) {
      const r = await moveSubscription(trx, { id: sub.id, event, source: 'renew', detail: event, now: T0, periodEnd: T0 + 30 * 86_400 });
      expect(r.moved).toBe(true);
    }
    return { ...(await repo.findSubscription(trx, sub.id))!, userId };
  });
}

const eventsOf = (db: DB, id: number) => repo.eventsOf(db, id);

for (const dialect of testDialects()) {
  describe(`the subscription owner's guarded move (${dialect})`, () => {
    const t = useTestDatabase(dialect);

    for (const state of SUBSCRIPTION_STATES) {
      for (const event of SUBSCRIPTION_EVENTS) {
        const to = nextSubscriptionState(state, event);
        it(`${state} × ${event}: ${to ? `moves to ${to}, recorded once` : 'refused, nothing changes'}`, async () => {
          const sub = await subscriptionIn(t.db, state);
          expect(sub.state).toBe(state);
          const before = await eventsOf(t.db, sub.id);
          const r = await writeTransaction(t.db, (trx) => moveSubscription(trx, { id: sub.id, event, source: 'renew', detail: 'under test', now: T0 + 10, periodEnd: T0 + 60 * 86_400 }));
          const after = (await repo.findSubscription(t.db, sub.id))!;
          const events = await eventsOf(t.db, sub.id);
          if (!to) {
            expect(r).toEqual({ moved: false, why: 'refused' });
            expect(after).toEqual(sub && { ...after, state, paid_until: sub.paid_until });
            expect(events).toHaveLength(before.length);
            return;
          }
          expect(r).toEqual({ moved: true, from: state, to });
          expect(after.state).toBe(to);
          expect(events).toHaveLength(before.length + 1);
          expect(events.at(-1)).toMatchObject({ state: to, source: 'renew', detail: 'under test' });
          if (event === 'periodPaid') expect(after.paid_until).toBe(Math.max(sub.paid_until, T0 + 60 * 86_400));
          if (event === 'cancelled') expect([after.cancel_at_period_end, after.canceled_at]).toEqual([1, T0 + 10]);
        });
      }
    }

    it('a paid period never moves the paid time back, and names its charge', async () => {
      const sub = await subscriptionIn(t.db, 'ACTIVE');
      const charge = await t.db.insertInto('subscription_charges').values({ public_id: `sub${sub.id}x`, subscription_id: sub.id, user_id: sub.userId, period_start: T0, period_end: T0 + 86_400, currency: 'BRL', amount: 1490, method: 'pix', provider: 'pix-sandbox', state: 'PAID', payment_id: `E2E${sub.id}`, paid_at: T0, created_at: T0, updated_at: T0 }).returning('id').executeTakeFirstOrThrow();
      expect(await writeTransaction(t.db, (trx) => grantPaidPeriod(trx, { subscriptionId: sub.id, periodEnd: T0 + 86_400, chargeId: Number(charge.id), detail: 'short', source: 'webhook', now: T0 + 20 }))).toBe(true);
      expect((await repo.findSubscription(t.db, sub.id))!.paid_until).toBe(T0 + 30 * 86_400);
      expect((await eventsOf(t.db, sub.id)).at(-1)).toMatchObject({ state: 'ACTIVE', charge_id: Number(charge.id) });
    });

    it('a replaced (or given up, or over) subscription is never revived by a late payment', async () => {
      const sub = await subscriptionIn(t.db, 'EXPIRED');
      expect(await writeTransaction(t.db, (trx) => grantPaidPeriod(trx, { subscriptionId: sub.id, periodEnd: T0 + 90 * 86_400, chargeId: 0, detail: 'late', source: 'webhook', now: T0 + 30 }))).toBe(false);
      expect(await repo.findSubscription(t.db, sub.id)).toMatchObject({ state: 'EXPIRED', paid_until: sub.paid_until });
    });

    it('a move whose paid time changed since it was read does not happen (a payment came in between)', async () => {
      const sub = await subscriptionIn(t.db, 'ACTIVE');
      const r = await writeTransaction(t.db, (trx) => moveSubscription(trx, { id: sub.id, event: 'periodEnded', source: 'renew', detail: 'stale', now: T0, paidUntilAtMost: sub.paid_until - 1 }));
      expect(r).toEqual({ moved: false, why: 'stale' });
      expect((await repo.findSubscription(t.db, sub.id))!.state).toBe('ACTIVE');
    });

    it('twenty concurrent expiries of one subscription move it once', async () => {
      const sub = await subscriptionIn(t.db, 'PAST_DUE');
      const results = await Promise.all(Array.from({ length: 20 }, () => writeTransaction(t.db, (trx) => moveSubscription(trx, { id: sub.id, event: 'accessEnded', source: 'renew', detail: 'grace over', now: T0 + 40 }))));
      expect(results.filter((r) => r.moved)).toHaveLength(1);
      expect((await eventsOf(t.db, sub.id)).filter((e) => e.state === 'EXPIRED')).toHaveLength(1);
    });

    it('the database holds a reader to one live subscription; an expired one does not count', async () => {
      const sub = await subscriptionIn(t.db, 'ACTIVE');
      const planId = await plan(t.db);
      const second = () => writeTransaction(t.db, (trx) => beginSubscription(trx, { public_id: `sbs2nd${sub.id}${Math.random().toString(36).slice(2, 6)}`, user_id: sub.userId, site_id: 3, plan_id: planId, anchor_at: T0, paid_until: T0, method: 'pix', provider: 'pix', payer_name: null, payer_doc: null }, 'awaitingPayment', 'second', T0));
      const refused = await second().then(() => null, (e: unknown) => e);
      expect(isUniqueViolation(refused)).toBe(true);
      await writeTransaction(t.db, (trx) => moveSubscription(trx, { id: sub.id, event: 'accessEnded', source: 'renew', detail: 'over', now: T0 + 50 }));
      await expect(second()).resolves.toMatchObject({ state: 'PENDING', user_id: sub.userId });
    });
  });
}
