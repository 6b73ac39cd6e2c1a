import type { APIRoute } from 'astro';
import { getDb } from '~/server/db';
import { redirectTo } from '~/lib/redirect';
import { ACCOUNT_EXPORT_PATH, loginPath } from '~/lib/paths';
import { exportAccountData } from '~/features/accounts/index.server';
import { READER_DATA_PARTS } from './_reader-data';

/**
 * GET /my/account/export/: the signed-in reader's data as a JSON attachment (docs/privacy.md),
 * gathered at once (a few queries per feature). Signed out: the login page, back here after.
 * Counted by the route limit `accountExport`.
 */
export const GET: APIRoute = async ({ locals }) => {
  const { user, site, locale, now } = locals;
  if (!user) return redirectTo(loginPath(ACCOUNT_EXPORT_PATH));
  const data = await exportAccountData(await getDb(), {
    userId: user.id, siteId: site.id, locale, now,
    parts: READER_DATA_PARTS,
  });
  if (!data) return redirectTo(loginPath(ACCOUNT_EXPORT_PATH));
  const day = new Date(now * 1000).toISOString().slice(0, 10);
  return new Response(`${JSON.stringify(data, null, 2)}\n`, {
    headers: {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Disposition': `attachment; filename="inkpass-export-${day}.json"`,
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
    },
  });
};
