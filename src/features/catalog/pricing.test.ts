import fs from 'node:fs';
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import {
  adsPeriod, campaignPrice, chooseCurrency, discounted, finalPrice, lineupOf, parseFreeAvailability, parseStrategy, positionOf, priceChapter,
  seriesAccess, unlockBonus, SIMULPUB_FREE_SECONDS,
  type AvailabilityStrategy, type Campaign, type ChapterAccess, type FreeAvailability, type PricedChapter, type PricingInput, type ReaderEntitlements,
  type Rental, type Tier,
} from '~/features/catalog/pricing';

const HOUR = 3600;
const DAY = 24 * HOUR;
/** New Year's Day 2026, noon UTC: away from any period edge. */
const NOW = 1_767_225_600 + 12 * HOUR;

const STRATEGY: AvailabilityStrategy = parseStrategy('{}');
const FREE_AVAILABILITY: FreeAvailability = {
  daily_pass_enabled: true, daily_pass_ttl: 3 * DAY, daily_pass_recharge: 23 * HOUR, ads_enabled: true, total_ads: 3, ads_ttl: 2 * DAY, ads_hint: null,
};

/**
 * The fixture series: chapters 1-10 at 3 keys, weekly, chapter 10 released a day ago, chapter 11
 * scheduled tomorrow; every unlock flag on.
 */
function chapter(number: number, over: Partial<PricedChapter> = {}): PricedChapter {
  const released_at = number === 11 ? NOW + DAY : NOW - DAY - (10 - number) * 7 * DAY;
  return {
    number, original_price: 3, released_at, sale_at: released_at, expired_at: null,
    purchase_enabled: 1, daily_pass_enabled: 1, ads_enabled: 1, rental_enabled: 1, subscription_enabled: 1, ...over,
  };
}
const CHAPTERS = Array.from({ length: 11 }, (_, i) => chapter(i + 1));

const reader = (over: Partial<ReaderEntitlements> = {}): ReaderEntitlements => ({
  owned: false, rentals: [], balances: { keys: 100, xtra: 0 }, dailyPassUsedAt: null, adsWatched: 0, subscription: null, ...over,
});

interface Setup {
  number?: number;
  chapter?: Partial<PricedChapter>;
  strategy?: Partial<AvailabilityStrategy>;
  free?: Partial<FreeAvailability>;
  series?: { state?: string; all_free?: number };
  campaigns?: Campaign[];
  reader?: ReaderEntitlements | null;
  regionBlocked?: boolean;
  now?: number;
}

function price(s: Setup = {}): ChapterAccess {
  const now = s.now ?? NOW;
  const input: PricingInput = {
    now,
    chapter: chapter(s.number ?? 5, s.chapter),
    series: { state: s.series?.state ?? 'ACTIVE', all_free: s.series?.all_free ?? 0, strategy: { ...STRATEGY, ...s.strategy }, freeAvailability: { ...FREE_AVAILABILITY, ...s.free } },
    lineup: lineupOf(CHAPTERS, now),
    campaigns: s.campaigns ?? [],
    reader: s.reader === undefined ? reader() : s.reader,
    regionBlocked: s.regionBlocked,
  };
  return priceChapter(input);
}

const campaign = (over: Partial<Campaign> = {}): Campaign => ({
  name: 'Sale', override_starting_count: null, override_ending_count: null, override_all_free: 0, discount: 0.5, starts_at: NOW - DAY, ends_at: NOW + DAY, ...over,
});

const CODE: Record<Tier, string> = { free: 'f', strategy_free: 's', catchup: 'c', paid: 'p', backlog: 'b' };
/** The strategy's verdict on chapters 1-10, one letter each (see CODE). */
function tiers(strategy: Partial<AvailabilityStrategy>, now = NOW): string {
  return Array.from({ length: 10 }, (_, i) => CODE[price({ number: i + 1, strategy, now }).tier!]).join('');
}

describe('availability strategies (chapters 1-10, chapter 10 a day old, chapter 9 eight days old)', () => {
  it.each<[string, Partial<AvailabilityStrategy>, string, number?]>([
    ['no rule: every priced chapter is in the backlog', {}, 'bbbbbbbbbb'],
    ['starting_count 3: the three oldest are free', { starting_count: 3 }, 'sssbbbbbbb'],
    ['starting_count beyond the list frees every chapter', { starting_count: 40 }, 'ssssssssss'],
    ['simulpub: the chapter in its first week is free', { simulpub: true }, 'bbbbbbbbbs'],
    ['simulpub: a week after release the chapter is paid', { simulpub: true }, 'bbbbbbbbbb', NOW - DAY + SIMULPUB_FREE_SECONDS],
    ['simulpub: the last second of the free week is still free', { simulpub: true }, 'bbbbbbbbbs', NOW - DAY + SIMULPUB_FREE_SECONDS - 1],
    ['latest_only_free: the newest is free', { latest_only_free: true }, 'bbbbbbbbbs'],
    ['latest_only_free: once a newer chapter is out, the old newest is paid', { latest_only_free: true }, 'bbbbbbbbbb', NOW + DAY],
    ['latest_only_free with simulpub: the newest, for its first week only', { latest_only_free: true, simulpub: true }, 'bbbbbbbbbb', NOW - DAY + SIMULPUB_FREE_SECONDS],
    ['catchup_count 3: the three newest are keys only', { catchup_count: 3 }, 'bbbbbbbccc'],
    ['catchup_count 3 with simulpub: the free week wins over catch-up', { catchup_count: 3, simulpub: true }, 'bbbbbbbccs'],
    ['fpf_becomes_free: free, paid (catch-up), free again', { catchup_count: 3, fpf_becomes_free: true }, 'sssssssccc'],
    ['fpf_becomes_paid: past catch-up the chapters stay keys only', { catchup_count: 3, fpf_becomes_paid: true }, 'pppppppccc'],
    ['fpf_becomes_backlog: past catch-up the chapters join the backlog', { catchup_count: 3, fpf_becomes_backlog: true }, 'bbbbbbbccc'],
    ['fpf_becomes_paid and _backlog: the backlog wins', { fpf_becomes_paid: true, fpf_becomes_backlog: true }, 'bbbbbbbbbb'],
    ['fpf_becomes_paid and _free: free wins', { fpf_becomes_paid: true, fpf_becomes_free: true }, 'ssssssssss'],
    ['backlog_becomes_backlog changes no tier (it reopens wait-for-free)', { backlog_becomes_backlog: true }, 'bbbbbbbbbb'],
    ['latest_episode_double changes no tier', { latest_episode_double: true }, 'bbbbbbbbbb'],
    ['everything at once', { starting_count: 2, simulpub: true, catchup_count: 3, fpf_becomes_paid: true }, 'sspppppccs'],
  ])('%s', (_name, strategy, expected, now) => {
    expect(tiers(strategy, now)).toBe(expected);
  });

  it('strategy-free chapters cost 0, show their list price and say why', () => {
    const a = price({ number: 2, strategy: { starting_count: 3 } });
    expect(a).toMatchObject({ finalPrice: 0, originalPrice: 3, readable: true, reason: 'strategy_free', state: 'free', readableUntil: null, sale: null, bonus: 0 });
  });

  it('latest_only_free has no time limit; with simulpub the newest gets its week only', () => {
    const old = { released_at: NOW - 30 * DAY, sale_at: NOW - 30 * DAY };
    expect(price({ number: 10, chapter: old, strategy: { latest_only_free: true } })).toMatchObject({ reason: 'strategy_free', readableUntil: null });
    expect(price({ number: 10, chapter: old, strategy: { latest_only_free: true, simulpub: true } })).toMatchObject({ reason: null, tier: 'backlog' });
  });

  it('a simulpub chapter is readable until its free week ends', () => {
    const a = price({ number: 10, strategy: { simulpub: true } });
    expect(a).toMatchObject({ reason: 'strategy_free', state: 'free', readableUntil: chapter(10).released_at + SIMULPUB_FREE_SECONDS });
  });

  it('simulpub gives every chapter of a fast series its week; latest_only_free keeps it to the newest', () => {
    const daily = Array.from({ length: 5 }, (_, i) => chapter(i + 1, { released_at: NOW - (5 - i) * DAY }));
    const at = (n: number, strategy: Partial<AvailabilityStrategy>) =>
      priceChapter({ now: NOW, chapter: daily[n - 1]!, series: { state: 'ACTIVE', all_free: 0, strategy: { ...STRATEGY, ...strategy }, freeAvailability: FREE_AVAILABILITY }, lineup: lineupOf(daily, NOW), campaigns: [], reader: null }).reason;
    expect([1, 2, 3, 4, 5].map((n) => at(n, { simulpub: true }))).toEqual(Array(5).fill('strategy_free'));
    expect([1, 2, 3, 4, 5].map((n) => at(n, { simulpub: true, latest_only_free: true }))).toEqual([null, null, null, null, 'strategy_free']);
  });

  it('latest_episode_double doubles the newest chapter only, and campaigns discount the doubled price', () => {
    expect(price({ number: 10, strategy: { latest_episode_double: true } })).toMatchObject({ originalPrice: 6, finalPrice: 6 });
    expect(price({ number: 9, strategy: { latest_episode_double: true } })).toMatchObject({ originalPrice: 3, finalPrice: 3 });
    expect(price({ number: 10, strategy: { latest_episode_double: true }, campaigns: [campaign({ discount: 0.5 })] })).toMatchObject({ originalPrice: 6, finalPrice: 3 });
  });

  it('a free chapter (price 0 or an all-free series) is plainly free, whatever the strategy', () => {
    expect(price({ chapter: { original_price: 0 }, strategy: { catchup_count: 10, latest_episode_double: true } })).toMatchObject({ tier: 'free', reason: 'free', finalPrice: 0, originalPrice: 0 });
    expect(price({ series: { all_free: 1 }, campaigns: [campaign()] })).toMatchObject({ tier: 'free', reason: 'free', finalPrice: 0, originalPrice: 3, sale: null });
  });
});

