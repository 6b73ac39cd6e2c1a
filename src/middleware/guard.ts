import { defineMiddleware } from 'astro:middleware';
import { isSameOriginMutation } from '~/server/origin';

/**
 * The only routes that take mutations, and the methods each takes. Astro renders a page for any
 * method, so everything else answers 405 before any page code runs: a POST to a page that does
 * not handle one must not render it. Add a route here with the code that handles it.
 */
const MUTATIONS: readonly [RegExp, readonly string[]][] = [
  [/^\/(prefs\/(theme|adult)|auth\/(login|signup|logout)|my\/favorites\/toggle|api\/progress|api\/redeem|api\/daily-pass|api\/ads\/(start|complete)|unlock)\/$/, ['POST']],
  [/^\/(my\/purchase\/(coupon|pix|checkout)|payments\/sandbox\/nonce|my\/subscribe\/(pix|card)|my\/subscriptions\/(cancel|add)|api\/rent)\/$/, ['POST']],
  [/^\/api\/(favorites\/[^/]+|purchases\/[^/]+\/favorite)\/$/, ['POST', 'DELETE']],
  [/^\/(api|sapi)\/subscription\/[^/]+\/$/, ['POST']],
  [/^\/(_actions|_)\/[^/]+\/$/, ['POST']],
];

/**
 * Mutations that come from other servers, not from a browser on this site: a payment provider's
 * webhooks. They carry no Origin of ours; the provider's signature over the body authenticates
 * them (checked by the route, which answers 401 without it).
 */
const SIGNED_CALLBACKS = /^\/webhooks\/pix\/$/;

function allowedMethods(pathname: string): readonly string[] | undefined {
  return MUTATIONS.find(([path]) => path.test(pathname))?.[1];
}

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

const refusal = (status: number, text: string, extra: Record<string, string> = {}) =>
  new Response(text, { status, headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store', ...extra } });

/** Mutations only where routes take them, and only from this origin (src/server/origin.ts: the one rule). */
export const guard = defineMiddleware(({ request, url, locals }, next) => {
  if (READ_METHODS.has(request.method)) return next();
  if (SIGNED_CALLBACKS.test(url.pathname)) return request.method === 'POST' ? next() : refusal(405, locals.t('error.api.methodNotAllowed'), { Allow: 'POST' });
  const allowed = allowedMethods(url.pathname);
  if (!allowed?.includes(request.method)) return refusal(405, locals.t('error.api.methodNotAllowed'), { Allow: ['GET', 'HEAD', ...(allowed ?? [])].join(', ') });
  if (!isSameOriginMutation(request.headers, url.origin)) return refusal(403, locals.t('error.api.crossSite'));
  return next();
});
