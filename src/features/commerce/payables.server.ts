/**
 * The one owner of payables (docs/money-states.md, docs/payments.md): a key-pack order and a
 * subscription charge are made, confirmed, closed and recorded "to refund" here and only here,
 * through one transition table (payable-states.ts). The two kinds differ only in what paying
 * grants — an order credits its keys and Xtra keys through the ledger, a charge grants its period
 * through the subscriptions feature's guarded move — and in what closing gives back (an order's
 * coupon use). Every state a payable enters is recorded with what said so (`order_events`,
 * `charge_events`), in the transaction that moved it.
 *
 * Every confirmation — the checkout's own answer, a webhook, a status poll, the reconciler, the
 * expiry check — goes through `confirmPayment`: PENDING → PAID exactly once, the amount and
 * currency checked, what was paid for granted in the same transaction. Provider calls never run
 * inside these transactions.
 */
import crypto from 'node:crypto';
import type { OrderState } from '@db/schema';
import { endSubscriptionForRefund, grantPaidPeriod } from '~/features/subscriptions/index.server';
import { creditPurchase } from '~/features/wallet/index.server';
import { notifyReader } from '~/features/notifications/index.server';
import { isUniqueViolation, writeTransaction, type DB, type WriteTx } from '~/server/db';
import * as repo from './repository.server';
import { queueReceiptEmail } from './receipt-mail.server';
import { payableStep, type PayableEvent } from './payable-states';
import { quote, type CouponProblem, type Quote } from './rules';

export type OrderRow = NonNullable<Awaited<ReturnType<typeof repo.findOrder>>>;
export type ChargeRow = NonNullable<Awaited<ReturnType<typeof repo.findCharge>>>;
/** What said so: `expiry` is the server's own check of payments past their time (settle.server.ts). */
export type EventSource = 'checkout' | 'webhook' | 'poll' | 'reconcile' | 'cli' | 'expiry' | 'renew';

/** A public order id: unguessable, URL-safe, and short enough for a Pix correlationID and txid (letters and digits only). */
export function newOrderId(): string {
  return `ord${crypto.randomBytes(12).toString('hex')}`;
}

/** A subscription charge's public id (the status call's `check`, the Pix correlationID): as an order's, with its own prefix. */
export function newChargeId(): string {
  return `sub${crypto.randomBytes(12).toString('hex')}`;
}

// ---------------------------------------------------------------- the two kinds

interface PayableRow {
  id: number;
  public_id: string;
  user_id: number;
  state: OrderState;
  currency: string;
  payment_id: string | null;
  provider: string;
}

/** A payment's confirmation, as every source reports it. */
export interface PaymentConfirmation {
  /** Our order's or charge's public id (the provider's order id or Pix correlationID). */
  orderId: string;
  /** The provider's id of the payment: confirming the same payment again changes nothing. */
  paymentId: string;
  /** What the provider says was paid, in minor units. */
  amount: number;
  currency: string;
  source: EventSource;
  display?: { brand: string | null; last4: string | null };
  now: number;
}

type Grant = { granted: true; change: repo.OrderChange } | { granted: false; reason: string };

interface Kind<R extends PayableRow> {
  name: 'order' | 'charge';
  lock(trx: WriteTx, publicId: string): Promise<R | undefined>;
  amount(row: R): number;
  change(trx: WriteTx, row: R, change: repo.OrderChange & { state?: OrderState }, now: number): Promise<boolean>;
  event(trx: WriteTx, row: R, state: string, source: string, detail: string, now: number): Promise<void>;
  /** What paying grants, in the payment's transaction. */
  grant(trx: WriteTx, row: R, c: PaymentConfirmation): Promise<Grant>;
  /** What closing gives back. */
  release(trx: WriteTx, row: R): Promise<void>;
}

