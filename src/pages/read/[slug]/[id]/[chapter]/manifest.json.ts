/**
 * The chapter manifest (DiViNa-style WebPub JSON, see src/features/reader/manifest.ts):
 *   /read/{slug}/{id}/{prefix}-{number}/manifest.json
 * Readable: 200 with signed page URLs. Locked, blocked, removed or region-blocked: 403 {detail}.
 * Scheduled or unknown: 404 {detail}. A non-canonical slug or segment: 301 to the canonical one.
 */
import type { APIRoute } from 'astro';
import { getDb } from '../../../../../server/db';
import { jsonError, json } from '../../../../../server/http';
import { loadReader, manifestOf } from '../../../../../features/reader/reader.server';

export const GET: APIRoute = async ({ params, locals }) => {
  const { t } = locals;
  const result = await loadReader(await getDb(), params, locals, 'manifest.json');
  if (result.kind === 'notFound') return jsonError(404, t('error.api.notFound'));
  if (result.kind === 'redirect') {
    return new Response(null, { status: 301, headers: { Location: result.location, 'Cache-Control': 'public, max-age=3600' } });
  }
  const { model } = result;
  switch (model.state) {
    case 'readable':
      // Served as application/json (compressible by the middleware); links inside use application/divina+json.
      return json(manifestOf(model), {
        // Private: the page URLs inside are signed for this reader; short so a refresh gets new ones.
        cache: 'private, max-age=60',
      });
    case 'scheduled':
      return jsonError(404, t('reader.scheduled.title'));
    case 'locked':
      return jsonError(403, t('reader.locked.title'));
    case 'region':
      return jsonError(403, t('series.blocked.region', { countries: model.country ?? '' }));
    case 'removed':
      return jsonError(403, t('series.removed'));
    default:
      return jsonError(403, t('series.blocked.unavailable'));
  }
};
