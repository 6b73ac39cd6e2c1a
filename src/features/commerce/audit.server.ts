/**
 * The audit of buying keys and paying subscriptions (`npm run keys -- audit`, with the ledger's;
 * docs/money-states.md lists the rules and docs/wallet.md the ledger's). Each rule is a query of
 * rows that break it; an empty answer is a clean bill.
 */
import type { DB } from '~/server/db';
import * as repo from './repository.server';

export interface AuditFinding {
  rule: string;
  rows: unknown[];
}

/** Every invariant of orders, coupons, subscription charges, subscriptions and payments to refund. */
export async function auditOrders(db: DB): Promise<AuditFinding[]> {
  const [miscredited, orphans, counts, closedHolding, overLimit, ungranted, severalLive, grantsAmiss, closedGranted, closedCredited, live, refunds] = await Promise.all([
    repo.paidOrdersMiscredited(db), repo.purchasesWithoutPaidOrder(db), repo.couponCountsAmiss(db), repo.redemptionsOfClosedOrders(db), repo.readerLimitsExceeded(db),
    repo.paidChargesNotGranted(db), repo.readersWithSeveralLive(db), repo.paidChargesGrantedAmiss(db), repo.closedChargesGranted(db), repo.closedOrdersCredited(db),
    repo.liveSubscriptionsWithCover(db), repo.refundsWithoutTheirPayment(db),
  ]);
  // A live subscription is paid for by its paid charges (its paid time is exactly their latest
  // period's end) or, while a trial, by the reader's one trial; only its owner's moves change it.
  const uncovered = live.filter((s) => {
    if (s.state === 'TRIAL') return s.trials !== 1 || s.paid_end != null;
    return s.paid_end == null || s.paid_end !== s.paid_until;
  });
  return [
    { rule: "every paid order's keys and Xtra keys were credited once, by its own purchase transaction", rows: miscredited },
    { rule: 'every purchase transaction belongs to a paid order', rows: orphans },
    { rule: "a coupon's count equals the orders holding it and stays within its limit", rows: counts },
    { rule: 'failed and expired orders gave their coupon use back', rows: closedHolding },
    { rule: 'no reader holds a coupon more often than it allows', rows: overLimit },
    { rule: "every paid subscription charge's period is within its subscription's access", rows: ungranted },
    { rule: 'a reader has at most one live subscription', rows: severalLive },
    { rule: 'each paid charge granted exactly one period, of its own subscription', rows: grantsAmiss },
    { rule: 'no live subscription without a paid period or a trial covering it (its paid time is its latest paid period\'s end, or the reader\'s one trial)', rows: uncovered },
    { rule: 'no payment credited to a closed order or charge', rows: [...closedGranted, ...closedCredited] },
    { rule: 'every payment to refund matches a payment of that reader', rows: refunds },
  ].filter((f) => f.rows.length > 0);
}
