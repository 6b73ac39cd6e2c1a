import type { APIRoute } from 'astro';
import { getDb } from '~/server/db';
import { json, jsonError } from '~/server/http';
import { SAPI_CACHE, requestOrigin, sapiComicDetail } from '~/features/catalog/index.server';

/** GET /sapi/comics/{e4pid}/: one comic, or 404 {"detail": ...} (docs/api.md). */
export const GET: APIRoute = async ({ url, params, locals }) => {
  const comic = await sapiComicDetail(await getDb(), params.e4pid ?? '', { site: locals.site, origin: requestOrigin(url) });
  if (!comic) return jsonError(404, locals.t('error.api.notFound'));
  return json(comic, { cache: SAPI_CACHE, headers: { 'Access-Control-Allow-Origin': '*' } });
};
