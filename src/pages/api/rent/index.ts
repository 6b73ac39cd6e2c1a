/**
 * POST /api/rent/ — rent a chapter with the reader's plan (a subscription benefit). Form
 * `content={chapter e4pid}`, signed in, same origin. 200 `{content, rental: {created_at,
 * expires_at}}`; 401 signed out; 404 unknown chapter; 409 `{detail}` when renting is not open
 * (no plan, the month's rentals used, already readable…); 403 region-blocked. docs/api.md.
 */
import type { APIRoute } from 'astro';
import { getDb } from '~/server/db';
import { bodyErrorKey, field, readForm } from '~/server/body';
import { json, jsonError } from '~/server/http';
import { rentalAnswer, tForChapter, rentWithPlan } from '~/features/wallet/index.server';

export const POST: APIRoute = async ({ request, locals }) => {
  const { t, user, now, country, locale } = locals;
  if (!user) return jsonError(401, t('wallet.error.loginRent'));
  const form = await readForm(request);
  if (!form.ok) return jsonError(form.status, t(bodyErrorKey(form)));
  const db = await getDb();
  const e4pid = field(form.value, 'content', 80);
  const answer = rentalAnswer(await rentWithPlan(db, { userId: user.id, e4pid, now, country }), await tForChapter(db, e4pid, t), locale, now);
  return answer.ok ? json(answer.body, { cache: 'no-store' }) : jsonError(answer.status, answer.detail);
};
