import type { APIRoute } from 'astro';
import { getDb } from '~/server/db';
import { redirectTo, safeNext } from '~/lib/redirect';
import { bodyErrorKey, field, readForm } from '~/server/body';
import { isSeriesRef } from '~/features/library';
import { setNotify } from '~/features/library/index.server';
import { loginPath, favoritesPath } from '~/lib/paths';

/**
 * POST /my/notifications/notify/: the favorite's notify switch without JavaScript. Fields:
 * `series` (e4pid), `notify` ("1" on, "0" off), `next` (a path on this site). 303 back to `next`.
 * On favorites the series too.
 */
export const POST: APIRoute = async ({ request, locals }) => {
  const headers = { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' };
  const parsed = await readForm(request);
  if (!parsed.ok) return new Response(locals.t(bodyErrorKey(parsed)), { status: parsed.status, headers });
  const form = parsed.value;
  const next = safeNext(field(form, 'next', 2048), favoritesPath());
  if (!locals.user) return redirectTo(loginPath(next));
  const ref = field(form, 'series', 64);
  if (!isSeriesRef(ref)) return new Response(locals.t('error.api.notFound'), { status: 404, headers });
  const result = await setNotify(await getDb(), locals.user.id, ref, field(form, 'notify', 4) === '1', locals.now);
  if (!result.ok) return new Response(locals.t('error.api.notFound'), { status: 404, headers });
  return redirectTo(next);
};
