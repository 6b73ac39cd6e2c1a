/** The add-comic call as both routes answer it (`/api/subscription/add-comic` and `/sapi/…`). */
import type { APIRoute } from 'astro';
import { getDb } from '~/server/db';
import { readJson } from '~/server/body';
import { json } from '~/server/http';
import { addComic } from './subscriptions.server';

export const addComicRoute: APIRoute = async ({ request, locals }) => {
  const { t, user, now } = locals;
  if (!user) return json({ success: false, error: t('wallet.error.login'), slots_left: 0 }, { status: 401, cache: 'no-store' });
  const body = await readJson(request);
  if (!body.ok) return json({ success: false, error: t('subscribe.error.missing'), slots_left: 0 }, { status: body.status, cache: 'no-store' });
  const comicId = body.value && typeof body.value === 'object' && !Array.isArray(body.value) ? (body.value as Record<string, unknown>).comic_id : undefined;
  const answer = await addComic(await getDb(), { userId: user.id, comicId, now }, t);
  return json(answer.body, { status: answer.status, cache: 'no-store' });
};
