/**
 * POST /api/ads/complete/ — claim the free read an ad paid for. Form `token` (from
 * /api/ads/start/). 200 `{content, rental: {e4pid, created_at, expires_at}}`; 401; 404 unknown token or
 * another reader's; 409 `{detail}` too early, already used, expired, or no ad rental open any
 * more. A token pays for one rental, once. docs/api.md.
 */
import type { APIRoute } from 'astro';
import { getDb } from '~/server/db';
import { bodyErrorKey, field, readForm } from '~/server/body';
import { json, jsonError } from '~/server/http';
import { completeAd, rentalAnswer } from '~/features/wallet/index.server';

export const POST: APIRoute = async ({ request, locals }) => {
  const { t, user, now, country, locale } = locals;
  if (!user) return jsonError(401, t('wallet.error.loginAd'));
  const form = await readForm(request);
  if (!form.ok) return jsonError(form.status, t(bodyErrorKey(form)));
  const answer = rentalAnswer(await completeAd(await getDb(), { userId: user.id, token: field(form.value, 'token', 100), now, country }), t, locale, now);
  return answer.ok ? json(answer.body, { cache: 'no-store' }) : jsonError(answer.status, answer.detail);
};
