/**
 * The one owner of refunds (docs/money-states.md, "Refunds"; docs/payments.md, "Refunds"): a
 * key-pack order, a subscription charge or a payment recorded "to refund" is given back here and
 * only here, in three steps, each its own transaction except the provider's call:
 *
 * 1. `begin`: under the payable's lock, then the reader's, the refund is decided (refund-rules.ts)
 *    and made PENDING; an order's keys leave the reader for the `refunds_held` account in the
 *    same transaction. A second refund of the same payable finds this one (one live refund per
 *    payable: a partial unique index), and an unlock racing it finds the keys gone — exactly one
 *    of them wins, and no balance goes below zero.
 * 2. The provider is asked through its seam (never inside a transaction), keyed by the refund's
 *    public id so asking twice refunds once.
 * 3. `settle`, on the provider's answer: confirmed → the held keys go back to the shop's
 *    accounts, the payable moves to REFUNDED or PARTIALLY_REFUNDED through the payables'
 *    transition table, an order's coupon use comes back with a whole refund, a charge's
 *    subscription ends now or at its period's end; refused → the held keys go back to the reader
 *    and nothing else changes; no answer → the refund stays PENDING, and `resumeRefunds` (the
 *    reconciler, the desk's "ask again") asks the provider what became of it.
 *
 * Refund states: PENDING → CONFIRMED | FAILED, both final (REFUND_MOVES). Every state entered is
 * recorded in `refund_events` with what said so, and staff refunds in the audit trail, in the
 * transaction that made them.
 */
import crypto from 'node:crypto';
import type { RefundState } from '@db/schema';
import { cardProvider, pixProvider, type RefundOutcome, type RefundRequest } from '~/features/payments/index.server';
import { InsufficientKeys, balancesOf, lockReader, refundKeys } from '~/features/wallet/index.server';
import { writeAudit, type AuditActor } from '~/server/audit';
import { isUniqueViolation, writeTransaction, type DB, type WriteTx } from '~/server/db';
import { payableStep } from './payable-states';
import { payableRefunded, type ChargeRow, type OrderRow } from './payables.server';
import { purchaseRefund, withdrawalTerms, type RefundTerms } from './refund-rules';
import * as repo from './repository.server';

export type RefundRow = NonNullable<Awaited<ReturnType<typeof repo.findRefund>>>;
export type RefundSource = 'desk' | 'reader' | 'reconcile' | 'cli';

/** A refund's transition table: what each provider answer does to a PENDING refund; final states answer nothing. */
export const REFUND_MOVES: Readonly<Record<RefundState, Partial<Record<RefundOutcome['status'], RefundState>>>> = {
  PENDING: { confirmed: 'CONFIRMED', refused: 'FAILED' },
  CONFIRMED: {},
  FAILED: {},
};

export function newRefundId(): string {
  return `rfd${crypto.randomBytes(12).toString('hex')}`;
}

/**
 * Why a refund could not start: the payable is unknown (or another reader's), not paid, refunded
 * already (or under way), its keys are spent, the withdrawal window closed, or the install has no
 * provider for it now.
 */
export type RefundProblem = 'unknown' | 'not_paid' | 'refunded' | 'spent' | 'window' | 'provider' | 'resolved';

export type RefundAnswer =
  | { ok: true; refund: RefundRow; outcome: 'confirmed' | 'pending' | 'refused'; message: string | null; existing: boolean }
  | { ok: false; problem: RefundProblem };

export interface RefundInput {
  /** An order's or charge's public id. */
  payableId: string;
  origin: 'staff' | 'reader';
  reason: string;
  /** Staff: who did it (the audit record); a reader's withdrawal: null. */
  actor: AuditActor | null;
  /** A reader's withdrawal: the reader, who must own the order. */
  readerId?: number;
  /** A subscription charge's: end the subscription now, or let it run to the period's end. */
  ending?: 'now' | 'period_end';
  now: number;
}

