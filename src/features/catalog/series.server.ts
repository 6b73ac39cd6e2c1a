import { seriesLocalizer } from './texts.server';
import type { DB } from '~/server/db';
import type { Site } from '~/lib/site';
import type { T } from '~/lib/i18n';
import type { SeriesRow } from '@db/schema';
import type { ChapterListRow } from './repository.server';
import * as repo from './repository.server';
import { chapterName, isOnSale, limitUpcoming, readState, unitFor, withGaps, type Format, type ListItem, type ReadState, regionBlocks } from './rules';
import { lineupOf, priceChapter, seriesAccess, type AccessReason, type Campaign, type ChapterAccess, type Currency, type Lineup, type PricedSeries, type ReaderEntitlements, type RowState } from './pricing';
import { campaignsOf, pricedChapterOf, pricedSeriesOf } from './pricing.server';
import { parseImages, type SeriesImages } from './images';
import { readerPath, seriesPath } from '~/lib/paths';
import { defaultNameFormat } from './naming';
import { chapterDate, dateDisplay, relativeTime } from '~/lib/dates';
import { continueTarget, type ContinueKind } from './continue';
import { parseJsonArray } from '~/lib/json';
import { hintsFor, scheduleLine } from './texts';
import { readHints, type Hint } from './hints';

export const CHAPTERS_PER_PAGE = 100;

export type BlockState = 'unavailable' | 'region' | 'removed' | null;

export interface ChapterView {
  id: number;
  e4pid: string;
  number: number;
  name: string;
  title: string | null;
  subtitle: string | null;
  releasedAt: number;
  dateText: string;
  /** True when the date is shown relatively ("2 days ago"): the browser keeps it fresh. */
  relative: boolean;
  iso: string;
  /** From the one pricing rule (pricing.ts): scheduled, free, unlocked (owned or rented), paid, unavailable. */
  state: RowState;
  reason: AccessReason | null;
  /** When a rental or a free period ends (the row shows it); null: no known end. */
  readableUntil: number | null;
  finalPrice: number;
  originalPrice: number;
  onSale: boolean;
  bonus: number;
  /** The currency a key unlock would use now for this reader; null when their keys do not cover it. */
  payWith: Currency | null;
  /** A signed-in reader may unlock it with keys (balances aside): the row offers the unlock dialog. */
  buyable: boolean;
  /** The series' daily pass for this chapter: open now, or recharging until a time; null when it does not apply. */
  pass: { open: true } | { open: false; until: number } | null;
  /** An ad rental is open for this chapter now. */
  ad: boolean;
  /** A plan rental is open for this chapter now: the plan's rentals left this month; null when closed. */
  rentLeft: number | null;
  /** `readableUntil` and the pass's recharge, as relative text ("in 3 hours"). */
  untilText: string | null;
  passText: string | null;
  href: string;
  thumbnail: string | null;
  /** The signed-in reader's state: 'read' (Read Again), 'reading' (Continue) or null. */
  read?: ReadState;
  /** The row the reading button points at. */
  highlighted?: boolean;
}

export interface LanguageTab {
  code: string;
  label: string;
  total: number;
  items: ListItem<ChapterView>[];
  page: number;
  pages: number;
  /** First free, released chapter: the "start reading" target. */
  first: ChapterView | null;
}

