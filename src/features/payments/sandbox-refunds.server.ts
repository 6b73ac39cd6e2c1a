/**
 * The two local sandboxes' side of a refund (docs/payments.md, "Refunds at the providers"): one
 * `sandbox_refunds` row per refund, keyed by our refund id as its correlation id, so asking twice
 * answers the first refund and concurrent identical requests make one row (a unique index).
 * The card sandbox voids a whole sale younger than a day and refunds an older one, as Braintree
 * does before and after its daily settlement; the Pix sandbox only refunds.
 */
import crypto from 'node:crypto';
import { decimalAmount } from '~/lib/money';
import type { DB } from '~/server/db';
import type { RefundOutcome, RefundRequest } from './provider';
import * as repo from './repository.server';

/** A sandbox sale settles a day after it was made (a gateway's daily settlement batch). */
export const SANDBOX_SETTLEMENT_SECONDS = 24 * 3600;

export type SandboxRefundProvider = 'sandbox' | 'pix-sandbox';

/** The payment as the sandbox holds it: null when it has none (or none that can be refunded). */
export interface SandboxPayment {
  amount: number;
  currency: string;
  /** When it was paid (unix seconds). */
  paidAt: number;
  /** Cards: a whole refund of an unsettled sale is a void, a part of one is refused. Pix: never settles that way. */
  voidable: boolean;
}

export function confirmedOf(row: repo.SandboxRefundRow): RefundOutcome {
  return { status: 'confirmed', providerRefundId: row.refund_id, action: row.action === 'void' ? 'void' : 'refund' };
}

/** The refund recorded under our refund id, or null when the sandbox never received it. */
export async function findSandboxRefund(db: DB, provider: SandboxRefundProvider, req: RefundRequest): Promise<RefundOutcome | null> {
  const row = await repo.findSandboxRefund(db, provider, req.refundId);
  return row ? confirmedOf(row) : null;
}

/**
 * Gives `req.money` of a sandbox payment back. The checks read what was refunded before; the
 * insert is guarded by the unique correlation id, so a repeat of one refund, however concurrent,
 * records it once and answers it the same.
 */
export async function refundInSandbox(db: DB, provider: SandboxRefundProvider, req: RefundRequest, payment: SandboxPayment | null, now: number): Promise<RefundOutcome> {
  const earlier = await repo.findSandboxRefund(db, provider, req.refundId);
  if (earlier) {
    if (earlier.payment_id !== req.paymentId) return { status: 'refused', message: 'This refund id was used for another payment.' };
    return confirmedOf(earlier);
  }
  if (!payment) return { status: 'refused', message: 'Unknown payment.' };
  if (!Number.isSafeInteger(req.money.amount) || req.money.amount <= 0) return { status: 'refused', message: 'The amount must be positive.' };
  if (req.money.currency !== payment.currency) return { status: 'refused', message: `The payment was made in ${payment.currency}, not ${req.money.currency}.` };
  const refunds = await repo.sandboxRefundsOf(db, provider, req.paymentId);
  // A concurrent request with this refund id may have recorded it since the first look: it is
  // this refund, not an earlier one that leaves less to give back.
  const same = refunds.find((r) => r.correlation_id === req.refundId);
  if (same) return confirmedOf(same);
  if (refunds.some((r) => r.action === 'void')) return { status: 'refused', message: 'The payment was voided.' };
  const refunded = refunds.reduce((sum, r) => sum + r.amount, 0);
  const left = payment.amount - refunded;
  if (left <= 0) return { status: 'refused', message: 'The payment was already refunded in full.' };
  if (req.money.amount > left) return { status: 'refused', message: `Only ${moneyFact(left, payment.currency)} is left to refund.` };
  const settled = !payment.voidable || now >= payment.paidAt + SANDBOX_SETTLEMENT_SECONDS;
  let action: 'void' | 'refund' = 'refund';
  if (!settled) {
    // A partial refund of a sale that has not settled is refused, as Braintree refuses it.
    if (!req.whole || refunded > 0 || req.money.amount !== payment.amount) return { status: 'refused', message: 'The sale has not settled yet; refund it once it settles.' };
    action = 'void';
  }
  const row = await repo.insertSandboxRefund(db, {
    provider, payment_id: req.paymentId, correlation_id: req.refundId, refund_id: `sbr_${crypto.randomBytes(8).toString('hex')}`,
    amount: req.money.amount, currency: req.money.currency, action, created_at: now,
  });
  // Another request with this refund id may have won the insert: its row is the answer.
  if (row.payment_id !== req.paymentId) return { status: 'refused', message: 'This refund id was used for another payment.' };
  return confirmedOf(row);
}

/** What was given back of a sandbox payment: the total, the refund ids and whether it was voided. */
export async function sandboxRefunded(db: DB, provider: SandboxRefundProvider, paymentId: string): Promise<{ amount: number; ids: string[]; voided: boolean }> {
  const rows = await repo.sandboxRefundsOf(db, provider, paymentId);
  return { amount: rows.reduce((sum, r) => sum + r.amount, 0), ids: rows.map((r) => r.refund_id), voided: rows.some((r) => r.action === 'void') };
}

/** An amount in the providers' decimal terms ("4.99 USD"), with the currency's own minor digits. */
export function moneyFact(minor: number, currency: string): string {
  let digits = 2;
  try {
    digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    // An unknown currency code: two digits, as most have.
  }
  return `${decimalAmount(minor, digits)} ${currency}`;
}

export function timeFact(unixSeconds: number): string {
  return new Date(unixSeconds * 1000).toISOString();
}
