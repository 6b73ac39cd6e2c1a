import { defineMiddleware } from 'astro:middleware';
import { otherHost } from '~/lib/site';
import { checkedLocation } from '~/lib/redirect';
import { homePath } from '~/lib/paths';
import { appendVary, PRIVATE_CACHE, PUBLIC_CACHE } from '~/server/http';

/**
 * The same response with editable headers: pages and endpoints answer with editable ones (edited
 * in place, so the body is not wrapped again: see docs/performance.md); Response.redirect's are
 * immutable and get a copy.
 */
function editable(response: Response): Response {
  try {
    response.headers.set('X-Content-Type-Options', 'nosniff');
    return response;
  } catch {
    const copy = new Response(response.body, response);
    copy.headers.set('X-Content-Type-Options', 'nosniff');
    return copy;
  }
}

/** Headers every answer carries: a checked Location, a default Cache-Control, security headers, and CORS for the language switch. */
export const headers = defineMiddleware(async ({ request, url, locals }, next) => {
  const response = editable(await next());
  const h = response.headers;
  // Every Location leaving the server is checked here too, whoever produced it (src/lib/redirect.ts).
  const location = h.get('Location');
  if (location !== null && checkedLocation(location, url.origin) === null) h.set('Location', homePath());
  const type = h.get('Content-Type') ?? '';
  const read = request.method === 'GET' || request.method === 'HEAD';
  if (!h.has('Cache-Control') && read) {
    if (type.startsWith('text/html') && (response.status === 200 || response.status === 404)) {
      h.set('Cache-Control', locals.personalized ? PRIVATE_CACHE : PUBLIC_CACHE);
      appendVary(h, 'Cookie');
    } else if (response.status >= 400) {
      h.set('Cache-Control', 'no-store');
    }
  }
  h.set('Referrer-Policy', 'strict-origin-when-cross-origin');
  if (type.startsWith('text/html')) h.set('X-Frame-Options', 'SAMEORIGIN');
  // The language switch asks the other host whether the same path exists (HEAD, 3 s budget).
  const origin = request.headers.get('origin');
  if (origin && read) {
    try {
      if (new URL(origin).host === otherHost(url.host)) {
        h.set('Access-Control-Allow-Origin', origin);
        appendVary(h, 'Origin');
      }
    } catch { /* malformed Origin: no CORS */ }
  }
  return response;
});
