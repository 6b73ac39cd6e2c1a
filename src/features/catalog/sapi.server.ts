/**
 * The anonymous JSON comics API (/sapi/comics, /sapi/comics/{e4pid}); documented in docs/api.md.
 * Field names follow the original API (uslug, link, ...), so they are snake_case on purpose.
 */
import { seriesLocalizer } from './texts.server';
import type { DB } from '~/server/db';
import type { Site } from '~/lib/site';
import { cleanQuery } from './listing';
import { SAPI_MAX_SKIP, type SapiQuery } from './sapi-query';
import { normalizeQuery } from '~/lib/search-text';
import { querySeries, type ListingItem, type ListingSearch } from './listing.server';
import { findSeriesByE4pid, seriesLanguages, tagIdsBySlugs } from './repository.server';
import { comicJson } from './api.server';
import { parseImages, type SeriesImages } from './images';
import { seriesPath, mediaUrl } from '~/lib/paths';
import type { Format } from './rules';

export const SAPI_CACHE = 'public, max-age=60, s-maxage=300';
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

/**
 * One page of the comic query (sapi-query.ts) over the requested sites (the requesting site's by
 * default). `next` keeps every parameter and moves on by the form the caller used: `page` for the
 * spec's `ordering`/`page` call, `skip` otherwise. Unknown tags, publishers and people match
 * nothing (an empty page, not an error: they are well-formed). `favoritedBy` is the signed-in
 * reader when `favorited` is asked for (the route refuses it signed out).
 */
export async function sapiComicList(
  db: DB,
  opts: { site: Site; query: SapiQuery; params: URLSearchParams; origin: string; favoritedBy: number | null; search: ListingSearch },
): Promise<SapiPage> {
  const q = opts.query;
  const siteIds = q.siteIds ?? [opts.site.id as 1 | 3];
  const empty = { results: [], next: null, count: 0 };
  const tagIds = q.tags.length ? await tagIdsBySlugs(db, q.tags) : [];
  if (tagIds.length < q.tags.length) return empty;
  const text = normalizeQuery(cleanQuery(q.query)).text;
  const found = text ? await opts.search(q.query, siteIds, opts.site.language) : null;
  const { items, total } = await querySeries(db, {
    siteIds,
    search: found && { text, ids: found.ids },
    formats: q.formats,
    tagIds,
    publisherId: q.publisher,
    personId: q.person,
    complete: q.complete,
    exclusive: q.exclusive,
    favoritedBy: q.favorited ? opts.favoritedBy : null,
    order: q.order,
    offset: q.skip,
    limit: q.limit,
    language: opts.site.language,
  });
  const end = q.skip + q.limit;
  let next: string | null = null;
  if (end < total && end <= SAPI_MAX_SKIP) {
    const params = new URLSearchParams();
    if (q.legacy) {
      params.set('ordering', q.legacy.ordering);
      params.set('page', String(q.legacy.page + 1));
    }
    for (const [k, v] of opts.params) if (!['ordering', 'page', 'skip'].includes(k) || (!q.legacy && k === 'ordering')) params.append(k, v);
    if (!q.legacy) params.set('skip', String(end));
    next = `${opts.origin}/sapi/comics/?${params.toString()}`;
  }
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
