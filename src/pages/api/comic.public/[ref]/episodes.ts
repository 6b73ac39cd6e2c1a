import type { APIRoute } from 'astro';
import { getDb } from '~/server/db';
import { findSeries, episodesResponse } from '~/features/catalog/index.server';
import { json, jsonError, varyOnCountry } from '~/server/http';
import { absoluteUrl } from '~/lib/paths';

/** GET {api}/comic.public/{id}/episodes?language={lang}: episodes response (anonymous). */
export const GET: APIRoute = async ({ params, url, locals }) => {
  const db = await getDb();
  const series = await findSeries(db, params.ref ?? '', locals.site.language);
  if (!series) return jsonError(404, locals.t('error.api.notFound'));
  const language = (url.searchParams.get('language') ?? '').toLowerCase().slice(0, 8);
  const abs = absoluteUrl(url);
  const { body, variesByCountry } = await episodesResponse(db, series, language, abs, locals.site, locals.t, locals.now, undefined, locals.country);
  const response = json(body, { cache: 'public, max-age=60, s-maxage=300' });
  if (variesByCountry) varyOnCountry(response.headers);
  return response;
};
