import type { APIRoute } from 'astro';
import { getDb } from '~/server/db';
import { redirectTo } from '~/lib/redirect';
import { bodyErrorKey, field, readForm } from '~/server/body';
import { intParam } from '~/server/http';
import { loginPath, NOTIFICATION_SETTINGS_PATH } from '~/lib/paths';
import { saveQuietHours } from '~/features/notifications/index.server';

/**
 * POST /my/notifications/quiet/: the push quiet hours, a form of the settings page that works
 * without JavaScript. Fields: `quiet` ("1": on; absent: off), `start` and `end` (hours 0-23, in
 * each device's zone). 303 back to the settings page.
 */
export const POST: APIRoute = async ({ request, locals }) => {
  const headers = { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' };
  const parsed = await readForm(request);
  if (!parsed.ok) return new Response(locals.t(bodyErrorKey(parsed)), { status: parsed.status, headers });
  if (!locals.user) return redirectTo(loginPath(NOTIFICATION_SETTINGS_PATH));
  const form = parsed.value;
  await saveQuietHours(await getDb(), locals.user.id, {
    enabled: field(form, 'quiet', 4) === '1',
    startHour: intParam(field(form, 'start', 4), 22, 0, 23),
    endHour: intParam(field(form, 'end', 4), 8, 0, 23),
  });
  return redirectTo(`${NOTIFICATION_SETTINGS_PATH}?saved=1#quiet-hours`);
};
