import type { APIRoute } from 'astro';
import { getDb } from '~/server/db';
import { redirectTo, safeNext } from '~/lib/redirect';
import { bodyErrorKey, field, readForm } from '~/server/body';
import { isSeriesRef } from '~/features/library';
import { setFavorite } from '~/features/library/index.server';
import { loginPath, favoritesPath } from '~/lib/paths';
import { withIntent } from '~/lib/intent';

/**
 * POST /my/favorites/toggle/: the no-JavaScript favorite button. Fields: `series` (e4pid),
 * `favorite` ("1" to favorite, "0" to remove), `next` (a path on this site). 303 back to `next`.
 */
export const POST: APIRoute = async ({ request, locals }) => {
  const headers = { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' };
  const parsed = await readForm(request);
  if (!parsed.ok) return new Response(locals.t(bodyErrorKey(parsed)), { status: parsed.status, headers });
  const form = parsed.value;
  const next = safeNext(field(form, 'next', 2048), favoritesPath());
  const ref = field(form, 'series', 64);
  const on = field(form, 'favorite', 4) === '1';
  // Signed out (a session that ended): the login form finishes the favorite (src/lib/intent.ts).
  if (!locals.user) return redirectTo(loginPath(on && /^SER-/i.test(ref) && isSeriesRef(ref) ? withIntent(next, { kind: 'favorite', e4pid: ref }) : next));
  if (!isSeriesRef(ref)) return new Response(locals.t('error.api.notFound'), { status: 404, headers });
  const result = await setFavorite(await getDb(), locals.user.id, ref, on, locals.now);
  if (!result.ok) return new Response(locals.t('error.api.notFound'), { status: 404, headers });
  return redirectTo(next);
};
