/**
 * The Brazilian daily calendar: the schedule's seven days in the site's zone,
 * each a collapsible section, and the promotions (campaigns) running now as rotating slides.
 */
import type { DB } from '~/server/db';
import type { Site } from '~/lib/site';
import type { T } from '~/lib/i18n';
import { formatChapterNumber, toSeriesCard, type SeriesCard } from '~/features/catalog';
import { bucket, type Day } from './dates';
import { loadSchedule, type ScheduleItem } from './schedule.server';
import { runningCampaigns } from './repository.server';

export const CALENDAR_MAX_SLIDES = 8;

export interface CampaignSlide {
  id: number;
  name: string;
  series: SeriesCard;
  /** "50% off" or "Free chapters". */
  offer: string;
  /** "Chapters 10 to 30", or null when the campaign covers every chapter. */
  range: string | null;
  endsAt: number;
}

export interface CalendarData {
  timeZone: string;
  days: { day: Day; items: ScheduleItem[] }[];
  slides: CampaignSlide[];
}

export async function loadCalendar(db: DB, { site, now, t }: { site: Site; now: number; t: T }): Promise<CalendarData> {
  const [schedule, campaigns] = await Promise.all([
    loadSchedule(db, { site, now, variant: 'page', t }),
    runningCampaigns(db, { siteId: site.id, now, limit: CALENDAR_MAX_SLIDES }),
  ]);
  const byDay = bucket(schedule.items, (i) => i.at, schedule.days);
  const percent = new Intl.NumberFormat(site.locale, { style: 'percent', maximumFractionDigits: 0 });
  const slides = campaigns.map((c): CampaignSlide => {
    const from = c.override_starting_count;
    const to = c.override_ending_count;
    const num = (n: number) => formatChapterNumber(n, site.locale);
    return {
      id: c.id,
      name: c.name,
      series: toSeriesCard(c.series),
      offer: c.override_all_free ? t('calendar.campaign.free') : t('calendar.campaign.discount', { percent: percent.format(Math.min(1, Math.max(0, c.discount))) }),
      range: from != null && to != null ? t('calendar.campaign.range', { from: num(from), to: num(to) }) : from != null ? t('calendar.campaign.from', { from: num(from) }) : null,
      endsAt: c.ends_at,
    };
  });
  return { timeZone: site.timeZone, days: schedule.days.map((day, i) => ({ day, items: byDay[i]! })), slides };
}
