/**
 * Buying keys, as the pages and endpoints see it (docs/payments.md): the pack list, the
 * checkout page, the coupon box, Pix charges and their status, the checkout form, provider
 * webhooks and the reconciler. Every amount is computed here from the pack and coupon rows;
 * what the browser sends is a choice (a pack code, a coupon code, a method), never an amount.
 */
import crypto from 'node:crypto';
import type { T, MessageKey } from '~/lib/i18n';
import type { Site } from '~/lib/site';
import { safeNext } from '~/lib/redirect';
import { keysPath } from '~/lib/paths';
import { retryMinutes } from '~/server/rate-limit';
import { balancesOf, type Balances } from '~/features/wallet/index.server';
import { issueNonce, type NonceProblem } from '~/features/payments/sandbox.server';
import { CARD_METHODS, cardProvider, paymentsOffered, pixProvider, qrSvg, sandboxesReachable, type CardMethod, type CardWidgetConfig, type PixCharge } from '~/features/payments/index.server';
import { config } from '~/server/config.mjs';
import { appCheckSettings } from '~/server/app-check';
import type { AppCheckSettings } from '~/lib/app-check';
import type { DB } from '~/server/db';
import * as repo from './repository.server';
import { PACK_CODE } from './shop.server';
import { cardPausedFor, countDecline } from './declines.server';
import { closeAbandonedOrders, settleDuePayments, syncPix, syncPixOrder } from './settle.server';
import { attachCharge, closeOrder, confirmPayment, createOrder, findCharge, findOrder, findReaderOrder, isChargeId, pendingCharges, pendingOrders, quoteFor, type EventSource, type OrderRow } from './orders.server';
import { COUPON_MAX_LENGTH, COUPON_PATTERN, decimalAmount, formatMoney, isCouponCode, methodsFor, normalizeCoupon, parseMethod, type CouponProblem, type PaymentMethod, type Quote } from './rules';

/** Where a reader lands after paying when the page gave no `next`: their keys. */
const DEFAULT_NEXT = keysPath();
const REQUEST_KEY = /^[A-Za-z0-9_-]{8,64}$/;
const NONCE_MAX = 4096;

export interface PackView {
  code: string;
  keys: number;
  xtraKeys: number;
  price: string;
  favorite: boolean;
}

function packView(p: { code: string; keys: number; xtra_keys: number; price: number; currency: string }, locale: string, favorite: boolean): PackView {
  return { code: p.code, keys: p.keys, xtraKeys: p.xtra_keys, price: formatMoney(p.price, p.currency, locale), favorite };
}

/** The purchase page: this site's packs (the reader's favorites first), their balances, and whether any method can pay here. */
export async function purchasePage(db: DB, input: { userId: number; site: Site }): Promise<{ packs: PackView[]; balances: Balances; canPay: boolean }> {
  const [packs, favorites, balances] = await Promise.all([repo.packsOfSite(db, input.site.id), repo.favoritePackIds(db, input.userId), balancesOf(db, input.userId)]);
  const views = packs.map((p) => ({ view: packView(p, input.site.locale, favorites.has(p.id)), position: p.position }));
  // Stable: favorites first, each group in the shop's order.
  views.sort((a, b) => Number(b.view.favorite) - Number(a.view.favorite));
  return { packs: views.map((v) => v.view), balances, canPay: methodsFor(input.site.currency, paymentsOffered()).length > 0 };
}

export interface CheckoutPage {
  pack: PackView;
  currency: string;
  subtotal: string;
  /** The price as a decimal string ("9.99"), for the wallets' payment sheets. */
  amount: string;
  /** The methods offered (only those whose provider is configured); empty: the page says buying is unavailable. */
  methods: PaymentMethod[];
  widget: CardWidgetConfig;
  /** A fresh one-time key for this form: sending it twice finds the first order. */
  requestKey: string;
  couponPattern: string;
  couponMaxLength: number;
  pixExpiresSeconds: number;
  /** The bot check the Pix charge and the final submission carry a token for (null: not enforced). */
  appCheck: AppCheckSettings | null;
}

/** The checkout page for one pack, or null when this site sells no such pack. */
export async function checkoutPage(db: DB, input: { site: Site; packCode: string | null }): Promise<CheckoutPage | null> {
  const code = input.packCode ?? '';
  if (!PACK_CODE.test(code)) return null;
  const pack = await repo.findPack(db, input.site.id, code);
  if (!pack || !pack.active) return null;
  const methods = methodsFor(pack.currency, paymentsOffered());
  return {
    pack: packView(pack, input.site.locale, false),
    currency: pack.currency,
    subtotal: formatMoney(pack.price, pack.currency, input.site.locale),
    amount: decimalAmount(pack.price),
    methods,
    widget: await widgetFor(methods, pack.currency),
    requestKey: newRequestKey(),
    couponPattern: COUPON_PATTERN,
    couponMaxLength: COUPON_MAX_LENGTH,
    pixExpiresSeconds: config.payments.pixExpiresSeconds,
    appCheck: appCheckSettings(),
  };
}

