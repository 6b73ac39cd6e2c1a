/**
 * The one pricing rule: for a reader, a chapter and a moment, what the chapter costs, whether it
 * is readable and why, and which ways to unlock it are open. Pure and browser-safe: no database,
 * no clock (`now` is an input, unix seconds), no I/O. docs/pricing.md explains every rule with
 * worked examples; the order of the checks in `priceChapter` is the order documented there.
 */

const HOUR = 3600;
const DAY = 24 * HOUR;

/** How long a simulpub chapter stays free after its release (Comikey-style "free first week"). */
export const SIMULPUB_FREE_SECONDS = 7 * DAY;
/** Ad allowances reset at every UTC midnight. */
export const ADS_PERIOD_SECONDS = DAY;
/** The newest released chapter is never read by daily pass or ad, whatever `catchup_count` says. */
export const NEWEST_EXCLUDED = 1;
/** Campaign discounts are applied to 1/10,000 (0.01 %), in integers, so rounding is exact. */
const DISCOUNT_STEPS = 10_000;

/** A database 0/1 integer or a boolean. */
export type Flag = boolean | number;
const on = (f: Flag | null | undefined): boolean => f === true || (typeof f === 'number' && f !== 0);

// ---------------------------------------------------------------- inputs

/** `series.availability_strategy`, parsed (see `parseStrategy`). */
export interface AvailabilityStrategy {
  /** The oldest N released chapters are free for good. */
  starting_count: number;
  /** Every chapter is free for its first `SIMULPUB_FREE_SECONDS` after release. */
  simulpub: boolean;
  /** The newest released chapter is free while it is the newest (with simulpub: only it gets the free week). */
  latest_only_free: boolean;
  /** Chapters past their first period (free period and catch-up) stay keys-only: no daily pass or ads. */
  fpf_becomes_paid: boolean;
  /** Chapters past their first period become free ("free, paid, free"). */
  fpf_becomes_free: boolean;
  /** Chapters past their first period join the backlog (keys, daily pass, ads): the default, stated. */
  fpf_becomes_backlog: boolean;
  /** A backlog chapter read by daily pass or ad can be read that way again once the rental ends. */
  backlog_becomes_backlog: boolean;
  /** The newest N released chapters are catch-up chapters: keys only, no daily pass or ads. */
  catchup_count: number;
  /** The newest released chapter costs twice its price. */
  latest_episode_double: boolean;
}

/** `series.free_availability`, parsed (see `parseFreeAvailability`). Durations in seconds, as stored. */
export interface FreeAvailability {
  daily_pass_enabled: boolean;
  /** How long a chapter opened with the daily pass stays readable. */
  daily_pass_ttl: number;
  /** Time between two daily pass uses. */
  daily_pass_recharge: number;
  ads_enabled: boolean;
  /** Ads a reader may watch per period (`adsPeriod`). */
  total_ads: number;
  /** How long a chapter opened with an ad stays readable. */
  ads_ttl: number;
  ads_hint: string | null;
}

/** A running campaign on a series (CampaignTable's pricing fields). */
export interface Campaign {
  name?: string;
  /** Lowest chapter number in the campaign, inclusive; null: from the first chapter. */
  override_starting_count: number | null;
  /** Highest chapter number in the campaign, inclusive; null: to the last chapter. */
  override_ending_count: number | null;
  /** Chapters in the campaign's range are free. */
  override_all_free: Flag;
  /** Fraction off the list price, 0..1 (clamped). */
  discount: number;
  /** Running while starts_at <= now < ends_at. */
  starts_at: number;
  ends_at: number;
}

export interface PricedChapter {
  number: number;
  /** Price in keys before strategy and campaigns; 0 means free. */
  original_price: number;
  released_at: number;
  /** Key purchases open at max(released_at, sale_at). */
  sale_at: number;
  /** Withdrawn from then on: like a removed series, for this chapter. */
  expired_at?: number | null;
  purchase_enabled: Flag;
  daily_pass_enabled: Flag;
  ads_enabled: Flag;
  rental_enabled: Flag;
  subscription_enabled: Flag;
}

