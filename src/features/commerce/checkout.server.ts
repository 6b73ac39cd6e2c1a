/**
 * Buying keys, as the checkout's calls see it (docs/payments.md): the coupon box, Pix charges and
 * their status, the checkout form and the card sandbox's nonce call. Every amount is computed
 * from the pack and coupon rows; what the browser sends is a choice (a pack code, a coupon code, a
 * method), never an amount. Payments are confirmed and closed by their owner (payables.server.ts).
 */
import type { T, MessageKey } from '~/lib/i18n';
import type { Site } from '~/lib/site';
import { safeNext } from '~/lib/redirect';
import { keysPath } from '~/lib/paths';
import { PAID_PARAM, withParam } from '~/lib/intent';
import { retryMinutes } from '~/server/rate-limit';
import { issueNonce, type NonceProblem } from '~/features/payments/sandbox.server';
import { CARD_METHODS, cardProvider, paymentsOffered, pixProvider, qrSvg, sandboxesReachable, type CardMethod, type PixCharge } from '~/features/payments/index.server';
import { config } from '~/server/config.mjs';
import type { DB } from '~/server/db';
import { cardPausedFor, countDecline } from './declines.server';
import { closeAbandonedOrders, settleDuePayments, syncPixOrder } from './settle.server';
import { attachPixCode, closePayable, confirmPayment, createOrder, findReaderOrder, quoteFor, type OrderRow } from './payables.server';
import { formatMoney, isCouponCode, normalizeCoupon, parseMethod, type CouponProblem, type Quote } from './rules';
import { log } from '~/server/observe.mjs';

/** Where a reader lands after paying when the page gave no `next`: their keys (with the receipt moment). */
const DEFAULT_NEXT = keysPath();
const REQUEST_KEY = /^[A-Za-z0-9_-]{8,64}$/;
const NONCE_MAX = 4096;

const COUPON_MESSAGES: Record<'pack' | CouponProblem, MessageKey> = {
  pack: 'purchase.error.pack',
  unknown: 'purchase.coupon.unknown',
  not_started: 'purchase.coupon.notStarted',
  ended: 'purchase.coupon.ended',
  used_up: 'purchase.coupon.usedUp',
  reader_limit: 'purchase.coupon.readerLimit',
  currency: 'purchase.coupon.currency',
  too_large: 'purchase.coupon.tooLarge',
};
const problemStatus = (p: 'pack' | CouponProblem): 404 | 409 | 422 => (p === 'pack' ? 404 : p === 'used_up' || p === 'reader_limit' ? 409 : 422);

export type TextAnswer = { status: number; text: string; retryAfter?: number };
export type JsonAnswer<B> = { status: 200; body: B } | TextAnswer;

/**
 * Before a coupon's limits are counted, its uses held by Pix orders past their expiry come back
 * (settle.server.ts): an abandoned order never keeps a limited coupon from the next reader.
 */
async function releaseDueCouponUses(db: DB, site: Site, coupon: string | null, now: number): Promise<void> {
  if (coupon) await settleDuePayments(db, now, { coupon: { siteId: site.id, code: coupon } });
}

/** Reads the pack and coupon fields the coupon box, Pix and checkout all send. */
function readChoice(form: URLSearchParams): { packCode: string; coupon: string | null; couponValid: boolean } {
  const raw = (form.get('coupon') ?? '').slice(0, 256);
  const coupon = raw.trim() === '' ? null : normalizeCoupon(raw);
  return { packCode: (form.get('pack') ?? '').slice(0, 64), coupon, couponValid: coupon === null || (isCouponCode(coupon) && coupon === raw.trim().toUpperCase()) };
}

export interface CouponBody {
  checkout: { discount: { string: string }; total: { string: string } };
  xtra_key_bonus: number;
}

/** POST /my/purchase/coupon/: what the pack costs with the coupon, or why the coupon cannot be used. */
export async function couponAnswer(db: DB, input: { userId: number; site: Site; form: URLSearchParams; now: number }, t: T): Promise<JsonAnswer<CouponBody>> {
  const choice = readChoice(input.form);
  if (!choice.coupon || !choice.couponValid) return { status: 422, text: t('purchase.coupon.invalid') };
  await releaseDueCouponUses(db, input.site, choice.coupon, input.now);
  const q = await quoteFor(db, { userId: input.userId, siteId: input.site.id, packCode: choice.packCode, couponCode: choice.coupon, now: input.now });
  if (!q.ok) return { status: problemStatus(q.problem), text: t(COUPON_MESSAGES[q.problem]) };
  return { status: 200, body: couponBody(q.quote, input.site.locale) };
}

function couponBody(q: Quote, locale: string): CouponBody {
  return {
    checkout: { discount: { string: formatMoney(q.discount, q.currency, locale) }, total: { string: formatMoney(q.total, q.currency, locale) } },
    xtra_key_bonus: q.couponXtraKeys,
  };
}

export interface PixBody {
  checkout: { correlationID: string; total: { string: string } };
  brcode: string;
  qr_svg: string;
  /** ISO 8601. */
  expires_at: string;
}

