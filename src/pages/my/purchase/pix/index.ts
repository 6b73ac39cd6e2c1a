import type { APIRoute } from 'astro';
import { getDb } from '~/server/db';
import { bodyErrorKey, readForm } from '~/server/body';
import { jsonOrText, textResponse } from '~/server/http';
import { pixChargeAnswer } from '~/features/commerce/index.server';

/**
 * POST /my/purchase/pix/: a Pix charge for the checkout (the Portuguese site). The same form as
 * the coupon box. 200 `{checkout: {correlationID, total: {string}}, brcode, qr_svg, expires_at}`,
 * or 4xx/5xx with the error text as the body. docs/api.md.
 */
export const POST: APIRoute = async ({ request, locals }) => {
  const { t, user, site, now } = locals;
  if (!user) return textResponse(401, t('purchase.error.login'));
  const form = await readForm(request);
  if (!form.ok) return textResponse(form.status, t(bodyErrorKey(form)));
  const answer = await pixChargeAnswer(await getDb(), { userId: user.id, site, form: form.value, now }, t);
  return jsonOrText(answer);
};
