import type { APIRoute } from 'astro';
import { getDb } from '~/server/db';
import { json, jsonError } from '~/server/http';
import { setPurchaseFavorite } from '~/features/commerce/index.server';

/**
 * The purchase favorite star: POST stars one of the reader's purchases (its key pack, shown first
 * when buying again), DELETE unstars it. No body; same origin (the middleware checks). Answers
 * `{favorited}`; another reader's order is 404.
 */
const handle = (favorite: boolean): APIRoute => async ({ params, locals }) => {
  const { t, user, now } = locals;
  if (!user) return jsonError(401, t('purchases.favorite.login'));
  const id = params.id ?? '';
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(id)) return jsonError(404, t('purchase.error.order'));
  const result = await setPurchaseFavorite(await getDb(), { userId: user.id, orderId: id, favorite, now });
  return result ? json(result, { cache: 'no-store' }) : jsonError(404, t('purchase.error.order'));
};

export const POST = handle(true);
export const DELETE = handle(false);
