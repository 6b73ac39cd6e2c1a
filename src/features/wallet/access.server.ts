/**
 * What a reader (or an anonymous visitor) may do with one chapter right now: the catalogue's
 * pricing rule applied to the reader's holdings. The reader page and its page images ask here;
 * neither repeats a piece of the rule.
 */
import { accessIn, pricingContextOf, sharedPricingContext, type PricingContext } from '~/features/catalog/index.server';
import { seriesAccess, type ChapterAccess, type ReaderEntitlements } from '~/features/catalog';
import type { ChapterRow, SeriesRow } from '@db/schema';
import type { DB } from '~/server/db';
import type { Balances } from './ledger.server';
import { entitlementsFromRows, holdingsInSeries, subscriptionIn } from './entitlements.server';
import * as repo from './repository.server';

export interface ChapterAccessFor {
  context: PricingContext;
  access: ChapterAccess;
  /** The reader's balances (zero for anonymous visitors): the unlock dialog shows them. */
  balances: Balances;
  /** When a plan rental is open for the chapter: the plan's rentals left this month (the rent offer shows it); else null. */
  rentLeft: number | null;
}

/** The pricing rule's full answer for a chapter whose rows the caller holds (the reader page). */
export async function chapterAccessFor(db: DB, input: { series: SeriesRow; chapter: ChapterRow; userId: number | null; country: string | null; now: number }): Promise<ChapterAccessFor> {
  const { series, chapter, userId, country, now } = input;
  const [context, holdings] = await Promise.all([
    pricingContextOf(db, series, chapter, now),
    userId ? holdingsInSeries(db, userId, Number(series.id), now) : Promise.resolve(null),
  ]);
  const reader: ReaderEntitlements | null = holdings ? entitlementsFromRows({ chapterId: Number(chapter.id), ...holdings, now }) : null;
  const access = accessIn(context, reader, country, now);
  const plan = access.unlockMethods.rent.open ? seriesAccess(context.priced, reader, now).plan : null;
  return { context, access, balances: holdings?.balances ?? { keys: 0, xtra: 0 }, rentLeft: plan ? Math.max(0, plan.rentCapacity - plan.rented) : null };
}

/**
 * Whether a visitor may read a chapter now, for each page image request: catalogue facts from
 * the shared context, the reader's ownership and rentals of this chapter only (readability does
 * not depend on balances or passes). Null when there is no such chapter.
 */
export async function mayReadChapter(db: DB, input: { e4pid: string; userId: number | null; country: string | null; now: number }): Promise<boolean | null> {
  const { e4pid, userId, country, now } = input;
  const context = await sharedPricingContext(db, e4pid, now);
  if (!context) return null;
  let reader: ReaderEntitlements | null = null;
  if (userId) {
    const chapterId = Number(context.chapter.id);
    const [owned, rentals, subscription] = await Promise.all([
      repo.findUnlock(db, userId, chapterId), repo.rentalsOfChapter(db, userId, chapterId),
      // A subscription only matters for chapters it can open.
      context.chapter.subscription_enabled ? subscriptionIn(db, userId, Number(context.series.id), now) : Promise.resolve(null),
    ]);
    reader = entitlementsFromRows({ chapterId, owned: new Set(owned ? [chapterId] : []), rentals, balances: { keys: 0, xtra: 0 }, subscription, now });
  }
  return accessIn(context, reader, country, now).readable;
}