/** POST /my/purchase/pix/: a Pix charge for the pack (and coupon), its copy-and-paste code and QR. */
export async function pixChargeAnswer(db: DB, input: { userId: number; site: Site; form: URLSearchParams; now: number }, t: T): Promise<JsonAnswer<PixBody>> {
  const choice = readChoice(input.form);
  if (!choice.couponValid) return { status: 422, text: t('purchase.error.couponNotApplied') };
  if (input.site.currency !== 'BRL') return { status: 422, text: t('purchase.error.pixOnly') };
  if (!paymentsOffered().pix) return { status: 422, text: t('purchase.error.methodUnavailable') };
  const requestKey = readRequestKey(input.form);
  const provider = pixProvider();
  // One payable charge per reader: a new one closes those they abandoned (at the PSP too).
  await closeAbandonedOrders(db, input.userId, requestKey, input.now);
  await releaseDueCouponUses(db, input.site, choice.coupon, input.now);
  const made = await createOrder(db, {
    userId: input.userId, siteId: input.site.id, packCode: choice.packCode, couponCode: choice.coupon, method: 'pix', provider: `pix-${provider.id}`,
    requestKey, next: null, expiresIn: config.payments.pixExpiresSeconds, now: input.now,
  });
  if (!made.ok) return { status: problemStatus(made.problem), text: t(COUPON_MESSAGES[made.problem]) };
  const order = made.order;
  if (order.state !== 'PENDING') return { status: 409, text: t(order.state === 'PAID' ? 'purchase.error.alreadyPaid' : 'purchase.error.closed') };
  let charge: PixCharge;
  try {
    // The correlationID is the order's id: asking twice gives the PSP's first charge back.
    charge = await provider.createCharge({ correlationID: order.public_id, value: order.total, expiresIn: config.payments.pixExpiresSeconds, comment: `Inkpass ${order.keys} keys` });
  } catch (error) {
    log().error({ err: error instanceof Error ? error.message : error }, '[payments] creating a Pix charge failed');
    // The same form again, for an order whose code the reader already has: it exists at the PSP and
    // may be paid, so it stays pending (as a subscription's charge does, billing.server.ts).
    if (!order.br_code) await closePayable(db, { id: order.public_id, state: 'FAILED', source: 'checkout', reason: 'unavailable', now: input.now });
    return { status: 503, text: t('purchase.error.unavailable') };
  }
  if (charge.value !== order.total) {
    await closePayable(db, { id: order.public_id, state: 'FAILED', source: 'checkout', reason: `the PSP made a charge of ${charge.value}`, now: input.now });
    return { status: 502, text: t('purchase.error.unavailable') };
  }
  await attachPixCode(db, { id: order.public_id, brCode: charge.brCode, expiresAt: charge.expiresAt, now: input.now });
  return {
    status: 200,
    body: {
      checkout: { correlationID: order.public_id, total: { string: formatMoney(order.total, order.currency, input.site.locale) } },
      brcode: charge.brCode,
      qr_svg: qrSvg(charge.brCode, { label: t('purchase.pix.qrLabel') }),
      expires_at: new Date(charge.expiresAt * 1000).toISOString(),
    },
  };
}

function readRequestKey(form: URLSearchParams): string | null {
  const k = form.get('request_key');
  return k && REQUEST_KEY.test(k) ? k : null;
}

export interface PixStatusBody {
  status: OrderRow['state'];
  paid: boolean;
}

/** GET /my/purchase/pix/{id}/: the reader's Pix order as the PSP sees it now (polled every 3 s). */
export async function pixStatusAnswer(db: DB, input: { userId: number; orderId: string; now: number }): Promise<PixStatusBody | null> {
  let order = await findReaderOrder(db, input.userId, input.orderId);
  if (!order || order.method !== 'pix') return null;
  if (order.state === 'PENDING') order = await syncPixOrder(db, order, 'poll', input.now);
  return { status: order.state, paid: order.state === 'PAID' };
}

export type CheckoutResult = { kind: 'redirect'; location: string } | { kind: 'error'; status: number; message: string; retryAfter?: number };

const SALE_FAILURES: Record<'declined' | 'rejected' | 'nonce', { status: number; key: MessageKey }> = {
  declined: { status: 402, key: 'purchase.error.declined' },
  rejected: { status: 402, key: 'purchase.error.rejected' },
  nonce: { status: 422, key: 'purchase.error.nonce' },
};

/**
 * POST /my/purchase/checkout/: pays for a pack with a card-type method's nonce, or finishes a
 * Pix payment (`nonce` is then the charge's correlationID), and sends the reader to `next`.
 */
