/**
 * The home page blocks (docs/home.md): the service over the home repository, whose queries each
 * walk an existing index. Promotional blocks show only ACTIVE, non-adult series of the site (the
 * listing also lists REMOVED and adult series; a shared front page does not advertise them).
 */
import type { DB } from '~/server/db';
import * as repo from './repository.server';
import type { Site } from '~/lib/site';
import type { T } from '~/lib/i18n';
import { displayChapterName, lineupOf, priceChapter } from '~/features/catalog';
import { campaignsOf, pricedChapterOf, pricedSeriesOf, promotionsOf, toListingItem, type ListingItem, type Promotion } from '~/features/catalog/index.server';
import { readerPath, seriesPath, mediaUrl } from '~/lib/paths';
import { relativeTime } from '~/lib/dates';
import { createCache } from '~/server/cache';
import {
  FEATURED_CHAPTERS, REEL_THUMBS, SIMULPUB_MAX, SIMULPUB_WINDOW,
  dailyIndex, isSimulpub, rankRecommendations, selectSimulpub, tagProfile, topProfileTags,
} from './rules';

/** A series card on the home page: the listing's item plus what the home blocks show. */
export interface HomeSeries extends ListingItem {
  popularity: number;
  excerpt: string;
  /** chapter_name_format (null: the format's default). */
  nameFormat: string | null;
}

export interface HomeTag {
  id: number;
  slug: string;
  name: string;
  color: string;
  primary: boolean;
  icon: string;
}

/** A card row as the home blocks (and the browse pages) show it. */
export function toSeries(r: repo.CardRow): HomeSeries {
  return {
    ...toListingItem(r),
    popularity: Number(r.popularity),
    excerpt: r.excerpt,
    nameFormat: r.chapter_name_format,
  };
}

/** Most popular series of the site (the generic swipe carousel; also the anonymous recommendation seed). */
export async function popularSeries(db: DB, siteId: number, limit = 12, exclude: readonly number[] = []): Promise<HomeSeries[]> {
  return (await repo.popularCards(db, siteId, limit, exclude)).map(toSeries);
}

/** A hero slide: the series and its promotional visual, if it has one (else its wallpaper shows). */
export interface HeroSeries extends HomeSeries {
  promotion: Promotion | null;
}

/** Hero slideshow: the most popular `in_hype` series, topped up with popular ones when fewer than 3, each with its promotional visual. */
export async function heroSeries(db: DB, site: Pick<Site, 'id' | 'language'>, limit = 5): Promise<HeroSeries[]> {
  const hype = (await repo.hypeCards(db, site.id, limit)).map(toSeries);
  const all = hype.length >= 3 ? hype : [...hype, ...(await popularSeries(db, site.id, limit - hype.length, hype.map((s) => s.id)))];
  const promos = await promotionsOf(db, all.map((s) => s.id), site.language);
  return all.map((s) => ({ ...s, promotion: promos.get(s.id) ?? null }));
}

/**
 * Newest series by `created_at`. There is no index on created_at: the query scans the site's
 * series once and keeps the top rows (about 6 ms on the 10,000-series catalogue, SQLite), well
 * within the budget of a page that shared caches keep for a minute.
 */
export async function newestSeries(db: DB, siteId: number, limit = 12): Promise<HomeSeries[]> {
  return (await repo.newestCards(db, siteId, limit)).map(toSeries);
}

/** The collection carousel: exclusive series, most popular first. */
export async function exclusiveSeries(db: DB, siteId: number, limit = 12): Promise<HomeSeries[]> {
  return (await repo.exclusiveCards(db, siteId, limit)).map(toSeries);
}

/** Most popular series carrying a tag. */
export async function seriesWithTag(db: DB, siteId: number, tagId: number, limit = 12): Promise<HomeSeries[]> {
  return (await repo.tagCards(db, siteId, tagId, limit)).map(toSeries);
}

/** Every tag, named for the locale, primary ones (the listing's categories) first, then by name. */
export async function allTags(db: DB, locale: Site['locale']): Promise<HomeTag[]> {
  const rows = await repo.tags(db);
  return rows
    .map((r) => ({ id: Number(r.id), slug: r.slug, name: locale === 'pt-BR' ? r.name_pt || r.name : r.name, color: r.color, primary: Number(r.is_primary) === 1, icon: r.icon }))
    .sort((a, b) => Number(b.primary) - Number(a.primary) || a.name.localeCompare(b.name, locale));
}

export interface ChapterThumb {
  e4pid: string;
  number: number;
  name: string;
  thumbnail: string | null;
  href: string;
}

