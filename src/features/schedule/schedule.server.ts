/**
 * Data of the release schedule block (page and home variants): the days and months of the
 * site's zone and the releases of the site's language in them (every one on the days, the
 * upcoming ones in the months: what already came out this month is in the latest updates),
 * plus a day's margin on each side so the browser can re-bucket the entries in the reader's
 * own zone.
 */
import type { DB } from '~/server/db';
import type { Site } from '~/lib/site';
import type { T } from '~/lib/i18n';
import { displayChapterName, toSeriesCard, type SeriesCard } from '~/features/catalog';
import { readerPath } from '~/lib/paths';
import { scheduleDays, scheduleMonths, span, type Day, type Month, type ScheduleVariant } from './dates';
import { countReleasesBetween, releasesBetween, seriesCardOf } from './repository.server';
import { DAY_SECONDS } from '~/lib/dates';
import { createCache } from '~/server/cache';

/** Upper bound of entries in one schedule (three months of a very busy catalogue). */
export const SCHEDULE_MAX_ITEMS = 1500;
/**
 * Entries per day and per month. The demo catalogue has about ten releases a day; the 10,000-series
 * one has hundreds, which would make the home page megabytes. The home block links to the page.
 */
export const SCHEDULE_CAPS = { home: { perDay: 8, perMonth: 12 }, page: { perDay: 30, perMonth: 60 } } as const;

export interface ScheduleItem {
  /** Chapter e4pid (EPI-…). */
  id: string;
  /** Release time, unix seconds. */
  at: number;
  number: number;
  /** Localized chapter name ("Chapter 12"). */
  name: string;
  language: string;
  series: SeriesCard;
  /** Reader page (released) or series page (scheduled). */
  href: string;
}

export interface ScheduleData {
  variant: ScheduleVariant;
  now: number;
  siteId: number;
  locale: Site['locale'];
  /** The zone days and months were computed in (the site's). */
  timeZone: string;
  /** Whether the browser may lay the days out again in the reader's zone (`Site.scheduleZone`). */
  zoneRule: Site['scheduleZone'];
  days: Day[];
  months: Month[];
  /** Every entry of the days and the upcoming ones of the months, plus a day's margin, oldest first. */
  items: ScheduleItem[];
  /**
   * The home variant's counts in the site's zone, whole (the items are capped): releases on each
   * of `days`, and releases still to come (after now) in each of `months`. Empty for the page.
   */
  counts: { days: number[]; months: number[] };
}

export interface LoadScheduleOptions {
  site: Site;
  now: number;
  variant: ScheduleVariant;
  /** Localizes chapter names; defaults to the site's catalogue. */
  t?: T;
}

const shared = createCache<ScheduleData>({ ttlMs: 60_000, maxEntries: 8 });

/** The schedule as every visitor of a site sees it, remembered a minute per process (the home page's). */
export function sharedSchedule(db: DB, opts: LoadScheduleOptions): Promise<ScheduleData> {
  return shared.get(`${opts.site.id}:${opts.variant}`, () => loadSchedule(db, opts));
}

/** Released and scheduled chapters of the site's language over the schedule's days and three months. */
export async function loadSchedule(db: DB, { site, now, variant, t }: LoadScheduleOptions): Promise<ScheduleData> {
  const translate = t ?? (await import('~/lib/i18n')).createT(site.locale);
  const days = scheduleDays(now, site.timeZone, variant);
  const months = scheduleMonths(now, site.timeZone);
  // Days from yesterday (or this week's Sunday); months only list what is still to come.
  // One bounded query per day (plus a day's margin each side, for readers in other zones) and per
  // month after the days, so a busy catalogue (hundreds of releases a day) keeps the page small
  // and every window gets its share instead of the first days taking the whole budget.
  const cap = SCHEDULE_CAPS[variant];
  const daySpan = span(days);
  const windows: { after: number; until: number; limit: number }[] = [
    { after: daySpan.start - DAY_SECONDS - 1, until: daySpan.start - 1, limit: cap.perDay },
    ...days.map((d) => ({ after: d.start - 1, until: d.end - 1, limit: cap.perDay })),
    { after: daySpan.end - 1, until: daySpan.end + DAY_SECONDS - 1, limit: cap.perDay },
    ...months
      .filter((m) => m.end > daySpan.end + DAY_SECONDS)
      .map((m) => ({ after: Math.max(m.start, daySpan.end + DAY_SECONDS) - 1, until: m.end - 1, limit: cap.perMonth })),
  ];
  const upcoming = (m: Month) => ({ after: Math.max(m.start - 1, now), until: m.end - 1 });
  const count = (w: { after: number; until: number }) => countReleasesBetween(db, { language: site.language, ...w });
  const [batches, dayCounts, monthCounts] = await Promise.all([
    Promise.all(windows.map((w) => releasesBetween(db, { language: site.language, ...w, order: 'asc' }))),
    variant === 'home' ? Promise.all(days.map((d) => count({ after: d.start - 1, until: d.end - 1 }))) : [],
    variant === 'home' ? Promise.all(months.map((m) => count(upcoming(m)))) : [],
  ]);
  const seen = new Set<string>();
  const rows = batches.flat().filter((r) => !seen.has(r.e4pid) && seen.add(r.e4pid)).sort((a, b) => a.released_at - b.released_at || a.series_id - b.series_id || a.number - b.number).slice(0, SCHEDULE_MAX_ITEMS);
  const items = rows.map((r): ScheduleItem => {
    const series = toSeriesCard(seriesCardOf(r));
    return {
      id: r.e4pid,
      at: r.released_at,
      number: r.number,
      name: displayChapterName(translate, site.locale, r, r.number),
      language: r.language,
      series,
      href: r.released_at <= now ? readerPath({ slug: r.slug, format: r.format }, r) : series.href,
    };
  });
  return { variant, now, siteId: site.id, locale: site.locale, timeZone: site.timeZone, zoneRule: site.scheduleZone, days, months, items, counts: { days: dayCounts, months: monthCounts } };
}
