/**
 * The unlock dialog's pure parts: what it shows for an offer and the reader's balances, and how
 * an answer of the redeem call becomes a message. Unit-tested in unlock-dialog.test.ts.
 */
import { chooseCurrency, type PricingBalances, type UnlockOffer } from '~/features/catalog';

/** The catalogue keys the dialog uses; the page embeds their ICU sources (UnlockDialogConfig.astro). */
export const DIALOG_MESSAGES = [
  'unlock.title', 'unlock.close', 'unlock.price', 'unlock.was', 'wallet.balances', 'unlock.payWithKeys', 'unlock.payWithXtra',
  'wallet.bonusLine', 'unlock.short', 'wallet.buyKeys', 'unlock.confirm', 'unlock.pending', 'unlock.success', 'unlock.errorStatus',
  'unlock.dismiss', 'unlock.orFree', 'unlock.pass', 'unlock.ad', 'unlock.adWatching', 'unlock.adClaim', 'unlock.adSponsor', 'unlock.adOpen',
] as const;
export type DialogMessageKey = (typeof DIALOG_MESSAGES)[number];

/** What the page embeds for the dialog in `#unlock-dialog-config`. */
export interface DialogConfig {
  locale: string;
  messages: Record<DialogMessageKey, string>;
  /** Where the buy-keys link goes (with `next` added for the chapter). */
  purchase: string;
  endpoints: { redeem: string; pass: string; adStart: string; adComplete: string };
}

export interface DialogView {
  currency: 'xtra' | 'keys' | null;
  /** Keys still missing when neither balance covers the price. */
  missing: number;
}

export function dialogView(offer: Pick<UnlockOffer, 'price'>, balances: PricingBalances): DialogView {
  const c = chooseCurrency(offer.price, balances);
  if (c !== 'insufficient') return { currency: c, missing: 0 };
  return { currency: null, missing: offer.price - Math.max(balances.keys, balances.xtra) };
}

/** The message of a failed call: the server's `detail`, else "Error {status}" (already formatted by the caller). */
export async function failureText(res: Response, errorStatus: (status: number) => string): Promise<string> {
  try {
    const body: unknown = await res.json();
    if (body && typeof body === 'object' && 'detail' in body && typeof body.detail === 'string' && body.detail) return body.detail;
  } catch {
    /* not JSON */
  }
  return errorStatus(res.status);
}

export function parseOffer(raw: string | undefined): UnlockOffer | null {
  if (!raw) return null;
  try {
    const o = JSON.parse(raw) as Partial<UnlockOffer>;
    if (typeof o.e4pid !== 'string' || typeof o.name !== 'string' || typeof o.price !== 'number' || typeof o.href !== 'string') return null;
    return { e4pid: o.e4pid, name: o.name, href: o.href, price: o.price, original: Number(o.original ?? o.price), bonus: Number(o.bonus ?? 0), pass: o.pass === true, ad: o.ad === true };
  } catch {
    return null;
  }
}
