/**
 * What the pricing rule needs to know about one chapter, read from the catalogue: the chapter,
 * its series (state, strategy, free availability), the running campaigns, the released
 * lineup of its language and the countries it is blocked in. The wallet prices unlocks with it;
 * the reader's entitlements come from the caller.
 */
import type { ChapterRow, SeriesRow } from '@db/schema';
import type { DB } from '~/server/db';
import * as repo from './repository.server';
import { lineupOf, parseFreeAvailability, parseStrategy, priceChapter, type ChapterAccess, type Lineup, type PricedSeries, type ReaderEntitlements } from './pricing';
import { regionBlocks } from './rules';

export interface PricingContext {
  series: SeriesRow;
  chapter: ChapterRow;
  priced: PricedSeries;
  campaigns: Awaited<ReturnType<typeof repo.seriesCampaigns>>;
  lineup: Lineup;
  blockedCountries: string[];
}

/** The pricing context of a chapter by e4pid, or null when there is no such chapter. */
export async function pricingContext(db: DB, e4pid: string, now: number): Promise<PricingContext | null> {
  const chapter = await repo.findChapterByE4pid(db, e4pid);
  if (!chapter) return null;
  const series = await repo.findSeriesById(db, chapter.series_id);
  if (!series) return null;
  const [campaigns, publisher, siblings] = await Promise.all([
    repo.seriesCampaigns(db, series.id),
    repo.findPublisher(db, series.publisher_id),
    repo.chaptersOf(db, series.id, chapter.language),
  ]);
  return {
    series,
    chapter,
    priced: { state: series.state, all_free: series.all_free, strategy: parseStrategy(series.availability_strategy), freeAvailability: parseFreeAvailability(series.free_availability) },
    campaigns: campaigns.map((c) => ({ ...c, discount: Number(c.discount) })),
    lineup: lineupOf(siblings.map((c) => ({ number: Number(c.number), released_at: Number(c.released_at) })), now),
    blockedCountries: regionBlocks(series, publisher),
  };
}

/** The pricing rule's answer for this context, reader and moment. */
export function accessIn(ctx: PricingContext, reader: ReaderEntitlements | null, country: string | null, now: number): ChapterAccess {
  const c = ctx.chapter;
  return priceChapter({
    now,
    chapter: {
      number: Number(c.number), original_price: Number(c.original_price), released_at: Number(c.released_at), sale_at: Number(c.sale_at),
      expired_at: c.expired_at == null ? null : Number(c.expired_at), purchase_enabled: c.purchase_enabled, daily_pass_enabled: c.daily_pass_enabled,
      ads_enabled: c.ads_enabled, rental_enabled: c.rental_enabled, subscription_enabled: c.subscription_enabled,
    },
    series: ctx.priced,
    lineup: ctx.lineup,
    campaigns: ctx.campaigns,
    reader,
    regionBlocked: country !== null && ctx.blockedCountries.includes(country),
  });
}
