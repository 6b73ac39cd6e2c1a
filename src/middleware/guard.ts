import { defineMiddleware } from 'astro:middleware';
import { isSameOriginMutation } from '~/server/origin';
import { mutationMethods, SIGNED_CALLBACKS } from '~/server/routes';

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

const refusal = (status: number, text: string, extra: Record<string, string> = {}) =>
  new Response(text, { status, headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store', ...extra } });

/**
 * Mutations only where routes take them (src/server/routes.ts: Astro renders a page for any
 * method, so everything else answers 405 before any page code runs), and only from this origin
 * (src/server/origin.ts: the one rule).
 */
export const guard = defineMiddleware(({ request, url, locals }, next) => {
  if (READ_METHODS.has(request.method)) return next();
  if (SIGNED_CALLBACKS.test(url.pathname)) return request.method === 'POST' ? next() : refusal(405, locals.t('error.api.methodNotAllowed'), { Allow: 'POST' });
  const allowed = mutationMethods(url.pathname);
  if (!allowed.includes(request.method)) return refusal(405, locals.t('error.api.methodNotAllowed'), { Allow: ['GET', 'HEAD', ...allowed].join(', ') });
  if (!isSameOriginMutation(request.headers, url.origin)) return refusal(403, locals.t('error.api.crossSite'));
  return next();
});
