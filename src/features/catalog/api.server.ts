import { SITES, type SiteId } from '~/lib/site';
import { localizeSeriesRows } from './texts.server';
import type { DB } from '~/server/db';
import type { Site } from '~/lib/site';
import type { T } from '~/lib/i18n';
import type { ChapterRow, SeriesRow } from '@db/schema';
import * as repo from './repository.server';
import { regionBlocks, unitFor } from './rules';
import { lineupOf, priceChapter, seriesAccess, type ChapterAccess, type Lineup, type PricedSeries, type ReaderEntitlements } from './pricing';
import { campaignsOf, pricedChapterOf, pricedSeriesOf } from './pricing.server';
import { continueLabel, continueTarget } from './continue';
import { unitKey } from './wording';
import { displayChapterName } from './naming';
import { parseImages } from './images';
import { readHints, type HintIcon } from './hints';
import { hintsFor } from './texts';
import { readerPath, seriesPath, mediaUrl, type AbsoluteUrl } from '~/lib/paths';
import { parseJsonArray, parseJsonObject } from '~/lib/json';
import { promotionsOf, type Promotion } from './promotion.server';

/** Public JSON shapes of the comic response v2 and the episodes response (docs/api.md). */

/** The image kinds of the spec's comic (section 3), always present in `images`. */
const SPEC_IMAGE_KINDS = ['cover', 'full_cover', 'zoom_cover', 'logo', 'banner', 'showcase', 'preview', 'thumbnail', 'wallpaper'] as const;

export async function comicJson(db: DB, series: SeriesRow, abs: AbsoluteUrl, site: Site) {
  const [people, tags, keywords, campaigns, publisher, languages, promos] = await Promise.all([
    repo.seriesPeople(db, series.id),
    repo.seriesTags(db, series.id),
    repo.seriesKeywords(db, series.id),
    repo.seriesCampaigns(db, series.id),
    repo.findPublisher(db, series.publisher_id),
    repo.seriesLanguages(db, series.id),
    promotionsOf(db, [Number(series.id)], site.language),
  ]);
  // Every image kind the spec lists, null when the series has none, then any further sizes it has.
  const stored = parseImages(series.images);
  const images = Object.fromEntries([...new Set([...SPEC_IMAGE_KINDS, ...Object.keys(stored)])].map((k) => [k, abs(mediaUrl(stored[k as keyof typeof stored] ?? null))]));
  const person = (p: (typeof people)[number]) => ({ id: Number(p.id), name: p.name, alt: p.alt });
  return {
    id: series.id,
    e4pid: series.e4pid,
    name: series.name,
    slug: series.slug,
    uslug: series.slug,
    alt: series.alt.split('\n').filter(Boolean),
    link: abs(seriesPath(series)),
    author: people.filter((p) => p.role === 'author').map(person),
    artist: people.filter((p) => p.role === 'artist').map(person),
    tags: tags.map((t) => ({ id: Number(t.id), slug: t.slug, name: site.id === 3 ? t.name_pt || t.name : t.name, description: t.description, color: t.color, is_primary: t.is_primary === 1, icon: t.icon })),
    keywords: keywords.map((k) => k.word),
    description: series.description,
    excerpt: series.excerpt,
    adult: series.adult === 1,
    modified_at: iso(series.modified_at),
    publisher: publisher
      ? { id: publisher.id, name: publisher.name, language: publisher.language, homepage: publisher.homepage, logo: abs(mediaUrl(publisher.logo)), geoblocks: parseJsonArray(publisher.geoblocks) }
      : null,
    color: series.color,
    in_exclusive: series.in_exclusive === 1,
    in_hype: series.in_hype === 1,
    all_free: series.all_free === 1,
    availability_strategy: parseJsonObject(series.availability_strategy),
    geoblocks: parseJsonArray(series.geoblocks),
    campaigns: campaigns.map((c) => ({
      name: c.name,
      override_starting_count: c.override_starting_count,
      override_ending_count: c.override_ending_count,
      override_all_free: c.override_all_free === 1,
      discount: c.discount,
      starts_at: iso(c.starts_at),
      ends_at: iso(c.ends_at),
    })),
    last_updated: iso(series.last_updated),
    largest_chapter: series.largest_chapter,
    chapter_count: series.chapter_count,
    created_at: iso(series.created_at),
    update_status: series.update_status,
    update_text: series.update_text,
    format: series.format,
    chapter_title: series.chapter_title,
    chapterNameFormat: series.chapter_name_format ?? (unitFor(series.format) === 'episode' ? 'Episode {num}' : 'Chapter {num}'),
    images,
    copyright: series.copyright,
    cover_copyright: series.cover_copyright,
    chapter_copyright: series.chapter_copyright,
    hints: siteHints(series, site, languages),
    promotional_visuals: promotionalVisualsJson(series, promos.get(Number(series.id)) ?? null, abs),
    state: series.state,
  };
}

