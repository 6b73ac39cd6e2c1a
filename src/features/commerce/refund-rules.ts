/**
 * What refunding a paid key-pack order gives back (docs/payments.md, "Refunds"). Pure; the
 * refunds' owner (refunds.server.ts) applies it under the order's and the reader's locks, so the
 * balances it reads are the ones the refund takes keys from.
 *
 * - Keys are fungible: the order's paid keys count as unspent as far as the reader's paid-key
 *   balance covers them. A refund takes back k = min(order keys, balance) paid keys and nothing
 *   when k is 0.
 * - Money follows the paid keys: all of them back gives the whole total (→ REFUNDED); fewer give
 *   floor(total × k / keys) (→ PARTIALLY_REFUNDED), rounded down so the reader is never paid for
 *   a key they used.
 * - The Xtra bonus that came with the refunded keys goes with them, as far as the reader still
 *   holds Xtra keys: the whole bonus for a whole refund, ceil(bonus × k / keys) for a part. Bonus
 *   already spent stays spent (it was free; it is never charged for).
 * - A coupon's use comes back with a whole refund (the purchase is undone), not with a part.
 * - The reader's own withdrawal (Brazil's consumer code, art. 49) is stricter: within 7 days of
 *   payment, and only while nothing of the order is spent (its keys and its bonus).
 */

export const WITHDRAWAL_DAYS = 7;
export const WITHDRAWAL_SECONDS = WITHDRAWAL_DAYS * 86_400;

export interface RefundablePurchase {
  total: number;
  keys: number;
  xtraKeys: number;
}

export interface HeldKeys {
  keys: number;
  xtra: number;
}

export interface RefundTerms {
  /** Minor units given back. */
  amount: number;
  /** Paid keys and Xtra keys taken back. */
  keys: number;
  xtra: number;
  /** The whole purchase (all its paid keys and its total). */
  whole: boolean;
}

/** What a refund of this purchase gives back now, or null when its keys are all spent. */
export function purchaseRefund(order: RefundablePurchase, held: HeldKeys): RefundTerms | null {
  const keys = Math.min(order.keys, Math.max(0, held.keys));
  if (keys <= 0) return null;
  const whole = keys === order.keys;
  const amount = whole ? order.total : Math.floor((order.total * keys) / order.keys);
  if (amount <= 0) return null;
  const bonus = whole ? order.xtraKeys : Math.ceil((order.xtraKeys * keys) / order.keys);
  return { amount, keys, xtra: Math.min(bonus, Math.max(0, held.xtra)), whole };
}

export type WithdrawalProblem = 'not_paid' | 'window' | 'spent';

/** Whether the reader may withdraw this purchase now, and what it gives back. */
export function withdrawalTerms(order: RefundablePurchase & { state: string; paidAt: number | null }, held: HeldKeys, now: number):
  { ok: true; terms: RefundTerms } | { ok: false; problem: WithdrawalProblem } {
  if (order.state !== 'PAID' || order.paidAt == null) return { ok: false, problem: 'not_paid' };
  if (now >= order.paidAt + WITHDRAWAL_SECONDS) return { ok: false, problem: 'window' };
  if (held.keys < order.keys || held.xtra < order.xtraKeys) return { ok: false, problem: 'spent' };
  return { ok: true, terms: { amount: order.total, keys: order.keys, xtra: order.xtraKeys, whole: true } };
}
