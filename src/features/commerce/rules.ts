/**
 * The pure rules of buying keys (docs/payments.md): coupon codes, what an order costs, money
 * display and where a reader goes afterwards. Browser-safe: the checkout island uses the same
 * normalisation the server enforces. Money is an integer number of minor units (cents,
 * centavos) everywhere; only `formatMoney` (src/lib/money.ts) turns it into text.
 */
export { decimalAmount, formatMoney } from '~/lib/money';

/**
 * What one paid key of a pack costs, for comparing packs ("$0.095"): a tenth of a cent shows
 * the difference between packs a whole cent would hide. Display only; nothing is charged by it.
 */
export function perKeyPrice(minor: number, keys: number, currency: string, locale: string): string {
  const format = new Intl.NumberFormat(locale, { style: 'currency', currency, minimumFractionDigits: 2, maximumFractionDigits: 3 });
  return format.format(minor / 100 / keys);
}

/** What the coupon field keeps of what is typed: upper case letters, digits, '-' and '_'. */
export function normalizeCoupon(raw: string): string {
  return raw.toUpperCase().replace(/[^A-Z0-9_-]/g, '').slice(0, COUPON_MAX_LENGTH);
}

export const COUPON_MIN_LENGTH = 3;
export const COUPON_MAX_LENGTH = 32;
/** The coupon field's native validity pattern (the `pattern` attribute). */
export const COUPON_PATTERN = `[A-Z0-9_\\-]{${COUPON_MIN_LENGTH},${COUPON_MAX_LENGTH}}`;
const COUPON_RE = new RegExp(`^${COUPON_PATTERN}$`);

export function isCouponCode(code: string): boolean {
  return COUPON_RE.test(code);
}

/**
 * The smallest total an order may have, in minor units: below it card fees eat the sale and a
 * Pix charge is pointless, so a coupon that would go lower is refused rather than clamped.
 */
export const MIN_TOTAL = 100;

export interface PackPrice {
  currency: string;
  price: number;
  keys: number;
  xtra_keys: number;
}

export interface CouponTerms {
  site_id: number;
  percent_off: number | null;
  amount_off: number | null;
  currency: string | null;
  xtra_keys: number;
  starts_at: number | null;
  ends_at: number | null;
  max_redemptions: number | null;
  per_reader_limit: number;
  redemptions: number;
  active: number | boolean;
}

export type CouponProblem = 'unknown' | 'not_started' | 'ended' | 'used_up' | 'reader_limit' | 'currency' | 'too_large';

export interface Quote {
  currency: string;
  subtotal: number;
  discount: number;
  total: number;
  keys: number;
  /** The pack's Xtra keys plus the coupon's. */
  xtraKeys: number;
  /** The coupon's own Xtra-key bonus (0 without a coupon). */
  couponXtraKeys: number;
}

/**
 * What an order for this pack costs with this coupon, or why the coupon cannot be used.
 * `readerUses`: orders of this reader holding the coupon now (pending or paid).
 */
export function quote(pack: PackPrice, coupon: CouponTerms | null, siteId: number, now: number, readerUses: number): { ok: true; quote: Quote } | { ok: false; problem: CouponProblem } {
  let discount = 0;
  let couponXtra = 0;
  if (coupon) {
    const problem = couponProblem(coupon, pack, siteId, now, readerUses);
    if (problem) return { ok: false, problem };
    discount = discountOf(pack.price, coupon);
    if (pack.price - discount < MIN_TOTAL) return { ok: false, problem: 'too_large' };
    couponXtra = coupon.xtra_keys;
  }
  return {
    ok: true,
    quote: { currency: pack.currency, subtotal: pack.price, discount, total: pack.price - discount, keys: pack.keys, xtraKeys: pack.xtra_keys + couponXtra, couponXtraKeys: couponXtra },
  };
}

function couponProblem(c: CouponTerms, pack: PackPrice, siteId: number, now: number, readerUses: number): CouponProblem | null {
  if (!c.active || c.site_id !== siteId) return 'unknown';
  if (c.starts_at != null && now < c.starts_at) return 'not_started';
  if (c.ends_at != null && now >= c.ends_at) return 'ended';
  if (c.amount_off != null && c.currency !== pack.currency) return 'currency';
  if (c.max_redemptions != null && c.redemptions >= c.max_redemptions) return 'used_up';
  if (readerUses >= c.per_reader_limit) return 'reader_limit';
  return null;
}

/** The discount in minor units: a percentage rounds half up to the cent; an amount is capped at the price. */
export function discountOf(price: number, c: Pick<CouponTerms, 'percent_off' | 'amount_off'>): number {
  if (c.percent_off != null) return Math.min(price, Math.floor((price * c.percent_off + 50) / 100));
  if (c.amount_off != null) return Math.min(price, c.amount_off);
  return 0;
}

/** Methods a site offers: Pix only where the currency is BRL. */
export type PaymentMethod = 'card' | 'paypal' | 'googlepay' | 'applepay' | 'pix';
export const PAYMENT_METHODS: readonly PaymentMethod[] = ['card', 'paypal', 'googlepay', 'applepay', 'pix'];

/**
 * The methods offered for a price in `currency`, of those whose provider is configured
 * (production offers a method only once its real provider is set; docs/operations.md).
 */
export function methodsFor(currency: string, offered: { card: boolean; pix: boolean } = { card: true, pix: true }): PaymentMethod[] {
  const all: PaymentMethod[] = currency === 'BRL' ? ['pix', 'card', 'paypal', 'googlepay', 'applepay'] : ['card', 'paypal', 'googlepay', 'applepay'];
  return all.filter((m) => (m === 'pix' ? offered.pix : offered.card));
}

export function parseMethod(raw: string | null | undefined): PaymentMethod | null {
  return PAYMENT_METHODS.includes(raw as PaymentMethod) ? (raw as PaymentMethod) : null;
}

/**
 * The method a checkout opens with: the one the reader's refused submission named, when still
 * offered; else Pix where the currency is reais (how Brazilians pay online) and card elsewhere.
 */
export function preselectedMethod(methods: readonly PaymentMethod[], currency: string, sent?: string | null): PaymentMethod | null {
  const kept = parseMethod(sent);
  if (kept && methods.includes(kept)) return kept;
  const usual: PaymentMethod = currency === 'BRL' ? 'pix' : 'card';
  return methods.includes(usual) ? usual : (methods[0] ?? null);
}