/** Which provider took a payment, by the name orders and charges record. */
function providerFor(name: string): { refund(r: RefundRequest): Promise<RefundOutcome>; findRefund(r: RefundRequest): Promise<RefundOutcome | null> } | null {
  try {
    if (name === 'sandbox' || name === 'braintree') {
      const card = cardProvider();
      return card.id === name ? card : null;
    }
    if (name === 'pix-sandbox' || name === 'openpix') {
      const pix = pixProvider();
      return (pix.id === 'sandbox' ? 'pix-sandbox' : pix.id) === name ? pix : null;
    }
  } catch {
    // Not configured on this install (PaymentsNotConfigured).
  }
  return null;
}

// ---------------------------------------------------------------- the whole path

/** Refunds an order or a subscription charge: decides, holds, asks the provider, settles. */
export async function refundPayable(db: DB, input: RefundInput): Promise<RefundAnswer> {
  const begun = await begin(db, input);
  if (!begun.ok) return begun;
  // Asked again after a refund was confirmed (a second click, another tab): nothing more goes back.
  if (begun.existing && begun.refund.state === 'CONFIRMED') return { ok: false, problem: 'refunded' };
  if (begun.existing) return { ok: true, refund: begun.refund, outcome: outcomeOf(begun.refund), message: begun.refund.failure, existing: true };
  return askAndSettle(db, begun.refund, input.origin === 'reader' ? 'reader' : 'desk', input.now);
}

/** Gives back a payment recorded "to refund" (nothing was credited for it: no keys move). */
export async function refundDue(db: DB, input: { dueId: number; reason: string; actor: AuditActor; now: number }): Promise<RefundAnswer> {
  const begun = await writeTransaction(db, async (trx): Promise<Begun> => {
    const due = await repo.lockRefundDue(trx, input.dueId);
    if (!due) return { ok: false, problem: 'unknown' };
    if (due.resolved_at != null) return { ok: false, problem: 'resolved' };
    const live = await repo.liveRefundOf(trx, 'due', String(due.id));
    if (live) return { ok: true, refund: live, existing: true };
    if (!providerFor(due.provider)) return { ok: false, problem: 'provider' };
    const made = await insert(trx, {
      user_id: due.user_id, payable_kind: 'due', payable_id: String(due.id), provider: due.provider, payment_id: due.payment_id, amount: due.amount, currency: due.currency,
      keys: 0, xtra_keys: 0, whole: 1, origin: 'staff', reason: input.reason, actor_id: input.actor.userId, ending: null,
    }, input.now);
    if (!made) return { ok: true, refund: (await repo.liveRefundOf(trx, 'due', String(due.id)))!, existing: true };
    await writeAudit(trx, input.actor, { action: 'refund.request', object: { table: 'refunds_due', id: due.id }, after: { refund: made.public_id, amount: due.amount, currency: due.currency, reason: input.reason } }, input.now);
    return { ok: true, refund: made, existing: false };
  });
  if (!begun.ok) return begun;
  if (begun.existing) return { ok: true, refund: begun.refund, outcome: outcomeOf(begun.refund), message: begun.refund.failure, existing: true };
  return askAndSettle(db, begun.refund, 'desk', input.now);
}

/** Closes a payment to refund without refunding it, with staff's reason (a duplicate report, settled elsewhere). */
export async function dismissDue(db: DB, input: { dueId: number; reason: string; actor: AuditActor; now: number }): Promise<{ ok: true } | { ok: false; problem: 'unknown' | 'resolved' | 'refunding' }> {
  return writeTransaction(db, async (trx) => {
    const due = await repo.lockRefundDue(trx, input.dueId);
    if (!due) return { ok: false, problem: 'unknown' };
    if (due.resolved_at != null) return { ok: false, problem: 'resolved' };
    if (await repo.liveRefundOf(trx, 'due', String(due.id))) return { ok: false, problem: 'refunding' };
    await repo.resolveRefundDue(trx, due.id, { resolution: `dismissed: ${input.reason}`, resolved_by: input.actor.userId, refund_id: null, resolved_at: input.now });
    await writeAudit(trx, input.actor, { action: 'refund_due.dismiss', object: { table: 'refunds_due', id: due.id }, before: { resolved: false }, after: { resolved: true, reason: input.reason } }, input.now);
    return { ok: true };
  });
}

