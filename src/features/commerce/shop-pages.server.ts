/**
 * What the buying pages show (docs/payments.md): the pack list, the checkout page and its card
 * widget, the reader's orders and the purchase favorite star. Reads only, but for the star.
 */
import crypto from 'node:crypto';
import type { Site } from '~/lib/site';
import { balancesOf, type Balances } from '~/features/wallet/index.server';
import { cardProvider, paymentsOffered, type CardWidgetConfig } from '~/features/payments/index.server';
import { config } from '~/server/config.mjs';
import { appCheckSettings } from '~/server/app-check';
import type { AppCheckSettings } from '~/lib/app-check';
import type { DB } from '~/server/db';
import * as repo from './repository.server';
import { PACK_CODE } from './shop.server';
import { findReaderOrder, type OrderRow } from './payables.server';
import { WITHDRAWAL_SECONDS, withdrawalTerms } from './refund-rules';
import { COUPON_MAX_LENGTH, COUPON_PATTERN, decimalAmount, formatMoney, methodsFor, perKeyPrice, preselectedMethod, type PaymentMethod } from './rules';

export interface PackView {
  code: string;
  keys: number;
  xtraKeys: number;
  price: string;
  /** One paid key's price ("$0.095"), to compare packs. */
  perKey: string;
  favorite: boolean;
  /** The pack this site's readers bought most in the last 30 days (none before any sale). */
  popular: boolean;
}

function packView(p: { code: string; keys: number; xtra_keys: number; price: number; currency: string }, locale: string, favorite: boolean, popular = false): PackView {
  return { code: p.code, keys: p.keys, xtraKeys: p.xtra_keys, price: formatMoney(p.price, p.currency, locale), perKey: perKeyPrice(p.price, p.keys, p.currency, locale), favorite, popular };
}

/** How far back "most popular" counts sales: a month follows what readers buy now. */
const POPULAR_WINDOW_SECONDS = 30 * 86_400;

