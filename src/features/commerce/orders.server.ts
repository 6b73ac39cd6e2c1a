/**
 * Orders and the one function that confirms a payment (docs/payments.md).
 *
 * An order is made PENDING with the amount the server computed and, when a coupon is used, one
 * of the coupon's uses held for it; the provider is asked to charge only after that transaction
 * committed. Every confirmation — the checkout's own answer, a webhook, a status poll, the
 * reconciler — goes through `confirmPayment`, which moves the order from PENDING to PAID exactly
 * once and credits its keys through the ledger in the same transaction. A failed or expired
 * order gives its coupon use back; PAID, FAILED and EXPIRED are final. Every state an order
 * enters is recorded in order_events with what said so.
 */
import crypto from 'node:crypto';
import type { OrderState } from '@db/schema';
import { creditPurchase } from '~/features/wallet/index.server';
import { isUniqueViolation, writeTransaction, type DB } from '~/server/db';
import * as repo from './repository.server';
import { quote, type CouponProblem, type Quote } from './rules';

export type OrderRow = NonNullable<Awaited<ReturnType<typeof repo.findOrder>>>;
export type ChargeRow = NonNullable<Awaited<ReturnType<typeof repo.findCharge>>>;
/** What said so: `expiry` is the server's own check of payments past their time (expiry.server.ts). */
export type EventSource = 'checkout' | 'webhook' | 'poll' | 'reconcile' | 'cli' | 'expiry';

/** A public order id: unguessable, URL-safe, and short enough for a Pix correlationID and txid (letters and digits only). */
export function newOrderId(): string {
  return `ord${crypto.randomBytes(12).toString('hex')}`;
}

/** A subscription charge's public id (the status call's `check`, the Pix correlationID): as an order's, with its own prefix. */
export function newChargeId(): string {
  return `sub${crypto.randomBytes(12).toString('hex')}`;
}

/** Whether a payment's id names a subscription charge rather than a key-pack order. */
export function isChargeId(id: string): boolean {
  return id.startsWith('sub');
}

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

class CouponUsedUp extends Error {}

function quoteOf(o: OrderRow): Quote {
  return { currency: o.currency, subtotal: o.subtotal, discount: o.discount, total: o.total, keys: o.keys, xtraKeys: o.xtra_keys, couponXtraKeys: 0 };
}

