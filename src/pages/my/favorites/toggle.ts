import type { APIRoute } from 'astro';
import { getDb } from '../../../server/db';
import { safeNext } from '../../../lib/redirect';
import { field, readForm } from '../../../features/accounts/request.server';
import { isForeignMutation, isSeriesRef } from '../../../features/library/favorites';
import { setFavorite } from '../../../features/library/favorites.server';
import { loginPath } from '../../../features/reader/urls';

/**
 * POST /my/favorites/toggle/: the no-JavaScript favorite button. Fields: `series` (e4pid),
 * `favorite` ("1" to favorite, "0" to remove), `next` (a path on this site). 303 back to `next`.
 */
export const POST: APIRoute = async ({ request, url, locals, redirect }) => {
  const headers = { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' };
  // A top-level form submission from our own page is `same-origin`; `none` never posts a form.
  // Stricter than isCrossSite: any Sec-Fetch-Site but same-origin is refused too.
  if (isForeignMutation(request.headers, url.origin)) {
    return new Response(locals.t('favorites.error.crossSite'), { status: 403, headers });
  }
  const parsed = await readForm(request);
  if (!parsed.ok) return new Response(locals.t(parsed.error), { status: 400, headers });
  const next = safeNext(field(parsed.form, 'next', 2048), '/my/favorites/');
  if (!locals.user) return redirect(loginPath(next), 303);
  const ref = field(parsed.form, 'series', 64);
  if (!isSeriesRef(ref)) return new Response(locals.t('error.api.notFound'), { status: 404, headers });
  const on = field(parsed.form, 'favorite', 4) === '1';
  const result = await setFavorite(await getDb(), locals.user.id, ref, on, locals.now);
  if (!result.ok) return new Response(locals.t('error.api.notFound'), { status: 404, headers });
  return redirect(next, 303);
};
