import type { APIRoute } from 'astro';
import { getDb } from '~/server/db';
import { json, jsonError } from '~/server/http';
import { subscriptionStatus } from '~/features/commerce/index.server';

/**
 * GET /my/subscribe/status/{check}/: whether a subscription payment arrived (`{success,
 * trial_error}`), polled every 20 s by the subscription checkout. Another reader's check is 404.
 */
export const GET: APIRoute = async ({ params, locals }) => {
  const { t, user, now } = locals;
  if (!user) return jsonError(401, t('subscribe.error.loginStatus'));
  const check = params.check ?? '';
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(check)) return jsonError(404, t('purchase.error.order'));
  const answer = await subscriptionStatus(await getDb(), { userId: user.id, check, now });
  return answer ? json(answer, { cache: 'no-store' }) : jsonError(404, t('purchase.error.order'));
};
