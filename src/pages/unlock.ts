import type { APIRoute } from 'astro';
import { getDb } from '~/server/db';
import { redirectTo } from '~/lib/redirect';
import { bodyErrorKey, field, readForm } from '~/server/body';
import { unlockByForm, type FormWay } from '~/features/wallet/index.server';
import { loginPath } from '~/lib/paths';

/**
 * POST /unlock/: the unlock button without JavaScript. Field `content` (the chapter's e4pid) and
 * `way` (`keys`, the default, `daily_pass` or `rent`). Unlocks with keys (the same rule and ledger
 * as POST /api/redeem/), the daily pass (as POST /api/daily-pass/) or a plan rental (as POST
 * /api/rent/), then 303 to the chapter, which shows its pages, or why nothing was bought
 * (`?unlock=`). Signed out: to the login page.
 */
export const POST: APIRoute = async ({ request, locals }) => {
  const headers = { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' };
  const parsed = await readForm(request);
  if (!parsed.ok) return new Response(locals.t(bodyErrorKey(parsed)), { status: parsed.status, headers });
  if (!locals.user) return redirectTo(loginPath());
  const asked = field(parsed.value, 'way', 16);
  const way: FormWay = asked === 'daily_pass' || asked === 'rent' ? asked : 'keys';
  const result = await unlockByForm(await getDb(), { userId: locals.user.id, e4pid: field(parsed.value, 'content', 80), now: locals.now, country: locals.country, way });
  if (!result) return new Response(locals.t('wallet.error.notFound'), { status: 404, headers });
  return redirectTo(result.location);
};
