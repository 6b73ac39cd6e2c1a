import { defineMiddleware } from 'astro:middleware';
import { siteFromHost, otherHost } from '~/lib/site';
import { createT } from '~/lib/i18n';
import { compress, appendVary, PUBLIC_CACHE, PRIVATE_CACHE } from '~/server/http';
import { resolveSession } from '~/features/accounts/index.server';
import { maybeRefreshReleases } from '~/features/catalog/index.server';
import { getDb } from '~/server/db';
import { config } from '~/server/config.mjs';
import { isSameOriginMutation } from '~/server/origin';
import { checkedLocation } from '~/lib/redirect';
import { THEME_COOKIE_DARK, THEME_COOKIE_LITE, themeFromCookies } from '~/lib/theme';

/**
 * The only paths that take mutations (POST, PUT, PATCH, DELETE). Astro renders pages for any
 * method; everything else answers 405 before any page code runs. Add a prefix here with the
 * route that needs it.
 */
const MUTATION_PATHS = /^\/(prefs|auth|my|_actions|api\/favorites|api\/subscription|api\/progress|sapi\/subscription|_)\//;
const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Cookies whose presence makes a page personal (must not be shared-cached). */
const PERSONAL_COOKIES = /(?:^|;\s*)(inkpass_session|dark|lite|view)=/;

export const onRequest = defineMiddleware(async (context, next) => {
  const { request, locals, cookies } = context;
  // context.url.host is validated against security.allowedDomains (astro.config.mjs); raw headers are not trusted.
  const host = context.url.host;
  const site = siteFromHost(host);
  locals.site = site;
  locals.locale = site.locale;
  locals.t = createT(site.locale);
  locals.now = Math.floor(Date.now() / 1000);
  // Keep the denormalised release counters current as scheduled chapters come out (once a minute, in the background).
  maybeRefreshReleases(getDb, locals.now);
  locals.theme = themeFromCookies(cookies.get(THEME_COOKIE_DARK)?.value, cookies.get(THEME_COOKIE_LITE)?.value);
  // Believed only from the header an operator says its CDN sets (COUNTRY_HEADER): any client can send one.
  const country = config.countryHeader ? (request.headers.get(config.countryHeader) ?? '').trim().toUpperCase() : '';
  locals.country = /^[A-Z]{2}$/.test(country) ? country : null;
  locals.personalized = PERSONAL_COOKIES.test(request.headers.get('cookie') ?? '');
  // Only requests carrying a session cookie touch the sessions table; anonymous pages stay identical.
  const session = await resolveSession(cookies, context.url, locals.now);
  locals.user = session.user;
  locals.sessionId = session.sessionId;

  let rendered: Response;
  const mutation = !READ_METHODS.has(request.method);
  if (mutation && !MUTATION_PATHS.test(context.url.pathname)) {
    rendered = new Response(locals.t('error.api.methodNotAllowed'), {
      status: 405,
      headers: { Allow: 'GET, HEAD', 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' },
    });
  } else if (mutation && !isSameOriginMutation(request.headers, context.url.origin)) {
    // One rule for every mutation, before any route runs (src/server/origin.ts).
    rendered = new Response(locals.t('error.api.crossSite'), { status: 403, headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' } });
  } else {
    rendered = await next();
  }
  // API clients get JSON errors, never the HTML error page.
  if (/^\/(s?api|relay)\//.test(context.url.pathname) && rendered.status >= 400 && !(rendered.headers.get('Content-Type') ?? '').startsWith('application/json')) {
    const status = rendered.status;
    const detail = status === 404 ? locals.t('error.api.notFound') : status === 405 ? locals.t('error.api.methodNotAllowed') : status >= 500 ? locals.t('error.server.title') : locals.t('error.api.badRequest');
    rendered = new Response(JSON.stringify({ detail }), { status: rendered.status, headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' } });
  }
  // Copy: some responses (redirects) have immutable headers.
  const headers = new Headers(rendered.headers);
  // Every Location leaving the server is checked here too, whoever produced it (src/lib/redirect.ts).
  const location = headers.get('Location');
  if (location !== null && checkedLocation(location, context.url.origin) === null) headers.set('Location', '/');
  const type = headers.get('Content-Type') ?? '';
  if (!headers.has('Cache-Control') && (request.method === 'GET' || request.method === 'HEAD')) {
    if (type.startsWith('text/html') && (rendered.status === 200 || rendered.status === 404)) {
      headers.set('Cache-Control', locals.personalized ? PRIVATE_CACHE : PUBLIC_CACHE);
      appendVary(headers, 'Cookie');
    } else if (rendered.status >= 400) {
      headers.set('Cache-Control', 'no-store');
    }
  }
  headers.set('X-Content-Type-Options', 'nosniff');
  headers.set('Referrer-Policy', 'strict-origin-when-cross-origin');
  if (type.startsWith('text/html')) headers.set('X-Frame-Options', 'SAMEORIGIN');
  // The language switch asks the other host whether the same path exists (HEAD, 3 s budget).
  const origin = request.headers.get('origin');
  if (origin && (request.method === 'GET' || request.method === 'HEAD')) {
    try {
      if (new URL(origin).host === otherHost(host)) {
        headers.set('Access-Control-Allow-Origin', origin);
        appendVary(headers, 'Origin');
      }
    } catch { /* malformed Origin: no CORS */ }
  }
  return compress(rendered, request.headers.get('accept-encoding') ?? '', headers, locals.sink);
});
