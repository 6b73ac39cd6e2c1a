/**
 * Input rules of the relay endpoints, pure; documented in docs/api.md ("Relay").
 *
 *   GET /relay/consumer/{publisher}/series/{ids}/updates?clientid={client}&after={unix}
 *   GET /relay/consumer/{publisher}/series/{ids}/futures?clientid={client}&before={deadline}
 *
 * Every failure is a status and a catalogue key; the route answers `{detail}` in the site's
 * language. 400: malformed input; 404: unknown publisher or none of the series exist here;
 * 422: well-formed but not acceptable (too many series, `after` in the future).
 */
import type { MessageKey } from '~/lib/i18n';
import { parseId } from '~/lib/params';

export const RELAY_PUBLISHER = 'inkpass';
export const RELAY_MAX_IDS = 60;
/** A series' items in one answer: the newest (updates) or soonest (futures) 50. */
export const RELAY_MAX_ITEMS = 50;
/** `before` is capped at three months (92 days) ahead: nothing is scheduled further. */
export const RELAY_FUTURE_CAP = 92 * 86_400;
export const RELAY_CACHE = 'public, max-age=60, s-maxage=300';

export interface RelayFailure {
  status: 400 | 404 | 422;
  key: MessageKey;
  values?: Record<string, string | number>;
}

export type Parsed<T> = { ok: true; value: T } | ({ ok: false } & RelayFailure);

const fail = (status: RelayFailure['status'], key: MessageKey, values?: RelayFailure['values']): { ok: false } & RelayFailure => ({ ok: false, status, key, values });

/** `inkpass` (the whole house catalogue) or a numeric publisher id. */
export function parsePublisher(raw: string | undefined): Parsed<{ kind: 'house' } | { kind: 'publisher'; id: number }> {
  const v = raw ?? '';
  if (v === RELAY_PUBLISHER) return { ok: true, value: { kind: 'house' } };
  if (/^[1-9]\d{0,8}$/.test(v)) return { ok: true, value: { kind: 'publisher', id: Number(v) } };
  return fail(404, 'relay.error.publisher');
}

/** A client identifier: 1-64 letters, digits, '.', '_' or '-'. Required. */
export function parseClientId(raw: string | null): Parsed<string> {
  if (raw == null || raw === '') return fail(400, 'relay.error.clientidMissing');
  if (!/^[A-Za-z0-9._-]{1,64}$/.test(raw)) return fail(400, 'relay.error.clientid');
  return { ok: true, value: raw };
}

/**
 * Comma-separated numeric series ids and/or `SER-` e4pids; duplicates count once. `order`: the
 * refs as asked (ids as decimal strings), which the answer follows (docs/api.md).
 */
export function parseSeriesRefs(raw: string | undefined): Parsed<{ ids: number[]; e4pids: string[]; order: string[] }> {
  const v = raw ?? '';
  if (v.length > 4096) return fail(400, 'relay.error.ids');
  const parts = v.split(',').map((s) => s.trim());
  if (parts.length === 0 || parts.some((p) => p === '')) return fail(400, 'relay.error.ids');
  const ids = new Set<number>();
  const e4pids = new Set<string>();
  const order = new Set<string>();
  for (const p of parts) {
    const id = parseId(p);
    if (id !== null) { ids.add(id); order.add(String(id)); }
    else if (/^SER-[A-Za-z0-9_-]{1,40}$/.test(p)) { e4pids.add(p); order.add(p); }
    else return fail(400, 'relay.error.ids');
  }
  if (ids.size + e4pids.size > RELAY_MAX_IDS) return fail(422, 'relay.error.tooMany', { max: RELAY_MAX_IDS });
  return { ok: true, value: { ids: [...ids], e4pids: [...e4pids], order: [...order] } };
}

const UNIX = /^\d{1,10}$/;

/** `after`: unix seconds, required, not in the future. Released after it up to now. */
export function parseAfter(raw: string | null, now: number): Parsed<number> {
  if (raw == null || raw === '') return fail(400, 'relay.error.afterMissing');
  if (!UNIX.test(raw)) return fail(400, 'relay.error.after');
  const after = Number(raw);
  if (after > now) return fail(422, 'relay.error.afterFuture');
  return { ok: true, value: after };
}

/** `before`: unix seconds, required; capped at now + 92 days. A deadline already past gives no items. */
export function parseBefore(raw: string | null, now: number): Parsed<number> {
  if (raw == null || raw === '') return fail(400, 'relay.error.beforeMissing');
  if (!UNIX.test(raw)) return fail(400, 'relay.error.before');
  return { ok: true, value: Math.min(Number(raw), now + RELAY_FUTURE_CAP) };
}

/**
 * The series in the order they were asked (docs/api.md: "in the order the series were asked");
 * a series asked twice (by id and by e4pid) takes its first place.
 */
export function inAskedOrder<S extends { id: number; e4pid: string }>(series: readonly S[], order: readonly string[]): S[] {
  const place = new Map(order.map((ref, i) => [ref, i]));
  const rank = (s: S) => Math.min(place.get(String(s.id)) ?? Infinity, place.get(s.e4pid) ?? Infinity);
  return [...series].sort((a, b) => rank(a) - rank(b));
}