/**
 * The worked examples of docs/pricing.md ("Availability strategies"), read from the page and
 * recomputed cell by cell, so the page cannot drift from the code. The page's fixture: "Harbor
 * Lights", chapters 1-10 at 3 keys released on Wednesdays at 12:00 UTC (chapter 10 on 2026-01-14),
 * chapter 11 on 2026-01-21; daily pass (23 h recharge, 3-day read) and ads on everywhere; a reader
 * with 50 keys, a charged pass and ads left; now Thursday 2026-01-15 12:00 unless the row says.
 */
describe('the worked examples of docs/pricing.md', () => {
  const utc = (s: string) => Date.parse(`${s.replace(' ', 'T')}:00Z`) / 1000;
  const DOC_NOW = utc('2026-01-15 12:00');
  const docChapters = Array.from({ length: 11 }, (_, i) => chapter(i + 1, { released_at: utc('2026-01-14 12:00') + (i + 1 - 10) * 7 * DAY, sale_at: utc('2026-01-14 12:00') + (i + 1 - 10) * 7 * DAY }));
  const section = (() => {
    const text = fs.readFileSync(new URL('../../../docs/pricing.md', import.meta.url), 'utf8');
    const start = text.indexOf('\n## Availability strategies');
    return text.slice(start, text.indexOf('\n## ', start + 1));
  })();
  const rows = section.split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| strategy') && !l.startsWith('| ---'))
    .map((l) => l.split('|').slice(1, -1).map((c) => c.trim()));

  /** The row's label: flags and counts in backticks, "none", "now …", "chapter N read by daily pass". */
  function setupOf(label: string) {
    const strategy: Partial<AvailabilityStrategy> = {};
    let now = DOC_NOW;
    let readChapter: number | null = null;
    for (const part of label.split(', ')) {
      let m: RegExpExecArray | null;
      if (part === 'none') continue;
      if ((m = /^`(\w+)`$/.exec(part)) && m[1]! in STRATEGY && typeof STRATEGY[m[1] as keyof AvailabilityStrategy] === 'boolean') (strategy as Record<string, unknown>)[m[1]!] = true;
      else if ((m = /^`(\w+): (\d+)`$/.exec(part)) && typeof STRATEGY[m[1] as keyof AvailabilityStrategy] === 'number') (strategy as Record<string, unknown>)[m[1]!] = Number(m[2]);
      else if ((m = /^now (\d{4}-\d\d-\d\d \d\d:\d\d)$/.exec(part))) now = utc(m[1]!);
      else if ((m = /^chapter (\d+) read by daily pass$/.exec(part))) readChapter = Number(m[1]);
      else throw new Error(`docs/pricing.md: a row label this test does not know: "${part}" in "${label}"`);
    }
    return { strategy, now, readChapter };
  }

  /** One cell in the page's legend: `3 ◆` keys, daily pass and ads; `3` keys only; `free`; `sched`. */
  function cellOf(n: number, s: ReturnType<typeof setupOf>): string {
    const usedAt = utc('2026-01-11 12:00');
    const a = priceChapter({
      now: s.now,
      chapter: docChapters[n - 1]!,
      series: { state: 'ACTIVE', all_free: 0, strategy: { ...STRATEGY, ...s.strategy }, freeAvailability: FREE_AVAILABILITY },
      lineup: lineupOf(docChapters, s.now),
      campaigns: [],
      reader: reader({
        balances: { keys: 50, xtra: 0 },
        dailyPassUsedAt: s.readChapter === null ? null : usedAt,
        rentals: n === s.readChapter ? [{ kind: 'daily_pass', created_at: usedAt, expires_at: usedAt + FREE_AVAILABILITY.daily_pass_ttl }] : [],
      }),
    });
    if (a.state === 'scheduled') return 'sched';
    if (a.state === 'free') return 'free';
    const m = a.unlockMethods;
    if (!m.keys.open) return `${a.finalPrice} (keys closed: ${(m.keys as { reason: string }).reason})`;
    return m.dailyPass.open && m.ad.open ? `${a.finalPrice} ◆` : m.dailyPass.open || m.ad.open ? `${a.finalPrice} (pass or ads only one open)` : String(a.finalPrice);
  }

  it('has a worked example for every strategy', () => {
    expect(rows.length).toBeGreaterThan(10);
    const named = new Set(rows.flatMap(([label]) => Object.keys(setupOf(label!).strategy)));
    expect([...named].sort()).toEqual(Object.keys(STRATEGY).sort());
  });

  it.each(rows.map((r) => [r[0]!, r.slice(1)] as const))('%s', (label, cells) => {
    const s = setupOf(label);
    expect(cells).toHaveLength(11);
    expect(Array.from({ length: 11 }, (_, i) => cellOf(i + 1, s))).toEqual(cells);
  });
});