/** The purchase page: this site's packs (the reader's favorites first), their balances, and whether any method can pay here. */
export async function purchasePage(db: DB, input: { userId: number; site: Site; now: number }): Promise<{ packs: PackView[]; balances: Balances; canPay: boolean }> {
  const [packs, favorites, balances, sales] = await Promise.all([
    repo.packsOfSite(db, input.site.id), repo.favoritePackIds(db, input.userId), balancesOf(db, input.userId),
    repo.packSalesSince(db, input.site.id, input.now - POPULAR_WINDOW_SECONDS),
  ]);
  // "Most popular" is said only when sales say it: one pack, the most sold (the shop's order breaks a tie).
  let popularId: number | null = null;
  for (const p of packs) if ((sales.get(p.id) ?? 0) > (popularId === null ? 0 : sales.get(popularId) ?? 0)) popularId = p.id;
  const views = packs.map((p) => ({ view: packView(p, input.site.locale, favorites.has(p.id), p.id === popularId), position: p.position }));
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
  /** The method chosen when the page opens (issue 26): the one a refused submission named, else Pix in reais and card elsewhere. */
  method: PaymentMethod | null;
  /** This currency's methods whose provider is not configured here: the page names them as unavailable. */
  unavailable: PaymentMethod[];
  /** A demo's live coupons for this site, named on the page so a visitor can try one (production: none). */
  demoCoupons: string[];
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
export async function checkoutPage(db: DB, input: { site: Site; packCode: string | null; method?: string | null; now: number }): Promise<CheckoutPage | null> {
  const code = input.packCode ?? '';
  if (!PACK_CODE.test(code)) return null;
  const pack = await repo.findPack(db, input.site.id, code);
  if (!pack || !pack.active) return null;
  const methods = methodsFor(pack.currency, paymentsOffered());
  return {
    method: preselectedMethod(methods, pack.currency, input.method),
    unavailable: unavailableMethods(pack.currency),
    demoCoupons: config.mode === 'demo' ? await liveCoupons(db, input.site, input.now) : [],
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

async function liveCoupons(db: DB, site: Site, now: number): Promise<string[]> {
  return (await repo.allCoupons(db))
    .filter((c) => c.site_id === site.id && c.active && (c.starts_at == null || c.starts_at <= now) && (c.ends_at == null || c.ends_at > now))
    .map((c) => c.code);
}

/** The currency's methods that no configured provider takes here (production offers a method only once its provider is set up). */
export function unavailableMethods(currency: string): PaymentMethod[] {
  const offered = new Set(methodsFor(currency, paymentsOffered()));
  return methodsFor(currency).filter((m) => !offered.has(m));
}

/** The card widget's configuration when a card-type method is offered (Braintree's is a call to the gateway). */
export async function widgetFor(methods: readonly PaymentMethod[], currency: string): Promise<CardWidgetConfig> {
  return methods.some((m) => m !== 'pix') ? cardProvider().widgetConfig(currency) : { provider: 'none', clientToken: null };
}

export function newRequestKey(): string {
  return crypto.randomBytes(16).toString('base64url');
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
  /**
   * The right of withdrawal (docs/payments.md, "Refunds"): offered (the whole amount back, until
   * when), refused with the reason (too late, keys spent), a refund under way or done, or null for
   * an order that was never paid.
   */
  withdrawal: { offer: true; amount: string; until: number } | { offer: false; why: 'window' | 'spent' | 'pending' | 'refunded'; until: number } | null;
  createdAt: number;
  favorite: boolean;
}

export const PURCHASES_PAGE_SIZE = 25;

/** /my/purchases/: the reader's orders, newest first, with the purchase favorite star. */
export async function purchasesPage(db: DB, input: { userId: number; site: Site; page: number; now: number }): Promise<{ rows: PurchaseRow[]; page: number; pages: number }> {
  const total = await repo.readerOrderCount(db, input.userId);
  const pages = Math.max(1, Math.ceil(total / PURCHASES_PAGE_SIZE));
  const page = Math.min(Math.max(1, input.page), pages);
  const [orders, favorites, balances] = await Promise.all([repo.readerOrders(db, input.userId, PURCHASES_PAGE_SIZE, (page - 1) * PURCHASES_PAGE_SIZE), repo.favoritePackIds(db, input.userId), balancesOf(db, input.userId)]);
  const refunds = await repo.refundStatesOf(db, orders.map((o) => o.public_id));
  return {
    page,
    pages,
    rows: orders.map((o) => ({
      id: o.public_id, state: o.state, amount: formatMoney(o.total, o.currency, input.site.locale), keys: o.keys, xtraKeys: o.xtra_keys,
      packCode: o.pack_code, method: o.method, card: o.card_brand ? `${o.card_brand}${o.card_last4 ? ` •••• ${o.card_last4}` : ''}` : null,
      createdAt: o.created_at, favorite: favorites.has(o.pack_id),
      withdrawal: withdrawalOf(o, refunds.get(o.public_id) ?? null, balances, input.site.locale, input.now),
    })),
  };
}

function withdrawalOf(o: { state: OrderRow['state']; paid_at: number | null; total: number; currency: string; keys: number; xtra_keys: number }, refund: string | null, held: Balances, locale: string, now: number): PurchaseRow['withdrawal'] {
  if (o.paid_at == null) return null;
  const until = o.paid_at + WITHDRAWAL_SECONDS;
  if (refund === 'PENDING') return { offer: false, why: 'pending', until };
  if (o.state !== 'PAID') return { offer: false, why: 'refunded', until };
  const terms = withdrawalTerms({ state: o.state, paidAt: o.paid_at, total: o.total, keys: o.keys, xtraKeys: o.xtra_keys }, held, now);
  if (terms.ok) return { offer: true, amount: formatMoney(terms.terms.amount, o.currency, locale), until };
  return { offer: false, why: terms.problem === 'window' ? 'window' : 'spent', until };
}

/** The purchase favorite star on one of the reader's orders: stars (or unstars) its pack. Null when the order is not theirs. */
export async function setPurchaseFavorite(db: DB, input: { userId: number; orderId: string; favorite: boolean; now: number }): Promise<{ favorited: boolean } | null> {
  const order = await findReaderOrder(db, input.userId, input.orderId);
  if (!order) return null;
  if (input.favorite) await repo.addPackFavorite(db, input.userId, order.pack_id, input.now);
  else await repo.removePackFavorite(db, input.userId, order.pack_id);
  return { favorited: input.favorite };
}


export interface PurchaseReceipt {
  orderId: string;
  keys: number;
  xtra: number;
  balances: Balances;
}

/**
 * The receipt moment on the page the checkout sent the reader back to (`?paid={order}`): what the
 * order credited and the balance now. Null unless the order is this reader's and paid, so a
 * shared or guessed link shows nothing.
 */
export async function purchaseReceipt(db: DB, input: { userId: number; orderId: string }): Promise<PurchaseReceipt | null> {
  const order = await findReaderOrder(db, input.userId, input.orderId);
  if (!order || order.state !== 'PAID') return null;
  return { orderId: order.public_id, keys: order.keys, xtra: order.xtra_keys, balances: await balancesOf(db, input.userId) };
}
