import type { APIRoute } from 'astro';
import { getDb } from '~/server/db';
import { json, varyOnCountry } from '~/server/http';
import { SUGGEST_CACHE, suggest, suggestSites } from '~/features/search/index.server';

/**
 * GET /search/suggest/?cover=true&q={text}&site_id={1|3} (or show_all_sites=true): search
 * suggestions `[term, names[], excerpts[], links[], thumbnails[], site_ids[]]`; 404 (same shape,
 * empty arrays) when nothing matches or the query is shorter than 2 characters (docs/api.md).
 */
export const GET: APIRoute = async ({ url, locals }) => {
  const params = url.searchParams;
  const body = await suggest(await getDb(), {
    q: params.get('q'),
    cover: (params.get('cover') ?? '').toLowerCase() === 'true',
    siteIds: suggestSites(params, locals.site),
    site: locals.site,
    protocol: url.protocol,
    host: url.host,
    // Series blocked in the reader's country are never suggested.
    country: locals.country,
  });
  const response = json(body, { status: body[1].length ? 200 : 404, cache: SUGGEST_CACHE });
  varyOnCountry(response.headers);
  return response;
};
