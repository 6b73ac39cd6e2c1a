/**
 * Receipts (issue 28, docs/payments.md "Receipts"): the printable page of a paid order or
 * subscription charge at /my/purchases/{id}/receipt/, for its reader and for staff holding
 * `support`. Reads only.
 */
import type { OrderState } from '@db/schema';
import type { Site } from '~/lib/site';
import { formatMoney } from '~/lib/money';
import { config } from '~/server/config.mjs';
import type { DB } from '~/server/db';
import { subscriptionPlanOf } from '~/features/subscriptions/index.server';
import * as repo from './repository.server';
import { cardLabel, hasReceipt, receiptKind, receiptReader, refundLines } from './receipts';

export type ReceiptItem =
  | { kind: 'pack'; pack: string; keys: number; xtraKeys: number }
  | { kind: 'plan'; plan: string; periodStart: number; periodEnd: number };

export type ReceiptRefund =
  | { kind: 'refunded'; amount: string; at: number; keys: number; xtraKeys: number; ending: 'now' | 'period_end' | null }
  | { kind: 'inProgress'; since: number };

export interface ReceiptView {
  /** The order's or charge's public id: the receipt's number. */
  id: string;
  kind: 'order' | 'charge';
  /** The reader's own receipt, or support staff reading it (the page says so, and links back to the list only for the reader). */
  readAs: 'owner' | 'support';
  state: OrderState;
  /** SELLER_NAME, SELLER_ADDRESS, SELLER_TAX_ID (a null name: the page names the site). */
  seller: { name: string | null; address: string | null; taxId: string | null };
  buyer: { email: string; payerName: string | null };
  item: ReceiptItem;
  /** Orders: the pack's price, the coupon's discount and code (charges have neither). */
  subtotal: string | null;
  discount: string | null;
  coupon: string | null;
  total: string;
  currency: string;
  /** 'card', 'paypal', 'googlepay', 'applepay' or 'pix'. */
  method: string;
  /** "Visa •••• 1111" when the provider said. */
  card: string | null;
  /** Pix: the payment's end-to-end id (E2E), the id the payer's bank shows. */
  endToEndId: string | null;
  /** Other methods: the provider's transaction id. */
  transactionId: string | null;
  orderedAt: number;
  paidAt: number | null;
  refunds: ReceiptRefund[];
}

/**
 * The receipt of a paid order (`ord…`) or subscription charge (`sub…`) for the signed-in
 * `viewer`, in the site's locale. Null, which the page answers with its 404, for a malformed or
 * unknown id, a payable never paid (pending, failed, expired), and a viewer who is neither its
 * reader nor support staff: one answer for all, so a receipt's existence is never revealed.
 */
export async function receiptPage(db: DB, input: { id: string; viewer: { id: number; capabilities: readonly string[] }; site: Site }): Promise<ReceiptView | null> {
  const kind = receiptKind(input.id);
  if (!kind) return null;
  const locale = input.site.locale;
  const money = (minor: number, currency: string) => formatMoney(minor, currency, locale);
  const seller = config.seller;

  if (kind === 'order') {
    const o = await repo.receiptOrder(db, input.id);
    const readAs = o && hasReceipt(o.state) ? receiptReader(input.viewer, o.user_id) : null;
    if (!o || !readAs) return null;
    const pix = o.method === 'pix';
    return {
      id: o.public_id, kind, readAs, state: o.state, seller,
      buyer: { email: o.email, payerName: null },
      item: { kind: 'pack', pack: o.pack_code, keys: o.keys, xtraKeys: o.xtra_keys },
      subtotal: money(o.subtotal, o.currency), discount: o.discount > 0 ? money(o.discount, o.currency) : null, coupon: o.coupon_code ?? null,
      total: money(o.total, o.currency), currency: o.currency,
      method: o.method, card: pix ? null : cardLabel(o.card_brand, o.card_last4),
      endToEndId: pix ? o.payment_id : null, transactionId: pix ? null : o.payment_id,
      orderedAt: o.created_at, paidAt: o.paid_at,
      refunds: await refundsOf(db, 'order', o.public_id, locale),
    };
  }

  const c = await repo.receiptCharge(db, input.id);
  const readAs = c && hasReceipt(c.state) ? receiptReader(input.viewer, c.user_id) : null;
  if (!c || !readAs) return null;
  const plan = await subscriptionPlanOf(db, c.subscription_id);
  const pix = c.method === 'pix';
  return {
    id: c.public_id, kind, readAs, state: c.state, seller,
    buyer: { email: c.email, payerName: plan?.payerName ?? null },
    item: { kind: 'plan', plan: plan?.name ?? '', periodStart: c.period_start, periodEnd: c.period_end },
    subtotal: null, discount: null, coupon: null,
    total: money(c.amount, c.currency), currency: c.currency,
    // A subscription's card is kept by the provider as a token; its brand is not recorded on the charge.
    method: c.method, card: null,
    endToEndId: pix ? c.payment_id : null, transactionId: pix ? null : c.payment_id,
    orderedAt: c.created_at, paidAt: c.paid_at,
    refunds: await refundsOf(db, 'charge', c.public_id, locale),
  };
}

async function refundsOf(db: DB, kind: 'order' | 'charge', id: string, locale: string): Promise<ReceiptRefund[]> {
  return refundLines(await repo.refundsOf(db, kind, id)).map((r) =>
    r.kind === 'refunded' ? { ...r, amount: formatMoney(r.amount, r.currency, locale) } : r);
}
