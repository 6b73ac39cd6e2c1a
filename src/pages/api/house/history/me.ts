import type { APIRoute } from 'astro';
import { getDb } from '~/server/db';
import { intParam, json } from '~/server/http';
import { loadHistory, apiCaller, historyJson } from '~/features/library/index.server';
import { HISTORY_PAGE_SIZE } from '~/features/library';
import { absoluteUrl } from '~/lib/paths';

/** GET /api/house/history/me?limit=25&skip={n}&token={token}: the reader's history, one entry per series. */
export const GET: APIRoute = async ({ url, locals }) => {
  const { t, now, user } = locals;
  const db = await getDb();
  const caller = await apiCaller(db, url, user?.id ?? null, now, { expired: t('error.token.expired'), invalid: t('error.token.invalid'), login: t('error.api.loginHistory') });
  if (!caller.ok) return caller.response;
  const limit = intParam(url.searchParams.get('limit'), HISTORY_PAGE_SIZE, 1, 100);
  const skip = intParam(url.searchParams.get('skip'), 0, 0, 100_000);
  const abs = absoluteUrl(url);
  const page = await loadHistory(db, caller.userId, limit, skip, { now, t: locals.t, site: locals.site });
  return json(historyJson(page, abs), { cache: 'private, no-store' });
};
