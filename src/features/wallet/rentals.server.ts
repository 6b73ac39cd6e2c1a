/**
 * The free ways in: the daily pass and ad rentals. Both move no keys; each grant is one write
 * transaction that applies the catalogue's pricing rule to the locked reader (whether the pass
 * or an ad is open for this chapter now, and for how long) and writes a ledger transaction with
 * no entries (its idempotency key is the guarantee) and the rental pointing at it. docs/wallet.md.
 */
import { accessIn, chapterE4pid, pricingContext, type PricingContext } from '~/features/catalog/index.server';
import type { ClosedReason, ReaderEntitlements } from '~/features/catalog';
import { writeTransaction, type DB, type WriteTx } from '~/server/db';
import type { T } from '~/lib/i18n';
import { relativeTime } from '~/lib/dates';
import type { Locale } from '~/lib/site';
import { balancesOf, lockReader, post, type Balances } from './ledger.server';
import { entitlementsFromRows, subscriptionIn } from './entitlements.server';
import * as repo from './repository.server';
import { houseAds } from './ads/house.server';
import type { AdCreative, AdProvider } from './ads/provider';
import { countUnlock } from '~/server/observe.mjs';

/** Where ads come from: house ads today (ads/provider.ts says how to plug in a network). */
const ads: AdProvider = houseAds;

export type RentalResult =
  | { kind: 'rented'; e4pid: string; createdAt: number; expiresAt: number; rechargesAt?: number }
  | { kind: 'notFound' }
  | { kind: 'region' }
  | { kind: 'closed'; reason: ClosedReason; until?: number };

interface Input { userId: number; e4pid: string; now: number; country: string | null }

/** What the reader holds for this chapter (ownership, rentals in the series, subscription), in the pricing rule's shape. */
async function readerIn(db: DB, ctx: PricingContext, userId: number, balances: Balances, now: number): Promise<ReaderEntitlements> {
  const chapterId = Number(ctx.chapter.id);
  const seriesId = Number(ctx.series.id);
  const [owned, rentals, subscription] = await Promise.all([
    repo.findUnlock(db, userId, chapterId), repo.rentalsInSeries(db, userId, seriesId), subscriptionIn(db, userId, seriesId, now),
  ]);
  return entitlementsFromRows({ chapterId, owned: new Set(owned ? [chapterId] : []), rentals, balances, subscription, now });
}

/** The pricing rule's verdict on one way in, for the reader, inside their locked transaction (and what it was computed from). */
async function methodIn(trx: WriteTx, ctx: PricingContext, userId: number, now: number, country: string | null) {
  const reader = await readerIn(trx, ctx, userId, await lockReader(trx, userId), now);
  return { access: accessIn(ctx, reader, country, now), reader };
}

const regionBlocked = (ctx: PricingContext, country: string | null) => country !== null && ctx.blockedCountries.includes(country);

/** The chapter's pricing context, or why there is none for this visitor (unknown id, region). */
async function chapterFor(db: DB, e4pid: string, now: number, country: string | null): Promise<PricingContext | { kind: 'notFound' } | { kind: 'region' }> {
  if (!/^EPI-[A-Za-z0-9_-]{1,64}$/.test(e4pid)) return { kind: 'notFound' };
  const ctx = await pricingContext(db, e4pid, now);
  if (!ctx) return { kind: 'notFound' };
  return regionBlocked(ctx, country) ? { kind: 'region' } : ctx;
}

/**
 * Uses the series' daily pass on a chapter. The idempotency key names the reader, the series and
 * the pass's previous use: concurrent requests (any chapters, any process) all see the same
 * previous use, so at most one of them writes; the others find the pass recharging.
 */
export async function useDailyPass(db: DB, input: Input): Promise<RentalResult> {
  const { userId, e4pid, now, country } = input;
  const ctx = await chapterFor(db, e4pid, now, country);
  if ('kind' in ctx) return ctx;
  const seriesId = Number(ctx.series.id);
  const chapterId = Number(ctx.chapter.id);
  return writeTransaction(db, async (trx): Promise<RentalResult> => {
    const { access } = await methodIn(trx, ctx, userId, now, country);
    const pass = access.unlockMethods.dailyPass;
    if (!pass.open) return { kind: 'closed', reason: pass.reason, ...(pass.until ? { until: pass.until } : {}) };
    const previous = (await repo.rentalsInSeries(trx, userId, seriesId)).find((r) => r.kind === 'daily_pass')?.created_at ?? 0;
    const expiresAt = pass.expiresAt ?? now;
    const { id, created } = await post(trx, { key: `daily_pass:${userId}:${seriesId}:${previous}`, kind: 'daily_pass', userId, chapterId, now, postings: [] });
    if (!created) return { kind: 'closed', reason: 'recharging' };
    await repo.insertRental(trx, { user_id: userId, chapter_id: chapterId, series_id: seriesId, kind: 'daily_pass', transaction_id: id, created_at: now, expires_at: expiresAt });
    return { kind: 'rented', e4pid, createdAt: now, expiresAt, rechargesAt: now + ctx.priced.freeAvailability.daily_pass_recharge };
  }).then((r) => counted('daily_pass', r));
}

