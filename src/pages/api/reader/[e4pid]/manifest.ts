/**
 * The chapter manifest (DiViNa-style WebPub JSON, see src/features/reader/manifest.ts):
 *   GET /api/reader/{e4pid}/manifest/
 * Readable: 200 with signed page URLs. Locked, blocked, removed or region-blocked: 403 {detail}.
 * Scheduled or unknown: 404 {detail}. Never any page URL unless the chapter is readable.
 */
import type { APIRoute } from 'astro';
import { getDb } from '~/server/db';
import { json, jsonError } from '~/server/http';
import { loadReaderByE4pid, manifestOf, readerWords } from '~/features/reader/index.server';

export const GET: APIRoute = async ({ params, locals }) => {
  const { t } = locals;
  const result = await loadReaderByE4pid(await getDb(), params.e4pid ?? '', locals);
  if (result.kind !== 'ok') return jsonError(404, t('error.api.notFound'));
  const { model } = result;
  switch (model.state) {
    case 'readable':
      // application/json rather than application/divina+json so the middleware compresses it;
      // private and short-lived: the page URLs inside are signed and expire.
      return json(manifestOf(model), { cache: 'private, max-age=60', headers: { Vary: 'Cookie' } });
    case 'scheduled':
      return jsonError(404, t('reader.scheduled.title'));
    case 'locked':
      return jsonError(403, readerWords(t, model.series.format).locked);
    case 'region':
      return jsonError(403, t('series.blocked.region', { countries: model.country ?? '' }));
    case 'removed':
      return jsonError(403, t('series.removed'));
    case 'adult':
      return jsonError(403, t('adult.gate.title'));
    default:
      return jsonError(403, t('series.blocked.unavailable'));
  }
};
