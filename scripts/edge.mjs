// What the HTTP server decides before a request reaches Astro, in one place: which forwarded
// headers are believed, which bodies are too large to read, and which URLs are too broken to
// route. Used by scripts/serve.mjs (production) and the dev server (astro.config.mjs).
import fs from 'node:fs';
import { randomBytes } from 'node:crypto';

/**
 * Headers a reverse proxy sets about the original request. Astro builds the page's URL (so
 * canonical links, feed links, the site and the origin check) from the first three, and the
 * client address (rate limits) from X-Forwarded-For. Any client can send them, and pages are
 * shared-cacheable, so a forged one would poison caches for everyone: they count only when
 * TRUST_PROXY=1 says a proxy in front sets them (docs/operations.md has its configuration).
 */
const FORWARDED = ['forwarded', 'x-forwarded-host', 'x-forwarded-proto', 'x-forwarded-port', 'x-forwarded-for', 'x-real-ip'];

/** Applies the forwarded-header policy to a Node request's headers, in place. */
export function applyProxyPolicy(headers, trustProxy) {
  if (!trustProxy) {
    for (const name of FORWARDED) delete headers[name];
    return;
  }
  // The proxy appends the address it saw; earlier hops came from the client and prove nothing.
  const xff = headers['x-forwarded-for'];
  if (xff) headers['x-forwarded-for'] = String(xff).split(',').pop().trim();
}

/**
 * True when the path cannot be decoded (a stray `%`, an escape that is not UTF-8) or decodes
 * to a NUL: no route can match it, so it is answered 400 without waking the app (which would
 * log an error for each).
 */
export function isMalformedPath(url) {
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  try {
    return decodeURIComponent(path).includes('\u0000');
  } catch {
    return true;
  }
}

/** Requests with a body larger than this are refused before anything reads it (src/server/body.ts). */
export const MAX_REQUEST_BODY = 64 * 1024;

/**
 * Routes that take uploads, each with what it may carry (the route still checks the capability
 * before reading): a chapter's pages, 300 MB and a little for the form (UPLOAD_BODY in
 * src/features/studio/drafts.server.ts, which streams them to disk; serve.mjs also gives these
 * the long request time); a series image, 20 MB and its multipart envelope.
 */
export const UPLOAD_PATHS = /^\/studio\/chapters\/(new|drafts\/\d{1,12}\/pages)\/?(\?|$)/;
export const MAX_UPLOAD_BODY = 301 * 1024 * 1024;
const IMAGE_UPLOAD_PATHS = /^\/studio\/series\/\d{1,12}\/images\/?(?:\?|$)/;
export const MAX_IMAGE_UPLOAD_BODY = 21 * 1024 * 1024;

/** True when a request announces a body larger than its route takes (`url`: the request target). */
export function isOversized(headers, url = '/') {
  const declared = headers['content-length'];
  const max = UPLOAD_PATHS.test(url) ? MAX_UPLOAD_BODY : IMAGE_UPLOAD_PATHS.test(url) ? MAX_IMAGE_UPLOAD_BODY : MAX_REQUEST_BODY;
  return declared !== undefined && /^\d+$/.test(declared) && Number(declared) > max;
}

const catalogues = {};
/** A message for the host's site, from the same catalogues the app uses (i18n/). */
export function edgeMessage(host, key) {
  const locale = /^br\./i.test(String(host ?? '')) ? 'pt-BR' : 'en';
  catalogues[locale] ??= JSON.parse(fs.readFileSync(new URL(`../i18n/${locale}.json`, import.meta.url), 'utf8'));
  return { locale, text: catalogues[locale][key] ?? key };
}

/**
 * Answers a request the edge refuses: a small localized page (or JSON under the API paths),
 * never cached, and the connection closed when a body may still be on its way.
 */
export function refuse(req, res, status, key) {
  const { locale, text } = edgeMessage(req.headers.host, key);
  const api = /^\/(s?api|relay)\//.test(req.url ?? '');
  const body = api
    ? JSON.stringify({ detail: text })
    : `<!doctype html><html lang="${locale}"><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${status}</title><p>${text}</p></html>`;
  const headers = {
    'Content-Type': api ? 'application/json; charset=utf-8' : 'text/html; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
  };
  if (status === 413) headers.Connection = 'close';
  res.writeHead(status, headers);
  res.end(req.method === 'HEAD' ? undefined : body);
}

/** A request id a proxy in front may pass on (TRUST_PROXY=1): short and plain, so it is safe in logs and headers. */
const PASSED_REQUEST_ID = /^[A-Za-z0-9._-]{8,64}$/;

/**
 * Gives the request its id, before anything else reads it: the request header `x-request-id`
 * (what the app, the logs and error reports read) and the response header `X-Request-Id` (what
 * a reader can quote to support; the error pages print it too). A client's own id is believed
 * only from a trusted proxy, so nobody can make their requests look like someone else's.
 */
export function assignRequestId(req, res, trustProxy) {
  const passed = trustProxy ? String(req.headers['x-request-id'] ?? '') : '';
  const id = PASSED_REQUEST_ID.test(passed) ? passed : randomBytes(9).toString('base64url');
  req.headers['x-request-id'] = id;
  res.setHeader('X-Request-Id', id);
  return id;
}