/**
 * Rents a chapter with the reader's plan (a subscription benefit): `rent_capacity` chapters per
 * plan month, each readable for the plan's rental time. Under the reader's lock the month's
 * rentals are counted again, and the ledger key names the month and the rental's number in it,
 * so concurrent requests never take more than the capacity.
 */
export async function rentWithPlan(db: DB, input: Input): Promise<RentalResult> {
  const { userId, e4pid, now, country } = input;
  const ctx = await chapterFor(db, e4pid, now, country);
  if ('kind' in ctx) return ctx;
  const seriesId = Number(ctx.series.id);
  const chapterId = Number(ctx.chapter.id);
  return writeTransaction(db, async (trx): Promise<RentalResult> => {
    const { access, reader } = await methodIn(trx, ctx, userId, now, country);
    const rent = access.unlockMethods.rent;
    if (!rent.open) return { kind: 'closed', reason: rent.reason, ...(rent.until ? { until: rent.until } : {}) };
    // The plan as the rule just read it, under the same lock: no second read of the subscription.
    const plan = reader.subscription?.plan;
    if (!plan) return { kind: 'closed', reason: 'no_plan' };
    // The plan month (named by its end) and this rental's number in it: one write per number.
    const { id, created } = await post(trx, { key: `plan_rental:${userId}:${plan.resetsAt}:${plan.rented}`, kind: 'plan_rental', userId, chapterId, now, postings: [] });
    if (!created) return { kind: 'closed', reason: 'limit_reached', until: plan.resetsAt };
    const expiresAt = rent.expiresAt ?? now + plan.rentTtl;
    await repo.insertRental(trx, { user_id: userId, chapter_id: chapterId, series_id: seriesId, kind: 'plan', transaction_id: id, created_at: now, expires_at: expiresAt });
    return { kind: 'rented', e4pid, createdAt: now, expiresAt };
  }).then((r) => counted('plan', r));
}

export type AdStart =
  | { kind: 'started'; token: string; readyAt: number; expiresAt: number; minSeconds: number; creative: AdCreative }
  | { kind: 'notFound' }
  | { kind: 'region' }
  | { kind: 'closed'; reason: ClosedReason; until?: number };

/** Starts an ad for a chapter when an ad rental is open for it now (checked again when it is claimed). */
export async function startAd(db: DB, input: Input): Promise<AdStart> {
  const { userId, e4pid, now, country } = input;
  const ctx = await chapterFor(db, e4pid, now, country);
  if ('kind' in ctx) return ctx;
  const chapterId = Number(ctx.chapter.id);
  const access = accessIn(ctx, await readerIn(db, ctx, userId, await balancesOf(db, userId), now), country, now);
  const ad = access.unlockMethods.ad;
  if (!ad.open) return { kind: 'closed', reason: ad.reason, ...(ad.until ? { until: ad.until } : {}) };
  const started = await ads.start(db, { userId, chapterId, seriesId: Number(ctx.series.id), language: ctx.chapter.language, country: country ?? null, now });
  if (!started) return { kind: 'closed', reason: 'disabled' };
  return { kind: 'started', token: started.token, readyAt: started.readyAt, expiresAt: started.expiresAt, minSeconds: started.readyAt - now, creative: started.creative };
}

export type AdClaim = RentalResult | { kind: 'token'; why: 'unknown' | 'used' | 'early' | 'expired'; until?: number };

/**
 * Claims the rental an ad paid for. The token is used up in the same transaction that writes the
 * rental (key `ad:{token hash}` in the ledger as well), so it pays once; the pricing rule is
 * asked again, so an ad cannot open a chapter that meanwhile became owned, or exceed the
 * period's ads.
 */
