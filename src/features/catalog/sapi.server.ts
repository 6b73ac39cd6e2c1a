/**
 * The anonymous JSON comics API (/sapi/comics, /sapi/comics/{e4pid}); documented in docs/api.md.
 * Field names follow the original API (uslug, link, ...), so they are snake_case on purpose.
 */
import { seriesLocalizer } from './texts.server';
import type { DB } from '~/server/db';
import type { Site } from '~/lib/site';
import { PAGE_SIZE, MAX_PAGE, type Order } from './listing';
import { querySeries, type ListingItem } from './listing.server';
import { findSeriesByE4pid, seriesLanguages } from './repository.server';
import { comicJson } from './api.server';
import { parseImages, type SeriesImages } from './images';
import { seriesPath, mediaUrl, sapiComicsPath } from '~/lib/paths';
import type { Format } from './rules';

export const SAPI_CACHE = 'public, max-age=60, s-maxage=300';
export const SAPI_ORDERINGS = ['-last_updated', 'last_updated', '-name', 'name'] as const;
export type SapiOrdering = (typeof SAPI_ORDERINGS)[number];
export const DEFAULT_SAPI_ORDERING: SapiOrdering = '-last_updated';

export interface SapiComic {
  e4pid: string;
  /** ISO 8601, UTC. */
  last_updated: string;
  name: string;
  uslug: string;
  /** Absolute URL of the series page on the requesting host. */
  link: string;
  format: Format;
  color: string;
  thumbnail: string | null;
  cover: string | null;
}

/** The spec's comic (section 3, as `/api/comic.public/` has it) plus the list's fields and the series' languages. */
export type SapiComicDetail = Awaited<ReturnType<typeof comicJson>> & Pick<SapiComic, 'thumbnail' | 'cover'> & {
  /** Content language codes the series has (e.g. ["en", "pt-br"]). */
  languages: string[];
};

export interface SapiPage {
  results: SapiComic[];
  next: string | null;
  count: number;
}

/** `ordering`: last_updated or name, `-` for descending; anything else is -last_updated. */
export function parseOrdering(raw: string | null | undefined): SapiOrdering {
  const v = (raw ?? '').trim();
  return (SAPI_ORDERINGS as readonly string[]).includes(v) ? (v as SapiOrdering) : DEFAULT_SAPI_ORDERING;
}

function orderFor(ordering: SapiOrdering): Order {
  return { key: ordering.endsWith('name') ? 'name' : 'updated', desc: ordering.startsWith('-') };
}

/**
 * `proto://host` of the request, for absolute links. Astro.url is built from Host /
 * X-Forwarded-Host only for hosts in security.allowedDomains, so a forged header cannot
 * end up in cached links (docs/decisions.md, "Hosts").
 */
export function requestOrigin(url: URL): string {
  return `${url.protocol}//${url.host}`;
}

function absolute(origin: string, path: string | null): string | null {
  return path ? origin + path : null;
}

export function isoTime(unixSeconds: number): string {
  const ms = Number(unixSeconds) * 1000;
  return Number.isFinite(ms) ? new Date(ms).toISOString() : new Date(0).toISOString();
}

function toComic(s: { e4pid: string; lastUpdated: number; name: string; slug: string; format: Format; color: string; images: SeriesImages }, origin: string): SapiComic {
  return {
    e4pid: s.e4pid,
    last_updated: isoTime(s.lastUpdated),
    name: s.name,
    uslug: s.slug,
    link: origin + seriesPath(s),
    format: s.format,
    color: s.color,
    thumbnail: absolute(origin, mediaUrl(s.images.thumbnail)),
    cover: absolute(origin, mediaUrl(s.images.cover)),
  };
}

/** One page (24) of the current site's series. A page past the end has no results and no next. */
export async function sapiComicList(db: DB, opts: { site: Site; ordering: SapiOrdering; page: number; origin: string }): Promise<SapiPage> {
  const page = Math.min(MAX_PAGE, Math.max(1, Math.floor(opts.page) || 1));
  const { items, total } = await querySeries(db, {
    siteIds: [opts.site.id],
    order: orderFor(opts.ordering),
    offset: (page - 1) * PAGE_SIZE,
    limit: PAGE_SIZE,
    language: opts.site.language,
  });
  const hasNext = page * PAGE_SIZE < total && page < MAX_PAGE;
  const next = hasNext ? opts.origin + sapiComicsPath({ ordering: opts.ordering, page: page + 1 }) : null;
  return { results: items.map((i: ListingItem) => toComic(i, opts.origin)), next, count: total };
}

/** One comic by e4pid, or null when there is none (or it is blocked everywhere). */
export async function sapiComicDetail(db: DB, e4pid: string, opts: { site: Site; origin: string }): Promise<SapiComicDetail | null> {
  if (!/^SER-[A-Za-z0-9_-]{1,40}$/.test(e4pid)) return null;
  const found = await findSeriesByE4pid(db, e4pid);
  const row = found && (await seriesLocalizer(db, opts.site.language))(found);
  if (!row || row.state === 'BLOCKED') return null;
  const [comic, languages] = await Promise.all([comicJson(db, row, (path) => absolute(opts.origin, path), opts.site), seriesLanguages(db, Number(row.id))]);
  return {
    ...toComic({ e4pid: row.e4pid, lastUpdated: Number(row.last_updated), name: row.name, slug: row.slug, format: row.format, color: row.color, images: parseImages(row.images) }, opts.origin),
    ...comic,
    languages: languages.map((l) => l.language),
  };
}
