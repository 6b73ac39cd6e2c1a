/**
 * Settling pending Pix payments with the PSP: asked about one (the status polls, the checkout, the
 * reconciler), paid → the one confirmation, expired → closed.
 *
 * And payments that expire by themselves (docs/payments.md, "Expiry"): a Pix order or
 * subscription charge past its expiry stops being payable and gives its coupon use back without
 * any cron, settled the same way at two moments:
 *   - at read time, before a coupon's limits are counted (its holders past their time first), so
 *     an abandoned order never keeps a limited coupon from the next reader;
 *   - from each server's own timer, at most once a minute, started by traffic like the release
 *     check (src/middleware/context.ts), so nothing waits for `npm run payments -- reconcile`.
 * A PSP that cannot be reached leaves the payment pending (it may have been paid); the next check
 * asks again.
 */
import { pixProvider, type PixCharge } from '~/features/payments/index.server';
import type { DB } from '~/server/db';
import * as repo from './repository.server';
import { resumeRefunds } from './refunds.server';
import { closePayable, confirmPayment, findOrder, type EventSource, type OrderRow } from './payables.server';
import { log } from '~/server/observe.mjs';

/** Asks the PSP about a pending Pix order and applies the answer through the one confirmation. */
export async function syncPixOrder(db: DB, order: OrderRow, source: EventSource, now: number): Promise<OrderRow> {
  await syncPix(db, { id: order.public_id, expiresAt: order.expires_at }, source, now);
  return (await findOrder(db, order.public_id)) ?? order;
}

/**
 * Asks the PSP about a pending Pix payment (a key-pack order or a subscription charge, by id) and
 * applies the answer through the one confirmation: paid → confirmPayment, expired → closed.
 */
export async function syncPix(db: DB, payment: { id: string; expiresAt: number | null }, source: EventSource, now: number): Promise<void> {
  let charge: PixCharge | null;
  try {
    charge = await pixProvider().getCharge(payment.id);
  } catch (error) {
    log().error({ err: error instanceof Error ? error.message : error }, '[payments] reading a Pix charge failed');
    return;
  }
  if (charge?.status === 'COMPLETED') {
    await confirmPayment(db, { orderId: payment.id, paymentId: charge.paymentId ?? `pix:${payment.id}`, amount: charge.value, currency: 'BRL', source, now });
  } else if (charge?.status === 'EXPIRED') {
    await closePayable(db, { id: payment.id, state: 'EXPIRED', source, reason: 'the charge expired', now });
  } else if (!charge && payment.expiresAt != null && now > payment.expiresAt + UNKNOWN_CHARGE_GRACE_SECONDS) {
    // Never created at the PSP (the process stopped in between) and long past its time.
    await closePayable(db, { id: payment.id, state: 'FAILED', source, reason: 'no charge at the PSP', now });
  }
}

const UNKNOWN_CHARGE_GRACE_SECONDS = 600;

/**
 * Closes a pending Pix payment the reader abandoned by starting another: the charge is closed at
 * the PSP first, so the bank app can no longer pay it, then here (its coupon use comes back). A
 * charge the reader paid meanwhile is confirmed instead. A PSP that cannot be reached leaves it
 * pending: it expires by itself.
 */
export async function closeAbandonedPix(db: DB, payment: { id: string; expiresAt: number | null }, now: number): Promise<void> {
  let closed: Awaited<ReturnType<ReturnType<typeof pixProvider>['closeCharge']>>;
  try {
    closed = await pixProvider().closeCharge(payment.id);
  } catch (error) {
    log().error({ err: error instanceof Error ? error.message : error }, '[payments] closing an abandoned Pix charge failed');
    return;
  }
  if (closed === 'paid') return syncPix(db, payment, 'checkout', now);
  await closePayable(db, { id: payment.id, state: 'EXPIRED', source: 'checkout', reason: closed === 'closed' ? 'replaced by a new charge; closed at the PSP' : 'replaced by a new charge; the PSP does not know it', now });
}

/** Closes a reader's pending Pix orders (all but the one this form already made) before a new one. */
export async function closeAbandonedOrders(db: DB, userId: number, keepRequestKey: string | null, now: number): Promise<void> {
  for (const o of await repo.pendingPixOrdersOf(db, userId)) {
    if (keepRequestKey !== null && o.request_key === keepRequestKey) continue;
    await closeAbandonedPix(db, { id: o.public_id, expiresAt: o.expires_at }, now);
  }
}

/** Closes the first charge of a reader's subscription still waiting for it, before a new subscription replaces that one. */
export async function closeAbandonedCharges(db: DB, userId: number, now: number): Promise<void> {
  for (const c of await repo.pendingFirstPixChargesOf(db, userId)) await closeAbandonedPix(db, { id: c.public_id, expiresAt: c.expires_at }, now);
}

/** How many due payments one pass settles (the rest wait for the next minute). */
const BATCH = 50;

/** Settles pending Pix payments past their expiry: all of them, or those holding a use of one coupon (by site and code). Returns how many it asked about. */
export async function settleDuePayments(db: DB, now: number, only: { coupon?: { siteId: number; code: string } } = {}): Promise<number> {
  const orders = await repo.dueOrders(db, now, only, BATCH);
  const charges = only.coupon === undefined ? await repo.dueCharges(db, now, BATCH) : [];
  for (const p of [...orders, ...charges]) await syncPix(db, { id: p.public_id, expiresAt: p.expires_at }, 'expiry', now);
  return orders.length + charges.length;
}

const EVERY_SECONDS = 60;
let lastRun = Number.NEGATIVE_INFINITY;
let running: Promise<void> | null = null;

/**
 * The server's own timer: settles due payments at most once a minute per process, in the
 * background (never delaying the request that started it), one pass at a time.
 */
export function maybeSettleDuePayments(getDb: () => Promise<DB>, now: number): void {
  if (running || now - lastRun < EVERY_SECONDS) return;
  lastRun = now;
  running = (async () => {
    try {
      const db = await getDb();
      await settleDuePayments(db, now);
      // Refunds a provider has not confirmed yet (a Pix refund in processing, an answer lost).
      await resumeRefunds(db, { before: now - EVERY_SECONDS, now, limit: 50 });
    } catch (error) {
      log().error({ err: error instanceof Error ? error.message : error }, '[payments] settling expired payments failed');
    } finally {
      running = null;
    }
  })();
}
