/**
 * POST /api/daily-pass/ — read a chapter free with the series' daily pass. Form `content={chapter
 * e4pid}`, signed in, same origin. 200 `{content, rental: {e4pid, created_at, expires_at}, recharges_at}`;
 * 401 signed out; 404 unknown chapter; 409 `{detail}` when the pass is not open for it (recharging,
 * newest chapter, keys only, already readable…); 403 region-blocked. docs/api.md.
 */
import type { APIRoute } from 'astro';
import { getDb } from '~/server/db';
import { bodyErrorKey, field, readForm } from '~/server/body';
import { json, jsonError } from '~/server/http';
import { rentalAnswer, tForChapter, useDailyPass } from '~/features/wallet/index.server';

export const POST: APIRoute = async ({ request, locals }) => {
  const { t, user, now, country, locale } = locals;
  if (!user) return jsonError(401, t('wallet.error.loginPass'));
  const form = await readForm(request);
  if (!form.ok) return jsonError(form.status, t(bodyErrorKey(form)));
  const db = await getDb();
  const e4pid = field(form.value, 'content', 80);
  const answer = rentalAnswer(await useDailyPass(db, { userId: user.id, e4pid, now, country }), await tForChapter(db, e4pid, t), locale, now);
  return answer.ok ? json(answer.body, { cache: 'no-store' }) : jsonError(answer.status, answer.detail);
};
