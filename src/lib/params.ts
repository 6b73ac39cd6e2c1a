/**
 * Parsers for values that arrive in URLs and forms and go to the database. One set for every
 * route, so both dialects see only values they can store: PostgreSQL's `integer` ids stop at
 * 2^31 − 1 and its text refuses NUL, where SQLite would quietly accept both, and the same bad
 * request must get the same 4xx on either.
 */

/** The largest id a table's `integer` key holds on PostgreSQL. */
export const MAX_ID = 2_147_483_647;

/** A row id: decimal digits without a sign or leading zero, 1..MAX_ID; anything else is null. */
export function parseId(raw: string | null | undefined): number | null {
  if (raw == null || !/^[1-9]\d{0,9}$/.test(raw)) return null;
  const n = Number(raw);
  return n <= MAX_ID ? n : null;
}

/** A series reference in a URL or form: a numeric id or an e4pid (`SER-…`). */
export type SeriesRef = { id: number } | { e4pid: string };

export function parseSeriesRef(raw: string | null | undefined): SeriesRef | null {
  if (raw == null) return null;
  const id = parseId(raw);
  if (id !== null) return { id };
  return /^SER-[a-z0-9]{1,32}$/i.test(raw) ? { e4pid: raw } : null;
}

/** Unix seconds as a query value: up to 12 digits (any date until the year 33,658); null when malformed. */
export function parseUnixTime(raw: string | null | undefined): number | null {
  return raw != null && /^\d{1,12}$/.test(raw) ? Number(raw) : null;
}
