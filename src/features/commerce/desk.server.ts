/**
 * What the support desk's payment pages show (docs/staff.md, "Support desk: payments"):
 * `/studio/payments/`, the reconciliation page (pending payments past their expiry, amounts that
 * did not match, the payments to refund, refunds still waiting for a provider), and
 * `/studio/payments/{order or charge}/`, one payable with its events, its refunds and what a refund
 * would give back now. Reads only; the provider's own view is fetched on demand (`providerStatus`).
 */
import { cardProvider, pixProvider, type PaymentStatus } from '~/features/payments/index.server';
import type { DB } from '~/server/db';
import * as repo from './repository.server';
import type { AuditActor } from '~/server/audit';
import { dismissDue, refundDue, refundPayable, refundQuote, resumeRefund, type RefundProblem } from './refunds.server';
import { formatMoney } from './rules';

export interface DeskEvent {
  at: number;
  state: string;
  source: string;
  detail: string | null;
}

export interface DeskRefund {
  id: string;
  state: string;
  amount: string;
  keys: number;
  xtra: number;
  whole: boolean;
  origin: string;
  reason: string;
  ending: string | null;
  providerRefundId: string | null;
  action: string | null;
  failure: string | null;
  createdAt: number;
  confirmedAt: number | null;
  events: DeskEvent[];
}

export interface PayableDesk {
  kind: 'order' | 'charge';
  id: string;
  userId: number;
  state: string;
  amount: string;
  method: string;
  provider: string;
  paymentId: string | null;
  card: string | null;
  keys: number;
  xtra: number;
  /** A charge's period. */
  period: { start: number; end: number } | null;
  createdAt: number;
  paidAt: number | null;
  events: DeskEvent[];
  refunds: DeskRefund[];
  /** What a refund would give back now, or why none can start. */
  quote: { amount: string; keys: number; xtra: number; whole: boolean } | { problem: RefundProblem };
}

const events = (rows: { created_at: number; state: string; source: string; detail: string | null }[]): DeskEvent[] =>
  rows.map((e) => ({ at: e.created_at, state: e.state, source: e.source, detail: e.detail }));

/** One order or subscription charge for the desk, or null when there is none with that id. */
export async function payableDesk(db: DB, payableId: string, locale: string): Promise<PayableDesk | null> {
  const charge = payableId.startsWith('sub') ? await repo.findCharge(db, payableId) : undefined;
  const order = charge ? undefined : await repo.findOrder(db, payableId);
  if (!charge && !order) return null;
  const kind = charge ? 'charge' : 'order';
  const [history, refunds] = await Promise.all([
    charge ? repo.chargeEvents(db, charge.id) : repo.orderEvents(db, order!.id),
    repo.refundsOf(db, kind, payableId),
  ]);
  const live = refunds.some((r) => r.state === 'PENDING' || r.state === 'CONFIRMED');
  const quote = await refundQuote(db, charge ? { kind: 'charge', row: charge } : { kind: 'order', row: order! }, live);
  const currency = (charge ?? order)!.currency;
  const money = (n: number) => formatMoney(n, currency, locale);
  const base = charge
    ? { userId: charge.user_id, state: charge.state, amount: money(charge.amount), method: charge.method, provider: charge.provider, paymentId: charge.payment_id, card: null, keys: 0, xtra: 0, period: { start: charge.period_start, end: charge.period_end }, createdAt: charge.created_at, paidAt: charge.paid_at }
    : { userId: order!.user_id, state: order!.state, amount: money(order!.total), method: order!.method, provider: order!.provider, paymentId: order!.payment_id, card: order!.card_brand ? `${order!.card_brand}${order!.card_last4 ? ` •••• ${order!.card_last4}` : ''}` : null, keys: order!.keys, xtra: order!.xtra_keys, period: null, createdAt: order!.created_at, paidAt: order!.paid_at };
  return {
    kind,
    id: payableId,
    ...base,
    events: events(history),
    refunds: await Promise.all(refunds.map(async (r) => ({
      id: r.public_id, state: r.state, amount: money(r.amount), keys: r.keys, xtra: r.xtra_keys, whole: r.whole === 1, origin: r.origin, reason: r.reason, ending: r.ending,
      providerRefundId: r.provider_refund_id, action: r.provider_action, failure: r.failure, createdAt: r.created_at, confirmedAt: r.confirmed_at, events: events(await repo.refundEvents(db, r.id)),
    }))),
    quote: quote.terms ? { amount: money(quote.terms.amount), keys: quote.terms.keys, xtra: quote.terms.xtra, whole: quote.terms.whole } : { problem: quote.problem! },
  };
}

/** The payable's payment as its provider sees it now: null when the provider knows none, `unavailable` when it could not be asked. */
export async function providerStatus(db: DB, payableId: string): Promise<PaymentStatus | null | 'unavailable'> {
  const row = payableId.startsWith('sub') ? await repo.findCharge(db, payableId) : await repo.findOrder(db, payableId);
  if (!row) return null;
  try {
    const card = row.provider === 'sandbox' || row.provider === 'braintree';
    const provider = card ? cardProvider() : pixProvider();
    return await provider.paymentStatus({ orderId: row.public_id, paymentId: row.payment_id });
  } catch {
    return 'unavailable';
  }
}

