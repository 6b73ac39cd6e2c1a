/**
 * The unlock dialog's pure parts: what it shows for an offer and the reader's balances, and how
 * an answer of the redeem call becomes a message. Unit-tested in unlock-dialog.test.ts.
 */
import { chooseCurrency, unlockBonus, type PricingBalances, type UnlockOffer } from '~/features/catalog';
import type { AppCheckSettings } from '~/lib/app-check';

/** The catalogue keys the dialog uses; the page embeds their ICU sources (UnlockDialogConfig.astro). */
export const DIALOG_MESSAGES = [
  'unlock.title', 'unlock.close', 'unlock.price', 'unlock.was', 'wallet.balances', 'unlock.payWithKeys', 'unlock.payWithXtra',
  'wallet.bonusLine', 'unlock.short', 'wallet.buyKeys', 'unlock.confirm', 'unlock.confirmXtra', 'unlock.pending', 'unlock.success', 'unlock.errorStatus',
  'unlock.dismiss', 'unlock.orFree', 'unlock.pass', 'unlock.ad', 'unlock.adWatching', 'unlock.adClaim', 'unlock.adSponsor', 'unlock.adOpen',
  'unlock.orPlan', 'unlock.rent',
] as const;
export type DialogMessageKey = (typeof DIALOG_MESSAGES)[number];

/** What the page embeds for the dialog in `#unlock-dialog-config`. */
export interface DialogConfig {
  locale: string;
  messages: Record<DialogMessageKey, string>;
  /** Where the buy-keys link goes (with `next` added for the chapter). */
  purchase: string;
  endpoints: { redeem: string; pass: string; adStart: string; adComplete: string; rent: string };
  /** The bot check the redeem call carries a token for (null: not enforced). */
  appCheck: AppCheckSettings | null;
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

/**
 * The line that says which balance will pay and the confirm button, both in that one currency
 * (issue 26: "Paid with 3 Xtra keys" above "Unlock for 3 keys", before anything was paid).
 * Null when neither balance covers the price (the dialog offers buying keys instead).
 */
export function payWords(view: DialogView): { pay: 'unlock.payWithKeys' | 'unlock.payWithXtra'; confirm: 'unlock.confirm' | 'unlock.confirmXtra' } | null {
  if (view.currency === 'xtra') return { pay: 'unlock.payWithXtra', confirm: 'unlock.confirmXtra' };
  if (view.currency === 'keys') return { pay: 'unlock.payWithKeys', confirm: 'unlock.confirm' };
  return null;
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

/**
 * The offer an unlock button carries (see unlockButtonHtml): its numbers from `data-*`, the
 * chapter's id from its value, its name and link from `data-name` / `data-href` or the row.
 * Null when anything is missing or malformed.
 */
export function offerFrom(button: { value: string; dataset: Record<string, string | undefined> }, row: Partial<Pick<UnlockOffer, 'name' | 'href'>> = {}): UnlockOffer | null {
  const d = button.dataset;
  const price = Number(d.price);
  const name = d.name ?? row.name;
  const href = d.href ?? row.href;
  if (!/^EPI-[A-Za-z0-9_-]{1,64}$/.test(button.value) || !Number.isSafeInteger(price) || price < 0 || !name || !href) return null;
  const was = d.was === undefined ? price : Number(d.was);
  const rent = d.rent === undefined ? null : Number(d.rent);
  return {
    e4pid: button.value, name, href, price, original: Number.isSafeInteger(was) ? was : price, bonus: unlockBonus(price), pass: d.pass !== undefined, ad: d.ad !== undefined,
    // A malformed count still offers the rental: the server decides, the count is only shown.
    rent: rent === null ? null : Number.isSafeInteger(rent) && rent >= 0 ? rent : 0,
  };
}

/**
 * What a failed redeem reports (spec section 8: "it is also reported"): the status, the bot
 * check's refusal when there was one (X-App-Check-Refused, which the ignore list leaves out:
 * the dialog fetches a new token), and the message the reader saw.
 */
export function redeemFailure(status: number, appCheckRefused: string | null, shown: string): string {
  return `Redeem failed: HTTP ${status}${appCheckRefused ? ` (X-App-Check-Refused: ${appCheckRefused})` : ''}: ${shown}`;
}
