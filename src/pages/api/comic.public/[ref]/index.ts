import type { APIRoute } from 'astro';
import { getDb } from '~/server/db';
import { findSeries, comicResponseV2 } from '~/features/catalog/index.server';
import { json, jsonError } from '~/server/http';
import { absoluteUrl } from '~/lib/paths';

/** GET {api}/comic.public/{id or e4pid}: comic response v2. */
export const GET: APIRoute = async ({ params, url, locals }) => {
  const db = await getDb();
  const series = await findSeries(db, params.ref ?? '', locals.site.language);
  if (!series) return jsonError(404, locals.t('error.api.notFound'));
  const abs = absoluteUrl(url);
  return json(await comicResponseV2(db, series, abs, locals.site, locals.t), { cache: 'public, max-age=60, s-maxage=300' });
};
