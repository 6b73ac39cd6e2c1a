/**
 * The support desk's pure rules (docs/staff.md, "Support desk: readers"): what a search term may
 * be, and what a grant form must hold. Every id is checked for its shape here, before any of it
 * reaches SQL.
 */

/** The longest search term taken (an email's limit); longer is refused, not cut. */
export const DESK_QUERY_MAX = 254;
/** A reader page's lists: ledger and orders, a page at a time. */
export const DESK_PAGE_SIZE = 25;
/** At most this many readers listed for a search. */
export const DESK_MATCHES_MAX = 20;
export const GRANT_MAX = 10_000;
export const GRANT_REASON_MIN = 3;
export const GRANT_REASON_MAX = 200;

const MAX_ID = 2_147_483_647;
// Control characters (C0, DEL, C1) and the line and paragraph separators.
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/** What a search term can be; each kind is looked up only when the term has its shape. */
export interface DeskQuery {
  /** The term lower-cased: an exact email, and the prefix of emails when nothing exact matches. */
  email: string | null;
  emailPrefix: string | null;
  readerId: number | null;
  /** `ord` + 24 hex digits: an order's public id (and its Pix correlationID). */
  orderId: string | null;
  /** `sub` + 24 hex digits: a subscription charge's public id (and its Pix correlationID). */
  chargeId: string | null;
  /** A provider's payment id (Braintree transaction, Pix end-to-end id, sandbox `sbx_…`). */
  paymentId: string | null;
  /** A coupon code, upper-cased as coupons are stored. */
  couponCode: string | null;
}

export type ParsedQuery = { kind: 'empty' } | { kind: 'invalid'; reason: 'tooLong' | 'characters' } | { kind: 'query'; term: string; query: DeskQuery };

export function parseDeskQuery(raw: string | null | undefined): ParsedQuery {
  const term = (raw ?? '').trim();
  if (term === '') return { kind: 'empty' };
  if (term.length > DESK_QUERY_MAX) return { kind: 'invalid', reason: 'tooLong' };
  if (CONTROL.test(term) || term.includes('\uFFFD')) return { kind: 'invalid', reason: 'characters' };
  const lower = term.toLowerCase();
  const oneWord = !/\s/.test(term);
  const digits = /^\d{1,10}$/.test(term) && Number(term) >= 1 && Number(term) <= MAX_ID;
  return {
    kind: 'query',
    term,
    query: {
      email: oneWord && lower.includes('@') ? lower : null,
      emailPrefix: oneWord && lower.length >= 2 ? lower : null,
      readerId: digits ? Number(term) : null,
      orderId: /^ord[0-9a-f]{24}$/.test(lower) ? lower : null,
      chargeId: /^sub[0-9a-f]{24}$/.test(lower) ? lower : null,
      paymentId: /^[A-Za-z0-9][A-Za-z0-9_.:-]{3,127}$/.test(term) ? term : null,
      couponCode: /^[A-Za-z0-9][A-Za-z0-9_-]{1,39}$/.test(term) ? term.toUpperCase() : null,
    },
  };
}

export interface GrantInput {
  keys: number;
  xtra: number;
  reason: string;
  requestKey: string;
}

export type GrantField = 'keys' | 'xtra' | 'reason' | 'request';
export type GrantError = 'amount' | 'none' | 'reasonShort' | 'reasonLong' | 'reasonCharacters' | 'request';

/** A whole number of keys from 0 to GRANT_MAX (empty: 0); null when not. */
function amount(raw: string): number | null {
  const text = raw.trim();
  if (text === '') return 0;
  if (!/^\d{1,5}$/.test(text)) return null;
  const n = Number(text);
  return n <= GRANT_MAX ? n : null;
}

/** The grant form's fields checked: amounts, the reason, the one-time request key. */
export function parseGrant(form: { keys: string; xtra: string; reason: string; request: string }): { ok: true; value: GrantInput } | { ok: false; errors: Partial<Record<GrantField, GrantError>> } {
  const errors: Partial<Record<GrantField, GrantError>> = {};
  const keys = amount(form.keys);
  const xtra = amount(form.xtra);
  if (keys === null) errors.keys = 'amount';
  if (xtra === null) errors.xtra = 'amount';
  if (keys === 0 && xtra === 0) errors.keys = 'none';
  const reason = form.reason.trim().replace(/\s+/g, ' ');
  if (CONTROL.test(form.reason.replace(/[\r\n\t]/g, ' '))) errors.reason = 'reasonCharacters';
  else if ([...reason].length < GRANT_REASON_MIN) errors.reason = 'reasonShort';
  else if ([...reason].length > GRANT_REASON_MAX) errors.reason = 'reasonLong';
  if (!/^[A-Za-z0-9_-]{16,64}$/.test(form.request)) errors.request = 'request';
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, value: { keys: keys!, xtra: xtra!, reason, requestKey: form.request } };
}

/** The ledger's idempotency key of a grant from the desk: one per member of staff and form shown. */
export function grantLedgerKey(actorId: number, requestKey: string): string {
  return `grant:${actorId}:${requestKey}`;
}

// The summary moved to the accounts feature, which shows it to the reader on /my/account/ too.
export { userAgentSummary } from '~/features/accounts';