export interface FeaturedSeries {
  series: HomeSeries;
  /** The first chapters released in the site's language (5). */
  chapters: ChapterThumb[];
}

/**
 * Featured carousel: popular series not already in the hero, each with its first five released
 * chapters in the site's language (one query per series on the (series_id, language, number) index).
 */
export async function featuredSeries(db: DB, site: Site, t: T, now: number, exclude: readonly number[], limit = 5): Promise<FeaturedSeries[]> {
  const candidates = await popularSeries(db, site.id, limit + 3, exclude);
  const withChapters = await Promise.all(
    candidates.map(async (series) => {
      const rows = await repo.firstReleased(db, series.id, site.language, now, FEATURED_CHAPTERS);
      return {
        series,
        chapters: rows.map((c) => ({
          e4pid: c.e4pid,
          number: Number(c.number),
          name: displayChapterName(t, site.locale, { format: series.format, chapter_name_format: series.nameFormat }, Number(c.number)),
          thumbnail: mediaUrl(c.thumbnail),
          href: readerPath(series, { e4pid: c.e4pid, number: Number(c.number), language: c.language }),
        })),
      };
    }),
  );
  // A featured slide needs chapters to show.
  return withChapters.filter((f) => f.chapters.length > 0).slice(0, limit);
}

export interface GenreTile {
  tag: HomeTag;
  covers: { name: string; src: string | null }[];
}

/** The genres carousel: the non-primary tags (themes), each with the covers of its three most popular series. */
export async function genreTiles(db: DB, siteId: number, tags: readonly HomeTag[]): Promise<GenreTile[]> {
  const themes = tags.filter((t) => !t.primary);
  const tiles = await Promise.all(
    themes.map(async (tag) => ({
      tag,
      covers: (await seriesWithTag(db, siteId, tag.id, 3)).map((s) => ({ name: s.name, src: mediaUrl(s.images.thumbnail_140 ?? s.images.thumbnail) })),
    })),
  );
  return tiles.filter((t) => t.covers.length > 0);
}

export interface Recommended {
  series: HomeSeries;
  /** Up to two shared tags. */
  tags: HomeTag[];
}

export interface Recommendations {
  items: Recommended[];
  /** What the ranking was based on: the reader's own favorites and history, or one popular series. */
  basis: { kind: 'reader' } | { kind: 'series'; series: HomeSeries } | { kind: 'none' };
}

const PROFILE_SERIES = 50;
const CANDIDATES = 60;

/**
 * Recommended comics: the top 3 series by shared tags with a profile. Signed-in readers: the tags
 * of their favorites (weight 2) and read series (weight 1), excluding those series. Anonymous
 * (and readers with no history): the tags of the site's most popular series (`seed`), so every
 * anonymous visitor gets the same, cacheable answer. Ranking is the pure rankRecommendations().
 */
export async function recommendations(db: DB, siteId: number, tags: readonly HomeTag[], userId: number | null, seed: HomeSeries | null): Promise<Recommendations> {
  let profile = new Map<number, number>();
  let exclude = new Set<number>();
  let basis: Recommendations['basis'] = { kind: 'none' };
  if (userId != null) {
    const [favs, read] = await Promise.all([repo.favoritedSeries(db, userId, PROFILE_SERIES), repo.readSeries(db, userId, PROFILE_SERIES)]);
    const favIds = favs.map((r) => Number(r.series_id));
    const readIds = read.map((r) => Number(r.series_id));
    const tagsOf = await seriesTagIds(db, [...new Set([...favIds, ...readIds])]);
    profile = tagProfile(favIds.map((id) => ({ tagIds: tagsOf.get(id) ?? [] })), readIds.map((id) => ({ tagIds: tagsOf.get(id) ?? [] })));
    exclude = new Set([...favIds, ...readIds]);
    if (profile.size > 0) basis = { kind: 'reader' };
  }
  if (profile.size === 0 && seed) {
    const tagsOf = await seriesTagIds(db, [seed.id]);
    profile = tagProfile([{ tagIds: tagsOf.get(seed.id) ?? [] }], []);
    exclude = new Set([...exclude, seed.id]);
    basis = { kind: 'series', series: seed };
  }
  const wanted = topProfileTags(profile);
  if (wanted.length === 0) return { items: [], basis: { kind: 'none' } };

  // Candidates: the series sharing the most of the wanted tags (series_tags(tag_id, series_id) index).
  const rows = await repo.sharedTagCandidates(db, siteId, wanted, [...exclude], CANDIDATES);
  const ids = rows.map((r) => Number(r.series_id));
  const candidateTags = await seriesTagIds(db, ids);
  const ranked = rankRecommendations(profile, rows.map((r) => ({ id: Number(r.series_id), popularity: Number(r.popularity), tagIds: candidateTags.get(Number(r.series_id)) ?? [] })), exclude);
  if (ranked.length === 0) return { items: [], basis };
  const found = new Map((await repo.cardsByIds(db, siteId, ranked.map((r) => r.id))).map((r) => [Number(r.id), toSeries(r)]));
  const tagById = new Map(tags.map((t) => [t.id, t]));
  const items = ranked.flatMap((r) => {
    const series = found.get(r.id);
    return series ? [{ series, tags: r.sharedTagIds.map((id) => tagById.get(id)).filter((x): x is HomeTag => !!x) }] : [];
  });
  return { items, basis };
}

