/**
 * Subscription billing: a charge per period of a subscription, paid by Pix (a PSP charge with
 * its BR Code) or by a card-type method (a nonce the first time, the vaulted payment method for
 * renewals), confirmed by the same `confirmPayment` as key-pack orders. The subscriptions feature
 * decides what a period costs (from its plan row) and when to charge; this file takes the money.
 * docs/subscriptions.md.
 */
import { cardProvider, pixProvider, qrSvg } from '~/features/payments/index.server';
import { config } from '~/server/config.mjs';
import type { DB } from '~/server/db';
import * as repo from './repository.server';
import { attachPixCode, chargeForPeriod, claimCardCharge, closePayable, confirmPayment, findCharge, type ChargeRow } from './payables.server';
import { syncPix } from './settle.server';
import { log } from '~/server/observe.mjs';

export type { ChargeRow };

export interface PeriodToCharge {
  subscriptionId: number;
  userId: number;
  periodStart: number;
  periodEnd: number;
  /** Minor units, from the plan row. */
  amount: number;
  currency: string;
  now: number;
}

export type PixChargeAnswer =
  | { ok: true; charge: ChargeRow; brCode: string; qrSvg: string; expiresAt: number }
  /** paid: this period is paid already; closed: its charge failed or expired; unavailable: the PSP did not answer. */
  | { ok: false; reason: 'paid' | 'closed' | 'unavailable'; charge: ChargeRow | null };

/**
 * The Pix charge for one period (made once per period, however often asked): its copy-and-paste
 * code and QR. `expiresIn` defaults to PIX_EXPIRES_SECONDS (a renewal passes its grace time).
 */
export async function chargePeriodByPix(db: DB, p: PeriodToCharge, opts: { qrLabel: string; expiresIn?: number }): Promise<PixChargeAnswer> {
  const provider = pixProvider();
  const expiresIn = Math.max(60, opts.expiresIn ?? config.payments.pixExpiresSeconds);
  const charge = await chargeForPeriod(db, {
    subscription_id: p.subscriptionId, user_id: p.userId, period_start: p.periodStart, period_end: p.periodEnd, currency: p.currency, amount: p.amount,
    method: 'pix', provider: `pix-${provider.id}`, expires_at: p.now + expiresIn,
  }, p.now);
  if (charge.state === 'PAID') return { ok: false, reason: 'paid', charge };
  if (charge.state !== 'PENDING') return { ok: false, reason: 'closed', charge };
  if (charge.method !== 'pix') return { ok: false, reason: 'closed', charge };
  try {
    // The correlationID is the charge's id: asking again gives the PSP's first charge back.
    const made = await provider.createCharge({ correlationID: charge.public_id, value: charge.amount, expiresIn: Math.max(60, (charge.expires_at ?? p.now + expiresIn) - p.now), comment: 'Inkpass' });
    if (made.value !== charge.amount) throw new Error(`the PSP made a charge of ${made.value}`);
    await attachPixCode(db, { id: charge.public_id, brCode: made.brCode, expiresAt: made.expiresAt, now: p.now });
    return { ok: true, charge, brCode: made.brCode, qrSvg: qrSvg(made.brCode, { label: opts.qrLabel }), expiresAt: made.expiresAt };
  } catch (error) {
    log().error({ err: error instanceof Error ? error.message : error }, '[payments] creating a subscription Pix charge failed');
    // A charge whose code the reader was given (a renewal asked again) exists at the PSP and may be
    // paid already: it stays pending for the webhook, the polls and the reconciler. Closing it here
    // turned a paid renewal into a refund, or lost it when no webhook came (the seeded simulation, seed 11).
    if (!charge.br_code) await closePayable(db, { id: charge.public_id, state: 'FAILED', source: 'checkout', reason: 'unavailable', now: p.now });
    return { ok: false, reason: 'unavailable', charge };
  }
}

export type CardChargeAnswer =
  | { kind: 'paid'; charge: ChargeRow; vaultToken: string | null }
  | { kind: 'already'; charge: ChargeRow }
  | { kind: 'failed'; code: 'declined' | 'rejected' | 'nonce' | 'closed'; charge: ChargeRow }
  /** Nothing is known to have been charged; the charge stays PENDING for the reconciler. */
  | { kind: 'unavailable'; charge: ChargeRow };

/**
 * Charges one period to a card-type method: a nonce from the widget (the first payment, vaulted
 * for renewals when `vault`), or the vaulted `token` (a renewal). Confirmed through the one
 * confirmation; a refusal closes the charge.
 */
export async function chargePeriodByCard(db: DB, p: PeriodToCharge & { method: string; nonce?: string; token?: string; deviceData?: string | null; vault?: boolean }): Promise<CardChargeAnswer> {
  const provider = cardProvider();
  const charge = await chargeForPeriod(db, {
    subscription_id: p.subscriptionId, user_id: p.userId, period_start: p.periodStart, period_end: p.periodEnd, currency: p.currency, amount: p.amount,
    method: p.method, provider: provider.id, expires_at: null,
  }, p.now);
  if (charge.state === 'PAID') return { kind: 'already', charge };
  if (charge.state !== 'PENDING') return { kind: 'failed', code: 'closed', charge };
  // One sale per charge, whatever runs at once; a claimed charge that never got an answer is the reconciler's.
  if (!(await claimCardCharge(db, charge.id, p.now))) return { kind: 'unavailable', charge };
  const sale = await provider.sale({ orderId: charge.public_id, readerId: p.userId, money: { amount: charge.amount, currency: charge.currency }, nonce: p.nonce ?? '', token: p.token, vault: p.vault, deviceData: p.deviceData ?? null })
    .catch((error: unknown) => {
      log().error({ err: error instanceof Error ? error.message : error }, '[payments] subscription card sale failed');
      return { ok: false as const, code: 'unavailable' as const, message: null };
    });
  if (!sale.ok) {
    if (sale.code === 'unavailable') return { kind: 'unavailable', charge };
    await closePayable(db, { id: charge.public_id, state: 'FAILED', source: 'checkout', reason: sale.message ? `${sale.code}: ${sale.message}` : sale.code, now: p.now });
    return { kind: 'failed', code: sale.code, charge };
  }
  const r = await confirmPayment(db, { orderId: charge.public_id, paymentId: sale.paymentId, amount: sale.money.amount, currency: sale.money.currency, source: 'checkout', display: sale.display, now: p.now });
  const after = (await findCharge(db, charge.public_id)) ?? charge;
  if (r.kind === 'paid' || r.kind === 'already') return { kind: 'paid', charge: after, vaultToken: sale.vaultToken ?? null };
  return { kind: 'failed', code: 'closed', charge: after };
}

/** A reader's own charge (null for anyone else's), brought up to date with the PSP when it is a pending Pix charge. */
export async function chargeStatus(db: DB, input: { userId: number; chargeId: string; now: number }): Promise<ChargeRow | null> {
  const charge = await findCharge(db, input.chargeId);
  if (!charge || charge.user_id !== input.userId) return null;
  if (charge.state === 'PENDING' && charge.method === 'pix') {
    await syncPix(db, { id: charge.public_id, expiresAt: charge.expires_at }, 'poll', input.now);
    return (await findCharge(db, charge.public_id)) ?? charge;
  }
  return charge;
}

/** A subscription's charges, newest period first (its payment history). */
export function chargesOf(db: DB, subscriptionId: number) {
  return repo.chargesOfSubscription(db, subscriptionId);
}
