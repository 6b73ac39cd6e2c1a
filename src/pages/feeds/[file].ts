import type { APIRoute } from 'astro';
import { NOT_FOUND_PATH } from '~/lib/paths';
import { getDb } from '~/server/db';
import { siteFeed } from '~/features/schedule/index.server';
import { FEED_CACHE, FEED_TYPE } from '~/features/schedule';

/** /feeds/latest.xml: RSS of the site's newest chapters (docs/api.md, "Feeds"). */
export const GET: APIRoute = async ({ url, params, locals, rewrite }) => {
  if (params.file !== 'latest.xml') return rewrite(NOT_FOUND_PATH);
  const xml = await siteFeed(await getDb(), { site: locals.site, t: locals.t, now: locals.now, origin: `${url.protocol}//${url.host}` });
  return new Response(xml, { headers: { 'Content-Type': FEED_TYPE, 'Cache-Control': FEED_CACHE } });
};