const ORDERS: Kind<OrderRow> = {
  name: 'order',
  lock: (trx, id) => repo.lockOrder(trx, id),
  amount: (o) => o.total,
  change: (trx, o, change, now) => repo.changeOrder(trx, o.id, o.state, change, now),
  event: (trx, o, state, source, detail, now) => repo.insertOrderEvent(trx, { order_id: o.id, state, source, detail, created_at: now }),
  async grant(trx, o, c) {
    const credit = await creditPurchase(trx, { userId: o.user_id, keys: o.keys, xtra: o.xtra_keys, key: `order:${o.public_id}`, reason: `order ${o.public_id}`, now: c.now });
    return { granted: true, change: { ledger_transaction_id: credit.id, card_brand: c.display?.brand ?? null, card_last4: c.display?.last4 ?? null } };
  },
  release: (trx, o) => repo.releaseRedemption(trx, o.id),
};

const CHARGES: Kind<ChargeRow> = {
  name: 'charge',
  lock: (trx, id) => repo.lockCharge(trx, id),
  amount: (c) => c.amount,
  change: (trx, c, change, now) => repo.changeCharge(trx, c.id, c.state, change, now),
  event: (trx, c, state, source, detail, now) => repo.insertChargeEvent(trx, { charge_id: c.id, state, source, detail, created_at: now }),
  async grant(trx, c, pay) {
    const moved = await grantPaidPeriod(trx, { subscriptionId: c.subscription_id, periodEnd: c.period_end, chargeId: c.id, detail: `charge ${c.public_id} paid (${pay.paymentId}): access until ${new Date(c.period_end * 1000).toISOString()}`, source: pay.source, now: pay.now });
    return moved ? { granted: true, change: {} } : { granted: false, reason: 'its subscription is over' };
  },
  release: async () => {},
};

/** Which kind a public id names: subscription charges carry their own prefix. */
function kindOf(publicId: string): Kind<OrderRow> | Kind<ChargeRow> {
  return publicId.startsWith('sub') ? CHARGES : ORDERS;
}

// ---------------------------------------------------------------- confirming and closing

export type ConfirmResult =
  /** `paid`: confirmed now; `already`: confirmed before (by this or another source), nothing more done. */
  | { kind: 'paid' | 'already' }
  | { kind: 'unknown' }
  /** The record had failed or expired (or its subscription is over): the payment is recorded to refund, never granted. */
  | { kind: 'closed' }
  /** The provider reports another amount or currency than the record's: noted, not granted. */
  | { kind: 'mismatch' };

/**
 * The one confirmation of a payment, for orders and charges alike: PENDING → PAID exactly once and
 * what was paid for granted in the same transaction, or the payment recorded to refund when the
 * record is closed (or paid by another payment). Safe to call any number of times, from any
 * process, concurrently.
 */
export async function confirmPayment(db: DB, c: PaymentConfirmation): Promise<ConfirmResult> {
  return confirmWith(db, kindOf(c.orderId) as Kind<PayableRow>, c);
}

