import type { APIRoute } from 'astro';
import { getDb } from '~/server/db';
import { bodyErrorKey, field, readForm } from '~/server/body';
import { json } from '~/server/http';
import { subscribeWithCard } from '~/features/commerce/index.server';

/**
 * POST /my/subscribe/card/: subscribe to a plan with a card-type method. Form `tier_id, method,
 * nonce, device_data` (the nonce from the checkout widget). `{success, error, message}`, with a
 * 4xx status when it did not succeed; renewals charge the vaulted payment method.
 */
export const POST: APIRoute = async ({ request, locals }) => {
  const { t, user, site, now } = locals;
  if (!user) return json({ success: false, error: 'login', message: t('subscribe.error.login') }, { status: 401, cache: 'no-store' });
  const form = await readForm(request);
  if (!form.ok) return json({ success: false, error: 'request', message: t(bodyErrorKey(form)) }, { status: form.status, cache: 'no-store' });
  const answer = await subscribeWithCard(await getDb(), {
    userId: user.id, site, tierId: field(form.value, 'tier_id', 40), method: field(form.value, 'method', 16), nonce: field(form.value, 'nonce', 4097),
    deviceData: field(form.value, 'device_data', 8192) || null, now,
  }, t);
  return json(answer.body, { status: answer.status, cache: 'no-store' });
};