export interface PaymentConfirmation {
  /** Our order's public id (the provider's order id or Pix correlationID). */
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

export type ConfirmResult =
  /** `paid`: confirmed now; `already`: confirmed before (by this or another source), nothing more done. */
  | { kind: 'paid' | 'already'; order: OrderRow | null }
  | { kind: 'unknown' }
  /** The order had failed or expired: a late payment is recorded for staff, never credited. */
  | { kind: 'closed'; order: OrderRow | null }
  /** The provider reports another amount or currency than the order's: recorded, not credited. */
  | { kind: 'mismatch'; order: OrderRow | null };

/**
 * The one function that confirms a payment: PENDING → PAID exactly once, and what was paid for
 * granted in the same transaction — a key-pack order's keys and Xtra keys credited through the
 * ledger (key `order:{id}`), a subscription charge's period added to its subscription's access —
 * with the event recorded. Safe to call any number of times, from any process, concurrently.
 */
export async function confirmPayment(db: DB, c: PaymentConfirmation): Promise<ConfirmResult> {
  if (isChargeId(c.orderId)) return confirmCharge(db, c);
  return writeTransaction(db, async (trx): Promise<ConfirmResult> => {
    const order = await repo.lockOrder(trx, c.orderId);
    if (!order) return { kind: 'unknown' };
    const event = (state: string, detail: string) => repo.insertOrderEvent(trx, { order_id: order.id, state, source: c.source, detail, created_at: c.now });
    if (order.state === 'PAID') {
      // Another payment for a paid order (the reader paid twice) is kept for staff to refund.
      if (order.payment_id !== c.paymentId) await event('PAID', `another payment ${c.paymentId} for a paid order: refund it`);
      return { kind: 'already', order };
    }
    if (order.state !== 'PENDING') {
      await event(order.state, `payment ${c.paymentId} arrived after the order was ${order.state.toLowerCase()}: refund it`);
      return { kind: 'closed', order };
    }
    if (c.amount !== order.total || c.currency !== order.currency) {
      await event('PENDING', `payment ${c.paymentId} of ${c.amount} ${c.currency} does not match the order's ${order.total} ${order.currency}`);
      return { kind: 'mismatch', order };
    }
    const credit = await creditPurchase(trx, { userId: order.user_id, keys: order.keys, xtra: order.xtra_keys, key: `order:${order.public_id}`, reason: `order ${order.public_id}`, now: c.now });
    const moved = await repo.changeOrder(trx, order.id, 'PENDING', {
      state: 'PAID', payment_id: c.paymentId, paid_at: c.now, ledger_transaction_id: credit.id,
      card_brand: c.display?.brand ?? null, card_last4: c.display?.last4 ?? null,
    }, c.now);
    if (!moved) throw new Error(`order ${order.public_id} changed under its lock`);
    await event('PAID', c.paymentId);
    return { kind: 'paid', order: (await repo.findOrder(trx, order.public_id))! };
  });
}

/**
 * Closes a PENDING order as FAILED (the card was declined, the provider could not be reached) or
 * EXPIRED (the Pix charge ran out), giving its coupon use back. A PAID order is never closed: a
 * late "expired" changes nothing. Returns the order as it is afterwards, or null if unknown.
 */
export async function closeOrder(db: DB, input: { orderId: string; state: Extract<OrderState, 'FAILED' | 'EXPIRED'>; source: EventSource; reason: string; now: number }): Promise<OrderRow | null> {
  if (isChargeId(input.orderId)) {
    await closeCharge(db, input);
    return null;
  }
  return writeTransaction(db, async (trx) => {
    const order = await repo.lockOrder(trx, input.orderId);
    if (!order) return null;
    if (order.state !== 'PENDING') {
      if (order.state === 'PAID') await repo.insertOrderEvent(trx, { order_id: order.id, state: 'PAID', source: input.source, detail: `ignored: ${input.state.toLowerCase()} (${input.reason}) after payment`, created_at: input.now });
      return order;
    }
    await repo.changeOrder(trx, order.id, 'PENDING', { state: input.state, failure: input.reason }, input.now);
    await repo.releaseRedemption(trx, order.id);
    await repo.insertOrderEvent(trx, { order_id: order.id, state: input.state, source: input.source, detail: input.reason, created_at: input.now });
    return (await repo.findOrder(trx, order.public_id))!;
  });
}

/** Keeps a Pix charge's copy-and-paste code and expiry on its still pending order. */
export async function attachCharge(db: DB, input: { orderId: string; brCode: string; expiresAt: number; now: number }): Promise<void> {
  await writeTransaction(db, async (trx) => {
    const order = await repo.lockOrder(trx, input.orderId);
    if (order?.state === 'PENDING') await repo.changeOrder(trx, order.id, 'PENDING', { br_code: input.brCode, expires_at: input.expiresAt }, input.now);
  });
}

export async function findReaderOrder(db: DB, userId: number, orderId: string): Promise<OrderRow | null> {
  return (await repo.findReaderOrder(db, userId, orderId)) ?? null;
}

export async function findOrder(db: DB, orderId: string): Promise<OrderRow | null> {
  return (await repo.findOrder(db, orderId)) ?? null;
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

/** The subscription-charge half of `confirmPayment`: the same rules, granting a period instead of keys. */
async function confirmCharge(db: DB, c: PaymentConfirmation): Promise<ConfirmResult> {
  return writeTransaction(db, async (trx): Promise<ConfirmResult> => {
    const charge = await repo.lockCharge(trx, c.orderId);
    if (!charge) return { kind: 'unknown' };
    const event = (state: string, detail: string) => repo.insertSubscriptionEvent(trx, { subscription_id: charge.subscription_id, state, source: c.source, detail, created_at: c.now });
    if (charge.state === 'PAID') {
      if (charge.payment_id !== c.paymentId) await event('PAID', `another payment ${c.paymentId} for the paid charge ${charge.public_id}: refund it`);
      return { kind: 'already', order: null };
    }
    if (charge.state !== 'PENDING') {
      await event(charge.state, `payment ${c.paymentId} arrived after the charge ${charge.public_id} was ${charge.state.toLowerCase()}: refund it`);
      return { kind: 'closed', order: null };
    }
    if (c.amount !== charge.amount || c.currency !== charge.currency) {
      await event('PENDING', `payment ${c.paymentId} of ${c.amount} ${c.currency} does not match the charge ${charge.public_id} of ${charge.amount} ${charge.currency}`);
      return { kind: 'mismatch', order: null };
    }
    if (!(await repo.changeCharge(trx, charge.id, 'PENDING', { state: 'PAID', payment_id: c.paymentId, paid_at: c.now }, c.now))) throw new Error(`charge ${charge.public_id} changed under its lock`);
    await repo.extendSubscription(trx, charge.subscription_id, charge.period_end, c.now);
    await event('ACTIVE', `charge ${charge.public_id} paid (${c.paymentId}): access until ${new Date(charge.period_end * 1000).toISOString()}`);
    return { kind: 'paid', order: null };
  });
}

async function closeCharge(db: DB, input: { orderId: string; state: Extract<OrderState, 'FAILED' | 'EXPIRED'>; source: EventSource; reason: string; now: number }): Promise<void> {
  await writeTransaction(db, async (trx) => {
    const charge = await repo.lockCharge(trx, input.orderId);
    if (!charge || charge.state !== 'PENDING') return;
    await repo.changeCharge(trx, charge.id, 'PENDING', { state: input.state, failure: input.reason }, input.now);
    await repo.insertSubscriptionEvent(trx, { subscription_id: charge.subscription_id, state: `charge ${input.state}`, source: input.source, detail: `${charge.public_id}: ${input.reason}`, created_at: input.now });
  });
}

/** A subscription's charge for one period, made once whatever the concurrency (unique per period). */
export async function chargeForPeriod(db: DB, c: Omit<repo.NewCharge, 'public_id'>, now: number): Promise<ChargeRow> {
  return writeTransaction(db, (trx) => repo.insertChargeOnce(trx, { ...c, public_id: newChargeId() }, now));
}

export async function findCharge(db: DB, id: string): Promise<ChargeRow | null> {
  return (await repo.findCharge(db, id)) ?? null;
}

/** Keeps a Pix charge's copy-and-paste code and expiry on its still pending subscription charge. */
export async function attachChargeCode(db: DB, input: { chargeId: string; brCode: string; expiresAt: number; now: number }): Promise<void> {
  await writeTransaction(db, async (trx) => {
    const charge = await repo.lockCharge(trx, input.chargeId);
    if (charge?.state === 'PENDING') await repo.changeCharge(trx, charge.id, 'PENDING', { br_code: input.brCode, expires_at: input.expiresAt }, input.now);
  });
}
