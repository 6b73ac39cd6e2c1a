import type { APIRoute } from 'astro';
import { json, jsonError } from '~/server/http';
import { clampTtl, signAppToken } from '~/features/library/index.server';

/** GET /sapi/app/token?ttl=3600 — a short-lived bearer token for the signed-in reader (ttl 60..3600 s). */
export const GET: APIRoute = ({ url, locals }) => {
  const { user, sessionId, now, t } = locals;
  if (!user || !sessionId) return jsonError(401, t('error.api.loginToken'));
  const ttl = clampTtl(url.searchParams.get('ttl'));
  return json({ token: signAppToken(sessionId, user.id, now + ttl) }, { cache: 'no-store' });
};
