/**
 * Search text normalisation, shared by the index (documents) and the queries, so both sides
 * agree: lower case, accents removed (NFD, combining marks dropped), anything that is not a
 * letter or a digit becomes a space, whitespace collapsed. Pure; no I/O.
 *
 * Query terms only ever contain letters and digits, so they are safe to put inside an FTS5
 * string (`"term"*`) or a PostgreSQL tsquery (`term:*`): no quote, operator or column syntax
 * can survive normalisation.
 */

/** Queries are cut to this many characters (code points) before normalising. */
export const MAX_QUERY_LENGTH = 100;
/** At most this many distinct terms are searched for. */
export const MAX_TERMS = 8;
/** A normalised query shorter than this is treated as empty. */
export const MIN_QUERY_LENGTH = 2;

/** "Coração  de-Aço!" -> "coracao de aco". */
export function normalizeText(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .normalize('NFC')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

export interface NormalizedQuery {
  /** The normalised query text ('' when too short): its distinct terms joined by one space. */
  text: string;
  /** Distinct terms in order of first appearance, at most MAX_TERMS. */
  terms: string[];
}

/** Cuts raw user input to MAX_QUERY_LENGTH code points (never splitting a surrogate pair). */
export function truncateQuery(raw: string | null | undefined): string {
  const text = typeof raw === 'string' ? raw : '';
  if (text.length <= MAX_QUERY_LENGTH) return text;
  return Array.from(text).slice(0, MAX_QUERY_LENGTH).join('');
}

/** Normalises a user query into search terms; shorter than MIN_QUERY_LENGTH gives no terms. */
export function normalizeQuery(raw: string | null | undefined): NormalizedQuery {
  const norm = normalizeText(truncateQuery(raw));
  const terms = [...new Set(norm.split(' ').filter(Boolean))].slice(0, MAX_TERMS);
  const text = terms.join(' ');
  if (Array.from(text).length < MIN_QUERY_LENGTH) return { text: '', terms: [] };
  return { text, terms };
}

/** The search document for a series: every given text normalised, joined by one space. */
export function searchDocument(parts: readonly (string | null | undefined)[]): string {
  return parts
    .map((p) => normalizeText(p ?? ''))
    .filter(Boolean)
    .join(' ');
}
