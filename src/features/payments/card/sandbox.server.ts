/**
 * The local card sandbox: a stand-in for a card gateway so the site sells keys out of the box
 * and tests drive a real checkout. Its widget (sandbox-widget.client.ts) sends the test card a
 * reader typed to `issueNonce`, which answers a single-use nonce the way a gateway's client SDK
 * does; the checkout then calls `sale` with it. Outcomes follow Braintree's test values
 * (docs/payments.md, "Sandbox test cards"), so the same tests read true for both.
 * No card number is stored: only the outcome, brand and last four, as a gateway would return.
 */
import crypto from 'node:crypto';
import type { DB } from '~/server/db';
import type { CardMethod, CardProvider, CardSaleResult, CardVaultResult, PaymentStatus } from '../provider';
import * as repo from '../repository.server';
import { findSandboxRefund, moneyFact, refundInSandbox, SANDBOX_SETTLEMENT_SECONDS, sandboxRefunded, timeFact } from '../sandbox-refunds.server';
import { expiryValid, luhnValid } from './card-format';

/** Card numbers the sandbox knows, and what a sale with them does. Any other valid number succeeds. */
export const SANDBOX_CARDS = {
  visa: '4111111111111111',
  mastercard: '5555555555554444',
  /** The processor (bank) declines: "Do Not Honor". */
  declined: '4000111111111115',
} as const;
/** Any card with this CVV is refused by the gateway's fraud rules (gateway rejection). */
export const SANDBOX_REJECTED_CVV = '200';
/** A nonce that was already used, as gateways' test suites name it. */
export const SANDBOX_CONSUMED_NONCE = 'fake-consumed-nonce';

export type NonceProblem = 'number' | 'expiry' | 'cvv';

const WALLET_BRANDS: Record<Exclude<CardMethod, 'card'>, string> = { paypal: 'PayPal', googlepay: 'Google Pay', applepay: 'Apple Pay' };

function brandOf(digits: string): string {
  if (digits.startsWith('4')) return 'Visa';
  if (/^(5[1-5]|2[2-7])/.test(digits)) return 'Mastercard';
  if (/^3[47]/.test(digits)) return 'American Express';
  return 'Card';
}

export interface NonceRequest {
  userId: number;
  method: CardMethod;
  /** For the card method only. */
  number?: string;
  expiry?: string;
  cvv?: string;
  now: number;
}

/** Checks a test card like a client SDK would and answers a single-use nonce for it. */
export async function issueNonce(db: DB, r: NonceRequest): Promise<{ ok: true; nonce: string; brand: string; last4: string | null } | { ok: false; problem: NonceProblem }> {
  let outcome = 'success';
  let brand: string;
  let last4: string | null = null;
  if (r.method === 'card') {
    const digits = (r.number ?? '').replace(/[\s-]/g, '');
    if (!luhnValid(digits)) return { ok: false, problem: 'number' };
    if (!expiryValid(r.expiry ?? '', new Date(r.now * 1000))) return { ok: false, problem: 'expiry' };
    if (!/^\d{3,4}$/.test(r.cvv ?? '')) return { ok: false, problem: 'cvv' };
    if (digits === SANDBOX_CARDS.declined) outcome = 'declined';
    else if (r.cvv === SANDBOX_REJECTED_CVV) outcome = 'rejected';
    brand = brandOf(digits);
    last4 = digits.slice(-4);
  } else {
    brand = WALLET_BRANDS[r.method];
  }
  const nonce = `sandbox-${crypto.randomBytes(16).toString('hex')}`;
  await repo.insertNonce(db, { nonce, user_id: r.userId, method: r.method, outcome, brand, last4, created_at: r.now });
  return { ok: true, nonce, brand, last4 };
}

/** How long an issued nonce can pay (gateways' nonces expire after a few hours). */
const NONCE_TTL_SECONDS = 3 * 3600;

