/**
 * Search suggestions for the search bar overlay (spec sections 2, 5 and 7):
 * GET /search/suggest/?cover=true&q={text}&site_id={1|3} (or show_all_sites=true) answers
 * `[term, names[], excerpts[], links[], thumbnails[], site_ids[]]`; no results is a 404 with
 * empty arrays. Documented in docs/api.md.
 */
import type { DB } from '../../server/db';
import { hostForSite, type Site, type SiteId } from '../../lib/site';
import { mediaUrl, parseImages } from '../catalog/media';
import { seriesPath } from '../reader/urls';
import { normalizeQuery, truncateQuery } from './normalize';
import { searchSeries, seriesSites } from './index.server';

export const SUGGEST_LIMIT = 8;
export const SUGGEST_CACHE = 'public, max-age=60, s-maxage=300';

export type Suggestions = [term: string, names: string[], excerpts: string[], links: string[], thumbnails: string[], siteIds: number[][]];

/** Sites to search: site_id=1|3, show_all_sites=true for both; anything else is the current site. */
export function suggestSites(params: URLSearchParams, current: Site): SiteId[] {
  if ((params.get('show_all_sites') ?? '').toLowerCase() === 'true') return [1, 3];
  const raw = (params.get('site_id') ?? '').trim();
  if (raw === '1') return [1];
  if (raw === '3') return [3];
  return [current.id];
}

export async function suggest(db: DB, opts: { q: string | null; cover: boolean; siteIds: readonly SiteId[]; site: Site; protocol: string; host: string }): Promise<Suggestions> {
  const term = truncateQuery(opts.q).trim();
  const out: Suggestions = [term, [], [], [], [], []];
  if (!normalizeQuery(term).terms.length) return out;
  const hits = await searchSeries(db, term, { siteIds: opts.siteIds, limit: SUGGEST_LIMIT });
  const sites = await seriesSites(db, hits.map((h) => h.id));
  const origin = (site: SiteId) => `${opts.protocol}//${hostForSite(opts.host, site)}`;
  for (const h of hits) {
    const on = sites.get(h.id) ?? [];
    // Link to the series on the current site when it is shown there, else on the site that shows it.
    const linkSite: SiteId = on.includes(opts.site.id) || !on.length ? opts.site.id : (on[0] as SiteId);
    const thumb = opts.cover ? mediaUrl(parseImages(h.images).thumbnail_70) : null;
    out[1].push(h.name);
    out[2].push(h.excerpt);
    out[3].push(origin(linkSite) + seriesPath(h));
    out[4].push(thumb ? origin(opts.site.id) + thumb : '');
    out[5].push(on);
  }
  return out;
}