/** The card widget's configuration when a card-type method is offered (Braintree's is a call to the gateway). */
export async function widgetFor(methods: readonly PaymentMethod[], currency: string): Promise<CardWidgetConfig> {
  return methods.some((m) => m !== 'pix') ? cardProvider().widgetConfig(currency) : { provider: 'none', clientToken: null };
}

export function newRequestKey(): string {
  return crypto.randomBytes(16).toString('base64url');
}

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
    console.error('[payments] creating a Pix charge failed:', error instanceof Error ? error.message : error);
    await closeOrder(db, { orderId: order.public_id, state: 'FAILED', source: 'checkout', reason: 'unavailable', now: input.now });
    return { status: 503, text: t('purchase.error.unavailable') };
  }
  if (charge.value !== order.total) {
    await closeOrder(db, { orderId: order.public_id, state: 'FAILED', source: 'checkout', reason: `the PSP made a charge of ${charge.value}`, now: input.now });
    return { status: 502, text: t('purchase.error.unavailable') };
  }
  await attachCharge(db, { orderId: order.public_id, brCode: charge.brCode, expiresAt: charge.expiresAt, now: input.now });
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
    if (order.state === 'PAID') return { kind: 'redirect', location: next };
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
    if (order.state === 'PAID') return { kind: 'redirect', location: next };
    return fail(409, order.state === 'PENDING' ? 'purchase.error.pending' : 'purchase.error.closed');
  }
  const sale = await provider.sale({ orderId: order.public_id, readerId: input.userId, money: { amount: order.total, currency: order.currency }, nonce, deviceData: form.get('device_data')?.slice(0, 8192) || null })
    .catch((error: unknown) => {
      console.error('[payments] card sale failed:', error instanceof Error ? error.message : error);
      return { ok: false as const, code: 'unavailable' as const, message: null };
    });
  if (!sale.ok) {
    // Nothing is known to have been charged: the order stays PENDING for the reconciler, which
    // asks the provider and confirms or closes it.
    if (sale.code === 'unavailable') return fail(503, 'purchase.error.unavailable');
    await closeOrder(db, { orderId: order.public_id, state: 'FAILED', source: 'checkout', reason: sale.message ? `${sale.code}: ${sale.message}` : sale.code, now: input.now });
    if (sale.code === 'declined' || sale.code === 'rejected') await countDecline(db, input.userId, input.now);
    const f = SALE_FAILURES[sale.code];
    return fail(f.status, f.key);
  }
  const confirmed = await confirmPayment(db, { orderId: order.public_id, paymentId: sale.paymentId, amount: sale.money.amount, currency: sale.money.currency, source: 'checkout', display: sale.display, now: input.now });
  if (confirmed.kind === 'paid' || confirmed.kind === 'already') return { kind: 'redirect', location: next };
  return fail(502, 'purchase.error.unavailable');
}

/** POST /webhooks/pix/: a PSP's signed event about a charge, applied through the one confirmation. */
export async function pixWebhookAnswer(db: DB, input: { rawBody: Buffer; headers: Headers; now: number }): Promise<{ status: number; body: Record<string, unknown> }> {
  if (!paymentsOffered().pix) return { status: 404, body: { detail: 'no Pix provider is configured' } };
  const delivery = pixProvider().verifyWebhook(input.rawBody, input.headers);
  if (!delivery.verified) return { status: 401, body: { detail: 'invalid signature' } };
  const event = delivery.event;
  // A key-pack order or a subscription charge; anything else (another integration on the same
  // PSP account, an event we do not act on, an id of a shape ours never have) is acknowledged so
  // it is not retried.
  if (!event) return { status: 200, body: { ok: true, ignored: true } };
  const payable = isChargeId(event.correlationID) ? await findCharge(db, event.correlationID) : await findOrder(db, event.correlationID);
  if (!payable || payable.method !== 'pix') return { status: 200, body: { ok: true, ignored: true } };
  const id = payable.public_id;
  if (event.status === 'COMPLETED') {
    const r = await confirmPayment(db, { orderId: id, paymentId: event.paymentId ?? `pix:${id}`, amount: event.value, currency: 'BRL', source: 'webhook', now: input.now });
    return { status: 200, body: { ok: true, result: r.kind } };
  }
  if (event.status === 'EXPIRED') {
    await closeOrder(db, { orderId: id, state: 'EXPIRED', source: 'webhook', reason: 'the charge expired', now: input.now });
    const after = isChargeId(id) ? await findCharge(db, id) : await findOrder(db, id);
    return { status: 200, body: { ok: true, state: after?.state ?? null } };
  }
  return { status: 200, body: { ok: true } };
}

const NONCE_PROBLEMS: Record<NonceProblem, MessageKey> = { number: 'purchase.card.number', expiry: 'purchase.card.expiry', cvv: 'purchase.card.cvv' };