export type SeriesState = 'DRAFT' | 'ACTIVE' | 'REMOVED' | 'BLOCKED';

export interface PricedSeries {
  /** Anything other than ACTIVE or REMOVED (DRAFT, BLOCKED, an unknown name) counts as BLOCKED. */
  state: SeriesState | string;
  all_free: Flag;
  strategy: AvailabilityStrategy;
  freeAvailability: FreeAvailability;
}

/** Released chapter numbers of one series language at `now`, ascending. Build it once per list with `lineupOf`. */
export interface Lineup {
  readonly released: readonly number[];
}

export type RentalKind = 'rental' | 'daily_pass' | 'ad';

/** A time-limited right to read one chapter, active or expired. */
export interface Rental {
  kind: RentalKind;
  created_at: number;
  expires_at: number;
}

/** A subscription plan's monthly rentals (`rent_capacity`). */
export interface PlanAllowance {
  rentCapacity: number;
  /** Rentals taken in the current plan month. */
  rented: number;
  /** When the plan month ends and `rented` starts again from 0. */
  resetsAt: number;
  /** How long a plan rental lasts. */
  rentTtl: number;
}

/** What a signed-in reader holds. Anonymous readers pass `reader: null`. */
export interface ReaderEntitlements {
  /** The reader bought this chapter. */
  owned: boolean;
  /** This chapter's rentals, active or expired, of any kind. */
  rentals: readonly Rental[];
  balances: Balances;
  /** This series' daily pass: the last time the reader used it, null if never. */
  dailyPassUsedAt: number | null;
  /** Ads the reader watched for this series in the current `adsPeriod(now)`. */
  adsWatched: number;
  /** Subscriptions: `series` when the reader subscribes to this series; `plan` for plan rentals. Absent: none. */
  subscription?: { series: boolean; plan: PlanAllowance | null } | null;
}

export interface Balances {
  /** Paid keys. */
  keys: number;
  /** Xtra (free) keys. */
  xtra: number;
}

export interface PricingInput {
  now: number;
  chapter: PricedChapter;
  series: PricedSeries;
  lineup: Lineup;
  /** The series' campaigns; those not running at `now` are ignored. */
  campaigns: readonly Campaign[];
  reader: ReaderEntitlements | null;
  /** The reader's country is in the series' or publisher's geoblocks (catalog `regionBlocks`). */
  regionBlocked?: boolean;
}

// ---------------------------------------------------------------- outputs

export type AccessReason = 'free' | 'campaign_free' | 'strategy_free' | 'owned' | 'rental' | 'daily_pass' | 'ad_rental' | 'subscription';
export type RowState = 'scheduled' | 'free' | 'unlocked' | 'paid' | 'unavailable';
/**
 * Where the strategy puts a released chapter: free (price 0 or all-free series), strategy_free
 * (starting, free period, or free after the first period), catchup (newest, keys only),
 * paid (keys only for good), backlog (keys, daily pass, ads). Null while scheduled.
 */
export type Tier = 'free' | 'strategy_free' | 'catchup' | 'paid' | 'backlog';
export type Currency = 'xtra' | 'keys';

export type ClosedReason =
  | 'blocked' | 'scheduled' | 'removed' | 'expired' | 'owned' | 'free'
  | 'readable' | 'subscribed' | 'sign_in' | 'disabled' | 'not_on_sale' | 'insufficient_keys'
  | 'newest' | 'keys_only' | 'used' | 'recharging' | 'exhausted' | 'no_plan' | 'limit_reached';

/** A way to unlock: open (with when the resulting rental would end), or closed with why and, when it will open by itself, until when. */
export type Method = { open: true; expiresAt?: number } | { open: false; reason: ClosedReason; until?: number };

export interface UnlockMethods {
  /** Buy with paid keys (open when they cover the price). */
  keys: Method;
  /** Buy with Xtra keys (open when they cover the price; they pay first, see `chooseCurrency`). */
  xtraKeys: Method;
  dailyPass: Method;
  ad: Method;
  /** A subscription plan rental. */
  rent: Method;
  /** Subscribing to the series would open the chapter. */
  subscribe: Method;
}

