import type { APIRoute } from 'astro';
import { getDb } from '../../../server/db';
import { json, jsonError } from '../../../server/http';
import { isForeignMutation, isSeriesRef } from '../../../features/library/favorites';
import { setFavorite } from '../../../features/library/favorites.server';

/**
 * POST favorites a series, DELETE unfavorites it (spec section 7, "favorite endpoint").
 * Same-origin only, session required, idempotent; answers `{ favorited }`.
 */
const handle = (on: boolean): APIRoute => async ({ params, request, url, locals }) => {
  if (isForeignMutation(request.headers, url.origin)) return jsonError(403, locals.t('favorites.error.crossSite'));
  if (!locals.user) return jsonError(401, locals.t('favorites.error.login'));
  const ref = params.e4pid ?? '';
  if (!isSeriesRef(ref)) return jsonError(404, locals.t('error.api.notFound'));
  const result = await setFavorite(await getDb(), locals.user.id, ref, on, locals.now);
  if (!result.ok) return jsonError(404, locals.t('error.api.notFound'));
  return json({ favorited: result.favorited }, { cache: 'no-store' });
};

export const POST = handle(true);
export const DELETE = handle(false);
