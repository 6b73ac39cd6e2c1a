/**
 * What the pricing rule needs to know about one chapter, read from the catalogue: the chapter,
 * its series (state, strategy, free availability), the running campaigns, the released
 * lineup of its language and the countries it is blocked in. The wallet prices unlocks with it;
 * the reader's entitlements come from the caller.
 */
import type { ChapterRow, SeriesRow } from '@db/schema';
import type { DB } from '~/server/db';
import * as repo from './repository.server';
import { lineupOf, parseFreeAvailability, parseStrategy, priceChapter, type Campaign, type ChapterAccess, type Lineup, type PricedChapter, type PricedSeries, type ReaderEntitlements } from './pricing';
import { regionBlocks } from './rules';
import { createCache } from '~/server/cache';

export interface PricingContext {
  series: SeriesRow;
  chapter: ChapterRow;
  priced: PricedSeries;
  campaigns: Campaign[];
  lineup: Lineup;
  blockedCountries: string[];
}

/** The pricing context of a chapter by e4pid, or null when there is no such chapter. */
export async function pricingContext(db: DB, e4pid: string, now: number): Promise<PricingContext | null> {
  const chapter = await repo.findChapterByE4pid(db, e4pid);
  if (!chapter) return null;
  const series = await repo.findSeriesById(db, chapter.series_id);
  if (!series) return null;
  return pricingContextOf(db, series, chapter, now);
}

/** The pricing context of a chapter whose rows the caller already holds. */
export async function pricingContextOf(db: DB, series: SeriesRow, chapter: ChapterRow, now: number): Promise<PricingContext> {
  const [campaigns, publisher, lineup] = await Promise.all([
    repo.seriesCampaigns(db, series.id),
    repo.findPublisher(db, series.publisher_id),
    repo.releaseTimesOf(db, series.id, chapter.language),
  ]);
  return {
    series,
    chapter,
    priced: pricedSeriesOf(series),
    campaigns: campaignsOf(campaigns),
    lineup: lineupOf(lineup.map((c) => ({ number: Number(c.number), released_at: Number(c.released_at) })), now),
    blockedCountries: regionBlocks(series, publisher),
  };
}

/**
 * The same, shared by every request of this process for a few seconds: the page image route
 * asks for every page of a chapter, and catalogue facts are the same for everyone. A price or
 * campaign change reaches it within PRICING_CONTEXT_TTL_MS.
 */
export const PRICING_CONTEXT_TTL_MS = 10_000;
const contexts = createCache<PricingContext | null>({ ttlMs: PRICING_CONTEXT_TTL_MS, maxEntries: 2000 });
export function sharedPricingContext(db: DB, e4pid: string, now: number): Promise<PricingContext | null> {
  return contexts.get(e4pid, () => pricingContext(db, e4pid, now));
}

/** Prices chapters of one series for an anonymous reader: what lists of many series show. */
export type AnonymousPricer = (seriesId: number, chapter: PricedChapterRow) => ChapterAccess | null;

/**
 * The pricing rule for chapters of several series in one language, read in three queries
 * (series, campaigns, lineups), for lists that show prices of many series (the relay). Answers
 * null for a series it was not given.
 */
export async function anonymousPricer(db: DB, seriesIds: readonly number[], language: string, now: number): Promise<AnonymousPricer> {
  const price = await seriesPricer(db, seriesIds, language, now);
  return (seriesId, chapter) => price(seriesId, chapter, null);
}

/** A subscriber of the series with nothing else: what "a subscriber pays" means in the studio's previews. */
const SUBSCRIBER: ReaderEntitlements = { owned: false, rentals: [], balances: { keys: 0, xtra: 0 }, dailyPassUsedAt: null, adsWatched: 0, subscription: { series: true, plan: null } };

export type PreviewPricer = (chapter: PricedChapterRow, who: 'anonymous' | 'subscriber') => ChapterAccess | null;

/**
 * The pricing rule for one series' chapters at `at`, for an anonymous reader or a subscriber of
 * the series, with the series' stored campaigns or, for a preview, `campaigns` in their place
 * (a campaign being edited, not saved). The studio's previews use it; nothing is copied from
 * the rule.
 */
