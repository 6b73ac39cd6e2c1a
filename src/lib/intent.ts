/**
 * What a reader was doing when the site sent them elsewhere (to log in, to buy keys), carried in
 * the return URL so they can finish it on their way back (docs/wallet.md, "From buying to
 * reading"; docs/favorites.md). Only two actions exist and both are finished by an explicit,
 * same-origin step, never by following a link: an unlock intent reopens the unlock dialog, which
 * still asks for the confirming tap; a favorite intent is finished by the login or sign-up form's
 * own POST (origin-checked, and the form says what it will do).
 */
import { safeNext } from './redirect';

/** `?intent=unlock:EPI-…` or `?intent=favorite:SER-…` on a return path. */
export const INTENT_PARAM = 'intent';
/** `?paid={order id}` on the path the checkout sends the reader back to: the receipt moment. */
export const PAID_PARAM = 'paid';

export type Intent = { kind: 'unlock'; e4pid: string } | { kind: 'favorite'; e4pid: string };

const PATTERNS = { unlock: /^EPI-[A-Za-z0-9_-]{1,64}$/, favorite: /^SER-[A-Za-z0-9]{1,32}$/ } as const;
/** An order's public id, as the checkout and the Pix poll take it. */
const ORDER_ID = /^[A-Za-z0-9_-]{1,64}$/;
const BASE = 'http://inkpass.invalid';

export function parseIntent(raw: string | null | undefined): Intent | null {
  if (!raw) return null;
  const at = raw.indexOf(':');
  const kind = raw.slice(0, at);
  const e4pid = raw.slice(at + 1);
  if (kind !== 'unlock' && kind !== 'favorite') return null;
  return PATTERNS[kind].test(e4pid) ? { kind, e4pid } : null;
}

export function formatIntent(intent: Intent): string {
  return `${intent.kind}:${intent.e4pid}`;
}

/** The intent a local path carries (null for none, a malformed one, or a path that is not local). */
export function intentOf(path: string | null | undefined): Intent | null {
  const url = parse(path);
  return url ? parseIntent(url.searchParams.get(INTENT_PARAM)) : null;
}

/** The order id a return path carries after a purchase (null when absent or malformed). */
export function paidOrderOf(params: URLSearchParams): string | null {
  const id = params.get(PAID_PARAM);
  return id && ORDER_ID.test(id) ? id : null;
}

/** `path` (a local path, query and fragment kept) with `name` set to `value`, or removed when null. */
export function withParam(path: string, name: string, value: string | null): string {
  const url = parse(path);
  if (!url) return path;
  if (value === null) url.searchParams.delete(name);
  else url.searchParams.set(name, value);
  return url.pathname + url.search + url.hash;
}

/** `path` with the intent set (a previous one replaced), or removed when `intent` is null. */
export function withIntent(path: string, intent: Intent | null): string {
  return withParam(path, INTENT_PARAM, intent ? formatIntent(intent) : null);
}

/** `path` with neither an intent nor a receipt: what a page keeps in its address once it acted on them. */
export function withoutReturnParams(path: string): string {
  return withParam(withParam(path, INTENT_PARAM, null), PAID_PARAM, null);
}

/** A path on this site as `safeNext` would follow it, as a URL to edit; null for anything else. */
function parse(path: string | null | undefined): URL | null {
  const safe = safeNext(path, '');
  return safe ? new URL(safe, BASE) : null;
}
