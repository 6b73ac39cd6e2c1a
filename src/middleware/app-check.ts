import { defineMiddleware } from 'astro:middleware';
import type { MessageKey } from '~/lib/i18n';
import { APP_CHECK_FIELD, APP_CHECK_HEADER, APP_CHECK_REFUSED_HEADER, APP_CHECK_TOKEN_MAX } from '~/lib/app-check';
import { clientIp } from '~/features/accounts/index.server';
import { appCheckProvider, type AppCheckFailure } from '~/server/app-check';
import { readForm } from '~/server/body';
import { config } from '~/server/config.mjs';
import { getDb } from '~/server/db';
import { countRefusal } from '~/server/observe.mjs';
import { hit, LIMITS, retryMinutes } from '~/server/rate-limit';
import { backPath, refusal } from './refusal';
import { routePolicy, type RoutePolicy } from '~/server/routes';

const MESSAGES: Record<AppCheckFailure, MessageKey> = {
  missing: 'error.appCheck.missing',
  malformed: 'error.appCheck.invalid',
  forged: 'error.appCheck.invalid',
  'wrong-provider': 'error.appCheck.invalid',
  expired: 'error.appCheck.expired',
  used: 'error.appCheck.used',
  unavailable: 'error.appCheck.unavailable',
};

/**
 * Requests that passed: when a route fails, Astro renders the error page by running the
 * middleware again on the same request, and its token, used by then, must not turn a 500 into a
 * 403.
 */
const passed = new WeakSet<Request>();

/**
 * The bot check (docs/decisions.md, "App check") on the routes the route table marks `appCheck`,
 * when it is enforced (production, or a demo with APP_CHECK=on). `required`: no call passes
 * without a valid, unused token (403; 503 when Turnstile does not answer). `beyond-rate`: a form
 * that works without JavaScript passes without a token up to LIMITS.appCheckFree per reader, then
 * needs one, which a browser without JavaScript cannot get: 429 with a page that says to turn
 * JavaScript on or wait, and Retry-After. Every refusal carries X-App-Check-Refused, so the
 * browser can fetch a new token and try once more, and error reports can leave it out.
 *
 * Runs after the limiter, so a caller past a route's limit costs no token check. Callers who are
 * not signed in pass on routes for readers only: the route answers them 401 (or sends them to log
 * in) before writing anything.
 */
export const appCheck = defineMiddleware(async (ctx, next) => {
  const { request, url, locals } = ctx;
  const policy = routePolicy(url.pathname, request.method);
  if (!policy?.appCheck || !config.appCheck.enforced || passed.has(request)) return next();
  const anyone = !('exempt' in policy.limit) && policy.limit.anyone === true;
  if (!locals.user && !anyone) return next();
  const ip = clientIp(() => ctx.clientAddress);
  const db = await getDb();
  const token = await tokenOf(request, policy);
  const refuse = (status: number, text: string, reason: string, headers: Record<string, string> = {}) =>
    refusal(policy.answer, status, text, {
      locale: locals.locale, back: backPath(request, url), backLabel: locals.t('error.back'), code: `app_check_${reason.replace('-', '_')}`,
      headers: { [APP_CHECK_REFUSED_HEADER]: reason, ...headers },
    });

  if (token === null && policy.appCheck === 'beyond-rate') {
    const who = locals.user ? `reader:${locals.user.id}` : `ip:${ip}`;
    const free = await hit(db, `route:appCheckFree:${who}`, LIMITS.appCheckFree, locals.now);
    if (free.allowed) {
      passed.add(request);
      return next();
    }
    countRefusal('appCheckFree');
    const text = locals.t('error.appCheck.noScript', { count: LIMITS.appCheckFree.max, minutes: retryMinutes(free.retryAfter) });
    return refuse(429, text, 'missing', { 'Retry-After': String(free.retryAfter) });
  }

  const verdict = token === null ? ({ ok: false, reason: 'missing' } as const) : await appCheckProvider().verify(db, token, { now: locals.now, ip });
  if (verdict.ok) {
    passed.add(request);
    return next();
  }
  // Turnstile not answering is no fault of the caller's: try again shortly.
  if (verdict.reason === 'unavailable') return refuse(503, locals.t(MESSAGES.unavailable), verdict.reason, { 'Retry-After': '5' });
  return refuse(403, locals.t(MESSAGES[verdict.reason]), verdict.reason);
});

/**
 * The token a call carries: the header (fetch calls), else, on routes that native forms post to,
 * the form field. The form is read from a copy of the request (within the usual caps and time),
 * so the route still reads the body; a form that cannot be read has no token.
 */
async function tokenOf(request: Request, policy: RoutePolicy): Promise<string | null> {
  const header = request.headers.get(APP_CHECK_HEADER);
  if (header !== null) return header.trim() || null;
  if (policy.answer !== 'page') return null;
  const form = await readForm(request.clone());
  // Oversized: a token that long is refused anyway, and cut here it reads as malformed.
  return form.ok ? form.value.get(APP_CHECK_FIELD)?.slice(0, APP_CHECK_TOKEN_MAX + 1) || null : null;
}
