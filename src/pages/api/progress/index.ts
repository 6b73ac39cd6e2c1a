import type { APIRoute } from 'astro';
import { getDb } from '../../../server/db';
import { json, jsonError } from '../../../server/http';
import { isCrossSite } from '../../../features/accounts/request.server';
import { parseProgressReport } from '../../../features/library/progress';
import { recordProgress } from '../../../features/library/progress.server';
import { verifyProgressToken } from '../../../features/library/tokens.server';

const MAX_BYTES = 4096;

/**
 * POST /api/progress/ — JSON {e4pid, completion, completed, progress_token, seq}, as
 * application/json or text/plain (navigator.sendBeacon). See docs/library-progress.md.
 */
export const POST: APIRoute = async ({ request, url, locals }) => {
  const { t, user, now } = locals;
  if (isCrossSite(request, url)) return jsonError(403, t('error.api.crossSite'));
  if (!user) return jsonError(401, t('error.api.loginRequired'));
  const type = (request.headers.get('content-type') ?? '').toLowerCase();
  if (!/^(application\/json|text\/plain)\s*(;|$)/.test(type)) return jsonError(415, t('error.api.badRequest'));
  if (Number(request.headers.get('content-length') ?? '0') > MAX_BYTES) return jsonError(413, t('error.api.badRequest'));
  let body: unknown;
  try {
    const text = await request.text();
    if (text.length > MAX_BYTES) return jsonError(413, t('error.api.badRequest'));
    body = JSON.parse(text);
  } catch {
    return jsonError(400, t('error.api.badRequest'));
  }
  const report = parseProgressReport(body);
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
