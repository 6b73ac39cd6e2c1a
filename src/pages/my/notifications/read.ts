import type { APIRoute } from 'astro';
import { getDb } from '~/server/db';
import { redirectTo, safeNext } from '~/lib/redirect';
import { bodyErrorKey, field, readForm } from '~/server/body';
import { markAllRead, markRead } from '~/features/notifications/index.server';
import { loginPath, notificationsPath } from '~/lib/paths';

/**
 * POST /my/notifications/read/: marks one item (`id`) or, without `id`, every item of this site
 * read; 303 back to `next`. Another reader's item id is a 404, like an unknown one.
 */
export const POST: APIRoute = async ({ request, locals }) => {
  const headers = { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' };
  const parsed = await readForm(request);
  if (!parsed.ok) return new Response(locals.t(bodyErrorKey(parsed)), { status: parsed.status, headers });
  const form = parsed.value;
  const next = safeNext(field(form, 'next', 2048), notificationsPath());
  if (!locals.user) return redirectTo(loginPath(next));
  const db = await getDb();
  const raw = field(form, 'id', 12);
  if (raw === '') {
    await markAllRead(db, locals.user.id, locals.site, locals.now);
    return redirectTo(next);
  }
  const id = /^[1-9][0-9]{0,9}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(id) || id > 2_147_483_647 || !(await markRead(db, locals.user.id, id, locals.now))) {
    return new Response(locals.t('error.api.notFound'), { status: 404, headers });
  }
  return redirectTo(next);
};