describe('campaigns', () => {
  const c = campaign;
  it.each<[string, Campaign[], number, number, string | null]>([
    // [name, campaigns, chapter number, final price, reason]
    ['no campaign', [], 5, 3, null],
    ['a running half-price sale: 1.5 rounds half up to 2', [c()], 5, 2, null],
    ['range lower edge is inclusive', [c({ override_starting_count: 5, override_ending_count: 8 })], 5, 2, null],
    ['range upper edge is inclusive', [c({ override_starting_count: 2, override_ending_count: 5 })], 5, 2, null],
    ['below the range', [c({ override_starting_count: 6 })], 5, 3, null],
    ['above the range', [c({ override_ending_count: 4 })], 5, 3, null],
    ['null start runs from the first chapter', [c({ override_starting_count: null, override_ending_count: 5 })], 1, 2, null],
    ['null end runs to the last chapter', [c({ override_starting_count: 5, override_ending_count: null })], 10, 2, null],
    ['starts exactly now: running', [c({ starts_at: NOW })], 5, 2, null],
    ['starts a second from now: not yet', [c({ starts_at: NOW + 1 })], 5, 3, null],
    ['ends a second from now: still running', [c({ ends_at: NOW + 1 })], 5, 2, null],
    ['ends exactly now: over', [c({ ends_at: NOW })], 5, 3, null],
    ['override_all_free frees the range', [c({ override_all_free: 1, override_starting_count: 4, override_ending_count: 6 })], 5, 0, 'campaign_free'],
    ['override_all_free outside its range', [c({ override_all_free: 1, override_starting_count: 6 })], 5, 3, null],
    ['override_all_free with open bounds frees every chapter', [c({ override_all_free: true })], 10, 0, 'campaign_free'],
    ['a quarter off 3 is 2.25: rounds to 2', [c({ discount: 0.25 })], 5, 2, null],
    ['a discount that rounds to 0 frees the chapter', [c({ discount: 0.9 })], 5, 0, 'campaign_free'],
    ['a discount above 1 counts as 1', [c({ discount: 7 })], 5, 0, 'campaign_free'],
    ['a negative discount never raises the price', [c({ discount: -3 })], 5, 3, null],
    ['a NaN discount changes nothing', [c({ discount: Number.NaN })], 5, 3, null],
    ['overlapping sales: the lowest price wins', [c({ discount: 0.25 }), c({ discount: 0.7 }), c({ discount: 0.5 })], 5, 1, null],
    ['overlapping: a free campaign beats a sale', [c({ discount: 0.5 }), c({ override_all_free: 1 })], 5, 0, 'campaign_free'],
    ['overlapping: only the running one counts', [c({ discount: 0.9, ends_at: NOW }), c({ discount: 0.25 })], 5, 2, null],
    ['overlapping: only the one covering the chapter counts', [c({ discount: 0.9, override_ending_count: 4 }), c({ discount: 0.25 })], 5, 2, null],
  ])('%s', (_name, campaigns, number, final, reason) => {
    const a = price({ number, campaigns });
    expect(a.finalPrice).toBe(final);
    expect(a.originalPrice).toBe(3);
    expect(a.reason).toBe(reason);
    expect(a.sale !== null).toBe(final < 3);
  });

  it('the campaign example of docs/pricing.md', () => {
    const winter = c({ name: 'Winter Sale', override_starting_count: 4, override_ending_count: 8, discount: 0.25, ends_at: NOW + 3 * DAY });
    const launch = c({ name: 'Launch Day', override_starting_count: 7, override_all_free: 1, ends_at: NOW + DAY });
    const row = (now: number) => Array.from({ length: 11 }, (_, i) => {
      const a = price({ number: i + 1, campaigns: [winter, launch], now });
      return a.state === 'scheduled' ? 'sched' : a.state === 'free' ? 'free' : String(a.finalPrice);
    }).join(' ');
    expect(row(NOW)).toBe('3 3 3 2 2 2 free free free free sched');
    // A day later Launch Day is over (and this fixture's chapter 11 is out).
    expect(row(NOW + DAY)).toBe('3 3 3 2 2 2 2 2 3 3 3');
  });

  it('names the winning sale, its discount and when it ends; equal prices show the longest', () => {
    const short = c({ name: 'Short', discount: 0.5, ends_at: NOW + HOUR });
    const long = c({ name: 'Long', discount: 0.4, ends_at: NOW + 9 * DAY });
    expect(price({ campaigns: [short, long] }).sale).toEqual({ name: 'Long', discount: 0.4, endsAt: NOW + 9 * DAY });
    expect(price({ campaigns: [c({ name: 'Free', override_all_free: 1 })] }).sale).toEqual({ name: 'Free', discount: 1, endsAt: NOW + DAY });
  });

  it('a campaign-free chapter is readable until the last free campaign ends', () => {
    const a = price({ campaigns: [c({ override_all_free: 1, ends_at: NOW + HOUR }), c({ discount: 1, ends_at: NOW + 5 * DAY }), c({ discount: 0.5, ends_at: NOW + 9 * DAY })] });
    expect(a).toMatchObject({ finalPrice: 0, reason: 'campaign_free', state: 'free', readable: true, readableUntil: NOW + 5 * DAY });
  });

  it('a strategy-free chapter stays strategy free under a campaign, with no sale', () => {
    expect(price({ number: 1, strategy: { starting_count: 1 }, campaigns: [c({ override_all_free: 1 })] })).toMatchObject({ reason: 'strategy_free', sale: null });
  });

  it('discounts catch-up and keys-only chapters too', () => {
    expect(price({ number: 10, strategy: { catchup_count: 2 }, campaigns: [c()] })).toMatchObject({ tier: 'catchup', finalPrice: 2 });
    expect(price({ number: 2, strategy: { catchup_count: 2, fpf_becomes_paid: true }, campaigns: [c({ override_all_free: 1 })] })).toMatchObject({ tier: 'paid', finalPrice: 0, reason: 'campaign_free' });
  });

  it('rounds half up exactly, even where floating point falls short of the half (5 x 0.1 = 0.4999...)', () => {
    expect(discounted(5, 0.9)).toBe(1);
    expect(discounted(15, 0.9)).toBe(2);
    expect(discounted(25, 0.34)).toBe(17);
    expect(discounted(5, 0.3)).toBe(4);
    expect(discounted(1, 0.5)).toBe(1);
    expect(discounted(1, 0.51)).toBe(0);
    expect(discounted(10, 0.05)).toBe(10);
  });

  it('matches the exact half-up value for every price up to 60 keys and every 0.01 % step', () => {
    const wrong: string[] = [];
    for (let p = 0; p <= 60; p++) {
      for (let steps = 0; steps <= 10_000; steps++) {
        const exact = p * (10_000 - steps);
        const expected = Math.floor(exact / 10_000) + (exact % 10_000 >= 5_000 ? 1 : 0);
        if (discounted(p, steps / 10_000) !== expected) wrong.push(`${p} at ${steps / 100}%`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('finalPrice keeps the catalogue contract (base price under running campaigns)', () => {
    expect(finalPrice({ number: 5, original_price: 3 }, [c({ discount: 0.25 })], NOW)).toBe(2);
    expect(finalPrice({ number: 5, original_price: 3 }, [c({ ends_at: NOW })], NOW)).toBe(3);
  });
});

/**
 * Every strategy flag under every kind of campaign, on the fixture series (chapters 1-10 at 3
 * keys, chapter 10 a day old) for a signed-in reader, chapter by chapter. A cell is the final
 * price, then `/` and the list (original) price when they differ, then why it is readable:
 *   3      3 keys, not readable        2/3   on sale: 2 keys, 3 struck through
 *   6      the newest at double price  0/3s  free by the strategy (no sale shown)
 *   0/3c   free by the campaign, until the campaign ends
 */
describe('strategies under campaigns (chapters 1-10: final/original price and reason)', () => {
  const KINDS = {
    discount: campaign({ name: 'Half off', discount: 0.5 }),
    'from chapter 4 (override_starting_count)': campaign({ name: 'From 4', discount: 0.5, override_starting_count: 4 }),
    'up to chapter 6 (override_ending_count)': campaign({ name: 'Up to 6', discount: 0.5, override_ending_count: 6 }),
    'chapters 8 on free (override_all_free)': campaign({ name: 'Free 8+', override_all_free: 1, override_starting_count: 8, ends_at: NOW + 2 * DAY }),
    'all free, but ended an hour ago (outside its window)': campaign({ name: 'Over', override_all_free: 1, starts_at: NOW - 2 * DAY, ends_at: NOW - HOUR }),
  } as const;
  type Kind = keyof typeof KINDS;
  const STRATEGIES: [string, Partial<AvailabilityStrategy>, Record<Kind, string>][] = [
    ['no strategy', {}, {
      discount: '2/3 2/3 2/3 2/3 2/3 2/3 2/3 2/3 2/3 2/3',
      'from chapter 4 (override_starting_count)': '3 3 3 2/3 2/3 2/3 2/3 2/3 2/3 2/3',
      'up to chapter 6 (override_ending_count)': '2/3 2/3 2/3 2/3 2/3 2/3 3 3 3 3',
      'chapters 8 on free (override_all_free)': '3 3 3 3 3 3 3 0/3c 0/3c 0/3c',
      'all free, but ended an hour ago (outside its window)': '3 3 3 3 3 3 3 3 3 3',
    }],
    ['starting_count: 3', { starting_count: 3 }, {
      discount: '0/3s 0/3s 0/3s 2/3 2/3 2/3 2/3 2/3 2/3 2/3',
      'from chapter 4 (override_starting_count)': '0/3s 0/3s 0/3s 2/3 2/3 2/3 2/3 2/3 2/3 2/3',
      'up to chapter 6 (override_ending_count)': '0/3s 0/3s 0/3s 2/3 2/3 2/3 3 3 3 3',
      'chapters 8 on free (override_all_free)': '0/3s 0/3s 0/3s 3 3 3 3 0/3c 0/3c 0/3c',
      'all free, but ended an hour ago (outside its window)': '0/3s 0/3s 0/3s 3 3 3 3 3 3 3',
    }],
    ['simulpub', { simulpub: true }, {
      discount: '2/3 2/3 2/3 2/3 2/3 2/3 2/3 2/3 2/3 0/3s',
      'from chapter 4 (override_starting_count)': '3 3 3 2/3 2/3 2/3 2/3 2/3 2/3 0/3s',
      'up to chapter 6 (override_ending_count)': '2/3 2/3 2/3 2/3 2/3 2/3 3 3 3 0/3s',
      'chapters 8 on free (override_all_free)': '3 3 3 3 3 3 3 0/3c 0/3c 0/3s',
      'all free, but ended an hour ago (outside its window)': '3 3 3 3 3 3 3 3 3 0/3s',
    }],
    ['latest_only_free', { latest_only_free: true }, {
      discount: '2/3 2/3 2/3 2/3 2/3 2/3 2/3 2/3 2/3 0/3s',
      'from chapter 4 (override_starting_count)': '3 3 3 2/3 2/3 2/3 2/3 2/3 2/3 0/3s',
      'up to chapter 6 (override_ending_count)': '2/3 2/3 2/3 2/3 2/3 2/3 3 3 3 0/3s',
      'chapters 8 on free (override_all_free)': '3 3 3 3 3 3 3 0/3c 0/3c 0/3s',
      'all free, but ended an hour ago (outside its window)': '3 3 3 3 3 3 3 3 3 0/3s',
    }],
    ['catchup_count: 3 (catch-up chapters are discounted like any paid one)', { catchup_count: 3 }, {
      discount: '2/3 2/3 2/3 2/3 2/3 2/3 2/3 2/3 2/3 2/3',
      'from chapter 4 (override_starting_count)': '3 3 3 2/3 2/3 2/3 2/3 2/3 2/3 2/3',
      'up to chapter 6 (override_ending_count)': '2/3 2/3 2/3 2/3 2/3 2/3 3 3 3 3',
      'chapters 8 on free (override_all_free)': '3 3 3 3 3 3 3 0/3c 0/3c 0/3c',
      'all free, but ended an hour ago (outside its window)': '3 3 3 3 3 3 3 3 3 3',
    }],
    ['catchup_count: 3, fpf_becomes_paid (keys-only chapters are discounted too)', { catchup_count: 3, fpf_becomes_paid: true }, {
      discount: '2/3 2/3 2/3 2/3 2/3 2/3 2/3 2/3 2/3 2/3',
      'from chapter 4 (override_starting_count)': '3 3 3 2/3 2/3 2/3 2/3 2/3 2/3 2/3',
      'up to chapter 6 (override_ending_count)': '2/3 2/3 2/3 2/3 2/3 2/3 3 3 3 3',
      'chapters 8 on free (override_all_free)': '3 3 3 3 3 3 3 0/3c 0/3c 0/3c',
      'all free, but ended an hour ago (outside its window)': '3 3 3 3 3 3 3 3 3 3',
    }],
    ['catchup_count: 3, fpf_becomes_free', { catchup_count: 3, fpf_becomes_free: true }, {
      discount: '0/3s 0/3s 0/3s 0/3s 0/3s 0/3s 0/3s 2/3 2/3 2/3',
      'from chapter 4 (override_starting_count)': '0/3s 0/3s 0/3s 0/3s 0/3s 0/3s 0/3s 2/3 2/3 2/3',
      'up to chapter 6 (override_ending_count)': '0/3s 0/3s 0/3s 0/3s 0/3s 0/3s 0/3s 3 3 3',
      'chapters 8 on free (override_all_free)': '0/3s 0/3s 0/3s 0/3s 0/3s 0/3s 0/3s 0/3c 0/3c 0/3c',
      'all free, but ended an hour ago (outside its window)': '0/3s 0/3s 0/3s 0/3s 0/3s 0/3s 0/3s 3 3 3',
    }],
    ['catchup_count: 3, fpf_becomes_backlog', { catchup_count: 3, fpf_becomes_backlog: true }, {
      discount: '2/3 2/3 2/3 2/3 2/3 2/3 2/3 2/3 2/3 2/3',
      'from chapter 4 (override_starting_count)': '3 3 3 2/3 2/3 2/3 2/3 2/3 2/3 2/3',
      'up to chapter 6 (override_ending_count)': '2/3 2/3 2/3 2/3 2/3 2/3 3 3 3 3',
      'chapters 8 on free (override_all_free)': '3 3 3 3 3 3 3 0/3c 0/3c 0/3c',
      'all free, but ended an hour ago (outside its window)': '3 3 3 3 3 3 3 3 3 3',
    }],
    ['backlog_becomes_backlog', { backlog_becomes_backlog: true }, {
      discount: '2/3 2/3 2/3 2/3 2/3 2/3 2/3 2/3 2/3 2/3',
      'from chapter 4 (override_starting_count)': '3 3 3 2/3 2/3 2/3 2/3 2/3 2/3 2/3',
      'up to chapter 6 (override_ending_count)': '2/3 2/3 2/3 2/3 2/3 2/3 3 3 3 3',
      'chapters 8 on free (override_all_free)': '3 3 3 3 3 3 3 0/3c 0/3c 0/3c',
      'all free, but ended an hour ago (outside its window)': '3 3 3 3 3 3 3 3 3 3',
    }],
    ['latest_episode_double (campaigns work on the doubled price)', { latest_episode_double: true }, {
      discount: '2/3 2/3 2/3 2/3 2/3 2/3 2/3 2/3 2/3 3/6',
      'from chapter 4 (override_starting_count)': '3 3 3 2/3 2/3 2/3 2/3 2/3 2/3 3/6',
      'up to chapter 6 (override_ending_count)': '2/3 2/3 2/3 2/3 2/3 2/3 3 3 3 6',
      'chapters 8 on free (override_all_free)': '3 3 3 3 3 3 3 0/3c 0/3c 0/6c',
      'all free, but ended an hour ago (outside its window)': '3 3 3 3 3 3 3 3 3 6',
    }],
  ];
  const REASON_CODE: Partial<Record<string, string>> = { strategy_free: 's', campaign_free: 'c' };
  const cell = (a: ChapterAccess) => `${a.finalPrice}${a.finalPrice === a.originalPrice ? '' : `/${a.originalPrice}`}${a.reason ? REASON_CODE[a.reason] ?? `(${a.reason})` : ''}`;

  it.each(STRATEGIES.flatMap(([name, strategy, byKind]) => (Object.keys(KINDS) as Kind[]).map((kind) => [`${name} × ${kind}`, strategy, kind, byKind[kind]] as const)))(
    '%s',
    (_name, strategy, kind, expected) => {
      const sale = KINDS[kind];
      const row = Array.from({ length: 10 }, (_, i) => price({ number: i + 1, strategy, campaigns: [sale] }));
      expect(row.map(cell).join(' ')).toBe(expected);
      for (const a of row) {
        // The sale is named exactly when the campaign lowered the price, and a campaign-free
        // chapter is readable until the campaign ends.
        expect(a.sale).toEqual(a.finalPrice < a.originalPrice && a.reason !== 'strategy_free' ? { name: sale.name, discount: sale.override_all_free ? 1 : sale.discount, endsAt: sale.ends_at } : null);
        if (a.reason === 'campaign_free') expect(a.readableUntil).toBe(sale.ends_at);
        expect(a.readable).toBe(a.reason !== null);
        expect(a.payWith).toBe(a.finalPrice > 0 ? 'keys' : null);
      }
    },
  );
});

describe('readability and row state', () => {
  const active = (kind: Rental['kind'], expires_at = NOW + HOUR): Rental => ({ kind, created_at: NOW - HOUR, expires_at });
  it.each<[string, Setup, Partial<ChapterAccess>]>([
    ['anonymous, paid chapter', { reader: null }, { state: 'paid', readable: false, reason: null }],
    ['signed in, paid chapter', {}, { state: 'paid', readable: false, reason: null }],
    ['owned', { reader: reader({ owned: true }) }, { state: 'unlocked', readable: true, reason: 'owned', readableUntil: null }],
    ['owned and free: owned comes first', { reader: reader({ owned: true }), chapter: { original_price: 0 } }, { state: 'unlocked', reason: 'owned' }],
    ['an active rental shows its expiry', { reader: reader({ rentals: [active('rental')] }) }, { state: 'unlocked', reason: 'rental', readableUntil: NOW + HOUR }],
    ['an expired rental locks again', { reader: reader({ rentals: [active('rental', NOW)] }) }, { state: 'paid', readable: false, reason: null }],
    ['a rental that has not started yet', { reader: reader({ rentals: [{ kind: 'rental', created_at: NOW + 1, expires_at: NOW + DAY }] }) }, { state: 'paid', reason: null }],
    ['overlapping rentals: the one ending last', { reader: reader({ rentals: [active('ad', NOW + DAY), active('daily_pass', NOW + 2 * DAY)] }) }, { reason: 'daily_pass', readableUntil: NOW + 2 * DAY }],
    ['an active daily pass', { reader: reader({ rentals: [active('daily_pass')] }) }, { state: 'unlocked', reason: 'daily_pass' }],
    ['an active ad rental', { reader: reader({ rentals: [active('ad')] }) }, { state: 'unlocked', reason: 'ad_rental' }],
    ['a free chapter with a rental shows as free', { reader: reader({ rentals: [active('ad')] }), chapter: { original_price: 0 } }, { state: 'free', reason: 'free', readableUntil: null }],
    ['subscribed to the series, subscription-enabled chapter', { reader: reader({ subscription: { series: true, plan: null } }) }, { state: 'unlocked', reason: 'subscription' }],
    ['subscribed, chapter not in the subscription', { reader: reader({ subscription: { series: true, plan: null } }), chapter: { subscription_enabled: 0 } }, { state: 'paid', reason: null }],
    ['scheduled, even when owned', { number: 11, reader: reader({ owned: true }) }, { state: 'scheduled', readable: false, reason: null, tier: null }],
    ['scheduled free chapter', { number: 11, chapter: { original_price: 0 } }, { state: 'scheduled', readable: false, finalPrice: 0 }],
    ['scheduled under a sale shows the sale price', { number: 11, campaigns: [campaign()] }, { state: 'scheduled', finalPrice: 2, originalPrice: 3 }],
    ['released this very second', { number: 11, now: NOW + DAY }, { state: 'paid' }],
    ['removed series: free stays readable', { series: { state: 'REMOVED' }, chapter: { original_price: 0 } }, { state: 'free', readable: true, reason: 'free' }],
    ['removed series: strategy-free stays readable', { series: { state: 'REMOVED' }, number: 1, strategy: { starting_count: 1 } }, { state: 'free', reason: 'strategy_free' }],
    ['removed series: owned stays readable', { series: { state: 'REMOVED' }, reader: reader({ owned: true }) }, { state: 'unlocked', reason: 'owned' }],
    ['removed series: an active rental runs out', { series: { state: 'REMOVED' }, reader: reader({ rentals: [active('ad')] }) }, { state: 'unlocked', reason: 'ad_rental' }],
    ['removed series: paid is unavailable', { series: { state: 'REMOVED' } }, { state: 'unavailable', readable: false }],
    ['removed series: a subscription no longer covers it', { series: { state: 'REMOVED' }, reader: reader({ subscription: { series: true, plan: null } }) }, { state: 'unavailable', readable: false }],
    ['expired chapter: owned stays readable', { chapter: { expired_at: NOW }, reader: reader({ owned: true }) }, { state: 'unlocked', reason: 'owned' }],
    ['expired chapter: paid is unavailable', { chapter: { expired_at: NOW } }, { state: 'unavailable', readable: false }],
    ['expiring later: still on sale', { chapter: { expired_at: NOW + 1 } }, { state: 'paid' }],
    ['blocked series: owned is not readable', { series: { state: 'BLOCKED' }, reader: reader({ owned: true }) }, { state: 'unavailable', readable: false, reason: null }],
    ['blocked series: free is not readable', { series: { state: 'BLOCKED' }, chapter: { original_price: 0 } }, { state: 'unavailable', readable: false }],
    ['region-blocked reader: free and owned are not readable', { regionBlocked: true, chapter: { original_price: 0 }, reader: reader({ owned: true }) }, { state: 'unavailable', readable: false }],
    ['blocked beats scheduled', { series: { state: 'BLOCKED' }, number: 11 }, { state: 'unavailable' }],
  ])('%s', (_name, setup, expected) => {
    expect(price(setup)).toMatchObject(expected);
  });
});

describe('unlock methods', () => {
  const methods = (s: Setup = {}) => price(s).unlockMethods;

  describe('keys and Xtra keys', () => {
    it.each<[string, Setup, Partial<ChapterAccess>]>([
      ['Xtra keys pay when they cover the price', { reader: reader({ balances: { keys: 10, xtra: 3 } }) }, { payWith: 'xtra', unlockMethods: expect.objectContaining({ keys: { open: true }, xtraKeys: { open: true } }) }],
      ['paid keys pay when Xtra keys fall short, never a mix', { reader: reader({ balances: { keys: 3, xtra: 2 } }) }, { payWith: 'keys', unlockMethods: expect.objectContaining({ keys: { open: true }, xtraKeys: { open: false, reason: 'insufficient_keys' } }) }],
      ['neither covers it: 402 material', { reader: reader({ balances: { keys: 2, xtra: 2 } }) }, { payWith: null, unlockMethods: expect.objectContaining({ keys: { open: false, reason: 'insufficient_keys' }, xtraKeys: { open: false, reason: 'insufficient_keys' } }) }],
      ['anonymous readers sign in first', { reader: null }, { payWith: null, unlockMethods: expect.objectContaining({ keys: { open: false, reason: 'sign_in' } }) }],
      ['purchase disabled on the chapter', { chapter: { purchase_enabled: 0 } }, { payWith: null, unlockMethods: expect.objectContaining({ keys: { open: false, reason: 'disabled' } }) }],
      ['released, not on sale yet', { chapter: { sale_at: NOW + HOUR } }, { payWith: null, unlockMethods: expect.objectContaining({ keys: { open: false, reason: 'not_on_sale', until: NOW + HOUR } }) }],
      ['on sale from this second', { chapter: { sale_at: NOW } }, { payWith: 'keys' }],
      ['owned: 409 material', { reader: reader({ owned: true }) }, { payWith: null, unlockMethods: expect.objectContaining({ keys: { open: false, reason: 'owned' } }) }],
      ['free: 409 material', { chapter: { original_price: 0 } }, { payWith: null, unlockMethods: expect.objectContaining({ keys: { open: false, reason: 'free' } }) }],
      ['campaign free: 409 material', { campaigns: [campaign({ override_all_free: 1 })] }, { payWith: null, unlockMethods: expect.objectContaining({ keys: { open: false, reason: 'free' } }) }],
      ['scheduled: 409 material', { number: 11 }, { payWith: null, unlockMethods: expect.objectContaining({ keys: { open: false, reason: 'scheduled' } }) }],
      ['a rented chapter can still be bought to keep', { reader: reader({ rentals: [{ kind: 'ad', created_at: NOW - 1, expires_at: NOW + 1 }] }) }, { readable: true, payWith: 'keys' }],
      ['removed: nothing new can be bought', { series: { state: 'REMOVED' } }, { payWith: null, unlockMethods: expect.objectContaining({ keys: { open: false, reason: 'removed' } }) }],
      ['expired chapter: nothing new', { chapter: { expired_at: NOW - 1 } }, { payWith: null, unlockMethods: expect.objectContaining({ keys: { open: false, reason: 'expired' } }) }],
      ['blocked: nothing', { regionBlocked: true }, { payWith: null, unlockMethods: expect.objectContaining({ keys: { open: false, reason: 'blocked' } }) }],
    ])('%s', (_name, setup, expected) => {
      expect(price(setup)).toMatchObject(expected);
    });

    it('pays the discounted price and gives the bonus of that price', () => {
      const a = price({ chapter: { original_price: 24 }, campaigns: [campaign({ discount: 0.5 })], reader: reader({ balances: { keys: 0, xtra: 12 } }) });
      expect(a).toMatchObject({ finalPrice: 12, payWith: 'xtra', bonus: 1 });
      expect(price({ chapter: { original_price: 9 } }).bonus).toBe(0);
      expect(price({ chapter: { original_price: 20 } }).bonus).toBe(2);
    });
  });

  describe('daily pass', () => {
    it('opens on a backlog chapter and reads for daily_pass_ttl', () => {
      expect(methods().dailyPass).toEqual({ open: true, expiresAt: NOW + 3 * DAY });
    });
    it.each<[string, Setup, object]>([
      ['anonymous', { reader: null }, { reason: 'sign_in' }],
      ['series daily pass off', { free: { daily_pass_enabled: false } }, { reason: 'disabled' }],
      ['chapter daily pass off', { chapter: { daily_pass_enabled: 0 } }, { reason: 'disabled' }],
      ['never the newest chapter, even without catch-up', { number: 10 }, { reason: 'newest' }],
      ['never a catch-up chapter', { number: 8, strategy: { catchup_count: 3 } }, { reason: 'newest' }],
      ['never a keys-only chapter', { number: 2, strategy: { fpf_becomes_paid: true } }, { reason: 'keys_only' }],
      ['recharging until the last use plus daily_pass_recharge', { reader: reader({ dailyPassUsedAt: NOW - HOUR }) }, { reason: 'recharging', until: NOW - HOUR + 23 * HOUR }],
      ['already readable', { reader: reader({ rentals: [{ kind: 'daily_pass', created_at: NOW - HOUR, expires_at: NOW + HOUR }] }) }, { reason: 'readable' }],
      ['subscribed', { reader: reader({ subscription: { series: true, plan: null } }) }, { reason: 'subscribed' }],
      ['once read free, keys only (backlog_becomes_backlog off)', { reader: reader({ rentals: [{ kind: 'ad', created_at: NOW - 3 * DAY, expires_at: NOW - DAY }] }) }, { reason: 'used' }],
      ['free chapter', { chapter: { original_price: 0 } }, { reason: 'free' }],
    ])('closed: %s', (_name, setup, expected) => {
      expect(methods(setup).dailyPass).toEqual({ open: false, ...expected });
    });
    it('recharged exactly daily_pass_recharge after the last use', () => {
      expect(methods({ reader: reader({ dailyPassUsedAt: NOW - 23 * HOUR }) }).dailyPass.open).toBe(true);
      expect(methods({ reader: reader({ dailyPassUsedAt: NOW - 23 * HOUR + 1 }) }).dailyPass.open).toBe(false);
    });
    it('backlog_becomes_backlog lets a chapter be read by pass again after its rental ended', () => {
      const used = reader({ rentals: [{ kind: 'daily_pass', created_at: NOW - 4 * DAY, expires_at: NOW - DAY }] });
      expect(methods({ reader: used, strategy: { backlog_becomes_backlog: true } }).dailyPass.open).toBe(true);
      // A plan rental is not a free read: it does not use the chapter up.
      expect(methods({ reader: reader({ rentals: [{ kind: 'rental', created_at: NOW - 4 * DAY, expires_at: NOW - DAY }] }) }).dailyPass.open).toBe(true);
    });
  });

  describe('ads', () => {
    it('opens while ads are left and reads for ads_ttl', () => {
      expect(methods({ reader: reader({ adsWatched: 2 }) }).ad).toEqual({ open: true, expiresAt: NOW + 2 * DAY });
    });
    it.each<[string, Setup, object]>([
      ['exhausted until the period ends', { reader: reader({ adsWatched: 3 }) }, { reason: 'exhausted', until: adsPeriod(NOW).end }],
      ['series ads off', { free: { ads_enabled: false } }, { reason: 'disabled' }],
      ['no ads in the allowance', { free: { total_ads: 0 } }, { reason: 'disabled' }],
      ['chapter ads off', { chapter: { ads_enabled: 0 } }, { reason: 'disabled' }],
      ['never the newest chapter', { number: 10 }, { reason: 'newest' }],
      ['never a catch-up chapter', { number: 9, strategy: { catchup_count: 2 } }, { reason: 'newest' }],
      ['anonymous', { reader: null }, { reason: 'sign_in' }],
    ])('closed: %s', (_name, setup, expected) => {
      expect(methods(setup).ad).toEqual({ open: false, ...expected });
    });
    it('the period is the UTC day around now', () => {
      expect(adsPeriod(NOW)).toEqual({ start: NOW - 12 * HOUR, end: NOW + 12 * HOUR });
      expect(adsPeriod(NOW + 12 * HOUR).start).toBe(NOW + 12 * HOUR);
    });
  });

  describe('plan rentals and subscribing', () => {
    const plan = (rented: number, resetsAt = NOW + 10 * DAY) => ({ series: false, plan: { rentCapacity: 4, rented, resetsAt, rentTtl: 2 * DAY } });
    it.each<[string, Setup, object]>([
      ['a plan with rentals left', { reader: reader({ subscription: plan(3) }) }, { open: true, expiresAt: NOW + 2 * DAY }],
      ['the monthly limit reached', { reader: reader({ subscription: plan(4) }) }, { open: false, reason: 'limit_reached', until: NOW + 10 * DAY }],
      ['a new plan month, before the counter is reset', { reader: reader({ subscription: plan(4, NOW) }) }, { open: true, expiresAt: NOW + 2 * DAY }],
      ['no plan', {}, { open: false, reason: 'no_plan' }],
      ['rental off on the chapter', { reader: reader({ subscription: plan(0) }), chapter: { rental_enabled: 0 } }, { open: false, reason: 'disabled' }],
      ['anonymous', { reader: null }, { open: false, reason: 'sign_in' }],
    ])('rent: %s', (_name, setup, expected) => {
      expect(methods(setup).rent).toEqual(expected);
    });
    it.each<[string, Setup, object]>([
      ['offered on a subscription chapter', {}, { open: true }],
      ['already subscribed', { reader: reader({ subscription: { series: true, plan: null } }) }, { open: false, reason: 'subscribed' }],
      ['not a subscription chapter', { chapter: { subscription_enabled: 0 } }, { open: false, reason: 'disabled' }],
      ['anonymous', { reader: null }, { open: false, reason: 'sign_in' }],
    ])('subscribe: %s', (_name, setup, expected) => {
      expect(methods(setup).subscribe).toEqual(expected);
    });
  });
});

describe('series-wide allowances', () => {
  const series = { state: 'ACTIVE', all_free: 0, strategy: STRATEGY, freeAvailability: FREE_AVAILABILITY };
  it('shows the daily pass recharge time and the ads left', () => {
    expect(seriesAccess(series, reader({ dailyPassUsedAt: NOW - HOUR, adsWatched: 1 }), NOW)).toMatchObject({
      dailyPass: { ready: false, rechargesAt: NOW + 22 * HOUR }, ads: { total: 3, available: 2, resetsAt: adsPeriod(NOW).end }, subscribed: false, plan: { available: false },
    });
  });
  it('an anonymous reader has a charged pass and every ad', () => {
    expect(seriesAccess(series, null, NOW)).toMatchObject({ dailyPass: { ready: true, rechargesAt: null }, ads: { available: 3 } });
  });
});

describe('lineup and positions', () => {
  it('counts released chapters only, in number order', () => {
    const l = lineupOf([{ number: 3, released_at: 1 }, { number: 1, released_at: 1 }, { number: 2.5, released_at: 2 }, { number: 4, released_at: 9 }], 5);
    expect(l.released).toEqual([1, 2.5, 3]);
    expect(positionOf(l, 1)).toEqual({ fromOldest: 0, fromNewest: 2 });
    expect(positionOf(l, 2.5)).toEqual({ fromOldest: 1, fromNewest: 1 });
    expect(positionOf(l, 3)).toEqual({ fromOldest: 2, fromNewest: 0 });
    expect(positionOf({ released: [] }, 3)).toEqual({ fromOldest: 0, fromNewest: 0 });
  });
});

describe('stored JSON', () => {
  it('reads the seed shape', () => {
    const s = parseStrategy(JSON.stringify({ starting_count: 5, simulpub: true, latest_only_free: false, fpf_becomes_paid: false, fpf_becomes_free: false, fpf_becomes_backlog: false, backlog_becomes_backlog: false, catchup_count: 0, latest_episode_double: false }));
    expect(s).toEqual({ ...STRATEGY, starting_count: 5, simulpub: true });
    const f = parseFreeAvailability(JSON.stringify({ daily_pass_enabled: true, daily_pass_ttl: 259200, daily_pass_recharge: 82800, ads_enabled: true, total_ads: 3, available_ads: 3, ads_ttl: 172800, subscribed: false, ads_hint: 'Watch' }));
    expect(f).toEqual({ ...FREE_AVAILABILITY, ads_hint: 'Watch' });
  });
  it('turns missing or malformed fields into "no rule"', () => {
    expect(parseStrategy('not json')).toEqual(STRATEGY);
    expect(parseStrategy('[1]')).toEqual(STRATEGY);
    expect(parseStrategy(null)).toEqual(STRATEGY);
    expect(parseStrategy({ starting_count: -2, catchup_count: 2.7, simulpub: 'yes', latest_only_free: 1 })).toEqual({ ...STRATEGY, catchup_count: 2, latest_only_free: true });
    expect(parseFreeAvailability('')).toMatchObject({ daily_pass_enabled: false, total_ads: 0, ads_hint: null });
  });
});

// ---------------------------------------------------------------- properties

const balances = fc.record({ keys: fc.nat(1000), xtra: fc.nat(1000) });

describe('payment rule (property)', () => {
  it('never mixes: Xtra iff it covers the whole price, else paid iff it covers it, else insufficient; nothing goes negative', () => {
    fc.assert(
      fc.property(fc.nat(1000), balances, (p, b) => {
        const choice = chooseCurrency(p, b);
        expect(choice === 'xtra').toBe(b.xtra >= p);
        expect(choice === 'keys').toBe(b.xtra < p && b.keys >= p);
        expect(choice === 'insufficient').toBe(b.xtra < p && b.keys < p);
        // One balance pays it all; the other is untouched.
        const after = choice === 'xtra' ? { ...b, xtra: b.xtra - p } : choice === 'keys' ? { ...b, keys: b.keys - p } : b;
        expect(after.keys).toBeGreaterThanOrEqual(0);
        expect(after.xtra).toBeGreaterThanOrEqual(0);
        expect(after.keys + after.xtra).toBe(choice === 'insufficient' ? b.keys + b.xtra : b.keys + b.xtra - p);
      }),
    );
  });

  it('priceChapter picks the currency with the same rule', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 60 }), balances, (p, b) => {
        const a = price({ chapter: { original_price: p }, reader: reader({ balances: b }) });
        const choice = chooseCurrency(p, b);
        expect(a.payWith).toBe(choice === 'insufficient' ? null : choice);
      }),
    );
  });
});

