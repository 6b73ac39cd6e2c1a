/** `npm run payments -- reconcile` (docs/payments.md): pending payments and refunds settled with their providers. */
import { cardProvider, paymentsOffered } from '~/features/payments/index.server';
import type { DB } from '~/server/db';
import { syncPix } from './settle.server';
import { closePayable, confirmPayment, findPayable, pendingCharges, pendingOrders } from './payables.server';
import { resumeRefunds } from './refunds.server';

/** A card order still PENDING this long after its sale was asked for, with no sale found, failed. */
const CARD_GIVE_UP_SECONDS = 30 * 60;

export interface ReconcileSummary {
  checked: number;
  paid: number;
  expired: number;
  failed: number;
  pending: number;
  /** Refunds that were waiting for their provider: confirmed, refused, or still waiting. */
  refunds: { confirmed: number; refused: number; pending: number };
}

/**
 * `npm run payments -- reconcile`: asks the providers about every pending order older than a
 * minute and applies their answers through the one confirmation. Safe to run at any time, twice,
 * or beside the server.
 */
export async function reconcile(db: DB, now: number): Promise<ReconcileSummary> {
  const summary: ReconcileSummary = { checked: 0, paid: 0, expired: 0, failed: 0, pending: 0, refunds: { confirmed: 0, refused: 0, pending: 0 } };
  const payables = [
    ...(await pendingOrders(db, now - 60)).map((o) => ({ id: o.public_id, method: o.method, expiresAt: o.expires_at, createdAt: o.created_at })),
    ...(await pendingCharges(db, now - 60)).map((c) => ({ id: c.public_id, method: c.method, expiresAt: c.expires_at, createdAt: c.created_at })),
  ];
  for (const p of payables) {
    summary.checked++;
    if (p.method === 'pix') await syncPix(db, p, 'reconcile', now);
    else if (paymentsOffered().card) {
      const sale = await cardProvider().findSale(p.id).catch(() => undefined);
      if (sale) {
        await confirmPayment(db, { orderId: p.id, paymentId: sale.paymentId, amount: sale.money.amount, currency: sale.money.currency, source: 'reconcile', display: sale.display, now });
      } else if (sale === null && now - p.createdAt > CARD_GIVE_UP_SECONDS) {
        await closePayable(db, { id: p.id, state: 'FAILED', source: 'reconcile', reason: 'no sale at the provider', now });
      }
    }
    const after = await findPayable(db, p.id);
    if (after?.state === 'PAID') summary.paid++;
    else if (after?.state === 'EXPIRED') summary.expired++;
    else if (after?.state === 'FAILED') summary.failed++;
    else summary.pending++;
  }
  summary.refunds = await resumeRefunds(db, { before: now - 60, now, source: 'reconcile' });
  return summary;
}

