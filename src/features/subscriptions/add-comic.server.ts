/** The add-comic call as both routes answer it (`/api/subscription/add-comic` and `/sapi/…`), and the subscribe form without JavaScript. */
import type { APIRoute } from 'astro';
import { getDb } from '~/server/db';
import { readJson } from '~/server/body';
import { json } from '~/server/http';
import type { T } from '~/lib/i18n';
import type { DB } from '~/server/db';
import { addComic } from './subscriptions.server';
import { backTo, noticeOf } from './subscribe-button';

export const addComicRoute: APIRoute = async ({ request, locals }) => {
  const { t, user, now } = locals;
  if (!user) return json({ success: false, error: t('subscribe.error.loginSeries'), slots_left: 0 }, { status: 401, cache: 'no-store' });
  const body = await readJson(request);
  if (!body.ok) return json({ success: false, error: t('subscribe.error.missing'), slots_left: 0 }, { status: body.status, cache: 'no-store' });
  const comicId = body.value && typeof body.value === 'object' && !Array.isArray(body.value) ? (body.value as Record<string, unknown>).comic_id : undefined;
  const answer = await addComic(await getDb(), { userId: user.id, comicId, now }, t);
  return json(answer.body, { status: answer.status, cache: 'no-store' });
};

/**
 * The subscribe button without JavaScript (POST /my/subscriptions/add/): the same call, then back
 * to `next` (a checked local path: the series page), with `?subscribe=` saying why when nothing
 * was added; a subscribed series shows as such on the page itself.
 */
export async function addComicByForm(db: DB, input: { userId: number; comicId: string; next: string; now: number }, t: T): Promise<{ location: string }> {
  const answer = await addComic(db, { userId: input.userId, comicId: input.comicId, now: input.now }, t);
  return { location: backTo(input.next, noticeOf(answer.status)) };
}
