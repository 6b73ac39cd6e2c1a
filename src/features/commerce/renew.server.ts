/**
 * `npm run subscriptions -- renew` (cron): moves subscriptions along as their time runs out and
 * charges every renewal due soon — a new Pix charge the reader pays from /my/subscriptions/ until
 * the grace ends, or a sale on the vaulted card. Safe to run twice, and twice at once: a period's
 * charge is made once (unique per period), a card charge is sold once (claimed), and every move
 * of a subscription is a guarded update. docs/subscriptions.md.
 */
import { advanceSubscriptions, dueRenewals } from '~/features/subscriptions/index.server';
import type { DB } from '~/server/db';
import { chargePeriodByCard, chargePeriodByPix } from './billing.server';

export interface RenewSummary {
  due: number;
  charged: number;
  pastDue: number;
  expired: number;
}

export async function renewSubscriptions(db: DB, now: number, qrLabel: string): Promise<RenewSummary> {
  const moved = await advanceSubscriptions(db, now);
  const due = await dueRenewals(db, now);
  let charged = 0;
  for (const { sub, plan, period, payableUntil } of due) {
    const charge = { subscriptionId: sub.id, userId: sub.user_id, periodStart: period.start, periodEnd: period.end, amount: plan.price, currency: plan.currency, now };
    if (sub.method === 'pix') {
      if ((await chargePeriodByPix(db, charge, { qrLabel, expiresIn: payableUntil - now })).ok) charged++;
    } else if (sub.payment_token) {
      if ((await chargePeriodByCard(db, { ...charge, method: sub.method, token: sub.payment_token })).kind === 'paid') charged++;
    }
  }
  return { due: due.length, charged, ...moved };
}