/**
 * Asks the providers again about refunds left PENDING (a provider that did not answer, a Pix
 * refund in processing, a process that stopped after step 1): what became of each, or the same
 * request again (idempotent at the provider), then settles. Answers how many it settled.
 */
export async function resumeRefunds(db: DB, input: { before: number; now: number; source?: RefundSource; limit?: number }): Promise<{ confirmed: number; refused: number; pending: number }> {
  const counts = { confirmed: 0, refused: 0, pending: 0 };
  for (const refund of await repo.pendingRefunds(db, input.before, input.limit ?? 200)) {
    const settled = await resumeOne(db, refund, input.source ?? 'reconcile', input.now);
    counts[settled.outcome] += 1;
  }
  return counts;
}

/** The desk's "ask again" for one refund. */
export async function resumeRefund(db: DB, refundId: string, now: number): Promise<RefundAnswer> {
  const refund = await repo.findRefund(db, refundId);
  if (!refund) return { ok: false, problem: 'unknown' };
  if (refund.state !== 'PENDING') return { ok: true, refund, outcome: outcomeOf(refund), message: refund.failure, existing: true };
  return resumeOne(db, refund, 'desk', now);
}

async function resumeOne(db: DB, refund: RefundRow, source: RefundSource, now: number): Promise<Extract<RefundAnswer, { ok: true }>> {
  const provider = providerFor(refund.provider);
  if (!provider) return { ok: true, refund, outcome: 'pending', message: null, existing: true };
  const request = requestOf(refund);
  let outcome: RefundOutcome;
  try {
    outcome = (await provider.findRefund(request)) ?? (await provider.refund(request));
  } catch (error) {
    outcome = { status: 'unavailable', message: error instanceof Error ? error.message : String(error) };
  }
  return settle(db, refund.public_id, outcome, source, now);
}

// ---------------------------------------------------------------- what a payable may give back now

export interface RefundQuote {
  terms: RefundTerms | null;
  problem: RefundProblem | null;
}

/**
 * What a staff refund of this order or charge would give back now (the desk shows it before
 * asking), from the rows the desk already read: the payable and whether a refund of it is live.
 */
export async function refundQuote(db: DB, payable: { kind: 'order'; row: OrderRow } | { kind: 'charge'; row: ChargeRow }, live: boolean): Promise<RefundQuote> {
  if (live) return { terms: null, problem: 'refunded' };
  if (payable.row.state !== 'PAID') return { terms: null, problem: 'not_paid' };
  if (payable.kind === 'charge') return { terms: { amount: payable.row.amount, keys: 0, xtra: 0, whole: true }, problem: null };
  const order = payable.row;
  const terms = purchaseRefund({ total: order.total, keys: order.keys, xtraKeys: order.xtra_keys }, await balancesOf(db, order.user_id));
  return terms ? { terms, problem: null } : { terms: null, problem: 'spent' };
}

/**
 * A reader's withdrawal of a key-pack purchase (the right of withdrawal, docs/payments.md): the
 * same refund path as the desk's, allowed within 7 days of payment while nothing of it is spent.
 */
export async function withdrawPurchase(db: DB, input: { userId: number; orderId: string; now: number }): Promise<RefundAnswer> {
  return refundPayable(db, { payableId: input.orderId, origin: 'reader', readerId: input.userId, reason: 'withdrawal by the reader (7 days)', actor: null, now: input.now });
}

// ---------------------------------------------------------------- step 1: begin

type Begun = { ok: true; refund: RefundRow; existing: boolean } | { ok: false; problem: RefundProblem };

async function begin(db: DB, input: RefundInput): Promise<Begun> {
  try {
    return await writeTransaction(db, (trx) => (input.payableId.startsWith('sub') ? beginCharge(trx, input) : beginOrder(trx, input)));
  } catch (error) {
    // Two refunds of one payable at once on PostgreSQL: the other made it.
    if (isUniqueViolation(error)) {
      const live = await repo.liveRefundOf(db, input.payableId.startsWith('sub') ? 'charge' : 'order', input.payableId);
      if (live && (input.readerId === undefined || live.user_id === input.readerId)) return { ok: true, refund: live, existing: true };
    }
    throw error;
  }
}

