/**
 * POST /api/redeem/ — unlock a chapter with keys (the redeem call). Form `content={chapter
 * e4pid}`, signed in, from this origin (the middleware refuses others with 403). Answers 200 with
 * what was charged and the new balances; 401 signed out; 402 `{detail}` when the keys do not
 * cover the price; 404 unknown chapter; 409 free, scheduled or already owned (nothing charged;
 * owned: `{detail, owned: true, content, charged, profile}` with what the first unlock charged);
 * 403 region-blocked; 409 not for sale. docs/api.md.
 */
import type { APIRoute } from 'astro';
import { getDb } from '~/server/db';
import { bodyErrorKey, field, readForm } from '~/server/body';
import { json, jsonError } from '~/server/http';
import { redeemAnswer } from '~/features/wallet/index.server';

export const POST: APIRoute = async ({ request, locals }) => {
  const { t, user, now, country } = locals;
  if (!user) return jsonError(401, t('wallet.error.login'));
  const form = await readForm(request);
  if (!form.ok) return jsonError(form.status, t(bodyErrorKey(form)));
  const answer = await redeemAnswer(await getDb(), { userId: user.id, e4pid: field(form.value, 'content', 80), now, country }, t);
  if (answer.ok) return json(answer.body, { cache: 'no-store' });
  if (answer.owned) return json({ detail: answer.detail, owned: true, ...answer.owned }, { status: 409, cache: 'no-store' });
  return jsonError(answer.status, answer.detail);
};