export interface Sale {
  name: string | null;
  /** The winning campaign's discount (1 when it frees the chapter). */
  discount: number;
  /** The sale price holds at least until then. */
  endsAt: number;
}

export interface ChapterAccess {
  /** The list price: the chapter's price after the strategy (doubling), before campaigns. */
  originalPrice: number;
  /** What a key unlock costs now. */
  finalPrice: number;
  readable: boolean;
  reason: AccessReason | null;
  state: RowState;
  tier: Tier | null;
  /** Set when a running campaign lowers the price (also to 0). */
  sale: Sale | null;
  /** Xtra keys given back by a key unlock at `finalPrice`. */
  bonus: number;
  /** When the current reason stops making the chapter readable (rental end, free week end, campaign end); null: no known end. */
  readableUntil: number | null;
  unlockMethods: UnlockMethods;
  /** The currency a key unlock would use now; null when no key unlock is possible. */
  payWith: Currency | null;
}

// ---------------------------------------------------------------- money rules

/** Xtra keys given back when unlocking: floor(price / 10) for prices above 9. */
export function unlockBonus(price: number): number {
  return price > 9 ? Math.floor(price / 10) : 0;
}

/** Which balance pays `price`: Xtra when it covers the whole price, else paid keys when they do; never a mix. */
export function chooseCurrency(price: number, balances: Balances): Currency | 'insufficient' {
  const p = Math.max(0, price);
  if (balances.xtra >= p) return 'xtra';
  if (balances.keys >= p) return 'keys';
  return 'insufficient';
}

/** `price` less `discount` (clamped to 0..1), rounded half up to whole keys; never below 0 nor above `price`. */
export function discounted(price: number, discount: number): number {
  const steps = Math.round(clamp(Number.isFinite(discount) ? discount : 0, 0, 1) * DISCOUNT_STEPS);
  const kept = price * (DISCOUNT_STEPS - steps);
  // Half up in integers: floor(x / S + 1/2) = floor((2x + S) / 2S).
  const rounded = Math.floor((2 * kept + DISCOUNT_STEPS) / (2 * DISCOUNT_STEPS));
  return clamp(rounded, 0, Math.max(0, price));
}

export function isRunning(c: Campaign, now: number): boolean {
  return c.starts_at <= now && now < c.ends_at;
}

function inRange(c: Campaign, number: number): boolean {
  return (c.override_starting_count == null || number >= c.override_starting_count) && (c.override_ending_count == null || number <= c.override_ending_count);
}

/**
 * The lowest price any running campaign gives a chapter, the campaign that gives it (null when
 * none lowers it) and, when that price is 0, until when some running campaign keeps it free.
 */
export function campaignPrice(listPrice: number, number: number, campaigns: readonly Campaign[], now: number): { price: number; campaign: Campaign | null; freeUntil: number | null } {
  let price = listPrice;
  let best: Campaign | null = null;
  let freeUntil: number | null = null;
  for (const c of campaigns) {
    if (!isRunning(c, now) || !inRange(c, number)) continue;
    const candidate = on(c.override_all_free) ? 0 : discounted(listPrice, c.discount);
    if (candidate === 0) freeUntil = Math.max(freeUntil ?? c.ends_at, c.ends_at);
    // Equal prices: show the sale that lasts longest.
    if (candidate < price || (best && candidate === price && c.ends_at > best.ends_at)) {
      price = candidate;
      best = c;
    }
  }
  if (price >= listPrice) return { price: listPrice, campaign: null, freeUntil: null };
  return { price, campaign: best, freeUntil: price === 0 ? freeUntil : null };
}

/** The price a reader pays now, in keys: a running campaign can discount or free chapters in its range. */
export function finalPrice(chapter: { number: number; original_price: number }, campaigns: readonly Campaign[], now: number): number {
  return campaignPrice(chapter.original_price, chapter.number, campaigns, now).price;
}

// ---------------------------------------------------------------- lineup and periods

