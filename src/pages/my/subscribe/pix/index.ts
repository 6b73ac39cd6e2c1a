import type { APIRoute } from 'astro';
import { getDb } from '~/server/db';
import { bodyErrorKey, field, readForm } from '~/server/body';
import { json } from '~/server/http';
import { subscribeWithPix } from '~/features/commerce/index.server';

/**
 * POST /my/subscribe/pix/: subscribe to a plan with Pix. Form `pix_doc, pix_name, tier_id`.
 * Answers `{success, first_payment, pix_copia_e_cola, pix_expires_at, check, trial_error,
 * error, message, qr_svg}` (docs/subscriptions.md), with a 4xx status when it did not succeed.
 */
export const POST: APIRoute = async ({ request, locals }) => {
  const { t, user, site, now } = locals;
  const fail = (status: number, message: string) => json({ success: false, first_payment: false, pix_copia_e_cola: null, pix_expires_at: null, check: null, trial_error: false, error: 'request', message, qr_svg: null }, { status, cache: 'no-store' });
  if (!user) return fail(401, t('subscribe.error.login'));
  const form = await readForm(request);
  if (!form.ok) return fail(form.status, t(bodyErrorKey(form)));
  const answer = await subscribeWithPix(await getDb(), {
    userId: user.id, site, tierId: field(form.value, 'tier_id', 40), pixName: field(form.value, 'pix_name', 200), pixDoc: field(form.value, 'pix_doc', 40), now,
  }, t);
  return json(answer.body, { status: answer.status, cache: 'no-store' });
};