/** POST /payments/sandbox/nonce/: the card sandbox's widget trades a test card for a single-use nonce. */
export async function sandboxNonceAnswer(db: DB, input: { userId: number; method: string; number: string; expiry: string; cvv: string; now: number }, t: T):
  Promise<{ status: 200; body: { nonce: string; brand: string; last4: string | null } } | { status: number; detail: string }> {
  // A demo's route only: production answers as if it did not exist.
  if (!sandboxesReachable().card) return { status: 404, detail: t('error.api.notFound') };
  if (!CARD_METHODS.includes(input.method as CardMethod)) return { status: 422, detail: t('purchase.error.method') };
  const r = await issueNonce(db, { userId: input.userId, method: input.method as CardMethod, number: input.number, expiry: input.expiry, cvv: input.cvv, now: input.now });
  return r.ok ? { status: 200, body: { nonce: r.nonce, brand: r.brand, last4: r.last4 } } : { status: 422, detail: t(NONCE_PROBLEMS[r.problem]) };
}

/** A card order still PENDING this long after its sale was asked for, with no sale found, failed. */
const CARD_GIVE_UP_SECONDS = 30 * 60;

export interface ReconcileSummary {
  checked: number;
  paid: number;
  expired: number;
  failed: number;
  pending: number;
}

/**
 * `npm run payments -- reconcile`: asks the providers about every pending order older than a
 * minute and applies their answers through the one confirmation. Safe to run at any time, twice,
 * or beside the server.
 */
export async function reconcile(db: DB, now: number): Promise<ReconcileSummary> {
  const summary: ReconcileSummary = { checked: 0, paid: 0, expired: 0, failed: 0, pending: 0 };
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
        await closeOrder(db, { orderId: p.id, state: 'FAILED', source: 'reconcile', reason: 'no sale at the provider', now });
      }
    }
    const after = isChargeId(p.id) ? await findCharge(db, p.id) : await findOrder(db, p.id);
    if (after?.state === 'PAID') summary.paid++;
    else if (after?.state === 'EXPIRED') summary.expired++;
    else if (after?.state === 'FAILED') summary.failed++;
    else summary.pending++;
  }
  return summary;
}

export interface PurchaseRow {
  id: string;
  state: OrderRow['state'];
  amount: string;
  keys: number;
  xtraKeys: number;
  packCode: string;
  method: string;
  card: string | null;
  createdAt: number;
  favorite: boolean;
}

export const PURCHASES_PAGE_SIZE = 25;

/** /my/purchases/: the reader's orders, newest first, with the purchase favorite star. */
export async function purchasesPage(db: DB, input: { userId: number; site: Site; page: number }): Promise<{ rows: PurchaseRow[]; page: number; pages: number }> {
  const total = await repo.readerOrderCount(db, input.userId);
  const pages = Math.max(1, Math.ceil(total / PURCHASES_PAGE_SIZE));
  const page = Math.min(Math.max(1, input.page), pages);
  const [orders, favorites] = await Promise.all([repo.readerOrders(db, input.userId, PURCHASES_PAGE_SIZE, (page - 1) * PURCHASES_PAGE_SIZE), repo.favoritePackIds(db, input.userId)]);
  return {
    page,
    pages,
    rows: orders.map((o) => ({
      id: o.public_id, state: o.state, amount: formatMoney(o.total, o.currency, input.site.locale), keys: o.keys, xtraKeys: o.xtra_keys,
      packCode: o.pack_code, method: o.method, card: o.card_brand ? `${o.card_brand}${o.card_last4 ? ` •••• ${o.card_last4}` : ''}` : null,
      createdAt: o.created_at, favorite: favorites.has(o.pack_id),
    })),
  };
}

/** The purchase favorite star on one of the reader's orders: stars (or unstars) its pack. Null when the order is not theirs. */
export async function setPurchaseFavorite(db: DB, input: { userId: number; orderId: string; favorite: boolean; now: number }): Promise<{ favorited: boolean } | null> {
  const order = await findReaderOrder(db, input.userId, input.orderId);
  if (!order) return null;
  if (input.favorite) await repo.addPackFavorite(db, input.userId, order.pack_id, input.now);
  else await repo.removePackFavorite(db, input.userId, order.pack_id);
  return { favorited: input.favorite };
}

/** Every invariant of orders and coupons (run with the ledger audit by `npm run keys -- audit`). */
export async function auditOrders(db: DB): Promise<{ rule: string; rows: unknown[] }[]> {
  const [miscredited, orphans, counts, closedHolding, overLimit, ungranted] = await Promise.all([
    repo.paidOrdersMiscredited(db), repo.purchasesWithoutPaidOrder(db), repo.couponCountsAmiss(db), repo.redemptionsOfClosedOrders(db), repo.readerLimitsExceeded(db),
    repo.paidChargesNotGranted(db),
  ]);
  return [
    { rule: "every paid order's keys and Xtra keys were credited once, by its own purchase transaction", rows: miscredited },
    { rule: 'every purchase transaction belongs to a paid order', rows: orphans },
    { rule: "a coupon's count equals the orders holding it and stays within its limit", rows: counts },
    { rule: 'failed and expired orders gave their coupon use back', rows: closedHolding },
    { rule: 'no reader holds a coupon more often than it allows', rows: overLimit },
    { rule: "every paid subscription charge's period is within its subscription's access", rows: ungranted },
  ].filter((f) => f.rows.length > 0);
}
