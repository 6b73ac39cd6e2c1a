/** What /metrics shows of payments (docs/operations.md, "Metrics"), read at scrape time. */
import type { DB } from '~/server/db';
import * as repo from './repository.server';
import { PAYABLE_STATES } from './payable-states';

export interface PaymentFigures {
  ordersByState: Record<string, number>;
  /** Seconds since the oldest PENDING order and subscription charge were created (null: none). */
  oldestPendingSeconds: { order: number | null; charge: number | null };
  renewalsOverdue: number;
}

export async function paymentFigures(db: DB, now: number): Promise<PaymentFigures> {
  const [states, oldest, overdue] = await Promise.all([repo.ordersByState(db), repo.oldestPendingCreatedAt(db), repo.renewalsOverdue(db, now)]);
  const age = (at: number | null) => (at === null ? null : Math.max(0, now - at));
  return {
    // Every state, 0 when no order is in it, so a series exists before its first order.
    ordersByState: Object.fromEntries(PAYABLE_STATES.map((state) => [state, states.find((s) => s.state === state)?.n ?? 0])),
    oldestPendingSeconds: { order: age(oldest.order), charge: age(oldest.charge) },
    renewalsOverdue: overdue,
  };
}
