/**
 * GET /home/reel/{e4pid}/: the data a series card's hover reel loads on first hover
 * (src/features/home/reel.client.ts): chapter thumbnails, the first free chapter's reader URL and the
 * series page. Public and the same for every visitor of a site, so shared caches keep it.
 */
import type { APIRoute } from 'astro';
import { getDb } from '~/server/db';
import { json, jsonError } from '~/server/http';
import { reelFor } from '~/features/home/index.server';

const E4PID = /^SER-[A-Za-z0-9_-]{1,40}$/;

export const GET: APIRoute = async ({ params, locals }) => {
  const e4pid = params.e4pid ?? '';
  if (!E4PID.test(e4pid)) return jsonError(404, locals.t('error.api.notFound'));
  const reel = await reelFor(await getDb(), e4pid, locals.site, locals.now);
  if (!reel) return jsonError(404, locals.t('error.api.notFound'));
  return json(reel, { cache: 'public, max-age=300, s-maxage=300', headers: { 'X-Robots-Tag': 'noindex' } });
};
