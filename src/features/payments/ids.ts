/**
 * The boundary parser for ids a provider sends us: Pix correlationIDs, end-to-end and
 * transaction ids, Braintree transaction ids and vault tokens. Each is checked for shape where it
 * enters (a webhook body, an API answer, the SDK's result), so nothing a database cannot store or
 * compare reaches a query: a NUL, for one, makes PostgreSQL fail the query (a 500) where SQLite
 * answers. Browser-safe and pure; unit-tested in ids.test.ts. docs/payments.md.
 */

/** Longer than any id we make or a provider documents (ours 27, Pix end-to-end ids 32, UUIDs 36). */
export const PROVIDER_ID_MAX = 100;

/**
 * A letter or digit, then letters, digits, `-`, `_` and `.`: ours (`ord…`, `sub…`), Woovi's
 * (hex transaction ids, UUID correlationIDs), the Central Bank's end-to-end ids (`E…`, 32
 * letters and digits) and Braintree's (transaction ids, vault tokens of letters, digits, `-`
 * and `_`).
 */
const SHAPE = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** The id when it has the shape of one, else null (callers treat null as "no usable id"). */
export function providerId(value: unknown): string | null {
  return typeof value === 'string' && value.length <= PROVIDER_ID_MAX && SHAPE.test(value) ? value : null;
}