export function createSandboxCardProvider(getDb: () => Promise<DB>, clock: () => number = () => Math.floor(Date.now() / 1000)): CardProvider {
  return {
    id: 'sandbox',
    async widgetConfig() {
      return { provider: 'sandbox', clientToken: null };
    },
    async sale(input): Promise<CardSaleResult> {
      const db = await getDb();
      const now = clock();
      if (input.token) return saleWithToken(db, input.token, input, now);
      const paymentId = `sbx_${crypto.randomBytes(8).toString('hex')}`;
      const used = await takeNonce(db, input.nonce, input.readerId, { order_id: input.orderId, payment_id: paymentId, amount: input.money.amount, currency: input.money.currency, used_at: now }, now);
      if (!used.ok) return used;
      const row = used.row;
      if (row.outcome === 'declined') return { ok: false, code: 'declined', message: 'Do Not Honor' };
      if (row.outcome === 'rejected') return { ok: false, code: 'rejected', message: 'cvv' };
      let vaultToken: string | null = null;
      if (input.vault) {
        vaultToken = `vault-${crypto.randomBytes(12).toString('hex')}`;
        await repo.vaultNonce(db, input.nonce, vaultToken);
      }
      return { ok: true, paymentId, money: input.money, display: { brand: row.brand, last4: row.last4 }, vaultToken };
    },
    async vault(input): Promise<CardVaultResult> {
      const db = await getDb();
      const now = clock();
      // Used up by the vaulting itself (no sale, no amount), as a gateway's verification would.
      const used = await takeNonce(db, input.nonce, input.readerId, { order_id: null, payment_id: null, amount: null, currency: null, used_at: now }, now);
      if (!used.ok) return used;
      if (used.row.outcome === 'declined') return { ok: false, code: 'declined', message: 'Do Not Honor' };
      if (used.row.outcome === 'rejected') return { ok: false, code: 'rejected', message: 'cvv' };
      const token = `vault-${crypto.randomBytes(12).toString('hex')}`;
      await repo.vaultNonce(db, input.nonce, token);
      return { ok: true, token, display: { brand: used.row.brand, last4: used.row.last4 } };
    },
    async findSale(orderId) {
      const row = await repo.saleOfOrder(await getDb(), orderId);
      if (!row || row.payment_id == null || row.amount == null || row.currency == null) return null;
      return { ok: true, paymentId: row.payment_id, money: { amount: row.amount, currency: row.currency }, display: { brand: row.brand, last4: row.last4 } };
    },
    /**
     * Voids a whole sale younger than a day (it has not "settled"), refunds an older one, refuses
     * a part of an unsettled one (docs/payments.md, "Refunds at the providers").
     */
    async refund(input) {
      const db = await getDb();
      const sale = await repo.saleOfPayment(db, input.paymentId);
      const payment = sale && sale.amount != null && sale.currency != null && sale.used_at != null
        ? { amount: sale.amount, currency: sale.currency, paidAt: sale.used_at, voidable: true }
        : null;
      return refundInSandbox(db, 'sandbox', input, payment, clock());
    },
    async findRefund(input) {
      return findSandboxRefund(await getDb(), 'sandbox', input);
    },
    async paymentStatus(input): Promise<PaymentStatus | null> {
      const db = await getDb();
      const sale = (await repo.saleOfOrder(db, input.orderId)) ?? (input.paymentId ? await repo.saleOfPayment(db, input.paymentId) : undefined);
      if (!sale || sale.payment_id == null || sale.amount == null || sale.currency == null || sale.used_at == null) return null;
      const refunded = await sandboxRefunded(db, 'sandbox', sale.payment_id);
      const settled = clock() >= sale.used_at + SANDBOX_SETTLEMENT_SECONDS;
      const status = refunded.voided ? 'voided'
        : refunded.amount >= sale.amount ? 'refunded'
        : refunded.amount > 0 ? 'partially_refunded'
        : settled ? 'settled' : 'submitted_for_settlement';
      const facts: Record<string, string> = {
        'payment id': sale.payment_id,
        amount: moneyFact(sale.amount, sale.currency),
        created: timeFact(sale.used_at),
      };
      if (sale.brand) facts.brand = sale.brand;
      if (sale.last4) facts.last4 = sale.last4;
      if (refunded.ids.length) {
        facts.refunded = moneyFact(refunded.amount, sale.currency);
        facts['refund ids'] = refunded.ids.join(', ');
      }
      return { status, facts };
    },
  };
}

type NonceRefusal = { ok: false; code: 'nonce'; message: string };

/**
 * Takes a nonce for one use: it must be one this sandbox issued, to this reader, unexpired and
 * unused. Atomic: of two sales racing with one nonce, one gets it.
 */
async function takeNonce(db: DB, nonce: string, readerId: number, use: repo.NonceUse, now: number): Promise<{ ok: true; row: NonNullable<Awaited<ReturnType<typeof repo.useNonce>>> } | NonceRefusal> {
  if (nonce === SANDBOX_CONSUMED_NONCE) return { ok: false, code: 'nonce', message: 'Cannot use a payment_method_nonce more than once.' };
  const known = nonce ? await repo.findNonce(db, nonce) : undefined;
  // Another reader's nonce reads exactly like an unknown one: nothing tells a prober it exists.
  if (!known || known.user_id !== readerId || known.created_at + NONCE_TTL_SECONDS < now) return { ok: false, code: 'nonce', message: 'Unknown or expired payment_method_nonce.' };
  const row = await repo.useNonce(db, nonce, readerId, use);
  if (!row) return { ok: false, code: 'nonce', message: 'Cannot use a payment_method_nonce more than once.' };
  return { ok: true, row };
}

/** A renewal: the vaulted payment method pays again (recorded as a used nonce of its own, so `findSale` sees it). */
async function saleWithToken(db: DB, token: string, input: { orderId: string; money: { amount: number; currency: string } }, now: number): Promise<CardSaleResult> {
  const vaulted = await repo.findVaulted(db, token);
  if (!vaulted) return { ok: false, code: 'nonce', message: 'Unknown payment method token.' };
  const nonce = `sandbox-token-sale-${crypto.randomBytes(12).toString('hex')}`;
  await repo.insertNonce(db, { nonce, user_id: vaulted.user_id, method: vaulted.method, outcome: vaulted.outcome, brand: vaulted.brand, last4: vaulted.last4, created_at: now });
  const paymentId = `sbx_${crypto.randomBytes(8).toString('hex')}`;
  await repo.useNonce(db, nonce, vaulted.user_id, { order_id: input.orderId, payment_id: paymentId, amount: input.money.amount, currency: input.money.currency, used_at: now });
  if (vaulted.outcome !== 'success') return { ok: false, code: vaulted.outcome === 'declined' ? 'declined' : 'rejected', message: null };
  return { ok: true, paymentId, money: input.money, display: { brand: vaulted.brand, last4: vaulted.last4 } };
}