export async function previewPricer(db: DB, seriesId: number, language: string, at: number, campaigns?: readonly Campaign[]): Promise<PreviewPricer> {
  const price = await seriesPricer(db, [seriesId], language, at, campaigns);
  return (chapter, who) => price(seriesId, chapter, who === 'subscriber' ? SUBSCRIBER : null);
}

async function seriesPricer(db: DB, seriesIds: readonly number[], language: string, now: number, campaignsInstead?: readonly Campaign[]) {
  const [series, campaigns, released] = await Promise.all([
    repo.pricingSeriesRows(db, seriesIds),
    campaignsInstead ? Promise.resolve([]) : repo.campaignsOfMany(db, seriesIds),
    repo.releasedNumbersOf(db, seriesIds, language, now),
  ]);
  const numbers = new Map<number, { number: number; released_at: number }[]>();
  for (const r of released) {
    const id = Number(r.series_id);
    let list = numbers.get(id);
    if (!list) numbers.set(id, (list = []));
    list.push({ number: Number(r.number), released_at: Number(r.released_at) });
  }
  const bySeries = new Map<number, { series: PricedSeries; campaigns: Campaign[]; lineup: Lineup }>();
  for (const s of series) {
    const id = Number(s.id);
    bySeries.set(id, { series: pricedSeriesOf(s), campaigns: campaignsInstead ? [...campaignsInstead] : campaignsOf(campaigns.filter((c) => Number(c.series_id) === id)), lineup: lineupOf(numbers.get(id) ?? [], now) });
  }
  return (seriesId: number, chapter: PricedChapterRow, reader: ReaderEntitlements | null) => {
    const p = bySeries.get(seriesId);
    if (!p) return null;
    return priceChapter({ now, chapter: pricedChapterOf(chapter), series: p.series, lineup: p.lineup, campaigns: p.campaigns, reader, regionBlocked: false });
  };
}

/** A series row as the pricing rule reads it. */
export function pricedSeriesOf(series: Pick<SeriesRow, 'state' | 'all_free' | 'availability_strategy' | 'free_availability'>): PricedSeries {
  return { state: series.state, all_free: series.all_free, strategy: parseStrategy(series.availability_strategy), freeAvailability: parseFreeAvailability(series.free_availability) };
}

/** Campaign rows as the pricing rule reads them (PostgreSQL hands numerics over as strings). */
export function campaignsOf(rows: readonly (Omit<Campaign, 'discount'> & { discount: number | string })[]): Campaign[] {
  return rows.map((c) => ({ ...c, discount: Number(c.discount) }));
}

/** The chapter columns the pricing rule reads (a chapter list selects exactly these). */
export type PricedChapterRow = Pick<ChapterRow, 'number' | 'original_price' | 'released_at' | 'sale_at' | 'expired_at' | 'purchase_enabled' | 'daily_pass_enabled' | 'ads_enabled' | 'rental_enabled' | 'subscription_enabled'>;

/** A chapter row as the pricing rule reads it. */
export function pricedChapterOf(c: PricedChapterRow): PricedChapter {
  return {
    number: Number(c.number), original_price: Number(c.original_price), released_at: Number(c.released_at), sale_at: Number(c.sale_at),
    expired_at: c.expired_at == null ? null : Number(c.expired_at), purchase_enabled: c.purchase_enabled, daily_pass_enabled: c.daily_pass_enabled,
    ads_enabled: c.ads_enabled, rental_enabled: c.rental_enabled, subscription_enabled: c.subscription_enabled,
  };
}

/** The pricing rule's answer for this context, reader and moment. */
export function accessIn(ctx: PricingContext, reader: ReaderEntitlements | null, country: string | null, now: number): ChapterAccess {
  return priceChapter({
    now,
    chapter: pricedChapterOf(ctx.chapter),
    series: ctx.priced,
    lineup: ctx.lineup,
    campaigns: ctx.campaigns,
    reader,
    regionBlocked: country !== null && ctx.blockedCountries.includes(country),
  });
}
