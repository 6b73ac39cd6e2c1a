/**
 * The subscriptions' part of a reader's own data (issue 32, docs/privacy.md): their
 * subscriptions (plan, state, dates, payer) and series slots for the data export. With the
 * account, the live subscription stops through the owner's own guarded move — cancelled (no
 * further renewal) or, while still PENDING, given up — and the provider's vaulted payment
 * method is forgotten; the rows stay, as financial records.
 */
import type { DB, WriteTx } from '~/server/db';
import { moveSubscription } from './moves.server';
import * as repo from './repository.server';

export const subscriptionsAccountData = {
  name: 'subscriptions',
  async exportOf(db: DB, userId: number) {
    const { subs, slots } = await repo.subscriptionsForExport(db, userId);
    return {
      subscriptions: subs.map((s) => ({
        id: s.public_id, site_id: Number(s.site_id), plan: s.plan, plan_name: s.plan_name, state: s.state, started_at: Number(s.anchor_at), paid_until: Number(s.paid_until),
        cancelled: Boolean(Number(s.cancel_at_period_end)), canceled_at: s.canceled_at === null ? null : Number(s.canceled_at), method: s.method, provider: s.provider,
        payer_name: s.payer_name, payer_document: s.payer_doc, created_at: Number(s.created_at),
        series: slots.filter((x) => Number(x.subscription_id) === Number(s.id)).map((x) => ({ series: x.e4pid, added_at: Number(x.created_at) })),
      })),
    };
  },
  async eraseFor(tx: WriteTx, userId: number, now: number): Promise<Record<string, number>> {
    await repo.lockReaderRow(tx, userId);
    const current = await repo.currentSubscription(tx, userId);
    let stopped = 0;
    if (current) {
      const m = await moveSubscription(tx, { id: current.id, event: current.state === 'PENDING' ? 'givenUp' : 'cancelled', source: 'reader', detail: 'account deleted: no further renewal', now });
      stopped = m.moved ? 1 : 0;
    }
    await repo.forgetPaymentTokens(tx, userId, now);
    return { subscriptions_stopped: stopped };
  },
};