export async function completeAd(db: DB, input: { userId: number; token: string; now: number; country: string | null }): Promise<AdClaim> {
  const { userId, token, now, country } = input;
  const seen = await ads.peek(db, { userId, token });
  if (!seen) return { kind: 'token', why: 'unknown' };
  const e4pid = await chapterE4pid(db, seen.chapterId);
  const ctx = e4pid ? await pricingContext(db, e4pid, now) : null;
  if (!ctx || !e4pid) return { kind: 'notFound' };
  if (regionBlocked(ctx, country)) return { kind: 'region' };
  const seriesId = Number(ctx.series.id);
  try {
    return await writeTransaction(db, async (trx): Promise<AdClaim> => {
      // The token first (a used or early one says so), then the rule with the locked reader.
      const verdict = await ads.redeem(trx, { userId, token, now });
      if (!verdict.ok) return { kind: 'token', why: verdict.why, ...(verdict.until ? { until: verdict.until } : {}) };
      const { access } = await methodIn(trx, ctx, userId, now, country);
      const ad = access.unlockMethods.ad;
      // Rolled back, so the token stays good for when the ad is open again (an owned chapter, no ads left).
      if (!ad.open) throw new AdClosed(ad.reason, ad.until);
      const expiresAt = ad.expiresAt ?? now;
      const { id, created } = await post(trx, { key: `ad:${verdict.ref}`, kind: 'ad', userId, chapterId: seen.chapterId, now, postings: [] });
      if (!created) return { kind: 'token', why: 'used' };
      await repo.insertRental(trx, { user_id: userId, chapter_id: seen.chapterId, series_id: seriesId, kind: 'ad', transaction_id: id, created_at: now, expires_at: expiresAt });
      return { kind: 'rented', e4pid, createdAt: now, expiresAt };
    }).then((r) => counted('ad', r));
  } catch (error) {
    if (error instanceof AdClosed) return { kind: 'closed', reason: error.reason, ...(error.until ? { until: error.until } : {}) };
    throw error;
  }
}

class AdClosed extends Error {
  constructor(readonly reason: ClosedReason, readonly until?: number) {
    super(`ad rental closed: ${reason}`);
  }
}

// ---------------------------------------------------------------- answers

export type FreeAnswer = { ok: true; body: Record<string, unknown> } | { ok: false; status: 403 | 404 | 409; detail: string };

const iso = (unix: number) => new Date(unix * 1000).toISOString();

/** Why a free way in is closed, in the reader's language. */
function closedDetail(t: T, locale: Locale, now: number, reason: ClosedReason, until?: number): string {
  const when = until ? relativeTime(until, now, locale) : '';
  switch (reason) {
    case 'recharging': return until ? t('wallet.pass.recharging', { when }) : t('wallet.pass.used');
    case 'exhausted': return t('wallet.ad.exhausted', { when });
    case 'newest': return t('wallet.free.newest');
    case 'keys_only': return t('wallet.free.keysOnly');
    case 'used': return t('wallet.free.used');
    case 'readable': case 'owned': case 'free': case 'subscribed': return t('wallet.free.readable');
    case 'scheduled': return t('wallet.error.scheduled');
    case 'removed': case 'expired': case 'blocked': return t('wallet.error.unavailable');
    case 'no_plan': return t('wallet.rent.noPlan');
    case 'limit_reached': return t('wallet.rent.limit', { when });
    default: return t('wallet.free.disabled');
  }
}

export function rentalAnswer(r: AdClaim, t: T, locale: Locale, now: number): FreeAnswer {
  switch (r.kind) {
    case 'rented': return { ok: true, body: { content: r.e4pid, rental: { e4pid: r.e4pid, created_at: iso(r.createdAt), expires_at: iso(r.expiresAt) }, ...(r.rechargesAt ? { recharges_at: iso(r.rechargesAt) } : {}) } };
    case 'notFound': return { ok: false, status: 404, detail: t('wallet.error.notFound') };
    case 'region': return { ok: false, status: 403, detail: t('wallet.error.region') };
    case 'closed': return { ok: false, status: 409, detail: closedDetail(t, locale, now, r.reason, r.until) };
    case 'token':
      if (r.why === 'unknown') return { ok: false, status: 404, detail: t('wallet.ad.unknown') };
      if (r.why === 'early') return { ok: false, status: 409, detail: t('wallet.ad.early', { seconds: Math.max(1, (r.until ?? now) - now) }) };
      return { ok: false, status: 409, detail: t(r.why === 'used' ? 'wallet.ad.used' : 'wallet.ad.expired') };
  }
}

export function adStartAnswer(r: AdStart, t: T, locale: Locale, now: number): FreeAnswer {
  if (r.kind !== 'started') return rentalAnswer(r, t, locale, now);
  return { ok: true, body: { token: r.token, ready_at: r.readyAt, expires_at: r.expiresAt, min_seconds: r.minSeconds, creative: r.creative } };
}

/** A rental that went through counts as an unlock on /metrics (after its transaction committed). */
function counted<R extends { kind: string }>(way: 'daily_pass' | 'plan' | 'ad', r: R): R {
  if (r.kind === 'rented') countUnlock(way);
  return r;
}