/** Tag ids of each series, in the series' own order (position 0 is its main genre). */
async function seriesTagIds(db: DB, seriesIds: readonly number[]): Promise<Map<number, number[]>> {
  const out = new Map<number, number[]>();
  if (seriesIds.length === 0) return out;
  const rows = await repo.seriesTags(db, seriesIds);
  for (const r of rows) {
    const list = out.get(Number(r.series_id)) ?? [];
    list.push(Number(r.tag_id));
    out.set(Number(r.series_id), list);
  }
  return out;
}

export interface SimulpubEntry {
  series: HomeSeries;
  next: { number: number; name: string; releasedAt: number; when: string };
}

const SIMULPUB_SCAN = 240;

/**
 * The simulpub strip: series whose availability strategy says `simulpub` with a chapter in the
 * site's language scheduled within the next 7 days, soonest first, at most 12.
 * Reads the upcoming chapters in release order on the chapters(released_at, series_id) index.
 */
export async function simulpubStrip(db: DB, site: Site, t: T, now: number): Promise<SimulpubEntry[]> {
  const rows = await repo.upcomingChapters(db, site.language, now, now + SIMULPUB_WINDOW, SIMULPUB_SCAN);
  const picked = selectSimulpub(
    rows.map((r) => ({ seriesId: Number(r.series_id), releasedAt: Number(r.released_at), simulpub: isSimulpub(r.availability_strategy), number: Number(r.number), nameFormat: r.chapter_name_format, format: r.format })),
    now,
    SIMULPUB_MAX,
  );
  if (picked.length === 0) return [];
  const found = new Map((await repo.cardsByIds(db, site.id, picked.map((p) => p.seriesId))).map((r) => [Number(r.id), toSeries(r)]));
  return picked.flatMap((p) => {
    const series = found.get(p.seriesId);
    if (!series) return [];
    const name = displayChapterName(t, site.locale, { format: p.format, chapter_name_format: p.nameFormat }, p.number);
    return [{ series, next: { number: p.number, name, releasedAt: p.releasedAt, when: relativeTime(p.releasedAt, now, site.locale) } }];
  });
}

export interface HomeBlocks {
  hero: HeroSeries[];
  newest: HomeSeries[];
  popular: HomeSeries[];
  exclusive: HomeSeries[];
  categories: HomeTag[];
  spotlight: { tag: HomeTag; series: HomeSeries[] } | null;
  featured: FeaturedSeries[];
  genres: GenreTile[];
  recommended: Recommendations;
  simulpub: SimulpubEntry[];
}

type SharedBlocks = Omit<HomeBlocks, 'recommended'> & { anonymous: Recommendations };

async function loadSharedBlocks(db: DB, site: Site, t: T, now: number): Promise<SharedBlocks> {
  const [hero, newest, popular, exclusive, tags, simulpub] = await Promise.all([
    heroSeries(db, site),
    newestSeries(db, site.id),
    popularSeries(db, site.id),
    exclusiveSeries(db, site.id),
    allTags(db, site.locale),
    simulpubStrip(db, site, t, now),
  ]);
  const categories = tags.filter((x) => x.primary);
  const spotlightTag = categories.length ? categories[dailyIndex(now, categories.length, site.timeZone)]! : null;
  const [spotlightSeries, featured, genres, anonymous] = await Promise.all([
    spotlightTag ? seriesWithTag(db, site.id, spotlightTag.id) : Promise.resolve([]),
    featuredSeries(db, site, t, now, hero.map((s) => s.id)),
    genreTiles(db, site.id, tags),
    recommendations(db, site.id, tags, null, popular[0] ?? null),
  ]);
  return {
    hero, newest, popular, exclusive, categories, featured, genres, simulpub, anonymous,
    spotlight: spotlightTag && spotlightSeries.length ? { tag: spotlightTag, series: spotlightSeries } : null,
  };
}