async function beginOrder(trx: WriteTx, input: RefundInput): Promise<Begun> {
  const order = await repo.lockOrder(trx, input.payableId);
  if (!order || (input.readerId !== undefined && order.user_id !== input.readerId)) return { ok: false, problem: 'unknown' };
  const live = await repo.liveRefundOf(trx, 'order', order.public_id);
  if (live) return { ok: true, refund: live, existing: true };
  if (payableStep(order.state, 'refunded').do !== 'move' || !order.payment_id) return { ok: false, problem: order.state === 'PENDING' || order.state === 'FAILED' || order.state === 'EXPIRED' ? 'not_paid' : 'refunded' };
  if (!providerFor(order.provider)) return { ok: false, problem: 'provider' };
  const held = await lockReader(trx, order.user_id);
  const purchase = { total: order.total, keys: order.keys, xtraKeys: order.xtra_keys };
  let terms: RefundTerms | null;
  if (input.origin === 'reader') {
    const w = withdrawalTerms({ ...purchase, state: order.state, paidAt: order.paid_at }, held, input.now);
    if (!w.ok) return { ok: false, problem: w.problem };
    terms = w.terms;
  } else {
    terms = purchaseRefund(purchase, held);
  }
  if (!terms) return { ok: false, problem: 'spent' };
  const refund = await insert(trx, {
    user_id: order.user_id, payable_kind: 'order', payable_id: order.public_id, provider: order.provider, payment_id: order.payment_id, amount: terms.amount, currency: order.currency,
    keys: terms.keys, xtra_keys: terms.xtra, whole: terms.whole ? 1 : 0, origin: input.origin, reason: input.reason, actor_id: input.actor?.userId ?? null, ending: null,
  }, input.now);
  if (!refund) return { ok: true, refund: (await repo.liveRefundOf(trx, 'order', order.public_id))!, existing: true };
  try {
    const hold = await refundKeys(trx, 'hold', { userId: order.user_id, keys: terms.keys, xtra: terms.xtra, refundId: refund.public_id, now: input.now });
    if (hold && !(await repo.changeRefund(trx, refund.id, 'PENDING', { hold_transaction_id: hold.id }, input.now))) throw new Error(`refund ${refund.public_id} changed under its lock`);
  } catch (error) {
    // Under the reader's lock the balance was just read; the ledger's guard keeps it even if it were not.
    if (error instanceof InsufficientKeys) throw new Error(`refund ${refund.public_id}: the keys left under the reader's lock`);
    throw error;
  }
  await repo.insertOrderEvent(trx, { order_id: order.id, state: order.state, source: input.origin === 'reader' ? 'reader' : 'desk', detail: `refund ${refund.public_id} of ${terms.amount} ${order.currency} asked (${input.reason})`, created_at: input.now });
  if (input.actor) await writeAudit(trx, input.actor, { action: 'refund.request', object: { table: 'orders', id: order.public_id }, after: { refund: refund.public_id, amount: terms.amount, currency: order.currency, keys: terms.keys, xtra_keys: terms.xtra, whole: terms.whole, reason: input.reason } }, input.now);
  return { ok: true, refund: (await repo.findRefund(trx, refund.public_id))!, existing: false };
}