export async function checkoutSubmit(db: DB, input: { userId: number; site: Site; form: URLSearchParams; now: number }, t: T): Promise<CheckoutResult> {
  const fail = (status: number, key: MessageKey, values?: Record<string, number>): CheckoutResult => ({ kind: 'error', status, message: t(key, values) });
  const { form } = input;
  const next = safeNext(form.get('next'), DEFAULT_NEXT);
  // The page the reader came from gets the order's id: it shows the receipt moment (what was
  // credited, the new balance) and lets the reader go on with what they were doing.
  const landing = (orderId: string): CheckoutResult => ({ kind: 'redirect', location: withParam(next, PAID_PARAM, orderId) });
  const method = parseMethod(form.get('method'));
  if (!method) return fail(422, 'purchase.error.method');
  const choice = readChoice(form);
  if (!choice.couponValid) return fail(422, 'purchase.error.couponNotApplied');
  const nonce = (form.get('nonce') ?? '').trim();
  if (!nonce || nonce.length > NONCE_MAX) return fail(422, 'purchase.error.method');

  if (method === 'pix') {
    let order = await findReaderOrder(db, input.userId, nonce);
    if (!order || order.method !== 'pix') return fail(404, 'purchase.error.order');
    if (order.state === 'PENDING') order = await syncPixOrder(db, order, 'checkout', input.now);
    if (order.state === 'PAID') return landing(order.public_id);
    return fail(409, order.state === 'EXPIRED' ? 'purchase.error.expired' : order.state === 'FAILED' ? 'purchase.error.closed' : 'purchase.error.notPaid');
  }

  if (!paymentsOffered().card) return fail(422, 'purchase.error.methodUnavailable');
  const paused = await cardPausedFor(db, input.userId, input.now);
  if (paused > 0) return { kind: 'error', status: 429, message: t('purchase.error.cardPaused', { minutes: retryMinutes(paused) }), retryAfter: paused };
  const provider = cardProvider();
  await releaseDueCouponUses(db, input.site, choice.coupon, input.now);
  const made = await createOrder(db, {
    userId: input.userId, siteId: input.site.id, packCode: choice.packCode, couponCode: choice.coupon, method, provider: provider.id,
    requestKey: readRequestKey(form), next, expiresIn: null, now: input.now,
  });
  if (!made.ok) return fail(problemStatus(made.problem), COUPON_MESSAGES[made.problem]);
  const order = made.order;
  if (made.existing) {
    // The same form sent again: answer what happened to the first one, never charge twice.
    if (order.state === 'PAID') return landing(order.public_id);
    return fail(409, order.state === 'PENDING' ? 'purchase.error.pending' : 'purchase.error.closed');
  }
  const sale = await provider.sale({ orderId: order.public_id, readerId: input.userId, money: { amount: order.total, currency: order.currency }, nonce, deviceData: form.get('device_data')?.slice(0, 8192) || null })
    .catch((error: unknown) => {
      log().error({ err: error instanceof Error ? error.message : error }, '[payments] card sale failed');
      return { ok: false as const, code: 'unavailable' as const, message: null };
    });
  if (!sale.ok) {
    // Nothing is known to have been charged: the order stays PENDING for the reconciler, which
    // asks the provider and confirms or closes it.
    if (sale.code === 'unavailable') return fail(503, 'purchase.error.unavailable');
    await closePayable(db, { id: order.public_id, state: 'FAILED', source: 'checkout', reason: sale.message ? `${sale.code}: ${sale.message}` : sale.code, now: input.now });
    if (sale.code === 'declined' || sale.code === 'rejected') await countDecline(db, input.userId, input.now);
    const f = SALE_FAILURES[sale.code];
    return fail(f.status, f.key);
  }
  const confirmed = await confirmPayment(db, { orderId: order.public_id, paymentId: sale.paymentId, amount: sale.money.amount, currency: sale.money.currency, source: 'checkout', display: sale.display, now: input.now });
  if (confirmed.kind === 'paid' || confirmed.kind === 'already') return landing(order.public_id);
  return fail(502, 'purchase.error.unavailable');
}

const NONCE_PROBLEMS: Record<NonceProblem, MessageKey> = { number: 'purchase.card.number', expiry: 'purchase.card.expiry', cvv: 'purchase.card.cvv' };

/** POST /payments/sandbox/nonce/: the card sandbox's widget trades a test card for a single-use nonce. */
export async function sandboxNonceAnswer(db: DB, input: { userId: number; method: string; number: string; expiry: string; cvv: string; now: number }, t: T):
  Promise<{ status: 200; body: { nonce: string; brand: string; last4: string | null } } | { status: number; detail: string; field?: NonceProblem }> {
  // A demo's route only: production answers as if it did not exist.
  if (!sandboxesReachable().card) return { status: 404, detail: t('error.api.notFound') };
  if (!CARD_METHODS.includes(input.method as CardMethod)) return { status: 422, detail: t('purchase.error.method') };
  const r = await issueNonce(db, { userId: input.userId, method: input.method as CardMethod, number: input.number, expiry: input.expiry, cvv: input.cvv, now: input.now });
  // `field` names the card field refused, so the widget marks and focuses it.
  return r.ok ? { status: 200, body: { nonce: r.nonce, brand: r.brand, last4: r.last4 } } : { status: 422, detail: t(NONCE_PROBLEMS[r.problem]), field: r.problem };
}

