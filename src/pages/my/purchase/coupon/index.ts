import type { APIRoute } from 'astro';
import { getDb } from '~/server/db';
import { bodyErrorKey, readForm } from '~/server/body';
import { jsonOrText, textResponse } from '~/server/http';
import { couponAnswer } from '~/features/commerce/index.server';

/**
 * POST /my/purchase/coupon/: the coupon box. Form: the checkout page's query parameters plus
 * `pack` and `coupon`. 200 `{checkout: {discount: {string}, total: {string}}, xtra_key_bonus}`,
 * or 4xx with the error text as the body (shown under the field). docs/api.md.
 */
export const POST: APIRoute = async ({ request, locals }) => {
  const { t, user, site, now } = locals;
  if (!user) return textResponse(401, t('purchase.error.login'));
  const form = await readForm(request);
  if (!form.ok) return textResponse(form.status, t(bodyErrorKey(form)));
  const answer = await couponAnswer(await getDb(), { userId: user.id, site, form: form.value, now }, t);
  return jsonOrText(answer);
};