async function confirmWith<R extends PayableRow>(db: DB, kind: Kind<R>, c: PaymentConfirmation): Promise<ConfirmResult> {
  return writeTransaction(db, async (trx): Promise<ConfirmResult> => {
    const row = await kind.lock(trx, c.orderId);
    if (!row) return { kind: 'unknown' };
    const matches = c.amount === kind.amount(row) && c.currency === row.currency;
    const event: PayableEvent = matches ? 'paid' : 'mismatch';
    const step = payableStep(row.state, event, row.payment_id === c.paymentId);
    const label = `${kind.name} ${row.public_id}`;
    switch (step.do) {
      case 'already':
        return { kind: 'already' };
      case 'ignore':
        return { kind: 'already' };
      case 'refuse':
        throw new Error(`${label}: a payment is never a refund`);
      case 'note':
        await kind.event(trx, row, row.state, c.source, `payment ${c.paymentId} of ${c.amount} ${c.currency} does not match the ${label} of ${kind.amount(row)} ${row.currency}`, c.now);
        return { kind: 'mismatch' };
      case 'refund': {
        const why = row.state === 'PAID' ? `another payment for the paid ${label}` : `a payment after the ${label} was ${row.state.toLowerCase()}`;
        await toRefund(trx, kind, row, c, why);
        await kind.event(trx, row, row.state, c.source, `payment ${c.paymentId}: ${why}: to refund`, c.now);
        return row.state === 'PAID' ? { kind: 'already' } : { kind: 'closed' };
      }
      case 'move': {
        const granted = await kind.grant(trx, row, c);
        if (!granted.granted) {
          // Nothing left to grant: the record closes and the payment goes back.
          const voided = payableStep(row.state, 'voided');
          if (voided.do !== 'move') throw new Error(`${label}: the table has no voided move from ${row.state}`);
          if (!(await kind.change(trx, row, { state: voided.to, failure: granted.reason }, c.now))) throw new Error(`${label} changed under its lock`);
          await kind.release(trx, row);
          await toRefund(trx, kind, row, c, `paid when ${granted.reason}`);
          await kind.event(trx, row, voided.to, c.source, `payment ${c.paymentId} arrived when ${granted.reason}: to refund`, c.now);
          return { kind: 'closed' };
        }
        const moved = await kind.change(trx, row, { ...granted.change, state: step.to, payment_id: c.paymentId, paid_at: c.now }, c.now);
        if (!moved) throw new Error(`${label} changed under its lock`);
        await kind.event(trx, row, step.to, c.source, c.paymentId, c.now);
        // The reader's inbox (issue 32), in the same transaction: told once, as the move is made once.
        await notifyReader(trx, row.user_id, 'money', kind === CHARGES ? 'SUBSCRIPTION_PAID' : 'PAYMENT_PAID', { id: row.public_id, amount: kind.amount(row), currency: row.currency }, c.now);
        // And the receipt by email, queued in this transaction: once, as the move is made once.
        await queueReceiptEmail(trx, { payableId: row.public_id, event: kind === CHARGES ? 'SUBSCRIPTION_PAID' : 'PAYMENT_PAID', now: c.now });
        return { kind: 'paid' };
      }
    }
  });
}

async function toRefund<R extends PayableRow>(trx: WriteTx, kind: Kind<R>, row: R, c: PaymentConfirmation, reason: string): Promise<void> {
  await repo.insertRefundDue(trx, {
    user_id: row.user_id, payable_kind: kind.name, payable_id: row.public_id, provider: row.provider, payment_id: c.paymentId,
    amount: c.amount, currency: c.currency, reason, created_at: c.now,
  });
}

/**
 * Closes a PENDING order or charge as FAILED (refused, or the provider could not be reached) or
 * EXPIRED (ran out, or abandoned), giving an order's coupon use back. A closed or paid record is
 * left as it is: a late "expired" never undoes PAID. Returns the record as it is afterwards.
 */
export async function closePayable(db: DB, input: { id: string; state: Extract<OrderState, 'FAILED' | 'EXPIRED'>; source: EventSource; reason: string; now: number }): Promise<{ state: OrderState } | null> {
  return closeWith(db, kindOf(input.id) as Kind<PayableRow>, input);
}