/** The released chapter numbers (released_at <= now) of one language, ascending. */
export function lineupOf(chapters: Iterable<{ number: number; released_at: number }>, now: number): Lineup {
  const released: number[] = [];
  for (const c of chapters) if (c.released_at <= now) released.push(c.number);
  released.sort((a, b) => a - b);
  return { released };
}

/** Counts of released chapters older and newer than `number` (0 and 0 for the only chapter). */
export function positionOf(lineup: Lineup, number: number): { fromOldest: number; fromNewest: number } {
  const list = lineup.released;
  const below = bound(list, (n) => n < number);
  const upTo = bound(list, (n) => n <= number);
  return { fromOldest: below, fromNewest: list.length - upTo };
}

/** First index where `pred` turns false in an ascending list. */
function bound(list: readonly number[], pred: (n: number) => boolean): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (pred(list[mid]!)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The ads period containing `now` (a UTC day): the caller counts the ads watched in [start, end). */
export function adsPeriod(now: number): { start: number; end: number } {
  const start = Math.floor(now / ADS_PERIOD_SECONDS) * ADS_PERIOD_SECONDS;
  return { start, end: start + ADS_PERIOD_SECONDS };
}

// ---------------------------------------------------------------- parsing stored JSON

const DEFAULT_STRATEGY: AvailabilityStrategy = {
  starting_count: 0, simulpub: false, latest_only_free: false, fpf_becomes_paid: false, fpf_becomes_free: false,
  fpf_becomes_backlog: false, backlog_becomes_backlog: false, catchup_count: 0, latest_episode_double: false,
};

const DEFAULT_FREE_AVAILABILITY: FreeAvailability = {
  daily_pass_enabled: false, daily_pass_ttl: 0, daily_pass_recharge: 0, ads_enabled: false, total_ads: 0, ads_ttl: 0, ads_hint: null,
};

function object(json: string | Record<string, unknown> | null | undefined): Record<string, unknown> {
  if (json && typeof json === 'object') return json;
  if (!json) return {};
  try {
    const v: unknown = JSON.parse(json);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

const count = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? Math.floor(v) : 0);
const flag = (v: unknown): boolean => (typeof v === 'boolean' || typeof v === 'number') && on(v);

/** The strategy column, with missing or malformed fields at their "no rule" value. */
export function parseStrategy(json: string | Record<string, unknown> | null | undefined): AvailabilityStrategy {
  const o = object(json);
  const s: AvailabilityStrategy = { ...DEFAULT_STRATEGY };
  s.starting_count = count(o.starting_count);
  s.catchup_count = count(o.catchup_count);
  for (const k of ['simulpub', 'latest_only_free', 'fpf_becomes_paid', 'fpf_becomes_free', 'fpf_becomes_backlog', 'backlog_becomes_backlog', 'latest_episode_double'] as const) s[k] = flag(o[k]);
  return s;
}

/** The free-availability column, with missing or malformed fields off. */
export function parseFreeAvailability(json: string | Record<string, unknown> | null | undefined): FreeAvailability {
  const o = object(json);
  return {
    ...DEFAULT_FREE_AVAILABILITY,
    daily_pass_enabled: flag(o.daily_pass_enabled),
    daily_pass_ttl: count(o.daily_pass_ttl),
    daily_pass_recharge: count(o.daily_pass_recharge),
    ads_enabled: flag(o.ads_enabled),
    total_ads: count(o.total_ads),
    ads_ttl: count(o.ads_ttl),
    ads_hint: typeof o.ads_hint === 'string' ? o.ads_hint : null,
  };
}

// ---------------------------------------------------------------- the series, for one reader

export interface SeriesAccess {
  dailyPass: { enabled: boolean; ttl: number; recharge: number; ready: boolean; rechargesAt: number | null };
  ads: { enabled: boolean; total: number; available: number; ttl: number; resetsAt: number; hint: string | null };
  subscribed: boolean;
  plan: { available: boolean; rentCapacity: number; rented: number; limitReached: boolean; resetsAt: number | null };
}

/** The reader's series-wide allowances (daily pass charge, ads left, plan rentals): the episodes API's free and rent availability. */
export function seriesAccess(series: PricedSeries, reader: ReaderEntitlements | null, now: number): SeriesAccess {
  const fa = series.freeAvailability;
  const usedAt = reader?.dailyPassUsedAt ?? null;
  const rechargesAt = usedAt == null ? null : usedAt + fa.daily_pass_recharge;
  const ready = rechargesAt == null || now >= rechargesAt;
  const total = fa.ads_enabled ? fa.total_ads : 0;
  const plan = reader?.subscription?.plan ?? null;
  // A plan month that has ended counts as a fresh one even before the caller resets `rented`.
  const rented = plan && now < plan.resetsAt ? plan.rented : 0;
  return {
    dailyPass: { enabled: fa.daily_pass_enabled, ttl: fa.daily_pass_ttl, recharge: fa.daily_pass_recharge, ready, rechargesAt: ready ? null : rechargesAt },
    ads: { enabled: fa.ads_enabled, total, available: Math.max(0, total - Math.max(0, reader?.adsWatched ?? 0)), ttl: fa.ads_ttl, resetsAt: adsPeriod(now).end, hint: fa.ads_hint },
    subscribed: reader?.subscription?.series === true,
    plan: {
      available: plan != null,
      rentCapacity: plan?.rentCapacity ?? 0,
      rented,
      limitReached: plan != null && rented >= plan.rentCapacity,
      resetsAt: plan?.resetsAt ?? null,
    },
  };
}

// ---------------------------------------------------------------- the strategy

/** The strategy's verdict on a released chapter with a price: its tier, list price and, when free for a while, until when. */
export function strategyTier(chapter: Pick<PricedChapter, 'released_at' | 'original_price'>, s: AvailabilityStrategy, pos: { fromOldest: number; fromNewest: number }, now: number): { tier: Tier; listPrice: number; freeUntil: number | null } {
  const newest = pos.fromNewest === 0;
  const listPrice = s.latest_episode_double && newest ? chapter.original_price * 2 : chapter.original_price;
  if (pos.fromOldest < s.starting_count) return { tier: 'strategy_free', listPrice, freeUntil: null };
  // The free first period: simulpub gives each chapter a free week; latest_only_free keeps it to the newest.
  if (s.simulpub || s.latest_only_free) {
    const inWeek = !s.simulpub || now < chapter.released_at + SIMULPUB_FREE_SECONDS;
    if (inWeek && (!s.latest_only_free || newest)) return { tier: 'strategy_free', listPrice, freeUntil: s.simulpub ? chapter.released_at + SIMULPUB_FREE_SECONDS : null };
  }
  if (pos.fromNewest < s.catchup_count) return { tier: 'catchup', listPrice, freeUntil: null };
  // Past the first period. Several flags: the one kindest to the reader wins.
  if (s.fpf_becomes_free) return { tier: 'strategy_free', listPrice, freeUntil: null };
  if (s.fpf_becomes_backlog || !s.fpf_becomes_paid) return { tier: 'backlog', listPrice, freeUntil: null };
  return { tier: 'paid', listPrice, freeUntil: null };
}

// ---------------------------------------------------------------- the one function

const CLOSED = (reason: ClosedReason, until?: number): Method => (until === undefined ? { open: false, reason } : { open: false, reason, until });
const allClosed = (reason: ClosedReason): UnlockMethods => {
  const m = CLOSED(reason);
  return { keys: m, xtraKeys: m, dailyPass: m, ad: m, rent: m, subscribe: m };
};

const RENTAL_REASON: Record<RentalKind, AccessReason> = { rental: 'rental', daily_pass: 'daily_pass', ad: 'ad_rental' };

/** Prices a chapter for a reader at `now`: prices, readability and reason, row state and open unlock methods. */
export function priceChapter(input: PricingInput): ChapterAccess {
  const { now, chapter, series, reader } = input;
  // A draft is not published: priced like a blocked series (nothing readable, nothing for sale),
  // never as ACTIVE, in case a caller ever reaches one (the look-ups hide drafts first).
  const state = series.state === 'ACTIVE' || series.state === 'REMOVED' ? series.state : 'BLOCKED';
  const base = { sale: null, tier: null, readableUntil: null, payWith: null } as const;

  // 1. Blocked everywhere, or in the reader's country: nothing is readable, not even owned chapters.
  if (state === 'BLOCKED' || input.regionBlocked) {
    return { ...base, originalPrice: chapter.original_price, finalPrice: chapter.original_price, bonus: unlockBonus(chapter.original_price), readable: false, reason: null, state: 'unavailable', unlockMethods: allClosed('blocked') };
  }

  // 2. Scheduled: the price shown is the base price under today's campaigns; the strategy applies from release.
  if (now < chapter.released_at) {
    const price = on(series.all_free) ? 0 : campaignPrice(chapter.original_price, chapter.number, input.campaigns, now).price;
    return { ...base, originalPrice: chapter.original_price, finalPrice: price, bonus: unlockBonus(price), readable: false, reason: null, state: 'scheduled', unlockMethods: allClosed('scheduled') };
  }

  // 3. Price: base price or all-free, then strategy tier and list price, then campaigns.
  const pos = positionOf(input.lineup, chapter.number);
  let tier: Tier;
  let listPrice = chapter.original_price;
  let freeUntil: number | null = null;
  if (on(series.all_free) || chapter.original_price <= 0) tier = 'free';
  else ({ tier, listPrice, freeUntil } = strategyTier(chapter, series.strategy, pos, now));
  let finalPrice = listPrice;
  let sale: Sale | null = null;
  let freeReason: AccessReason | null = tier === 'free' ? 'free' : tier === 'strategy_free' ? 'strategy_free' : null;
  if (freeReason) finalPrice = 0;
  else {
    const c = campaignPrice(listPrice, chapter.number, input.campaigns, now);
    finalPrice = c.price;
    if (c.campaign) sale = { name: c.campaign.name ?? null, discount: on(c.campaign.override_all_free) ? 1 : clamp(c.campaign.discount, 0, 1), endsAt: c.campaign.ends_at };
    if (finalPrice === 0) {
      freeReason = 'campaign_free';
      freeUntil = c.freeUntil;
    }
  }

  // 4. Readable, and why: owned, subscription, free, then time-limited rentals.
  const withdrawn: ClosedReason | null = state === 'REMOVED' ? 'removed' : chapter.expired_at != null && now >= chapter.expired_at ? 'expired' : null;
  const subscribed = !withdrawn && on(chapter.subscription_enabled) && reader?.subscription?.series === true;
  const rental = activeRental(reader?.rentals ?? [], now);
  let reason: AccessReason | null = null;
  let readableUntil: number | null = null;
  if (reader?.owned) reason = 'owned';
  else if (subscribed) reason = 'subscription';
  else if (freeReason) {
    reason = freeReason;
    readableUntil = freeUntil;
  } else if (rental) {
    reason = RENTAL_REASON[rental.kind];
    readableUntil = rental.expires_at;
  }
  const readable = reason !== null;
  const rowState: RowState = reason === 'free' || reason === 'strategy_free' || reason === 'campaign_free' ? 'free' : readable ? 'unlocked' : withdrawn ? 'unavailable' : 'paid';

  // 5. Unlock methods.
  const sa = seriesAccess(series, reader, now);
  const { methods: unlockMethods, payWith } = methods({ input, tier, finalPrice, readable, withdrawn, subscribed, pos, sa });
  return { originalPrice: listPrice, finalPrice, readable, reason, state: rowState, tier, sale, bonus: unlockBonus(finalPrice), readableUntil, unlockMethods, payWith };
}

/** The active rental ending last (several can overlap: a pass rental, then an ad rental). */
function activeRental(rentals: readonly Rental[], now: number): Rental | null {
  let best: Rental | null = null;
  for (const r of rentals) if (r.created_at <= now && now < r.expires_at && (!best || r.expires_at > best.expires_at)) best = r;
  return best;
}

interface MethodContext {
  input: PricingInput;
  tier: Tier;
  finalPrice: number;
  readable: boolean;
  withdrawn: ClosedReason | null;
  subscribed: boolean;
  pos: { fromOldest: number; fromNewest: number };
  sa: SeriesAccess;
}

function methods(ctx: MethodContext): { methods: UnlockMethods; payWith: Currency | null } {
  const { input, tier, finalPrice, readable, withdrawn, subscribed, pos, sa } = ctx;
  const { now, chapter, series, reader } = input;
  // Nothing new for a withdrawn chapter; nothing to buy when owned or free.
  const first: ClosedReason | null = withdrawn ?? (reader?.owned ? 'owned' : finalPrice === 0 ? 'free' : null);
  if (first) return { methods: allClosed(first), payWith: null };

  // Key unlocks: the same gate for both currencies, then the payment rule decides which one pays.
  const gate: Method | null = !reader ? CLOSED('sign_in') : !on(chapter.purchase_enabled) ? CLOSED('disabled') : now < chapter.sale_at ? CLOSED('not_on_sale', chapter.sale_at) : null;
  const balances = reader?.balances ?? { keys: 0, xtra: 0 };
  const keys: Method = gate ?? (balances.keys >= finalPrice ? { open: true } : CLOSED('insufficient_keys'));
  const xtraKeys: Method = gate ?? (balances.xtra >= finalPrice ? { open: true } : CLOSED('insufficient_keys'));
  const choice = gate ? 'insufficient' : chooseCurrency(finalPrice, balances);

  // Wait-for-free (daily pass, ads): backlog chapters only, never the newest, once per chapter unless the strategy allows again.
  const waitForFree = (seriesOn: boolean, chapterOn: Flag): ClosedReason | null => {
    if (readable) return subscribed ? 'subscribed' : 'readable';
    if (!reader) return 'sign_in';
    if (!seriesOn || !on(chapterOn)) return 'disabled';
    if (tier === 'catchup' || pos.fromNewest < NEWEST_EXCLUDED) return 'newest';
    if (tier !== 'backlog') return 'keys_only';
    // Read once for free already (by pass or ad): keys only from then on, unless the strategy lets the chapter back into the backlog.
    if (!series.strategy.backlog_becomes_backlog && reader.rentals.some((r) => r.kind !== 'rental' && r.expires_at <= now)) return 'used';
    return null;
  };

  const pass = waitForFree(sa.dailyPass.enabled, chapter.daily_pass_enabled);
  const dailyPass: Method = pass ? CLOSED(pass) : !sa.dailyPass.ready ? CLOSED('recharging', sa.dailyPass.rechargesAt!) : { open: true, expiresAt: now + sa.dailyPass.ttl };
  const adClosed = waitForFree(sa.ads.enabled && sa.ads.total > 0, chapter.ads_enabled);
  const ad: Method = adClosed ? CLOSED(adClosed) : sa.ads.available <= 0 ? CLOSED('exhausted', sa.ads.resetsAt) : { open: true, expiresAt: now + series.freeAvailability.ads_ttl };

  let rent: Method;
  const plan = reader?.subscription?.plan ?? null;
  if (readable) rent = CLOSED(subscribed ? 'subscribed' : 'readable');
  else if (!reader) rent = CLOSED('sign_in');
  else if (!on(chapter.rental_enabled)) rent = CLOSED('disabled');
  else if (!plan) rent = CLOSED('no_plan');
  else if (sa.plan.limitReached) rent = CLOSED('limit_reached', plan.resetsAt);
  else rent = { open: true, expiresAt: now + plan.rentTtl };

  let subscribe: Method;
  if (subscribed) subscribe = CLOSED('subscribed');
  else if (!reader) subscribe = CLOSED('sign_in');
  else if (!on(chapter.subscription_enabled)) subscribe = CLOSED('disabled');
  else subscribe = { open: true };

  return { methods: { keys, xtraKeys, dailyPass, ad, rent, subscribe }, payWith: choice === 'insufficient' ? null : choice };
}

function clamp(v: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, v));
}
