import { defineMiddleware } from 'astro:middleware';
import type { MessageKey } from '~/lib/i18n';
import { clientIp } from '~/features/accounts/index.server';
import { getDb } from '~/server/db';
import { countRefusal } from '~/server/observe.mjs';
import { hit, LIMITS, retryMinutes, type LimitName } from '~/server/rate-limit';
import { backPath, refusal } from './refusal';
import { routePolicy } from '~/server/routes';

/**
 * Requests already counted: when a route fails, Astro renders the error page by running the
 * middleware again on the same request, which must not count twice.
 */
const counted = new WeakSet<Request>();

/** Limits whose refusal says more than "too many requests". */
const MESSAGES: Partial<Record<LimitName, MessageKey>> = { payments: 'purchase.error.rate', charges: 'purchase.error.rate' };

/**
 * The one limiter on every route that writes or calls a provider (src/server/routes.ts):
 * counted per signed-in reader, or per address for routes that anyone may call; 429 with
 * Retry-After in the shape the route's callers read. Runs after the guard, so requests refused
 * for their method or origin are not counted.
 */
export const limits = defineMiddleware(async (ctx, next) => {
  const { request, url, locals } = ctx;
  const policy = routePolicy(url.pathname, request.method);
  if (!policy || 'exempt' in policy.limit || counted.has(request)) return next();
  counted.add(request);
  const { name, anyone } = policy.limit;
  if (!locals.user && !anyone) return next();
  const who = locals.user ? `reader:${locals.user.id}` : `ip:${clientIp(() => ctx.clientAddress)}`;
  const verdict = await hit(await getDb(), `route:${name}:${who}`, LIMITS[name], locals.now);
  if (verdict.allowed) return next();
  countRefusal(name);
  return refusal(policy.answer, 429, locals.t(MESSAGES[name] ?? 'error.rateLimited', { minutes: retryMinutes(verdict.retryAfter) }), {
    locale: locals.locale, back: backPath(request, url), backLabel: locals.t('error.back'), code: 'rate_limited', headers: { 'Retry-After': String(verdict.retryAfter) },
  });
});
