/**
 * Row reads shared by the schedule, the relay endpoints, latest updates and the feeds. One rule
 * for all of them: chapters of the site's language whose series is ACTIVE (BLOCKED and REMOVED
 * series are never listed; adult series are, flagged, as in the listing). Written once for
 * SQLite and PostgreSQL; the time conditions walk the chapters(released_at, series_id) index.
 */
import type { DB } from '~/server/db';
import type { Campaign, SeriesCardRow } from '~/features/catalog';
import { seriesLocalizer } from '~/features/catalog/index.server';
import { SITES, type SiteId } from '~/lib/site';

/** The content language of a site id (the series texts to show there). */
function languageOfSite(siteId: number): string {
  return SITES[siteId as SiteId]?.language ?? 'en';
}

export interface ReleaseRow {
  id: number;
  e4pid: string;
  series_id: number;
  language: string;
  number: number;
  title: string | null;
  released_at: number;
  sale_at: number;
  original_price: number;
  // What the pricing rule reads besides the above (catalog's PricedChapterRow).
  expired_at: number | null;
  purchase_enabled: number;
  daily_pass_enabled: number;
  ads_enabled: number;
  rental_enabled: number;
  subscription_enabled: number;
  series_e4pid: string;
  slug: string;
  name: string;
  format: 'COMIC' | 'MANGA' | 'WEBTOON';
  images: string;
  adult: number;
  color: string;
  all_free: number;
  chapter_name_format: string | null;
}

export interface ReleaseQuery {
  language: string;
  /** Released strictly after this instant… */
  after: number;
  /** …and at or before this one. */
  until: number;
  /** Only these series (omit for the whole site). */
  seriesIds?: readonly number[];
  order: 'asc' | 'desc';
  limit: number;
}

/** The series card columns of a release row (its series id and e4pid are prefixed there). */
export function seriesCardOf(r: ReleaseRow): SeriesCardRow {
  return { id: r.series_id, e4pid: r.series_e4pid, slug: r.slug, name: r.name, format: r.format, adult: r.adult, color: r.color, images: r.images };
}

/** The chapter and series columns every release query returns (ReleaseRow). */
const RELEASE_COLUMNS = [
  'chapters.id', 'chapters.e4pid', 'chapters.series_id', 'chapters.language', 'chapters.number', 'chapters.title',
  'chapters.released_at', 'chapters.sale_at', 'chapters.original_price', 'chapters.expired_at',
  'chapters.purchase_enabled', 'chapters.daily_pass_enabled', 'chapters.ads_enabled', 'chapters.rental_enabled', 'chapters.subscription_enabled',
  'series.e4pid as series_e4pid', 'series.slug', 'series.name', 'series.format', 'series.images', 'series.adult',
  'series.color', 'series.all_free', 'series.chapter_name_format',
] as const;

/** Numbers as numbers: PostgreSQL hands bigints over as strings. */
function releaseRowOf(r: ReleaseRow): ReleaseRow {
  return {
    ...r,
    id: Number(r.id),
    series_id: Number(r.series_id),
    number: Number(r.number),
    released_at: Number(r.released_at),
    sale_at: Number(r.sale_at),
    original_price: Number(r.original_price),
    expired_at: r.expired_at == null ? null : Number(r.expired_at),
    purchase_enabled: Number(r.purchase_enabled),
    daily_pass_enabled: Number(r.daily_pass_enabled),
    ads_enabled: Number(r.ads_enabled),
    rental_enabled: Number(r.rental_enabled),
    subscription_enabled: Number(r.subscription_enabled),
    adult: Number(r.adult),
    all_free: Number(r.all_free),
  };
}

