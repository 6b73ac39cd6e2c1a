import type { APIRoute } from 'astro';
import { getDb } from '~/server/db';
import { findSeries, episodesResponse } from '~/features/catalog/index.server';
import { json, jsonError } from '~/server/http';
import { apiCaller, progressForSeries } from '~/features/library/index.server';
import { absoluteUrl } from '~/lib/paths';
import { entitlementsInSeries } from '~/features/wallet/index.server';

/** GET {api}/comic/{id}/episodes?language={lang}&token={token}: the episodes response with the reader's progress, owned and rented episodes. */
export const GET: APIRoute = async ({ params, url, locals }) => {
  const { t, now, user } = locals;
  const db = await getDb();
  const caller = await apiCaller(db, url, user?.id ?? null, now, { expired: t('error.token.expired'), invalid: t('error.token.invalid'), login: t('error.api.loginEpisodes') });
  if (!caller.ok) return caller.response;
  const series = await findSeries(db, params.ref ?? '', locals.site.language);
  if (!series) return jsonError(404, t('error.api.notFound'));
  const language = (url.searchParams.get('language') ?? '').toLowerCase().slice(0, 8);
  const abs = absoluteUrl(url);
  const progress = await progressForSeries(db, caller.userId, series.id);
  const { body } = await episodesResponse(db, series, language, abs, locals.site, t, now, progress, locals.country, (seriesId) => entitlementsInSeries(db, caller.userId, seriesId, now));
  return json(body, { cache: 'private, no-store' });
};
