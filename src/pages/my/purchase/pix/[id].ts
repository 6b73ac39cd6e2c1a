import type { APIRoute } from 'astro';
import { getDb } from '~/server/db';
import { json, jsonError } from '~/server/http';
import { pixStatusAnswer } from '~/features/commerce/index.server';

/**
 * GET /my/purchase/pix/{correlationID}/: the reader's own Pix payment as the PSP sees it now
 * (`{status, paid}`), polled every 3 s by the checkout. Another reader's charge is 404.
 */
export const GET: APIRoute = async ({ params, locals }) => {
  const { t, user, now } = locals;
  if (!user) return jsonError(401, t('purchase.error.login'));
  const id = params.id ?? '';
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(id)) return jsonError(404, t('purchase.error.order'));
  const answer = await pixStatusAnswer(await getDb(), { userId: user.id, orderId: id, now });
  return answer ? json(answer, { cache: 'no-store' }) : jsonError(404, t('purchase.error.order'));
};
