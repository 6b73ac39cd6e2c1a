/**
 * The age confirmation for adult series (`series.adult`; docs/adult.md): one cookie, `adult=1`,
 * kept a year, set by the no-JavaScript form at ADULT_CONFIRM_PATH for anonymous and signed-in
 * readers alike (accounts hold no birth date). It is in PERSONAL_COOKIES (page-cache.mjs), so a
 * confirmed visitor's pages are private and never come from, or go into, the shared page cache.
 * Browser-safe.
 */
export const ADULT_COOKIE = 'adult';
export const ADULT_MAX_AGE = 365 * 24 * 3600;

/** True when the cookie's value says the visitor confirmed being 18 or older. */
export function adultConfirmed(value: string | undefined): boolean {
  return value === '1';
}

/** An adult series shows the gate instead of its chapters and pages until the visitor confirms. */
export function ageGated(series: { adult: number | boolean }, confirmed: boolean): boolean {
  return Number(series.adult) === 1 && !confirmed;
}