describe('unlock bonus (property)', () => {
  it.each([[9, 0], [10, 1], [19, 1], [20, 2], [0, 0], [99, 9], [100, 10]])('price %s gives %s Xtra keys', (p, b) => expect(unlockBonus(p)).toBe(b));
  it('is floor(p/10) above 9, else 0, and always less than the price', () => {
    fc.assert(
      fc.property(fc.nat(100_000), (p) => {
        const b = unlockBonus(p);
        expect(b).toBe(p > 9 ? Math.floor(p / 10) : 0);
        expect(b).toBeGreaterThanOrEqual(0);
        if (p > 0) expect(b).toBeLessThan(p);
      }),
    );
  });
});

describe('discounts and campaigns (property)', () => {
  it('rounds half up exactly and stays between 0 and the price', () => {
    fc.assert(
      fc.property(fc.nat(10_000), fc.integer({ min: 0, max: 10_000 }), (p, steps) => {
        const d = discounted(p, steps / 10_000);
        // Exact: p * (10000 - steps) / 10000, half up, in integers.
        const exact = p * (10_000 - steps);
        const expected = Math.floor(exact / 10_000) + (exact % 10_000 >= 5_000 ? 1 : 0);
        expect(d).toBe(expected);
        expect(d).toBeGreaterThanOrEqual(0);
        expect(d).toBeLessThanOrEqual(p);
      }),
    );
  });

  const arbCampaign = fc.record({
    override_starting_count: fc.option(fc.integer({ min: 0, max: 12 }), { nil: null }),
    override_ending_count: fc.option(fc.integer({ min: 0, max: 12 }), { nil: null }),
    override_all_free: fc.constantFrom(0, 1),
    discount: fc.double({ min: -1, max: 2, noNaN: true }),
    starts_at: fc.integer({ min: NOW - 3, max: NOW + 3 }),
    ends_at: fc.integer({ min: NOW - 3, max: NOW + 3 }),
  });

  it('the lowest running price wins, and a campaign never raises a price', () => {
    fc.assert(
      fc.property(fc.nat(50), fc.integer({ min: 1, max: 11 }), fc.array(arbCampaign, { maxLength: 4 }), (p, n, cs) => {
        const { price: got, campaign: winner } = campaignPrice(p, n, cs, NOW);
        const candidates = cs
          .filter((c) => c.starts_at <= NOW && NOW < c.ends_at)
          .filter((c) => (c.override_starting_count == null || n >= c.override_starting_count) && (c.override_ending_count == null || n <= c.override_ending_count))
          .map((c) => (c.override_all_free ? 0 : discounted(p, c.discount)));
        expect(got).toBe(Math.min(p, ...candidates));
        expect(winner === null).toBe(got === p);
      }),
    );
  });
});

