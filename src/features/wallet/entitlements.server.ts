/**
 * What a signed-in reader holds in a series, in the shape the catalogue's pricing rule takes:
 * owned chapters, rentals (expired ones too: a chapter read free once may be keys-only after),
 * balances, the daily pass's last use and the ads watched this period. Loaded once per series
 * page, per reader page and per unlock.
 */
import { adsPeriod, type ReaderEntitlements, type Rental } from '~/features/catalog';
import { chapterLinks } from '~/features/catalog/index.server';
import { subscriptionAccess } from '~/features/subscriptions/index.server';
import type { T } from '~/lib/i18n';
import type { Locale } from '~/lib/site';
import type { DB } from '~/server/db';
import type { Balances } from './ledger.server';
import * as repo from './repository.server';

const RENTAL_KIND = { daily_pass: 'daily_pass', ad: 'ad', plan: 'rental' } as const satisfies Record<repo.RentalRow['kind'], Rental['kind']>;

/** A reader's rows in one series (SeriesHoldings), with the subscription optional. */
type HeldRows = Omit<SeriesHoldings, 'subscription'> & {
  /** What the reader's subscription gives in this series (subscriptionIn); absent or null: none. */
  subscription?: SeriesHoldings['subscription'];
};

/** The entitlements of one chapter, from the reader's rows in its series. */
export function entitlementsFromRows(input: HeldRows & { chapterId: number; now: number }): ReaderEntitlements {
  return seriesEntitlements(input, input.now)(input.chapterId);
}

/**
 * The same for every chapter of a series: what does not depend on the chapter (the daily pass's
 * last use, the ads watched this period, balances, subscription) is worked out once, and each
 * chapter adds only whether it is owned and its own rentals. A series page prices every row.
 */
function seriesEntitlements(input: HeldRows, now: number): (chapterId: number) => ReaderEntitlements {
  const { rentals } = input;
  const period = adsPeriod(now);
  let dailyPassUsedAt: number | null = null;
  let adsWatched = 0;
  const byChapter = new Map<number, Rental[]>();
  for (const r of rentals) {
    if (r.kind === 'daily_pass' && (dailyPassUsedAt === null || r.created_at > dailyPassUsedAt)) dailyPassUsedAt = r.created_at;
    if (r.kind === 'ad' && r.created_at >= period.start && r.created_at < period.end) adsWatched++;
    const list = byChapter.get(r.chapter_id) ?? [];
    list.push({ kind: RENTAL_KIND[r.kind], created_at: r.created_at, expires_at: r.expires_at });
    byChapter.set(r.chapter_id, list);
  }
  const none: readonly Rental[] = [];
  const subscription = input.subscription ?? null;
  return (chapterId) => ({ owned: input.owned.has(chapterId), rentals: byChapter.get(chapterId) ?? none, balances: input.balances, dailyPassUsedAt, adsWatched, subscription });
}

/**
 * What the reader's subscription gives in a series now, in the pricing rule's shape: whether the
 * series is in a live subscription's slots, and the plan's rentals (capacity, used this plan
 * month, when the month ends, how long a rental lasts). Null without a live subscription.
 */
export async function subscriptionIn(db: DB, userId: number, seriesId: number, now: number): Promise<ReaderEntitlements['subscription']> {
  const access = await subscriptionAccess(db, userId, seriesId, now);
  if (!access) return null;
  if (!access.plan) return { series: access.series, plan: null };
  const { month, rentCapacity, rentTtl } = access.plan;
  const rented = await repo.planRentalsBetween(db, userId, month.start, month.end);
  return { series: access.series, plan: { rentCapacity, rented, resetsAt: month.end, rentTtl } };
}

/** A plan rental as /my/subscriptions/ lists it: the chapter (named in the site's language) and when reading it ends. */
export interface PlanRentalEntry {
  chapter: string;
  series: string;
  path: string;
  expiresAt: number;
}

/** The plan month's rentals, oldest first, each with its chapter's name and link (a chapter gone from the catalogue is left out). */
export async function planRentalsOfMonth(db: DB, input: { userId: number; month: { start: number; end: number }; t: T; locale: Locale }): Promise<{ used: number; rentals: PlanRentalEntry[] }> {
  const rows = await repo.planRentalsListBetween(db, input.userId, input.month.start, input.month.end);
  const links = await chapterLinks(db, [...new Set(rows.map((r) => r.chapter_id))], input.t, input.locale);
  const rentals = rows.flatMap((r) => {
    const l = links.get(r.chapter_id);
    return l ? [{ chapter: l.name, series: l.series, path: l.path, expiresAt: r.expires_at }] : [];
  });
  return { used: rows.length, rentals };
}

/** A reader's holdings in one series, for pricing many of its chapters (a series page, an episodes list). */
export interface SeriesHoldings {
  owned: ReadonlySet<number>;
  rentals: readonly repo.RentalRow[];
  balances: Balances;
  subscription: ReaderEntitlements['subscription'];
}

/** `known`: balances the caller already read this request (the session step has them), saving a query. */
export async function holdingsInSeries(db: DB, userId: number, seriesId: number, now: number, known?: Balances): Promise<SeriesHoldings> {
  const [owned, rentals, accounts, subscription] = await Promise.all([
    repo.ownedInSeries(db, userId, seriesId),
    repo.rentalsInSeries(db, userId, seriesId),
    known ? Promise.resolve(null) : repo.userBalances(db, userId),
    subscriptionIn(db, userId, seriesId, now),
  ]);
  const balances = known ?? { keys: accounts?.find((a) => a.currency === 'keys')?.balance ?? 0, xtra: accounts?.find((a) => a.currency === 'xtra')?.balance ?? 0 };
  return { owned, rentals, balances, subscription };
}

/**
 * The pricing rule's reader for every chapter of one series, loaded once (the series page's
 * `entitlementsOf`).
 */
export async function entitlementsInSeries(db: DB, userId: number, seriesId: number, now: number, known?: Balances): Promise<(chapterId: number) => ReaderEntitlements> {
  return seriesEntitlements(await holdingsInSeries(db, userId, seriesId, now, known), now);
}
