/**
 * The browse pages (docs/home.md, "Browse pages"): /genres/, /new/, /top/ and
 * /collections/{slug}/. Each is a whole version of a home block, with the home's own queries and
 * its notion of what a site shows (ACTIVE, not adult, listed on the site: a series the site does
 * not list never appears). Shared by every visitor of a site, so remembered a minute per site,
 * like the home blocks (the pages' own s-maxage).
 */
import type { DB } from '~/server/db';
import type { Site } from '~/lib/site';
import { createCache } from '~/server/cache';
import * as repo from './repository.server';
import { allTags, newestSeries, seriesWithTag, toSeries, type HomeSeries, type HomeTag } from './home.server';
import { BROWSE_CARDS, GENRE_IMAGE_BUDGET, genreCardsPerTag, isCollectionSlug, TOP_PER_FORMAT } from './browse';

const TTL_MS = 60_000;

export interface GenreSection {
  tag: HomeTag;
  series: HomeSeries[];
}

export interface CollectionSummary {
  slug: string;
  title: string;
  description: string;
}

export interface GenresPage {
  genres: GenreSection[];
  collections: CollectionSummary[];
}

const genresCache = createCache<GenresPage>({ ttlMs: TTL_MS, maxEntries: 4 });

/**
 * Every tag with series on the site, each with its most popular series (how many: genreCardsPerTag,
 * so the page stays within its image budget), and the site's collections.
 */
export function genresPage(db: DB, site: Site): Promise<GenresPage> {
  return genresCache.get(String(site.id), async () => {
    const [tags, collections] = await Promise.all([allTags(db, site.locale), collectionList(db, site.id)]);
    const per = genreCardsPerTag(tags.length, GENRE_IMAGE_BUDGET);
    const sections = await Promise.all(tags.map(async (tag) => ({ tag, series: await seriesWithTag(db, site.id, tag.id, per) })));
    return { genres: sections.filter((s) => s.series.length > 0), collections };
  });
}

/** The site's collections, in their order. */
export async function collectionList(db: DB, siteId: number): Promise<CollectionSummary[]> {
  return (await repo.collections(db, siteId)).map((c) => ({ slug: c.slug, title: c.title, description: c.description }));
}

const newCache = createCache<HomeSeries[]>({ ttlMs: TTL_MS, maxEntries: 4 });

/** The newest series of the site (the home's new-series block, longer). */
export function newSeriesPage(db: DB, site: Site): Promise<HomeSeries[]> {
  return newCache.get(String(site.id), () => newestSeries(db, site.id, BROWSE_CARDS));
}

export interface TopSection {
  format: 'MANGA' | 'WEBTOON' | 'COMIC';
  series: HomeSeries[];
}

const FORMATS = ['MANGA', 'WEBTOON', 'COMIC'] as const;
const topCache = createCache<TopSection[]>({ ttlMs: TTL_MS, maxEntries: 4 });

/** The most popular series of each format the site has (the home's popularity order), formats without series left out. */
export function topPage(db: DB, site: Site): Promise<TopSection[]> {
  return topCache.get(String(site.id), async () => {
    const sections = await Promise.all(FORMATS.map(async (format) => ({
      format,
      series: (await repo.popularCardsOfFormat(db, site.id, format, TOP_PER_FORMAT)).map(toSeries),
    })));
    return sections.filter((s) => s.series.length > 0);
  });
}

export interface CollectionPage extends CollectionSummary {
  series: HomeSeries[];
}

const collectionCache = createCache<CollectionPage | null>({ ttlMs: TTL_MS, maxEntries: 64 });

/** One collection of the site with its series in order; null for a slug the site does not have (a 404). */
export function collectionPage(db: DB, site: Site, slug: string): Promise<CollectionPage | null> {
  // A malformed slug never reaches the database (nor the cache).
  if (!isCollectionSlug(slug)) return Promise.resolve(null);
  return collectionCache.get(`${site.id}:${slug}`, async () => {
    const row = await repo.collectionBySlug(db, site.id, slug);
    if (!row) return null;
    const series = (await repo.collectionCards(db, site.id, Number(row.id), BROWSE_CARDS)).map(toSeries);
    return { slug: row.slug, title: row.title, description: row.description, series };
  });
}