async function beginCharge(trx: WriteTx, input: RefundInput): Promise<Begun> {
  const charge = await repo.lockCharge(trx, input.payableId);
  if (!charge || input.origin === 'reader') return { ok: false, problem: 'unknown' };
  const live = await repo.liveRefundOf(trx, 'charge', charge.public_id);
  if (live) return { ok: true, refund: live, existing: true };
  if (payableStep(charge.state, 'refunded').do !== 'move' || !charge.payment_id) return { ok: false, problem: charge.state === 'REFUNDED' || charge.state === 'PARTIALLY_REFUNDED' ? 'refunded' : 'not_paid' };
  if (!providerFor(charge.provider)) return { ok: false, problem: 'provider' };
  const ending = input.ending ?? 'now';
  const refund = await insert(trx, {
    user_id: charge.user_id, payable_kind: 'charge', payable_id: charge.public_id, provider: charge.provider, payment_id: charge.payment_id, amount: charge.amount, currency: charge.currency,
    keys: 0, xtra_keys: 0, whole: 1, origin: 'staff', reason: input.reason, actor_id: input.actor?.userId ?? null, ending,
  }, input.now);
  if (!refund) return { ok: true, refund: (await repo.liveRefundOf(trx, 'charge', charge.public_id))!, existing: true };
  await repo.insertChargeEvent(trx, { charge_id: charge.id, state: charge.state, source: 'desk', detail: `refund ${refund.public_id} of ${charge.amount} ${charge.currency} asked, the subscription ending ${ending === 'now' ? 'now' : 'at the period end'} (${input.reason})`, created_at: input.now });
  if (input.actor) await writeAudit(trx, input.actor, { action: 'refund.request', object: { table: 'subscription_charges', id: charge.public_id }, after: { refund: refund.public_id, amount: charge.amount, currency: charge.currency, ending, reason: input.reason } }, input.now);
  return { ok: true, refund, existing: false };
}

async function insert(trx: WriteTx, r: Omit<repo.NewRefund, 'public_id'>, now: number): Promise<RefundRow | null> {
  const publicId = newRefundId();
  const id = await repo.insertRefund(trx, { ...r, public_id: publicId }, now);
  if (id === null) return null;
  await repo.insertRefundEvent(trx, { refund_id: id, state: 'PENDING', source: r.origin === 'reader' ? 'reader' : 'desk', detail: `${r.amount} ${r.currency} of ${r.payable_kind} ${r.payable_id}: ${r.reason}`, created_at: now });
  return (await repo.findRefund(trx, publicId))!;
}

// ---------------------------------------------------------------- step 2: the provider

function requestOf(refund: RefundRow): RefundRequest {
  return { refundId: refund.public_id, paymentId: refund.payment_id, money: { amount: refund.amount, currency: refund.currency }, whole: refund.whole === 1 };
}

async function askAndSettle(db: DB, refund: RefundRow, source: RefundSource, now: number): Promise<Extract<RefundAnswer, { ok: true }>> {
  const provider = providerFor(refund.provider);
  let outcome: RefundOutcome;
  try {
    outcome = provider ? await provider.refund(requestOf(refund)) : { status: 'unavailable', message: 'no provider' };
  } catch (error) {
    outcome = { status: 'unavailable', message: error instanceof Error ? error.message : String(error) };
  }
  const settled = await settle(db, refund.public_id, outcome, source, now);
  return { ...settled, existing: false };
}

// ---------------------------------------------------------------- step 3: settle

function outcomeOf(refund: RefundRow): 'confirmed' | 'pending' | 'refused' {
  return refund.state === 'CONFIRMED' ? 'confirmed' : refund.state === 'FAILED' ? 'refused' : 'pending';
}