async function closeWith<R extends PayableRow>(db: DB, kind: Kind<R>, input: { id: string; state: 'FAILED' | 'EXPIRED'; source: EventSource; reason: string; now: number }): Promise<{ state: OrderState } | null> {
  return writeTransaction(db, async (trx) => {
    const row = await kind.lock(trx, input.id);
    if (!row) return null;
    const step = payableStep(row.state, input.state === 'FAILED' ? 'failed' : 'expired');
    if (step.do !== 'move') {
      if (row.state === 'PAID') await kind.event(trx, row, 'PAID', input.source, `ignored: ${input.state.toLowerCase()} (${input.reason}) after payment`, input.now);
      return { state: row.state };
    }
    if (!(await kind.change(trx, row, { state: step.to, failure: input.reason }, input.now))) throw new Error(`${kind.name} ${row.public_id} changed under its lock`);
    await kind.release(trx, row);
    await kind.event(trx, row, step.to, input.source, input.reason, input.now);
    // A subscription charge (a renewal, or a first payment) that failed: the reader's inbox says so (issue 32).
    if (kind === (CHARGES as unknown) && step.to === 'FAILED') {
      await notifyReader(trx, row.user_id, 'money', 'SUBSCRIPTION_FAILED', { id: row.public_id }, input.now);
      await queueReceiptEmail(trx, { payableId: row.public_id, event: 'SUBSCRIPTION_FAILED', now: input.now });
    }
    return { state: step.to };
  });
}

/**
 * A refund the provider confirmed (refunds.server.ts, in the refund's transaction): the order or
 * charge moves PAID → REFUNDED / PARTIALLY_REFUNDED through the table, with its event; a whole
 * order refund gives its coupon use back; a charge's subscription ends now or at its period's end.
 */
export async function payableRefunded(trx: WriteTx, r: { payableId: string; whole: boolean; ending: 'now' | 'period_end'; refundId: string; detail: string; source: string; now: number; refunded?: { amount: number; currency: string } }): Promise<void> {
  const event = r.whole ? 'refunded' : 'partlyRefunded';
  if (kindOf(r.payableId) === ORDERS) {
    const order = await repo.lockOrder(trx, r.payableId);
    const step = order && payableStep(order.state, event);
    if (!order || step?.do !== 'move') throw new Error(`order ${r.payableId} cannot be ${event} from ${order?.state}`);
    if (!(await repo.changeOrder(trx, order.id, order.state, { state: step.to }, r.now))) throw new Error(`order ${r.payableId} changed under its lock`);
    if (step.to === 'REFUNDED') await repo.releaseRedemption(trx, order.id);
    await repo.insertOrderEvent(trx, { order_id: order.id, state: step.to, source: r.source, detail: r.detail, created_at: r.now });
    await notifyReader(trx, order.user_id, 'money', 'PAYMENT_REFUNDED', { id: order.public_id }, r.now);
    await queueReceiptEmail(trx, { payableId: order.public_id, event: 'PAYMENT_REFUNDED', refunded: r.refunded, now: r.now });
    return;
  }
  const charge = await repo.lockCharge(trx, r.payableId);
  const step = charge && payableStep(charge.state, event);
  if (!charge || step?.do !== 'move') throw new Error(`charge ${r.payableId} cannot be ${event} from ${charge?.state}`);
  if (!(await repo.changeCharge(trx, charge.id, charge.state, { state: step.to }, r.now))) throw new Error(`charge ${r.payableId} changed under its lock`);
  await repo.insertChargeEvent(trx, { charge_id: charge.id, state: step.to, source: r.source, detail: r.detail, created_at: r.now });
  await notifyReader(trx, charge.user_id, 'money', 'PAYMENT_REFUNDED', { id: charge.public_id }, r.now);
  await queueReceiptEmail(trx, { payableId: charge.public_id, event: 'PAYMENT_REFUNDED', refunded: r.refunded, now: r.now });
  await endSubscriptionForRefund(trx, { subscriptionId: charge.subscription_id, ending: r.ending, detail: `charge ${charge.public_id} refunded (${r.refundId})`, now: r.now });
}

// ---------------------------------------------------------------- making them

export interface OrderRequest {
  userId: number;
  siteId: number;
  packCode: string;
  /** Already normalised (rules.normalizeCoupon); null without a coupon. */
  couponCode: string | null;
  method: string;
  provider: string;
  /** The checkout form's one-time key, or null. */
  requestKey: string | null;
  next: string | null;
  /** Seconds a Pix charge stays payable; null for card-type methods. */
  expiresIn: number | null;
  now: number;
}

