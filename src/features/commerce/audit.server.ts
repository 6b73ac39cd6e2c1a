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

/**
 * The refunds' rules (docs/money-states.md, "Refunds"): each refund took back and reversed exactly
 * what it held, never more than its order credited; no reversal, and no refunded order or charge,
 * without a refund the provider confirmed; the keys held for refunds are those of refunds still
 * asked of a provider.
 */
export async function auditRefunds(db: DB): Promise<AuditFinding[]> {
  const [refunds, payables, transactions, held] = await Promise.all([repo.refundLedgerAmiss(db), repo.refundedPayables(db), repo.refundTransactions(db), repo.heldForRefunds(db)]);
  const amiss = refunds.filter((r) => {
    const heldRight = r.hold_keys === (r.payable_kind === 'order' ? r.keys : 0) && r.hold_xtra === (r.payable_kind === 'order' ? r.xtra_keys : 0);
    const reversed = r.state === 'CONFIRMED' ? r.reversed_keys === -r.keys && r.reversed_xtra === -r.xtra_keys : r.ledger_transaction_id == null;
    if (r.payable_kind === 'order') {
      if (r.order_total == null || r.order_user !== r.user_id) return true;
      const within = r.keys <= r.order_keys! && r.xtra_keys <= r.order_xtra! && r.amount <= r.order_total && r.keys > 0;
      const whole = r.whole === 1 ? r.keys === r.order_keys && r.amount === r.order_total : r.keys < r.order_keys! && r.amount < r.order_total;
      return !heldRight || !reversed || !within || !whole;
    }
    if (r.payable_kind === 'charge') return r.charge_amount == null || r.amount !== r.charge_amount || !heldRight || !reversed;
    return !heldRight || !reversed;
  });
  const stateAmiss = payables.filter((p) => {
    if (p.state === 'PAID') return p.whole + p.part !== 0;
    if (p.state === 'REFUNDED') return p.whole !== 1 || p.part !== 0;
    return p.whole !== 0 || p.part !== 1;
  });
  const unconfirmed = transactions.filter((t) => (t.kind === 'refund' ? !t.reversal_of || t.reversal_state !== 'CONFIRMED' || !t.provider_refund_id : t.kind === 'refund_hold' ? !t.hold_of : false));
  const pending = refunds.filter((r) => r.state === 'PENDING');
  const heldWrong = (['keys', 'xtra'] as const).flatMap((currency) => {
    const want = pending.reduce((sum, r) => sum + (currency === 'keys' ? r.hold_keys : r.hold_xtra), 0);
    const have = held.find((h) => h.currency === currency)?.balance ?? 0;
    return have === want ? [] : [{ currency, held: have, pending: want }];
  });
  return [
    { rule: 'each refund held and reversed exactly its keys, never more than its order credited (a whole refund: all of them and the whole total)', rows: amiss },
    { rule: 'an order or charge is refunded exactly when a refund of it was confirmed (REFUNDED: one whole; PARTIALLY_REFUNDED: one part)', rows: stateAmiss },
    { rule: 'no refund reversal without a refund its provider confirmed', rows: unconfirmed },
    { rule: 'the keys held for refunds are those of the refunds still asked of a provider', rows: heldWrong },
  ].filter((f) => f.rows.length > 0);
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
    ...(await auditRefunds(db)),
  ].filter((f) => f.rows.length > 0);
}
