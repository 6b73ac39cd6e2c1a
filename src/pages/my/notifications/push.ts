import type { APIRoute } from 'astro';
import { getDb } from '~/server/db';
import { json, jsonError } from '~/server/http';
import { readJson } from '~/server/body';
import { pushPublicKey, removePushSubscription, savePushSubscription } from '~/features/notifications/index.server';

/** A subscription is an endpoint (≤ 2 KB) and two short keys: 4 KB is plenty. */
const MAX_BODY = 4 * 1024;

/**
 * POST /my/notifications/push/: this browser's push subscription (JSON `PushSubscription.toJSON()`
 * plus `timeZone`), from the notify button's or the settings page's script. Signed-in readers,
 * same origin (the guard), counted (pushSubscriptions). The endpoint must be a known push
 * service's (422 otherwise: the server will POST to it). Turns push on for new chapters.
 * DELETE (JSON `{ endpoint }`): forget it. Both answer `{ ok: true }`.
 */
const handle = (on: boolean): APIRoute => async ({ request, locals }) => {
  if (!locals.user) return jsonError(401, locals.t('push.error.login'));
  if (!pushPublicKey()) return jsonError(404, locals.t('push.error.unavailable'));
  const parsed = await readJson(request, MAX_BODY);
  if (!parsed.ok) return jsonError(parsed.status, locals.t(`error.body.${parsed.reason}`));
  const db = await getDb();
  if (!on) {
    const endpoint = parsed.value && typeof parsed.value === 'object' ? (parsed.value as { endpoint?: unknown }).endpoint : undefined;
    await removePushSubscription(db, locals.user.id, endpoint);
    return json({ ok: true }, { cache: 'no-store' });
  }
  const saved = await savePushSubscription(db, locals.user.id, parsed.value, { siteId: locals.site.id, userAgent: request.headers.get('user-agent') ?? '', now: locals.now });
  if (!saved.ok) return jsonError(saved.status, locals.t(saved.reason === 'endpoint' ? 'push.error.endpoint' : 'push.error.keys'));
  return json({ ok: true }, { cache: 'no-store' });
};

export const POST = handle(true);
export const DELETE = handle(false);
