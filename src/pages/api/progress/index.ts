import type { APIRoute } from 'astro';
import { getDb } from '~/server/db';
import { json, jsonError } from '~/server/http';
import { bodyErrorKey, readJson } from '~/server/body';
import { parseProgressReport } from '~/features/library';
import { recordProgress, verifyProgressToken } from '~/features/library/index.server';

/**
 * POST /api/progress/ — JSON {e4pid, completion, completed, progress_token, seq}, as
 * application/json or text/plain (navigator.sendBeacon). See docs/library-progress.md.
 */
export const POST: APIRoute = async ({ request, locals }) => {
  const { t, user, now } = locals;
  if (!user) return jsonError(401, t('error.api.loginProgress'));
  const body = await readJson(request);
  if (!body.ok) return jsonError(body.status, t(bodyErrorKey(body)));
  const report = parseProgressReport(body.value);
  if (!report) return jsonError(400, t('error.api.badRequest'));
  const verdict = verifyProgressToken(report.token, { userId: user.id, e4pid: report.e4pid, now });
  if (!verdict.ok) {
    return verdict.reason === 'expired' ? jsonError(409, t('error.progress.stale')) : jsonError(403, t('error.progress.forbidden'));
  }
  const result = await recordProgress(await getDb(), {
    userId: user.id,
    e4pid: report.e4pid,
    completion: report.completion,
    completed: report.completed,
    issuedAt: verdict.issuedAt,
    seq: report.seq,
    now,
  });
  if (result.kind === 'notFound') return jsonError(404, t('error.api.notFound'));
  if (result.kind === 'stale') return jsonError(409, t('error.progress.stale'));
  const p = result.progress;
  return json(
    { e4pid: p.e4pid, completion: p.completion, completed: p.completed, first_read: new Date(p.firstRead * 1000).toISOString(), last_read: new Date(p.lastRead * 1000).toISOString() },
    { cache: 'no-store' },
  );
};
