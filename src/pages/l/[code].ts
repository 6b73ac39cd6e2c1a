import type { APIRoute } from 'astro';
import { getDb } from '~/server/db';
import { redirectTo } from '~/lib/redirect';
import { NOT_FOUND_PATH } from '~/lib/paths';
import { followShareLink } from '~/features/studio/index.server';

/**
 * GET /l/{code}: a staff member's share link (POST /_/dynamic_link). 302 to the chapter it was
 * made for on this site, counting the visit; an unknown or malformed code is the site's 404.
 * Never cached: every visit counts (a HEAD answers the same without counting).
 */
export const GET: APIRoute = async ({ params, locals, rewrite, request }) => {
  const path = await followShareLink(await getDb(), locals.site.id, params.code ?? '', request.method !== 'HEAD');
  if (!path) return rewrite(NOT_FOUND_PATH);
  const res = redirectTo(path, 302);
  res.headers.set('Cache-Control', 'no-store');
  return res;
};
