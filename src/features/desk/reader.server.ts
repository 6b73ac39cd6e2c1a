/**
 * One reader on the support desk (docs/staff.md, "Support desk: readers"): the account and its
 * live sessions, both balances and the ledger a page at a time (each entry as the reader's own
 * key history says it), unlocks and rentals with their expiry, orders with their events,
 * subscriptions with their events and charges, coupons used, payments recorded to refund and the
 * reader's refunds. Read only; the actions are actions.server.ts.
 */
import { liveSessionsOf, type LiveSession } from '~/features/accounts/index.server';
import { chapterLinks } from '~/features/catalog/index.server';
import { keysPage, type Balances, type KeysEntry } from '~/features/wallet/index.server';
import type { DB } from '~/server/db';
import type { T } from '~/lib/i18n';
import type { Locale } from '~/lib/site';
import { DESK_PAGE_SIZE, userAgentSummary } from './rules';
import * as repo from './repository.server';

const LIST_MAX = 100;

type Rows<F extends (...a: never[]) => unknown> = Awaited<ReturnType<F>>;
type ChapterLink = { name: string; series: string; path: string };

export interface EventLine {
  state: string;
  source: string;
  detail: string | null;
  at: number;
}

export interface DeskReader {
  account: { id: number; email: string; name: string; createdAt: number; lastSeenAt: number | null; sessions: (LiveSession & { browser: string | null })[] };
  balances: Balances;
  ledger: { entries: KeysEntry[]; page: number; pages: number };
  unlocks: { total: number; rows: (Rows<typeof repo.unlocksOf>[number] & { chapter: ChapterLink | null })[] };
  rentals: (Rows<typeof repo.rentalsOf>[number] & { chapter: ChapterLink | null })[];
  orders: { rows: (Rows<typeof repo.ordersOf>[number] & { events: EventLine[] })[]; page: number; pages: number; total: number };
  subscriptions: (Rows<typeof repo.subscriptionsOf>[number] & { events: EventLine[]; charges: Rows<typeof repo.chargesOf> })[];
  coupons: Rows<typeof repo.couponsUsedBy>;
  refundsDue: Rows<typeof repo.refundsDueOf>;
  refunds: Rows<typeof repo.refundsOf>;
}

const line = (e: { state: string; source: string; detail: string | null; created_at: number }): EventLine => ({ state: e.state, source: e.source, detail: e.detail, at: e.created_at });

/** The reader's page, or null when no account has this id. `ledgerPage` and `ordersPage` are clamped to what exists. */
export async function deskReader(db: DB, id: number, opts: { ledgerPage: number; ordersPage: number; now: number; t: T; locale: Locale }): Promise<DeskReader | null> {
  const user = await repo.userById(db, id);
  if (!user) return null;
  const [sessions, keys, unlocks, unlockTotal, rentals, orderTotal, subscriptions, coupons, refundsDue, refunds] = await Promise.all([
    liveSessionsOf(db, id, opts.now),
    keysPage(db, id, opts.ledgerPage, opts.t, opts.locale),
    repo.unlocksOf(db, id, LIST_MAX),
    repo.unlockCount(db, id),
    repo.rentalsOf(db, id, LIST_MAX),
    repo.orderCount(db, id),
    repo.subscriptionsOf(db, id),
    repo.couponsUsedBy(db, id),
    repo.refundsDueOf(db, id),
    repo.refundsOf(db, id),
  ]);
  const orderPages = Math.max(1, Math.ceil(orderTotal / DESK_PAGE_SIZE));
  const orderPage = Math.min(Math.max(1, opts.ordersPage), orderPages);
  const orders = await repo.ordersOf(db, id, DESK_PAGE_SIZE, (orderPage - 1) * DESK_PAGE_SIZE);
  const subIds = subscriptions.map((s) => s.id);
  const [orderEvents, subEvents, charges, chapters] = await Promise.all([
    repo.orderEventsOf(db, orders.map((o) => o.id)),
    repo.subscriptionEventsOf(db, subIds),
    repo.chargesOf(db, subIds),
    chapterLinks(db, [...new Set([...unlocks.map((u) => u.chapter_id), ...rentals.map((r) => r.chapter_id)])], opts.t, opts.locale),
  ]);
  return {
    account: {
      id: user.id, email: user.email, name: user.display_name, createdAt: user.created_at,
      lastSeenAt: sessions.length ? Math.max(...sessions.map((s) => s.lastSeenAt)) : null,
      sessions: sessions.map((s) => ({ ...s, browser: userAgentSummary(s.userAgent) })),
    },
    balances: keys.balances,
    ledger: { entries: keys.entries, page: keys.page, pages: keys.pages },
    unlocks: { total: unlockTotal, rows: unlocks.map((u) => ({ ...u, chapter: chapters.get(u.chapter_id) ?? null })) },
    rentals: rentals.map((r) => ({ ...r, chapter: chapters.get(r.chapter_id) ?? null })),
    orders: { rows: orders.map((o) => ({ ...o, events: orderEvents.filter((e) => e.order_id === o.id).map(line) })), page: orderPage, pages: orderPages, total: orderTotal },
    subscriptions: subscriptions.map((s) => ({ ...s, events: subEvents.filter((e) => e.subscription_id === s.id).map(line), charges: charges.filter((c) => c.subscription_id === s.id) })),
    coupons,
    refundsDue,
    refunds,
  };
}

/** The order a purchase's ledger entry was for (its reason is `order {public id}`). */
export function orderOfPurchase(entry: KeysEntry): string | null {
  const m = /^order (ord[0-9a-f]{24})$/.exec(entry.reason ?? '');
  return m ? m[1]! : null;
}
