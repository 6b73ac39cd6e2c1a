import type { APIRoute } from 'astro';
import { getDb } from '~/server/db';
import { redirectTo, safeNext } from '~/lib/redirect';
import { bodyErrorKey, field, readForm } from '~/server/body';
import { loginPath } from '~/lib/paths';
import { addComicByForm } from '~/features/subscriptions/index.server';

/**
 * POST /my/subscriptions/add/: the series page's subscribe button without JavaScript. Form
 * `comic_id` (the series' e4pid or id) and `next` (the page to go back to). Puts the series in a
 * slot of the reader's plan as POST /api/subscription/add-comic does, then 303 to `next`, with
 * `?subscribe={noPlan|noSlots|unavailable|missing}` when nothing was added. Signed out: to the
 * login page, back to `next`.
 */
export const POST: APIRoute = async ({ request, locals }) => {
  const headers = { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' };
  const form = await readForm(request);
  if (!form.ok) return new Response(locals.t(bodyErrorKey(form)), { status: form.status, headers });
  const next = safeNext(field(form.value, 'next', 2048), '/');
  if (!locals.user) return redirectTo(loginPath(next));
  const result = await addComicByForm(await getDb(), { userId: locals.user.id, comicId: field(form.value, 'comic_id', 80), next, now: locals.now }, locals.t);
  return redirectTo(result.location);
};