/**
 * The spec's promotional visuals of a comic (section 3; docs/api.md): its own when it has one,
 * otherwise its showcase as an IMAGE covering the frame in the series' colour; empty when it has
 * neither. Every URL is one of this site's /media/ URLs.
 */
function promotionalVisualsJson(series: SeriesRow, own: Promotion | null, abs: AbsoluteUrl) {
  const stored = parseImages(series.images);
  const promo: Promotion | null = own ?? (stored.showcase
    ? { visualType: 'IMAGE', fit: 'COVER', src: mediaUrl(stored.showcase)!, poster: null, width: 800, height: 450, coloring: { background: series.color, text: '#ffffff' }, label: null, button: null }
    : null);
  if (!promo) return [];
  return [{
    visual_type: promo.visualType,
    fit: promo.fit,
    url: abs(promo.src),
    poster: abs(promo.poster),
    width: promo.width,
    height: promo.height,
    coloring: promo.coloring,
    label: promo.label,
    button: { text: promo.button, link: abs(seriesPath(series)) },
  }];
}

/** Series sharing the most tags with this one (ties: popularity). */
export async function similarSeries(db: DB, seriesId: number, siteId: number, limit = 6) {
  return localizeSeriesRows(db, SITES[siteId as SiteId]?.language ?? 'en', await repo.similarSeries(db, seriesId, siteId, limit));
}

export async function comicResponseV2(db: DB, series: SeriesRow, abs: AbsoluteUrl, site: Site, t: T) {
  const [comic, similar, languages] = await Promise.all([
    comicJson(db, series, abs, site),
    similarSeries(db, series.id, site.id),
    repo.seriesLanguages(db, series.id),
  ]);
  const codes = languages.map((l) => l.language);
  const unit = unitFor(series.format);
  // The chapters of the site's languages, as the series page and the listing cards count them (issue 26).
  const count = languages.filter((l) => Number(l.site_id) === site.id).reduce((n, l) => n + Number(l.chapter_count), 0);
  const statusKey = `status.${series.update_status}` as Parameters<T>[0];
  return {
    comic,
    similar_comics: similar.map((s) => ({
      id: s.id, e4pid: s.e4pid, name: s.name, uslug: s.slug, format: s.format,
      link: abs(seriesPath(s)), cover: abs(mediaUrl(parseImages(s.images).cover)), thumbnail: abs(mediaUrl(parseImages(s.images).thumbnail)),
    })),
    info_bar: {
      texts: [t(statusKey), t(unit === 'episode' ? 'series.episodeCount' : 'series.chapterCount', { count })],
      labels: [t(`format.${series.format}`), ...(series.in_exclusive ? [t('series.exclusive')] : []), ...(series.adult ? [t('series.adult')] : [])],
    },
    blocked: series.state === 'BLOCKED',
    favorited: false,
    notifications: false,
    languages: codes,
    default_language: codes.includes(site.language) ? site.language : (codes[0] ?? site.language),
    sortbar_text: unit === 'episode' ? t('series.episodes') : t('series.chapters'),
    share_text: `${series.name} · ${t('site.name')}`,
    hints: comic.hints,
  };
}

/** The spec's hints ({text, icon}, icons from the one enum) that this site shows, as the series page picks them. */
function siteHints(series: SeriesRow, site: Site, languages: readonly { language: string }[]): { text: string; icon: HintIcon }[] {
  return hintsFor(readHints(parseJsonArray(series.hints)), site.language, languages.map((l) => l.language)).map(({ text, icon }) => ({ text, icon }));
}