export interface SeriesPage {
  series: SeriesRow;
  format: Format;
  images: SeriesImages;
  authors: { name: string; slug: string }[];
  artists: { name: string; slug: string }[];
  tags: { slug: string; name: string; color: string }[];
  publisher: { name: string; homepage: string | null } | null;
  hints: Hint[];
  /** Blocking message kind (no chapters listed when set, except 'removed' which explains). */
  block: BlockState;
  /** Countries the series is blocked in: for the messages. */
  blockedCountries: string[];
  /** Shown on the English site when the series is licence-blocked somewhere else. */
  licensingNotice: boolean;
  languages: LanguageTab[];
  activeLanguage: string | null;
  order: 'asc' | 'desc';
  path: string;
  /** Signed-in reader with progress here: the chapter to continue, by the one rule (continue.ts). */
  resume: ChapterView | null;
  /** What the reading button says about `resume`: continue, or read the latest again when caught up. */
  resumeKind: ContinueKind | null;
  /** The rows are priced for a signed-in reader (unlock buttons instead of "Log in to read"). */
  signedIn: boolean;
  /** The subscribe button's state; null when there is nothing to subscribe to (see SeriesSubscription). */
  subscription: SeriesSubscription | null;
  /**
   * The reader's daily pass is recharging and would open a chapter listed here: when it is back
   * ("in 23 hours"), shown once in the header as a "wait for free" countdown, not on every row.
   */
  passCountdown: { until: number; text: string } | null;
  /** The schedule line in the site's language (texts.ts `scheduleLine`), or null. */
  scheduleText: string | null;
}

/**
 * What the subscribe button shows. From the same holdings that price the rows (the wallet's
 * `subscription`), so the page runs no query of its own for it.
 */
export interface SeriesSubscription {
  /** The series is in the signed-in reader's live subscription. */
  subscribed: boolean;
}

export interface SeriesPageOptions {
  site: Site;
  t: T;
  now: number;
  country: string | null;
  order: 'asc' | 'desc';
  /** Language whose tab is paginated to `page`. */
  language: string | null;
  page: number;
  /**
   * The signed-in reader's progress in a series, for read/reading rows and the continue button;
   * absent for anonymous visitors. Passed in by the page (the library feature owns progress), so
   * it loads alongside the chapter list.
   */
  progressOf?: (seriesId: number) => Promise<readonly SeriesProgress[]>;
  /**
   * The signed-in reader's entitlements in a series (owned chapters, rentals, balances, passes),
   * for the pricing rule; passed in by the page (the wallet owns them). Absent: anonymous.
   */
  entitlementsOf?: (seriesId: number) => Promise<(chapterId: number) => ReaderEntitlements>;
}

/** What the series page needs of a reader's progress in one chapter. */
export interface SeriesProgress {
  e4pid: string;
  completion: number;
  completed: boolean;
  lastRead: number;
}

