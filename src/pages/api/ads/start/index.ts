/**
 * POST /api/ads/start/ — start a house ad for a free read of a chapter. Form `content={chapter
 * e4pid}`. 200 `{token, ready_at, expires_at, min_seconds, creative: {type, src, poster, fit, series:
 * {name, link}}}`; 401; 404; 409 `{detail}` when no ad rental is open (none left this period,
 * newest chapter…); 403 region-blocked. docs/api.md.
 */
import type { APIRoute } from 'astro';
import { getDb } from '~/server/db';
import { bodyErrorKey, field, readForm } from '~/server/body';
import { json, jsonError } from '~/server/http';
import { adStartAnswer, startAd } from '~/features/wallet/index.server';

export const POST: APIRoute = async ({ request, locals }) => {
  const { t, user, now, country, locale } = locals;
  if (!user) return jsonError(401, t('wallet.error.loginAd'));
  const form = await readForm(request);
  if (!form.ok) return jsonError(form.status, t(bodyErrorKey(form)));
  const answer = adStartAnswer(await startAd(await getDb(), { userId: user.id, e4pid: field(form.value, 'content', 80), now, country }), t, locale, now);
  return answer.ok ? json(answer.body, { cache: 'no-store' }) : jsonError(answer.status, answer.detail);
};