/** Applies the provider's answer to a PENDING refund, once: a settled refund is answered as it is. */
export async function settle(db: DB, refundId: string, outcome: RefundOutcome, source: RefundSource, now: number): Promise<Extract<RefundAnswer, { ok: true }>> {
  return writeTransaction(db, async (trx) => {
    const refund = await repo.lockRefund(trx, refundId);
    if (!refund) throw new Error(`refund ${refundId} vanished`);
    const to = REFUND_MOVES[refund.state][outcome.status];
    if (!to) {
      if (refund.state === 'PENDING') {
        const said = outcome.status === 'pending' ? `the provider is still processing it${outcome.providerRefundId ? ` (${outcome.providerRefundId})` : ''}` : `the provider did not answer${outcome.status === 'unavailable' && outcome.message ? `: ${outcome.message}` : ''}`;
        await repo.insertRefundEvent(trx, { refund_id: refund.id, state: 'PENDING', source, detail: said, created_at: now });
      }
      return { ok: true, refund, outcome: outcomeOf(refund), message: outcome.status === 'unavailable' || outcome.status === 'refused' ? outcome.message : null, existing: true };
    }
    // The payable before the reader's accounts, the order every money transaction locks in.
    await lockPayable(trx, refund);
    if (to === 'FAILED') {
      const message = outcome.status === 'refused' ? outcome.message : null;
      await refundKeys(trx, 'release', { userId: refund.user_id, keys: refund.keys, xtra: refund.xtra_keys, refundId: refund.public_id, now });
      if (!(await repo.changeRefund(trx, refund.id, 'PENDING', { state: 'FAILED', failure: message ?? 'refused by the provider' }, now))) throw new Error(`refund ${refundId} changed under its lock`);
      await repo.insertRefundEvent(trx, { refund_id: refund.id, state: 'FAILED', source, detail: `refused by the provider${message ? `: ${message}` : ''}`, created_at: now });
      await notePayable(trx, refund, `refund ${refund.public_id} refused by the provider${message ? `: ${message}` : ''}; nothing changed`, source, now);
      return { ok: true, refund: (await repo.findRefund(trx, refundId))!, outcome: 'refused', message, existing: false };
    }
    if (outcome.status !== 'confirmed') throw new Error('only a confirmation confirms');
    const reversal = await refundKeys(trx, 'reverse', { userId: refund.user_id, keys: refund.keys, xtra: refund.xtra_keys, refundId: refund.public_id, now });
    if (!(await repo.changeRefund(trx, refund.id, 'PENDING', { state: 'CONFIRMED', provider_refund_id: outcome.providerRefundId, provider_action: outcome.action, ledger_transaction_id: reversal?.id ?? null, confirmed_at: now }, now))) {
      throw new Error(`refund ${refundId} changed under its lock`);
    }
    await repo.insertRefundEvent(trx, { refund_id: refund.id, state: 'CONFIRMED', source, detail: `${outcome.action} ${outcome.providerRefundId}`, created_at: now });
    await refundPayableMoved(trx, refund, outcome, source, now);
    return { ok: true, refund: (await repo.findRefund(trx, refundId))!, outcome: 'confirmed', message: null, existing: false };
  });
}

/** A confirmed refund's payable: its state through the payables' table, and what the refund undoes. */
async function refundPayableMoved(trx: WriteTx, refund: RefundRow, outcome: Extract<RefundOutcome, { status: 'confirmed' }>, source: RefundSource, now: number): Promise<void> {
  const detail = `refund ${refund.public_id}: ${refund.amount} ${refund.currency} given back (${outcome.action} ${outcome.providerRefundId})`;
  if (refund.payable_kind === 'due') {
    if (!(await repo.resolveRefundDue(trx, Number(refund.payable_id), { resolution: `refunded (${refund.public_id})`, resolved_by: refund.actor_id, refund_id: refund.id, resolved_at: now }))) {
      throw new Error(`payment to refund ${refund.payable_id} was resolved during its refund`);
    }
    return;
  }
  await payableRefunded(trx, { payableId: refund.payable_id, whole: refund.whole === 1, ending: refund.ending ?? 'now', refundId: refund.public_id, detail, source, now, refunded: { amount: refund.amount, currency: refund.currency } });
}

async function lockPayable(trx: WriteTx, refund: RefundRow): Promise<void> {
  if (refund.payable_kind === 'order') await repo.lockOrder(trx, refund.payable_id);
  else if (refund.payable_kind === 'charge') await repo.lockCharge(trx, refund.payable_id);
  else await repo.lockRefundDue(trx, Number(refund.payable_id));
}

/** Notes on the payable's own history what happened to its refund (a refusal changes nothing else). */
async function notePayable(trx: WriteTx, refund: RefundRow, detail: string, source: RefundSource, now: number): Promise<void> {
  if (refund.payable_kind === 'order') {
    const order = await repo.lockOrder(trx, refund.payable_id);
    if (order) await repo.insertOrderEvent(trx, { order_id: order.id, state: order.state, source, detail, created_at: now });
  } else if (refund.payable_kind === 'charge') {
    const charge = await repo.lockCharge(trx, refund.payable_id);
    if (charge) await repo.insertChargeEvent(trx, { charge_id: charge.id, state: charge.state, source, detail, created_at: now });
  }
}
