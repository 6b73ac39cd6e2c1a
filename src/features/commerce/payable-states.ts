/**
 * The transition table of a payable (docs/money-states.md): a key-pack order and a subscription
 * charge follow the same rules, so they share one table and one owner (payables.server.ts). Pure;
 * payable-states.test.ts checks every state × event.
 *
 * States: PENDING (made, the provider asked or about to be), PAID, FAILED (refused or could not be
 * made), EXPIRED (ran out, or closed because the reader abandoned it or its subscription is over),
 * REFUNDED and PARTIALLY_REFUNDED (paid, then given back in whole or in part). FAILED, EXPIRED,
 * REFUNDED and PARTIALLY_REFUNDED are final; PAID is left only by a confirmed refund.
 *
 * Events:
 * - `paid`: the provider says a payment of the right amount and currency arrived. PENDING → PAID
 *   and what was paid for is granted. On a final record it changes nothing: the same payment again
 *   is `already`; another payment of a PAID record, or any payment of a FAILED or EXPIRED one, is
 *   a payment to give back (`refund`: recorded "to refund", never granted).
 * - `mismatch`: a payment of another amount or currency. Recorded, never granted, the record
 *   stays as it is (the provider may report the same payment correctly later; the reconciler asks).
 * - `failed`, `expired`: PENDING → FAILED / EXPIRED, its coupon use given back. Ignored on a
 *   final record (a late "expired" never undoes PAID).
 * - `voided`: the payment arrived but there is nothing left to grant (the charge's subscription is
 *   over): PENDING → EXPIRED, and the payment is to refund.
 * - `refunded`, `partlyRefunded`: the provider confirmed giving the payment back, whole or in part
 *   (refunds.server.ts). PAID → REFUNDED / PARTIALLY_REFUNDED; from any other state refused (one
 *   refund per payable: a partial refund is not followed by another).
 * A refunded record answers payments like a PAID one: the same payment again changes nothing,
 * another is to refund.
 */
import type { OrderState } from '@db/schema';

export type PayableState = OrderState;
export const PAYABLE_STATES: readonly PayableState[] = ['PENDING', 'PAID', 'FAILED', 'EXPIRED', 'REFUNDED', 'PARTIALLY_REFUNDED'];
export const PAYABLE_EVENTS = ['paid', 'mismatch', 'failed', 'expired', 'voided', 'refunded', 'partlyRefunded'] as const;
export type PayableEvent = (typeof PAYABLE_EVENTS)[number];

/** What the owner does: move to a state, note the event and keep the state, or record the payment to refund. */
export type PayableStep =
  | { do: 'move'; to: Exclude<PayableState, 'PENDING'>; grant: boolean; refund: boolean }
  | { do: 'note' }
  | { do: 'already' }
  | { do: 'refund' }
  | { do: 'ignore' }
  /** A refund of a record that cannot be refunded (not paid, or refunded already). */
  | { do: 'refuse' };

const MOVE = (to: Exclude<PayableState, 'PENDING'>, o: { grant?: boolean; refund?: boolean } = {}): PayableStep => ({ do: 'move', to, grant: o.grant ?? false, refund: o.refund ?? false });

/** state × event → step. `paid` on PAID depends on whether it is the same payment, so it takes that. */
export function payableStep(state: PayableState, event: PayableEvent, samePayment = false): PayableStep {
  switch (state) {
    case 'PENDING':
      return pendingStep(event);
    case 'PAID':
    case 'REFUNDED':
    case 'PARTIALLY_REFUNDED':
      if (event === 'paid') return samePayment ? { do: 'already' } : { do: 'refund' };
      if (event === 'mismatch') return samePayment ? { do: 'ignore' } : { do: 'refund' };
      if (event === 'refunded') return state === 'PAID' ? MOVE('REFUNDED') : { do: 'refuse' };
      if (event === 'partlyRefunded') return state === 'PAID' ? MOVE('PARTIALLY_REFUNDED') : { do: 'refuse' };
      return { do: 'ignore' };
    case 'FAILED':
    case 'EXPIRED':
      if (event === 'refunded' || event === 'partlyRefunded') return { do: 'refuse' };
      return event === 'paid' || event === 'mismatch' ? { do: 'refund' } : { do: 'ignore' };
  }
}

/** The message key naming each state to readers (/my/purchases/, /my/subscriptions/, receipts). */
export const PAYABLE_STATE_LABELS = {
  PENDING: 'purchases.state.pending', PAID: 'purchases.state.paid', FAILED: 'purchases.state.failed', EXPIRED: 'purchases.state.expired',
  REFUNDED: 'purchases.state.refunded', PARTIALLY_REFUNDED: 'purchases.state.partiallyRefunded',
} as const satisfies Record<PayableState, string>;

function pendingStep(event: PayableEvent): PayableStep {
  switch (event) {
    case 'paid': return MOVE('PAID', { grant: true });
    case 'mismatch': return { do: 'note' };
    case 'failed': return MOVE('FAILED');
    case 'expired': return MOVE('EXPIRED');
    case 'voided': return MOVE('EXPIRED', { refund: true });
    case 'refunded':
    case 'partlyRefunded': return { do: 'refuse' };
  }
}
