import type { APIRoute } from 'astro';
import { getDb } from '~/server/db';
import { json } from '~/server/http';
import { parsePage } from '~/features/catalog';
import { SAPI_CACHE, parseOrdering, requestOrigin, sapiComicList } from '~/features/catalog/index.server';

/** GET /sapi/comics/?ordering=-last_updated&page=n: the current site's series, 24 a page (docs/api.md). */
export const GET: APIRoute = async ({ url, locals }) => {
  const ordering = parseOrdering(url.searchParams.get('ordering'));
  const page = parsePage(url.searchParams.get('page'));
  const body = await sapiComicList(await getDb(), { site: locals.site, ordering, page, origin: requestOrigin(url) });
  return json(body, { cache: SAPI_CACHE, headers: { 'Access-Control-Allow-Origin': '*' } });
};
