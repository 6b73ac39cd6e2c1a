import { defineMiddleware } from 'astro:middleware';
import { isSameOriginMutation } from '~/server/origin';

/**
 * The only paths that take mutations (POST, PUT, PATCH, DELETE). Astro renders pages for any
 * method; everything else answers 405 before any page code runs. Add a prefix here with the
 * route that needs it.
 */
const MUTATION_PATHS = /^\/(prefs|auth|my|_actions|api\/favorites|api\/subscription|api\/progress|sapi\/subscription|_)\//;
const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

const refusal = (status: number, text: string, extra: Record<string, string> = {}) =>
  new Response(text, { status, headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store', ...extra } });

/** Mutations only where routes take them, and only from this origin (src/server/origin.ts: the one rule). */
export const guard = defineMiddleware(({ request, url, locals }, next) => {
  if (READ_METHODS.has(request.method)) return next();
  if (!MUTATION_PATHS.test(url.pathname)) return refusal(405, locals.t('error.api.methodNotAllowed'), { Allow: 'GET, HEAD' });
  if (!isSameOriginMutation(request.headers, url.origin)) return refusal(403, locals.t('error.api.crossSite'));
  return next();
});
