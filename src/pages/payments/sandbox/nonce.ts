import type { APIRoute } from 'astro';
import { getDb } from '~/server/db';
import { bodyErrorKey, field, readForm } from '~/server/body';
import { json, jsonError } from '~/server/http';
import { sandboxNonceAnswer } from '~/features/commerce/index.server';

/**
 * POST /payments/sandbox/nonce/: the card sandbox's widget asks for a single-use nonce for a
 * test card (form `method`, and for cards `number`, `expiry`, `cvv`), as a gateway's client SDK
 * would. 404 when the sandbox does not take card payments (Braintree is configured).
 */
export const POST: APIRoute = async ({ request, locals }) => {
  const { t, user, now } = locals;
  if (!user) return jsonError(401, t('purchase.error.loginCard'));
  const form = await readForm(request);
  if (!form.ok) return jsonError(form.status, t(bodyErrorKey(form)));
  const answer = await sandboxNonceAnswer(await getDb(), {
    userId: user.id, method: field(form.value, 'method', 16), number: field(form.value, 'number', 32), expiry: field(form.value, 'expiry', 16), cvv: field(form.value, 'cvv', 8), now,
  }, t);
  return 'body' in answer ? json(answer.body, { cache: 'no-store' }) : json({ detail: answer.detail, field: answer.field }, { status: answer.status, cache: 'no-store' });
};
