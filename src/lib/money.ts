/**
 * Money as text, from integer minor units (cents, centavos), without floating point: the decimal
 * string a gateway wants and the localized amount a reader sees. Shared by every feature that
 * shows or sends money.
 */

/** Minor units as a plain decimal string ("4.99", "1000.00"), without floating point: what providers are sent. */
export function decimalAmount(minor: number, fractionDigits = 2): string {
  if (!Number.isSafeInteger(minor) || minor < 0) throw new Error(`not an amount in minor units: ${minor}`);
  if (fractionDigits === 0) return String(minor);
  const unit = 10 ** fractionDigits;
  return `${Math.floor(minor / unit)}.${String(minor % unit).padStart(fractionDigits, '0')}`;
}

/** Money for people: the site's locale and the order's currency ("$4.99", "R$ 19,90"). */
export function formatMoney(minor: number, currency: string, locale: string): string {
  const format = new Intl.NumberFormat(locale, { style: 'currency', currency });
  const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
  // Intl formats decimal strings exactly, so no float ever stands between the cents and the text.
  return format.format(decimalAmount(minor, digits) as unknown as number);
}

/**
 * A typed amount ("4.99", "4,99", "12", "0.5") as minor units, without floating point: whole
 * units and up to two decimals after one '.' or ',' (either, as English and
 * Brazilian keyboards type them), no signs, spaces inside, exponents or thousands separators;
 * at most 9 whole digits. NaN when the text is not such an amount (the caller's rule says why).
 */
export function parseAmount(text: string): number {
  const m = /^(\d{1,9})(?:[.,](\d{1,2}))?$/.exec(text.trim());
  if (!m) return NaN;
  return Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
}
