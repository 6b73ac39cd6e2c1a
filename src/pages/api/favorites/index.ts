import type { APIRoute } from 'astro';
import { getDb } from '~/server/db';
import { json, jsonError, intParam } from '~/server/http';
import { favoritesListResponse } from '~/features/library/index.server';
import { absoluteUrl } from '~/lib/paths';

/** GET /api/favorites/?page=1&language=: the reader's favorited comic list. */
export const GET: APIRoute = async ({ url, locals }) => {
  if (!locals.user) return jsonError(401, locals.t('favorites.error.login'));
  const page = intParam(url.searchParams.get('page'), 1, 1, 10_000);
  const language = (url.searchParams.get('language') ?? '').trim().toLowerCase().slice(0, 8);
  const abs = absoluteUrl(url);
  const body = await favoritesListResponse(await getDb(), locals.user.id, { page, language: /^[a-z]{2}(-[a-z]{2})?$/.test(language) ? language : null, now: locals.now, site: locals.site, t: locals.t, abs });
  return json(body, { cache: 'private, no-store' });
};