function iso(unix: number): string {
  return new Date(unix * 1000).toISOString();
}

/** How one episode is priced for the caller: the one pricing rule's answer and their rentals of it. */
interface EpisodePricing {
  series: PricedSeries;
  campaigns: ReturnType<typeof campaignsOf>;
  lineup: Lineup;
  reader: ReaderEntitlements | null;
}

export function episodeJson(series: SeriesRow, c: ChapterRow, pricing: EpisodePricing, abs: AbsoluteUrl, now: number, name: string) {
  const access: ChapterAccess = priceChapter({ now, chapter: pricedChapterOf(c), series: pricing.series, lineup: pricing.lineup, campaigns: pricing.campaigns, reader: pricing.reader, regionBlocked: false });
  const thumb = abs(mediaUrl(c.thumbnail));
  const rented = access.reason === 'rental' || access.reason === 'daily_pass' || access.reason === 'ad_rental';
  const rental = rented ? (pricing.reader?.rentals ?? []).find((r) => r.created_at <= now && now < r.expires_at && r.expires_at === access.readableUntil) : undefined;
  return {
    id: c.e4pid,
    number: c.number,
    name,
    title: c.title,
    subtitle: c.subtitle,
    releasedAt: iso(c.released_at),
    released_at: iso(c.released_at),
    saleAt: c.sale_at,
    expired_at: c.expired_at == null ? null : iso(c.expired_at),
    language: c.language,
    thumbnail: { lo: thumb, hi: thumb },
    availability: {
      readable_at: iso(c.released_at),
      purchase_enabled: c.purchase_enabled === 1,
      purchase_many_enabled: c.purchase_many_enabled === 1,
      daily_pass_enabled: c.daily_pass_enabled === 1,
      ads_enabled: c.ads_enabled === 1,
      rental_enabled: c.rental_enabled === 1,
      subscription_enabled: c.subscription_enabled === 1,
    },
    finalPrice: access.finalPrice,
    final_price: access.finalPrice,
    originalPrice: access.originalPrice,
    original_price: access.originalPrice,
    /** The row's state from the pricing rule: scheduled, free, unlocked, paid or unavailable. */
    state: access.state,
    readable: access.readable,
    icon: access.state === 'scheduled' ? 'CLOCK' : access.readable ? 'NONE' : 'KEY',
    label: null,
    owned: access.reason === 'owned',
    // The rental period (spec section 3): the rented chapter's e4pid with its window.
    rental: rental ? { e4pid: c.e4pid, created_at: iso(rental.created_at), expires_at: iso(rental.expires_at) } : null,
    subscribed: access.reason === 'subscription',
    bonus: access.bonus,
    readingProgress: null as { completed: boolean; completion: number } | null,
    link: abs(readerPath(series, c)),
  };
}

/**
 * Episodes response. Anonymous: `readingProgress` null and the start-reading button. Signed in
 * (`progress` given, newest first): every episode carries `readingProgress` and the button
 * continues the newest chapter in progress.
 */
