/**
 * Finding a reader (docs/staff.md, "Support desk: readers"): one search term is tried as every
 * kind of key its shape allows (an exact email, a reader id, an order or charge public id, a
 * provider payment id, a coupon code); when none of those finds anyone, as the start of emails.
 */
import type { DB } from '~/server/db';
import { DESK_MATCHES_MAX, parseDeskQuery } from './rules';
import * as repo from './repository.server';

export type MatchKind = 'email' | 'id' | 'order' | 'charge' | 'payment' | 'coupon' | 'emailPrefix';

export interface ReaderMatch {
  id: number;
  email: string;
  name: string;
  createdAt: number;
  /** What in the term found this reader. */
  by: MatchKind[];
}

export type ReaderSearch =
  | { kind: 'empty' }
  | { kind: 'invalid'; reason: 'tooLong' | 'characters' }
  | { kind: 'results'; term: string; matches: ReaderMatch[] };

export async function findReaders(db: DB, raw: string | null): Promise<ReaderSearch> {
  const parsed = parseDeskQuery(raw);
  if (parsed.kind !== 'query') return parsed;
  const q = parsed.query;
  const found = new Map<number, ReaderMatch>();
  const add = (by: MatchKind, rows: repo.ReaderMatchRow[]) => {
    for (const r of rows) {
      const m = found.get(r.id) ?? { id: r.id, email: r.email, name: r.display_name, createdAt: r.created_at, by: [] };
      if (!m.by.includes(by)) m.by.push(by);
      found.set(r.id, m);
    }
  };
  const exact: Promise<void>[] = [];
  if (q.email) exact.push(repo.usersByEmail(db, q.email).then((r) => add('email', r)));
  if (q.readerId !== null) exact.push(repo.userById(db, q.readerId).then((r) => add('id', r ? [r] : [])));
  if (q.orderId) exact.push(repo.usersByOrder(db, q.orderId).then((r) => add('order', r)));
  if (q.chargeId) exact.push(repo.usersByCharge(db, q.chargeId).then((r) => add('charge', r)));
  if (q.paymentId) exact.push(repo.usersByPaymentId(db, q.paymentId, DESK_MATCHES_MAX).then((r) => add('payment', r)));
  if (q.couponCode) exact.push(repo.usersByCoupon(db, q.couponCode, DESK_MATCHES_MAX).then((r) => add('coupon', r)));
  await Promise.all(exact);
  if (found.size === 0 && q.emailPrefix) add('emailPrefix', await repo.usersByEmailPrefix(db, q.emailPrefix, DESK_MATCHES_MAX));
  return { kind: 'results', term: parsed.term, matches: [...found.values()].slice(0, DESK_MATCHES_MAX) };
}