/** Chapters released in (after, until], with the series fields a schedule entry shows. */
export async function releasesBetween(db: DB, q: ReleaseQuery): Promise<ReleaseRow[]> {
  if (q.seriesIds && q.seriesIds.length === 0) return [];
  if (q.until <= q.after || q.limit <= 0) return [];
  let query = db
    .selectFrom('chapters')
    .innerJoin('series', 'series.id', 'chapters.series_id')
    .select(RELEASE_COLUMNS)
    .where('chapters.released_at', '>', q.after)
    .where('chapters.released_at', '<=', q.until)
    .where('chapters.language', '=', q.language)
    .where('series.state', '=', 'ACTIVE');
  if (q.seriesIds) query = query.where('chapters.series_id', 'in', [...q.seriesIds]);
  const rows = await query
    .orderBy('chapters.released_at', q.order)
    .orderBy('chapters.series_id', q.order)
    .orderBy('chapters.number', q.order)
    .limit(q.limit)
    .execute();
  // Series names and chapter name formats in the site's language (catalog texts.server.ts).
  const localize = await seriesLocalizer(db, q.language);
  return rows.map((r) => localize(releaseRowOf(r)));
}

/** How many chapters of a language are released in (after, until] (what a schedule's day or month shows as its count). */
export async function countReleasesBetween(db: DB, q: { language: string; after: number; until: number }): Promise<number> {
  if (q.until <= q.after) return 0;
  const row = await db
    .selectFrom('chapters')
    .innerJoin('series', 'series.id', 'chapters.series_id')
    .select((eb) => eb.fn.countAll<number | string | bigint>().as('n'))
    .where('chapters.released_at', '>', q.after)
    .where('chapters.released_at', '<=', q.until)
    .where('chapters.language', '=', q.language)
    .where('series.state', '=', 'ACTIVE')
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/**
 * Series of this site's language updated in (after, until], most recent first: the candidates
 * the latest-updates pager asks the relay about.
 */
export async function recentlyUpdatedSeries(db: DB, q: { language: string; after: number; until: number; limit: number }): Promise<number[]> {
  const rows = await db
    .selectFrom('chapters')
    .innerJoin('series', 'series.id', 'chapters.series_id')
    .select(['chapters.series_id'])
    .select((eb) => eb.fn.max('chapters.released_at').as('newest'))
    .where('chapters.released_at', '>', q.after)
    .where('chapters.released_at', '<=', q.until)
    .where('chapters.language', '=', q.language)
    .where('series.state', '=', 'ACTIVE')
    .groupBy('chapters.series_id')
    .orderBy('newest', 'desc')
    .orderBy('chapters.series_id', 'desc')
    .limit(q.limit)
    .execute();
  return rows.map((r) => Number(r.series_id));
}

/** The newest chapter released at or before `now`, per series, in one language. */
export async function newestReleased(db: DB, seriesIds: readonly number[], language: string, now: number): Promise<Map<number, ReleaseRow>> {
  const out = new Map<number, ReleaseRow>();
  if (seriesIds.length === 0) return out;
  const newest = await db
    .selectFrom('chapters')
    .select(['series_id'])
    .select((eb) => eb.fn.max('released_at').as('at'))
    .where('series_id', 'in', [...seriesIds])
    .where('language', '=', language)
    .where('released_at', '<=', now)
    .groupBy('series_id')
    .execute();
  if (newest.length === 0) return out;
  const rows = await db
    .selectFrom('chapters')
    .innerJoin('series', 'series.id', 'chapters.series_id')
    .select(RELEASE_COLUMNS)
    .where('chapters.language', '=', language)
    .where((eb) => eb.or(newest.map((n) => eb.and([eb('chapters.series_id', '=', Number(n.series_id)), eb('chapters.released_at', '=', Number(n.at))]))))
    .orderBy('chapters.number', 'desc')
    .execute();
  const localize = await seriesLocalizer(db, language);
  for (const r of rows) {
    const sid = Number(r.series_id);
    if (out.has(sid)) continue;
    out.set(sid, localize(releaseRowOf(r)));
  }
  return out;
}

export interface RelaySeriesRow {
  id: number;
  e4pid: string;
  slug: string;
  name: string;
  format: 'COMIC' | 'MANGA' | 'WEBTOON';
  color: string;
  adult: number;
  images: string;
  publisher_id: number | null;
}

/**
 * Series named by ids or e4pids, ACTIVE and shown on the site (a language row for it), optionally
 * of one publisher. Unknown, BLOCKED, REMOVED and other-site series are simply absent.
 */
export async function findSiteSeries(db: DB, q: { siteId: number; ids: readonly number[]; e4pids: readonly string[]; publisherId: number | null }): Promise<RelaySeriesRow[]> {
  if (q.ids.length === 0 && q.e4pids.length === 0) return [];
  let query = db
    .selectFrom('series')
    .select(['id', 'e4pid', 'slug', 'name', 'format', 'color', 'adult', 'images', 'publisher_id'])
    .where((eb) => {
      const refs = [];
      if (q.ids.length) refs.push(eb('series.id', 'in', [...q.ids]));
      if (q.e4pids.length) refs.push(eb('series.e4pid', 'in', [...q.e4pids]));
      return eb.or(refs);
    })
    .where('series.state', '=', 'ACTIVE')
    .where((eb) =>
      eb.exists(eb.selectFrom('series_languages').select('series_languages.series_id').whereRef('series_languages.series_id', '=', 'series.id').where('series_languages.site_id', '=', q.siteId)),
    );
  if (q.publisherId != null) query = query.where('series.publisher_id', '=', q.publisherId);
  const rows = await query.orderBy('series.id').execute();
  const localize = await seriesLocalizer(db, languageOfSite(q.siteId));
  return rows.map((r) => localize({ ...r, id: Number(r.id), adult: Number(r.adult), publisher_id: r.publisher_id == null ? null : Number(r.publisher_id) }));
}

export async function publisherExists(db: DB, id: number): Promise<boolean> {
  return (await db.selectFrom('publishers').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
}

/** A running campaign (the pricing fields of `Campaign`) with what the calendar shows of its series. */
export interface RunningCampaignRow extends Campaign {
  id: number;
  name: string;
  series: SeriesCardRow;
}

/** Campaigns running now on ACTIVE series shown on the site, ending soonest first. */
export async function runningCampaigns(db: DB, q: { siteId: number; now: number; limit: number }): Promise<RunningCampaignRow[]> {
  const rows = await db
    .selectFrom('campaigns')
    .innerJoin('series', 'series.id', 'campaigns.series_id')
    .select([
      'campaigns.id', 'campaigns.name', 'campaigns.series_id', 'campaigns.override_starting_count', 'campaigns.override_ending_count',
      'campaigns.override_all_free', 'campaigns.discount', 'campaigns.starts_at', 'campaigns.ends_at',
      'series.e4pid', 'series.slug', 'series.name as series_name', 'series.images', 'series.color', 'series.format', 'series.adult',
    ])
    .where('campaigns.starts_at', '<=', q.now)
    .where('campaigns.ends_at', '>', q.now)
    .where('series.state', '=', 'ACTIVE')
    .where((eb) =>
      eb.exists(eb.selectFrom('series_languages').select('series_languages.series_id').whereRef('series_languages.series_id', '=', 'series.id').where('series_languages.site_id', '=', q.siteId)),
    )
    .orderBy('campaigns.ends_at', 'asc')
    .orderBy('campaigns.id', 'asc')
    .limit(q.limit)
    .execute();
  const localize = await seriesLocalizer(db, languageOfSite(q.siteId));
  return rows.map((r) => ({
    id: Number(r.id), name: r.name, override_all_free: Number(r.override_all_free), discount: Number(r.discount),
    series: localize({ id: Number(r.series_id), e4pid: r.e4pid, slug: r.slug, name: r.series_name, format: r.format, adult: Number(r.adult), color: r.color, images: r.images }),
    starts_at: Number(r.starts_at), ends_at: Number(r.ends_at),
    override_starting_count: r.override_starting_count == null ? null : Number(r.override_starting_count),
    override_ending_count: r.override_ending_count == null ? null : Number(r.override_ending_count),
  }));
}