export type CreateOrderResult =
  | { ok: true; order: OrderRow; quote: Quote; existing: boolean }
  | { ok: false; problem: 'pack' | CouponProblem };

/** What an order for this pack and coupon would cost this reader now (the coupon box's answer). */
export async function quoteFor(db: DB, input: { userId: number; siteId: number; packCode: string; couponCode: string | null; now: number }):
  Promise<{ ok: true; quote: Quote; pack: NonNullable<Awaited<ReturnType<typeof repo.findPack>>> } | { ok: false; problem: 'pack' | CouponProblem }> {
  const pack = await repo.findPack(db, input.siteId, input.packCode);
  if (!pack || !pack.active) return { ok: false, problem: 'pack' };
  if (!input.couponCode) return { ok: true, pack, quote: quoteOrThrow(pack, null, input.siteId, input.now, 0) };
  const coupon = await repo.findCoupon(db, input.siteId, input.couponCode);
  if (!coupon) return { ok: false, problem: 'unknown' };
  const q = quote(pack, coupon, input.siteId, input.now, await repo.readerCouponUses(db, coupon.id, input.userId));
  return q.ok ? { ok: true, pack, quote: q.quote } : q;
}

function quoteOrThrow(...args: Parameters<typeof quote>): Quote {
  const q = quote(...args);
  if (!q.ok) throw new Error(`a pack without a coupon cannot be refused (${q.problem})`);
  return q.quote;
}

class CouponUsedUp extends Error {}

/**
 * Makes a PENDING order, the coupon's limits checked again and one use taken in the same
 * transaction (a coupon raced by many requests is used no more often than it allows). The same
 * request key gives back the first order.
 */
export async function createOrder(db: DB, r: OrderRequest): Promise<CreateOrderResult> {
  const pack = await repo.findPack(db, r.siteId, r.packCode);
  if (!pack || !pack.active) return { ok: false, problem: 'pack' };
  const couponRef = r.couponCode ? await repo.findCoupon(db, r.siteId, r.couponCode) : null;
  if (r.couponCode && !couponRef) return { ok: false, problem: 'unknown' };
  try {
    return await writeTransaction(db, async (trx): Promise<CreateOrderResult> => {
      if (r.requestKey) {
        const first = await repo.findOrderByRequest(trx, r.userId, r.requestKey);
        if (first) return { ok: true, order: first, quote: quoteOf(first), existing: true };
      }
      const coupon = couponRef ? await repo.lockCoupon(trx, couponRef.id) : null;
      const uses = coupon ? await repo.readerCouponUses(trx, coupon.id, r.userId) : 0;
      const q = quote(pack, coupon ?? null, r.siteId, r.now, uses);
      if (!q.ok) return q;
      const publicId = newOrderId();
      const id = await repo.insertOrder(trx, {
        public_id: publicId, user_id: r.userId, site_id: r.siteId, pack_id: pack.id, coupon_id: coupon?.id ?? null, currency: q.quote.currency,
        subtotal: q.quote.subtotal, discount: q.quote.discount, total: q.quote.total, keys: q.quote.keys, xtra_keys: q.quote.xtraKeys,
        method: r.method, provider: r.provider, request_key: r.requestKey, next_path: r.next, expires_at: r.expiresIn == null ? null : r.now + r.expiresIn,
      }, r.now);
      if (coupon) {
        // Under the coupon's lock the count was just checked; the guarded update keeps the limit even if it were not.
        if (!(await repo.takeCouponUse(trx, coupon.id))) throw new CouponUsedUp();
        await repo.insertRedemption(trx, { order_id: id, coupon_id: coupon.id, user_id: r.userId, created_at: r.now });
      }
      await repo.insertOrderEvent(trx, { order_id: id, state: 'PENDING', source: 'checkout', detail: `${r.method} via ${r.provider}`, created_at: r.now });
      return { ok: true, order: (await repo.findOrder(trx, publicId))!, quote: q.quote, existing: false };
    });
  } catch (error) {
    if (error instanceof CouponUsedUp) return { ok: false, problem: 'used_up' };
    // The same form sent twice at once on PostgreSQL: the other request made the order.
    if (r.requestKey && isUniqueViolation(error)) {
      const first = await repo.findOrderByRequest(db, r.userId, r.requestKey);
      if (first) return { ok: true, order: first, quote: quoteOf(first), existing: true };
    }
    throw error;
  }
}

