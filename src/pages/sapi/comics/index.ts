import type { APIRoute } from 'astro';
import { getDb } from '~/server/db';
import { json, jsonError } from '~/server/http';
import { SAPI_CACHE, parseSapiQuery, requestOrigin, sapiComicList } from '~/features/catalog/index.server';
import { searchSeries } from '~/features/search/index.server';

/**
 * GET /sapi/comics/: the comic query (skip, limit, query, format, sort, invert, publisher, person,
 * tags[], complete, exclusive, favorited, languages[]) and the spec's `ordering`/`page` call
 * (docs/api.md). A bad value is 400 {detail}; `favorited` needs a signed-in reader and is private.
 */
export const GET: APIRoute = async ({ url, locals }) => {
  const parsed = parseSapiQuery(url.searchParams);
  if (!parsed.ok) return jsonError(400, locals.t('error.api.badParam', { param: parsed.param }));
  const favorited = parsed.query.favorited;
  if (favorited && !locals.user) return jsonError(401, locals.t('error.api.loginFavorited'));
  const db = await getDb();
  const body = await sapiComicList(db, {
    site: locals.site, query: parsed.query, params: url.searchParams, origin: requestOrigin(url), favoritedBy: locals.user?.id ?? null,
    search: (q, sites, language) => searchSeries(db, q, sites, language),
  });
  return favorited
    ? json(body, { cache: 'private, no-store' })
    : json(body, { cache: SAPI_CACHE, headers: { 'Access-Control-Allow-Origin': '*' } });
};