export async function episodesResponse(
  db: DB, series: SeriesRow, language: string, abs: AbsoluteUrl, site: Site, t: T, now: number,
  progress?: readonly { e4pid: string; completion: number; completed: boolean; lastRead: number }[],
  country: string | null = null,
  /** The signed-in caller's entitlements in this series (the wallet's), for owned and rented episodes. */
  entitlementsOf?: (seriesId: number) => Promise<(chapterId: number) => ReaderEntitlements>,
) {
  const [languages, campaigns, publisher, entitlements] = await Promise.all([
    repo.seriesLanguages(db, series.id), repo.seriesCampaigns(db, series.id), repo.findPublisher(db, series.publisher_id),
    entitlementsOf ? entitlementsOf(series.id) : Promise.resolve(null),
  ]);
  const blockedCountries = regionBlocks(series, publisher);
  const regionBlocked = country != null && blockedCountries.includes(country);
  const codes = languages.map((l) => l.language);
  const lang = codes.includes(language) ? language : codes.includes(site.language) ? site.language : (codes[0] ?? site.language);
  // Like the series page: a series blocked everywhere or in the reader's country lists no episodes.
  const rows = series.state === 'BLOCKED' || regionBlocked ? [] : await repo.chaptersOf(db, series.id, lang);
  const unit = unitFor(series.format);
  const byE4pid = new Map((progress ?? []).map((p) => [p.e4pid, p]));
  const priced = pricedSeriesOf(series);
  const base = { series: priced, campaigns: campaignsOf(campaigns), lineup: lineupOf(rows.map((c) => ({ number: Number(c.number), released_at: Number(c.released_at) })), now) };
  const episodes = rows.map((c) => {
    const e = episodeJson(series, c, { ...base, reader: entitlements ? entitlements(Number(c.id)) : null }, abs, now, displayChapterName(t, site.locale, series, c.number));
    if (!progress) return e;
    const p = byE4pid.get(c.e4pid);
    return { ...e, readingProgress: { completed: p ? p.completed || p.completion >= 100 : false, completion: p?.completion ?? 0 } };
  });
  const first = episodes.find((e) => e.readable) ?? null;
  // Series-wide allowances (daily pass charge, ads left, plan rentals) do not depend on the chapter.
  const allowances = seriesAccess(priced, entitlements ? entitlements(0) : null, now);
  const fa = priced.freeAvailability;
  // The one continue rule (continue.ts), as on the series page, over this language's episodes.
  const chapterOf = new Map(rows.map((c) => [c.e4pid, c]));
  const target = progress && progress.length > 0
    ? continueTarget(rows.map((c) => ({ e4pid: c.e4pid, number: Number(c.number), language: c.language, released_at: Number(c.released_at), expired_at: c.expired_at == null ? null : Number(c.expired_at) })),
      progress.flatMap((p) => { const c = chapterOf.get(p.e4pid); return c ? [{ ...p, number: Number(c.number), language: c.language }] : []; }), now, lang)
    : null;
  const resume = target && target.kind !== 'start' ? (episodes.find((e) => e.id === target.chapter.e4pid) ?? null) : null;
  const buttonText = resume && target ? continueLabel(t, target.kind, resume.name) : first ? t('series.startReading') : null;
  const buttonTarget = resume ?? first;
  const body = {
    episodes,
    region_blocked: regionBlocked,
    language: lang,
    languages: codes,
    free_availability: {
      daily_pass_enabled: fa.daily_pass_enabled,
      daily_pass_ttl: fa.daily_pass_ttl,
      daily_pass_recharge: fa.daily_pass_recharge,
      /** When the caller's pass is usable again; null when it is ready (or for anonymous callers). */
      daily_pass_recharges_at: allowances.dailyPass.rechargesAt == null ? null : iso(allowances.dailyPass.rechargesAt),
      ads_enabled: fa.ads_enabled,
      total_ads: allowances.ads.total,
      available_ads: allowances.ads.available,
      ads_ttl: fa.ads_ttl,
      subscribed: allowances.subscribed,
      ads_hint: fa.ads_hint,
    },
    continue_text: buttonText,
    reading_button: buttonTarget && buttonText ? { e4pid: buttonTarget.id, text: buttonText } : null,
    highlighted_e4pid: buttonTarget?.id ?? null,
    sortbar_text: unit === 'episode' ? t('series.episodes') : t('series.chapters'),
    rent_availability: {
      no_access_plan_available: !allowances.plan.available,
      monthly_limit_reached: allowances.plan.limitReached,
      rented: episodes.some((e) => e.rental !== null),
      rent_expire_at: episodes.map((e) => e.rental?.expires_at ?? null).find((x) => x !== null) ?? null,
      rented_count: allowances.plan.rented,
      rent_capacity: allowances.plan.rentCapacity,
      // Said to callers a plan would help: no plan, and a chapter here that only a rental (or keys) opens.
      rent_promo_text: !allowances.plan.available && episodes.some((e) => e.availability.rental_enabled && e.state === 'paid') ? t(unitKey(series.format, 'series.rentPromo')) : null,
    },
  };
  // The answer depends on the reader's country only when the series has blocks: the route adds Vary then.
  return { body, variesByCountry: blockedCountries.length > 0 };
}