function quoteOf(o: OrderRow): Quote {
  return { currency: o.currency, subtotal: o.subtotal, discount: o.discount, total: o.total, keys: o.keys, xtraKeys: o.xtra_keys, couponXtraKeys: 0 };
}

/** A subscription's charge for one period, made once whatever the concurrency (unique per period), with its first event. */
export async function chargeForPeriod(db: DB, c: Omit<repo.NewCharge, 'public_id'>, now: number): Promise<ChargeRow> {
  return writeTransaction(db, async (trx) => {
    const { row, created } = await repo.insertChargeOnce(trx, { ...c, public_id: newChargeId() }, now);
    if (created) await repo.insertChargeEvent(trx, { charge_id: row.id, state: 'PENDING', source: 'checkout', detail: `${c.method} via ${c.provider} for the period from ${new Date(c.period_start * 1000).toISOString()}`, created_at: now });
    return row;
  });
}

/** Keeps a Pix charge's copy-and-paste code and expiry on its still pending order or charge. */
export async function attachPixCode(db: DB, input: { id: string; brCode: string; expiresAt: number; now: number }): Promise<void> {
  const kind = kindOf(input.id) as Kind<PayableRow>;
  await writeTransaction(db, async (trx) => {
    const row = await kind.lock(trx, input.id);
    // Not a move: the state stays PENDING, guarded so a record closed meanwhile is left alone.
    if (row?.state === 'PENDING') await kind.change(trx, row, { br_code: input.brCode, expires_at: input.expiresAt }, input.now);
  });
}

/**
 * Claims a pending card charge for one sale: the first caller marks it (expires_at, unused for
 * card charges) and sells; a concurrent caller (a second renewal run, a double submit) finds it
 * claimed and does not charge the card again.
 */
export async function claimCardCharge(db: DB, chargeId: number, now: number): Promise<boolean> {
  return writeTransaction(db, (trx) => repo.claimCardCharge(trx, chargeId, now));
}

// ---------------------------------------------------------------- reading them

export async function findReaderOrder(db: DB, userId: number, orderId: string): Promise<OrderRow | null> {
  return (await repo.findReaderOrder(db, userId, orderId)) ?? null;
}

export async function findOrder(db: DB, orderId: string): Promise<OrderRow | null> {
  return (await repo.findOrder(db, orderId)) ?? null;
}

export async function findCharge(db: DB, id: string): Promise<ChargeRow | null> {
  return (await repo.findCharge(db, id)) ?? null;
}

/** An order or a charge by its public id, as the webhook, the reconciler and the expiry check meet them. */
export async function findPayable(db: DB, id: string): Promise<{ public_id: string; state: OrderState; method: string } | null> {
  return id.startsWith('sub') ? findCharge(db, id) : findOrder(db, id);
}

/** Pending orders made before `before`, oldest first. */
export function pendingOrders(db: DB, before: number, limit = 500) {
  return repo.pendingOrders(db, before, limit);
}

/** Pending subscription charges made before `before`, oldest first. */
export function pendingCharges(db: DB, before: number, limit = 500) {
  return repo.pendingCharges(db, before, limit);
}

export function orderEvents(db: DB, orderId: number) {
  return repo.orderEvents(db, orderId);
}