/** Everything the anonymous series page shows, or null when the slug is unknown or the series is not shown on this site. */
export async function loadSeriesPage(db: DB, slug: string, opts: SeriesPageOptions): Promise<SeriesPage | null> {
  const found = await repo.findSeriesBySlug(db, slug);
  if (!found) return null;
  // Name, description, excerpt, update text and chapter name format in the site's language.
  const series = (await seriesLocalizer(db, opts.site.language))(found);
  const [people, tags, languages, campaignRows, publisher] = await Promise.all([
    repo.seriesPeople(db, series.id),
    repo.seriesTags(db, series.id),
    repo.seriesLanguages(db, series.id),
    repo.seriesCampaigns(db, series.id),
    repo.findPublisher(db, series.publisher_id),
  ]);
  const { site, t, now } = opts;
  // A series with languages, none of them this site's, does not exist here (docs/decisions.md,
  // "A series on the other language's site"): 404, so the language switch falls back home.
  if (languages.length > 0 && !languages.some((l) => Number(l.site_id) === site.id)) return null;
  const format = series.format;
  const blockedCountries = regionBlocks(series, publisher);
  let block: BlockState = null;
  if (series.state === 'BLOCKED') block = 'unavailable';
  else if (opts.country && blockedCountries.includes(opts.country)) block = 'region';
  else if (series.state === 'REMOVED') block = 'removed';

  // The site's own language first, then the others alphabetically.
  const codes = languages.map((l) => l.language).sort((a, b) => (a === site.language ? -1 : b === site.language ? 1 : a.localeCompare(b)));
  const active = opts.language && codes.includes(opts.language) ? opts.language : (codes[0] ?? null);
  const tabs: LanguageTab[] = [];
  let resume: ChapterView | null = null;
  let resumeKind: ContinueKind | null = null;
  let subscription: SeriesSubscription | null = null;
  let passCountdown: SeriesPage['passCountdown'] = null;
  const signedIn = opts.entitlementsOf !== undefined;
  // A removed series still lists its chapters: free and owned ones stay readable, nothing is sold.
  if (block === null || block === 'removed') {
    const [all, progress, entitlements] = await Promise.all([
      repo.chapterListOf(db, series.id, codes),
      opts.progressOf ? opts.progressOf(series.id) : Promise.resolve([]),
      opts.entitlementsOf ? opts.entitlementsOf(series.id) : Promise.resolve(null),
    ]);
    const priced = pricedSeriesOf(series);
    // Series-wide allowances (plan rentals, the subscription) do not depend on the chapter: chapter 0, as in the episodes API.
    const allowances = seriesAccess(priced, entitlements ? entitlements(0) : null, now);
    const rentLeft = Math.max(0, allowances.plan.rentCapacity - allowances.plan.rented);
    const pricing: RowPricing = { series: priced, campaigns: campaignsOf(campaignRows), entitlements, lineups: new Map(), rentLeft };
    // A slot spent on a series with nothing a subscription opens would be wasted: no button there.
    // Nothing is sold on a removed series, so no button there either.
    if (block === null && (allowances.subscribed || all.some((r) => r.subscription_enabled))) {
      subscription = { subscribed: allowances.subscribed };
    }
    const progressOf = new Map(progress.map((p) => [p.e4pid, p]));
    const nameFormat = series.chapter_name_format?.match(/\{(num|ord)\}/) ? series.chapter_name_format : defaultNameFormat(t, series.format);
    // Views (names, dates, prices, links) are built only for the rows a page shows, plus the
    // start-reading and continue targets.
    const memo = new Map<ChapterListRow, ChapterView>();
    const viewOf = (r: ChapterListRow) => {
      let v = memo.get(r);
      if (!v) {
        v = chapterView(series, r, pricing, nameFormat, opts);
        const p = progressOf.get(v.e4pid);
        if (p) v.read = readState(p);
        if (!passCountdown && v.pass && !v.pass.open && v.passText) passCountdown = { until: v.pass.until, text: v.passText };
        memo.set(r, v);
      }
      return v;
    };
    codes.forEach((code) => {
      const inLanguage = all.filter((r) => r.language === code);
      pricing.lineups.set(code, lineupOf(inLanguage, now));
      const rows = limitUpcoming(inLanguage, site.id, now, (r) => r.released_at);
      let first: ChapterView | null = null;
      for (const r of rows) {
        if (r.released_at > now) continue;
        const v = viewOf(r);
        if (v.state === 'free' || v.state === 'unlocked') { first = v; break; }
      }
      if (opts.order === 'desc') rows.reverse();
      const pages = Math.max(1, Math.ceil(rows.length / CHAPTERS_PER_PAGE));
      const page = code === active ? Math.min(Math.max(1, opts.page), pages) : 1;
      const slice = rows.slice((page - 1) * CHAPTERS_PER_PAGE, page * CHAPTERS_PER_PAGE).map(viewOf);
      tabs.push({ code, label: languageLabel(t, code), total: rows.length, items: withGaps(slice), page, pages, first });
    });
    // Only for a reader with progress here: the rule reads the rows, not their views.
    if (progress.length > 0) {
      const byE4pid = new Map(all.map((r) => [r.e4pid, r]));
      const withChapters = progress.flatMap((p) => {
        const r = byE4pid.get(p.e4pid);
        return r ? [{ ...p, number: r.number, language: r.language }] : [];
      });
      const target = continueTarget(all, withChapters, now, active ?? site.language);
      if (target && target.kind !== 'start') {
        resume = viewOf(target.chapter);
        resumeKind = target.kind;
        resume.highlighted = true;
      }
    }
  }

  return {
    series,
    format,
    images: parseImages(series.images),
    authors: people.filter((p) => p.role === 'author').map(({ name, slug }) => ({ name, slug })),
    artists: people.filter((p) => p.role === 'artist').map(({ name, slug }) => ({ name, slug })),
    tags: tags.map((tag) => ({ slug: tag.slug, name: site.id === 3 ? tag.name_pt : tag.name, color: tag.color })),
    publisher: publisher ? { name: publisher.name, homepage: publisher.homepage } : null,
    hints: hintsFor(readHints(parseJsonArray(series.hints)), site.language, languages.map((l) => l.language)),
    block,
    blockedCountries,
    licensingNotice: block === null && site.id === 1 && blockedCountries.length > 0,
    languages: tabs,
    activeLanguage: active,
    order: opts.order,
    path: seriesPath(series),
    resume,
    resumeKind,
    signedIn,
    subscription,
    passCountdown,
    scheduleText: scheduleLine({
      original: found.update_text, localized: series.update_text, siteLanguage: site.language, seriesLanguages: languages.map((l) => l.language),
      generated: t('series.scheduleText', { status: series.update_status, unit: unitFor(format) }),
    }),
  };
}