export interface PaymentsDesk {
  overdue: { id: string; userId: number; method: string; amount: string; createdAt: number; expiresAt: number | null }[];
  mismatches: { id: string; userId: number; state: string; detail: string | null; at: number }[];
  due: { id: number; userId: number; payable: string; provider: string; paymentId: string; amount: string; reason: string; createdAt: number; resolvedAt: number | null; resolution: string | null; refunding: boolean }[];
  resolved: PaymentsDesk['due'];
  pendingRefunds: { id: string; payable: string; userId: number; amount: string; createdAt: number }[];
}

/** The reconciliation page's lists, 100 of each at most. */
export async function paymentsDesk(db: DB, locale: string, now: number): Promise<PaymentsDesk> {
  const [overdue, mismatches, queue, pending] = await Promise.all([repo.overduePayables(db, now, 100), repo.mismatchEvents(db, 100), repo.refundsDueQueue(db, 100), repo.pendingRefunds(db, now, 100)]);
  const refunding = new Set(pending.filter((r) => r.payable_kind === 'due').map((r) => r.payable_id));
  const due = (r: (typeof queue.open)[number]) => ({
    id: r.id, userId: r.user_id, payable: r.payable_id, provider: r.provider, paymentId: r.payment_id, amount: formatMoney(r.amount, r.currency, locale), reason: r.reason,
    createdAt: r.created_at, resolvedAt: r.resolved_at, resolution: r.resolution, refunding: refunding.has(String(r.id)),
  });
  return {
    overdue: overdue.map((o) => ({ id: o.public_id, userId: o.user_id, method: o.method, amount: formatMoney(o.amount, o.currency, locale), createdAt: o.created_at, expiresAt: o.expires_at })),
    mismatches: mismatches.map((m) => ({ id: m.public_id, userId: m.user_id, state: m.state, detail: m.detail, at: m.created_at })),
    due: queue.open.map(due),
    resolved: queue.resolved.map(due),
    pendingRefunds: pending.map((r) => ({ id: r.public_id, payable: r.payable_kind === 'due' ? `#${r.payable_id}` : r.payable_id, userId: r.user_id, amount: formatMoney(r.amount, r.currency, locale), createdAt: r.created_at })),
  };
}

// ---------------------------------------------------------------- the desk's actions

/** A reason staff give for a refund or a dismissal: 3 to 500 characters of text. */
export function parseReason(raw: string | null): string | null {
  const reason = (raw ?? '').replace(/\s+/g, ' ').trim();
  // eslint-disable-next-line no-control-regex
  if (reason.length < 3 || reason.length > 500 || /[\u0000-\u001f\u007f]/.test(reason)) return null;
  return reason;
}

export type DeskOutcome =
  /** `confirmed`, `pending` (asked, not yet final), `refused` (the provider said no: nothing changed), `dismissed`, `status`. */
  | { ok: true; done: 'confirmed' | 'pending' | 'refused' | 'dismissed'; message: string | null }
  | { ok: false; status: 404 | 409 | 422 | 503; problem: RefundProblem | 'reason' | 'refunding' | 'action' };

const PROBLEM_STATUS: Record<RefundProblem | 'refunding', 404 | 409 | 503> = {
  unknown: 404, not_paid: 409, refunded: 409, spent: 409, window: 409, resolved: 409, refunding: 409, provider: 503,
};

function answered(r: Awaited<ReturnType<typeof refundPayable>>): DeskOutcome {
  if (!r.ok) return { ok: false, status: PROBLEM_STATUS[r.problem], problem: r.problem };
  return { ok: true, done: r.outcome, message: r.message };
}

/** A refund of one order or charge from its desk page (`money`), or the desk's "ask again" for its pending refund. */
export async function deskRefund(db: DB, input: { payableId: string; action: string; reason: string | null; ending: string | null; refundId: string | null; actor: AuditActor; now: number }): Promise<DeskOutcome> {
  if (input.action === 'resume') {
    if (!input.refundId) return { ok: false, status: 422, problem: 'action' };
    return answered(await resumeRefund(db, input.refundId, input.now));
  }
  if (input.action !== 'refund') return { ok: false, status: 422, problem: 'action' };
  const reason = parseReason(input.reason);
  if (!reason) return { ok: false, status: 422, problem: 'reason' };
  const ending = input.ending === 'period_end' ? 'period_end' : input.ending === 'now' || input.ending == null ? 'now' : null;
  if (!ending) return { ok: false, status: 422, problem: 'action' };
  return answered(await refundPayable(db, { payableId: input.payableId, origin: 'staff', reason, actor: input.actor, ending, now: input.now }));
}

/** Clearing the "to refund" queue (`money`): refund a payment back, or dismiss it with a reason. */
export async function deskDue(db: DB, input: { dueId: number | null; action: string; reason: string | null; actor: AuditActor; now: number }): Promise<DeskOutcome> {
  if (input.dueId === null || (input.action !== 'refund' && input.action !== 'dismiss')) return { ok: false, status: 422, problem: 'action' };
  const reason = parseReason(input.reason);
  if (!reason) return { ok: false, status: 422, problem: 'reason' };
  if (input.action === 'refund') return answered(await refundDue(db, { dueId: input.dueId, reason, actor: input.actor, now: input.now }));
  const dismissed = await dismissDue(db, { dueId: input.dueId, reason, actor: input.actor, now: input.now });
  return dismissed.ok ? { ok: true, done: 'dismissed', message: null } : { ok: false, status: PROBLEM_STATUS[dismissed.problem], problem: dismissed.problem };
}
