import type { APIRoute } from 'astro';
import { NOT_FOUND_PATH } from '~/lib/paths';
import { getDb } from '~/server/db';
import { seriesFeed } from '~/features/schedule/index.server';
import { FEED_CACHE, FEED_TYPE } from '~/features/schedule';

/** /feeds/comics/{slug}.xml: RSS of one series' newest chapters; unknown series 404. */
export const GET: APIRoute = async ({ url, params, locals, rewrite }) => {
  const m = /^([a-z0-9-]{1,200})\.xml$/.exec(params.file ?? '');
  if (!m) return rewrite(NOT_FOUND_PATH);
  const xml = await seriesFeed(await getDb(), m[1]!, { site: locals.site, t: locals.t, now: locals.now, origin: `${url.protocol}//${url.host}` });
  if (xml == null) return rewrite(NOT_FOUND_PATH);
  return new Response(xml, { headers: { 'Content-Type': FEED_TYPE, 'Cache-Control': FEED_CACHE } });
};
