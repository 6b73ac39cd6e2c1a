import type { APIRoute } from 'astro';
import { getDb } from '~/server/db';
import { json, jsonError } from '~/server/http';
import { isSeriesRef } from '~/features/library';
import { setFavorite } from '~/features/library/index.server';

/**
 * POST favorites a series, DELETE unfavorites it ("favorite endpoint").
 * Session required (the middleware already refused foreign origins), idempotent; answers `{ favorited }`.
 */
const handle = (on: boolean): APIRoute => async ({ params, locals }) => {
  if (!locals.user) return jsonError(401, locals.t('favorites.error.login'));
  const ref = params.e4pid ?? '';
  if (!isSeriesRef(ref)) return jsonError(404, locals.t('error.api.notFound'));
  const result = await setFavorite(await getDb(), locals.user.id, ref, on, locals.now);
  if (!result.ok) return jsonError(404, locals.t('error.api.notFound'));
  return json({ favorited: result.favorited }, { cache: 'no-store' });
};

export const POST = handle(true);
export const DELETE = handle(false);
