import type { APIRoute } from 'astro';
import { jsonError } from '~/server/http';
import { bodyErrorKey, readJson } from '~/server/body';
import { isBot } from '~/server/error-filter.mjs';
import { BROWSER_REPORT_LIMITS, parseBrowserReports, reportBrowserErrors } from '~/server/error-reports.mjs';

const ACCEPTED = () => new Response(null, { status: 202, headers: { 'Cache-Control': 'no-store' } });

/**
 * POST /api/errors/ — the browser's error tunnel (src/lib/error-handler.ts sends here): a JSON
 * array of up to 10 reports, at most 16 KB (413 past it, 415 for another type, 400 for anything
 * else than the handler's shape). Crawlers' reports are answered 202 and dropped. The reports go on to
 * SENTRY_DSN through the SDK, scrubbed and filtered by the one ignore list, or become log lines
 * (src/server/error-reports.mjs); 202 at once, as the SDK sends in the background. Same origin
 * only and rate-limited per client (src/server/routes.ts).
 */
export const POST: APIRoute = async ({ request, url, locals }) => {
  const body = await readJson(request, BROWSER_REPORT_LIMITS.bytes);
  if (!body.ok) return jsonError(body.status, locals.t(bodyErrorKey(body)));
  const reports = parseBrowserReports(body.value);
  if (!reports) return jsonError(400, locals.t('error.api.badRequest'));
  // A crawler's reports are not readers': accepted, and dropped (after the checks, so any caller learns the same about a bad body).
  const userAgent = request.headers.get('user-agent');
  if (isBot(userAgent)) return ACCEPTED();
  reportBrowserErrors(reports, { requestId: request.headers.get('x-request-id'), userAgent: userAgent ?? '', origin: url.origin });
  return ACCEPTED();
};
