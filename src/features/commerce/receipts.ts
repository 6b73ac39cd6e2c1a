/**
 * The receipt's rules (docs/payments.md, "Receipts"), pure: which ids name a payable, which
 * states have a receipt, who may read one, how a card is named and what the refunds say.
 */
import type { OrderState, RefundState } from '@db/schema';

/** An order's or a subscription charge's public id (payables.server.ts: `ord`/`sub` and 24 hex digits). */
const PAYABLE_ID = /^(ord|sub)[0-9a-f]{24}$/;

/** Which payable an id names, or null for anything else (a malformed id is a 404, not a query). */
export function receiptKind(id: string): 'order' | 'charge' | null {
  const m = PAYABLE_ID.exec(id);
  if (!m) return null;
  return m[1] === 'ord' ? 'order' : 'charge';
}

/** A payment was taken: paid, and still so once refunded (the receipt then says the refund). */
const WITH_RECEIPT: ReadonlySet<OrderState> = new Set(['PAID', 'REFUNDED', 'PARTIALLY_REFUNDED']);

export function hasReceipt(state: OrderState): boolean {
  return WITH_RECEIPT.has(state);
}

/**
 * Who reads a receipt: its reader, or staff holding `support` (read only). Anyone else is told
 * nothing, not even that it exists (null: the page answers 404, as for an unknown id).
 */
export function receiptReader(viewer: { id: number; capabilities: readonly string[] }, ownerId: number): 'owner' | 'support' | null {
  if (viewer.id === ownerId) return 'owner';
  return viewer.capabilities.includes('support') ? 'support' : null;
}

/** "Visa •••• 1111", as /my/purchases/ names the card; null without a brand. */
export function cardLabel(brand: string | null, last4: string | null): string | null {
  if (!brand) return null;
  return last4 ? `${brand} •••• ${last4}` : brand;
}

export interface RefundRow {
  id: number;
  state: RefundState;
  amount: number;
  currency: string;
  keys: number;
  xtra_keys: number;
  ending: 'now' | 'period_end' | null;
  created_at: number;
  confirmed_at: number | null;
}

export type RefundLine =
  | { kind: 'refunded'; amount: number; currency: string; at: number; keys: number; xtraKeys: number; ending: 'now' | 'period_end' | null }
  | { kind: 'inProgress'; since: number };

/**
 * What a receipt says of its refunds, oldest first: each confirmed one (amount, date, what was
 * taken back), and one in progress while the provider has not answered. A failed refund gave
 * nothing back and is not on the receipt.
 */
export function refundLines(rows: readonly RefundRow[]): RefundLine[] {
  const out: RefundLine[] = [];
  for (const r of [...rows].sort((a, b) => a.id - b.id)) {
    if (r.state === 'CONFIRMED') {
      out.push({ kind: 'refunded', amount: r.amount, currency: r.currency, at: r.confirmed_at ?? r.created_at, keys: r.keys, xtraKeys: r.xtra_keys, ending: r.ending });
    } else if (r.state === 'PENDING') {
      out.push({ kind: 'inProgress', since: r.created_at });
    }
  }
  return out;
}
