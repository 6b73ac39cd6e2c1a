import type { APIRoute } from 'astro';
import { getDb } from '../../../../../../server/db';
import { json, jsonError } from '../../../../../../server/http';
import { absoluteUrl } from '../../../../../../features/catalog/media';
import { relayResponse } from '../../../../../../features/schedule/relay.server';
import { RELAY_CACHE } from '../../../../../../features/schedule/relay';

/** GET /relay/consumer/{publisher}/series/{ids}/updates (docs/api.md, "Relay"). */
export const GET: APIRoute = async ({ params, url, locals }) => {
  const answer = await relayResponse(
    await getDb(),
    { publisher: params.publisher, ids: params.ids, search: url.searchParams, site: locals.site, t: locals.t, now: locals.now, abs: absoluteUrl(url) },
    'updates',
  );
  if (answer.status !== 200) return jsonError(answer.status, answer.detail);
  return json(answer.body, { cache: RELAY_CACHE, headers: { 'Access-Control-Allow-Origin': '*' } });
};