/**
 * The blocks every visitor of a site shares are remembered for a minute per site: the freshness
 * anonymous pages already promise shared caches (s-maxage=60). A cache, never the source of
 * truth: each process fills its own, a failed load is not kept. On the 10,000-series catalogue
 * the shared blocks take about 30 ms of queries (newest and exclusive series scan the site).
 */
const SHARED_TTL_MS = 60_000;
const shared = createCache<SharedBlocks>({ ttlMs: SHARED_TTL_MS, maxEntries: 4 });
const tagsCache = createCache<HomeTag[]>({ ttlMs: SHARED_TTL_MS, maxEntries: 4 });

/** Everything the home page shows: the shared blocks, and recommendations personal to `userId` when given. */
export async function loadHomeBlocks(db: DB, site: Site, t: T, now: number, userId: number | null): Promise<HomeBlocks> {
  const { anonymous, ...blocks } = await shared.get(String(site.id), () => loadSharedBlocks(db, site, t, now));
  let recommended = anonymous;
  if (userId != null) {
    const tags = await tagsCache.get(site.locale, () => allTags(db, site.locale));
    const personal = await recommendations(db, site.id, tags, userId, blocks.popular[0] ?? null);
    if (personal.basis.kind === 'reader') recommended = personal;
  }
  return { ...blocks, recommended };
}

/** The JSON the page embeds for scripts (recommended comics and simulpub arrive as JSON; the hero's promotional visuals in the API's shape, docs/api.md). */
export function embeddedJson(blocks: Pick<HomeBlocks, 'recommended' | 'simulpub' | 'hero'>, origin: string) {
  const card = (s: HomeSeries) => ({ e4pid: s.e4pid, name: s.name, uslug: s.slug, link: origin + s.href, format: s.format, thumbnail: s.images.thumbnail ? origin + mediaUrl(s.images.thumbnail) : null });
  const abs = (p: string | null) => (p ? origin + p : null);
  return {
    promotions: blocks.hero.flatMap((s) => (s.promotion ? [{
      e4pid: s.e4pid,
      visual_type: s.promotion.visualType,
      fit: s.promotion.fit,
      url: abs(s.promotion.src),
      poster: abs(s.promotion.poster),
      width: s.promotion.width,
      height: s.promotion.height,
      coloring: s.promotion.coloring,
      label: s.promotion.label,
      button: { text: s.promotion.button, link: origin + s.href },
    }] : [])),
    recommended: blocks.recommended.items.map((r) => ({ ...card(r.series), tags: r.tags.map((tag) => ({ id: tag.id, slug: tag.slug, name: tag.name, color: tag.color })) })),
    simulpub: blocks.simulpub.map((e) => ({ ...card(e.series), next: { number: e.next.number, name: e.next.name, saleAt: e.next.releasedAt } })),
  };
}

// ---------------------------------------------------------------------------------------------
// Hover reel

export interface Reel {
  /** Chapter thumbnails (public media URLs), first chapters first. */
  thumbnails: string[];
  /** Reader URL of the first free chapter that can be read now, or null. */
  start: string | null;
  /** The series page (the fallback link). */
  link: string;
}

/**
 * Data for a series card's hover reel: thumbnails of the first released chapters in the site's
 * language (else the series' first language) and the first free readable chapter. Null for an
 * unknown, BLOCKED or DRAFT series.
 */
export async function reelFor(db: DB, e4pid: string, site: Site, now: number): Promise<Reel | null> {
  const series = await repo.reelSeries(db, e4pid);
  // A draft is not published: as unknown as a blocked series.
  if (!series || series.state === 'BLOCKED' || series.state === 'DRAFT') return null;
  const codes = (await repo.languagesWithChapters(db, series.id)).map((l) => l.language);
  const language = codes.includes(site.language) ? site.language : (codes[0] ?? site.language);
  const [rows, campaigns] = await Promise.all([repo.reelChapters(db, series.id, language, now), repo.campaigns(db, series.id)]);
  const thumbnails = rows.map((r) => mediaUrl(r.thumbnail)).filter((u): u is string => !!u).slice(0, REEL_THUMBS);
  // Free for everyone by the one pricing rule: base price, strategy and campaigns.
  const priced = { series: pricedSeriesOf(series), campaigns: campaignsOf(campaigns), lineup: lineupOf(rows.map((r) => ({ number: Number(r.number), released_at: Number(r.released_at) })), now) };
  const free = rows.find((r) => priceChapter({ now, chapter: pricedChapterOf(r), ...priced, reader: null }).readable);
  const shape = { slug: series.slug, format: series.format };
  return {
    thumbnails,
    start: free ? readerPath(shape, { e4pid: free.e4pid, number: Number(free.number), language: free.language }) : null,
    link: seriesPath(shape),
  };
}