describe('priceChapter invariants (property)', () => {
  const arbStrategy = fc.record({
    starting_count: fc.nat(12), simulpub: fc.boolean(), latest_only_free: fc.boolean(), fpf_becomes_paid: fc.boolean(), fpf_becomes_free: fc.boolean(),
    fpf_becomes_backlog: fc.boolean(), backlog_becomes_backlog: fc.boolean(), catchup_count: fc.nat(12), latest_episode_double: fc.boolean(),
  });
  const arbRental = fc.record({ kind: fc.constantFrom('rental' as const, 'daily_pass' as const, 'ad' as const), created_at: fc.integer({ min: NOW - 9 * DAY, max: NOW + DAY }), expires_at: fc.integer({ min: NOW - 5 * DAY, max: NOW + 5 * DAY }) });
  const arbReader = fc.option(
    fc.record({
      owned: fc.boolean(), rentals: fc.array(arbRental, { maxLength: 3 }), balances, dailyPassUsedAt: fc.option(fc.integer({ min: NOW - 2 * DAY, max: NOW }), { nil: null }),
      adsWatched: fc.nat(5), subscription: fc.option(fc.record({ series: fc.boolean(), plan: fc.constant(null) }), { nil: null }),
    }),
    { nil: null },
  );
  const arbSetup = fc.record({
    number: fc.integer({ min: 1, max: 11 }),
    chapter: fc.record({ original_price: fc.nat(30), purchase_enabled: fc.constantFrom(0, 1), daily_pass_enabled: fc.constantFrom(0, 1), subscription_enabled: fc.constantFrom(0, 1) }),
    strategy: arbStrategy,
    series: fc.record({ state: fc.constantFrom('ACTIVE', 'REMOVED', 'BLOCKED'), all_free: fc.constantFrom(0, 0, 0, 1) }),
    campaigns: fc.array(fc.record({
      override_starting_count: fc.option(fc.nat(12), { nil: null }), override_ending_count: fc.option(fc.nat(12), { nil: null }), override_all_free: fc.constantFrom(0, 1),
      discount: fc.double({ min: 0, max: 1, noNaN: true }), starts_at: fc.constantFrom(NOW - DAY, NOW + 1), ends_at: fc.constantFrom(NOW, NOW + DAY),
    }), { maxLength: 3 }),
    reader: arbReader,
    regionBlocked: fc.boolean(),
  });

  it('holds together: reason, state, prices, bonus, currency', () => {
    fc.assert(
      fc.property(arbSetup, (setup) => {
        const a = price(setup);
        expect(a.readable).toBe(a.reason !== null);
        expect(a.state === 'free').toBe(a.reason === 'free' || a.reason === 'strategy_free' || a.reason === 'campaign_free');
        expect(a.state === 'unlocked').toBe(a.readable && a.state !== 'free');
        expect(a.finalPrice).toBeGreaterThanOrEqual(0);
        expect(a.finalPrice).toBeLessThanOrEqual(a.originalPrice);
        expect(a.bonus).toBe(unlockBonus(a.finalPrice));
        if (setup.series.state === 'BLOCKED' || setup.regionBlocked) expect(a.state).toBe('unavailable');
        if (setup.number === 11 && setup.series.state !== 'BLOCKED' && !setup.regionBlocked) expect(a.state).toBe('scheduled');
        if (a.payWith) {
          expect(a.unlockMethods[a.payWith === 'xtra' ? 'xtraKeys' : 'keys'].open).toBe(true);
          expect(setup.series.state).toBe('ACTIVE');
          expect(a.finalPrice).toBeGreaterThan(0);
        }
        // Free chapters and owned ones can never be bought (409), and nothing new opens on a withdrawn series.
        if (a.finalPrice === 0 || setup.reader?.owned || setup.series.state !== 'ACTIVE') {
          expect(a.payWith).toBeNull();
          expect(a.unlockMethods.dailyPass.open || a.unlockMethods.ad.open).toBe(false);
        }
      }),
      { numRuns: 500 },
    );
  });
});