function languageLabel(t: T, code: string): string {
  const key = `language.${code}`;
  return t.exists(key) ? t(key) : code;
}

/** What pricing the rows of one series page needs: read once, applied per row. */
interface RowPricing {
  series: PricedSeries;
  campaigns: Campaign[];
  entitlements: ((chapterId: number) => ReaderEntitlements) | null;
  /** Released chapter numbers per language (the strategy counts positions within a language). */
  lineups: Map<string, Lineup>;
  /** The reader's plan rentals left this month (the rows' rent offer). */
  rentLeft: number;
}

function chapterView(series: SeriesRow, row: ChapterListRow, pricing: RowPricing, nameFormat: string, opts: SeriesPageOptions): ChapterView {
  const { site, now } = opts;
  const access: ChapterAccess = priceChapter({
    now,
    chapter: pricedChapterOf(row),
    series: pricing.series,
    lineup: pricing.lineups.get(row.language) ?? { released: [] },
    campaigns: pricing.campaigns,
    reader: pricing.entitlements ? pricing.entitlements(row.id) : null,
    // A region-blocked series lists no chapters at all (block 'region').
    regionBlocked: false,
  });
  const state = access.state;
  const m = access.unlockMethods;
  const pass = m.dailyPass.open ? { open: true as const } : m.dailyPass.reason === 'recharging' && m.dailyPass.until ? { open: false as const, until: m.dailyPass.until } : null;
  // Key unlocks closed only for lack of keys still get the dialog (it shows the buy-keys link).
  const buyable = m.keys.open || m.xtraKeys.open || (!m.keys.open && m.keys.reason === 'insufficient_keys');
  return {
    id: row.id,
    e4pid: row.e4pid,
    number: row.number,
    name: chapterName(row.number, site.locale, nameFormat, nameFormat),
    title: row.title,
    subtitle: row.subtitle,
    releasedAt: row.released_at,
    dateText: state === 'scheduled' ? relativeTime(row.released_at, now, site.locale) : chapterDate(row.released_at, now, site.locale, site.timeZone),
    relative: state === 'scheduled' || dateDisplay(row.released_at, now) === 'relative',
    iso: new Date(row.released_at * 1000).toISOString(),
    state,
    reason: access.reason,
    readableUntil: access.readableUntil,
    finalPrice: access.finalPrice,
    originalPrice: access.originalPrice,
    onSale: isOnSale(access),
    bonus: access.bonus,
    payWith: access.payWith,
    buyable,
    pass,
    ad: m.ad.open,
    rentLeft: m.rent.open ? pricing.rentLeft : null,
    untilText: access.readableUntil != null ? relativeTime(access.readableUntil, now, site.locale) : null,
    passText: pass && !pass.open ? relativeTime(pass.until, now, site.locale) : null,
    href: readerPath(series, row),
    thumbnail: row.thumbnail,
    read: null,
    highlighted: false,
  };
}
