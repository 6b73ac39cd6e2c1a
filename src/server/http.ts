import zlib from 'node:zlib';
import { config } from './config.mjs';
import { withModulePreloads, type ModulePreloads } from './module-preload.mjs';

// Synchronous on purpose: for 10-100 KB pages the stream machinery of async zlib costs the
// event loop more (about 0.6 ms a page, measured) than compressing in place.
// Fast settings: on an 80 KB series page brotli quality 1 takes 0.16 ms for 9.2 KB, quality 2
// 0.22 ms for 8.6 KB, quality 4 0.43 ms for 8.1 KB; gzip level 1 0.20 ms for 9.9 KB, level 6
// 0.44 ms for 8.9 KB. A few hundred bytes are not worth doubling the page's compression time
// (docs/performance.md). Static assets are precompressed at the highest levels.
const BROTLI_QUALITY = 1;
const GZIP_LEVEL = 1;

/** JSON response with the right headers; API errors use a `{detail}` body like the original API. */
export function json(data: unknown, init: ResponseInit & { cache?: string } = {}): Response {
  const headers = new Headers(init.headers);
  headers.set('Content-Type', 'application/json; charset=utf-8');
  if (init.cache) headers.set('Cache-Control', init.cache);
  return new Response(JSON.stringify(data), { ...init, headers });
}

export function jsonError(status: number, detail: string): Response {
  return json({ detail }, { status, cache: 'no-store' });
}

/** A call's answer: 200 with a JSON body, or another status with the text to show (and when to retry). */
export function jsonOrText(answer: { status: number; body: unknown } | { status: number; text: string; retryAfter?: number }): Response {
  if ('body' in answer) return json(answer.body, { status: answer.status, cache: 'no-store' });
  return textResponse(answer.status, answer.text, answer.retryAfter ? { 'Retry-After': String(answer.retryAfter) } : {});
}

/** A plain-text answer that is never cached (an error shown as it is, such as the coupon box's). */
export function textResponse(status: number, text: string, headers: Record<string, string> = {}): Response {
  return new Response(text, { status, headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store', ...headers } });
}

/**
 * A page's methods: null when the request's is one of `allow` (HEAD comes with GET), else the
 * 405 that names them. Pages that take forms allow POST too; a page missing from the routes
 * table never gets a POST this far (src/server/routes.ts).
 */
export function methodNotAllowed(method: string, allow: 'GET' | 'GET, POST' | 'POST'): Response | null {
  const allowed = allow === 'POST' ? ['POST'] : allow === 'GET' ? ['GET', 'HEAD'] : ['GET', 'HEAD', 'POST'];
  if (allowed.includes(method)) return null;
  return new Response(null, { status: 405, headers: { Allow: allowed.join(', '), 'Cache-Control': 'no-store' } });
}

export const PUBLIC_CACHE = 'public, max-age=0, s-maxage=60, stale-while-revalidate=600';
export const PRIVATE_CACHE = 'private, no-cache';

const COMPRESSIBLE = /^(text\/|application\/(json|xml|rss\+xml|manifest\+json|javascript))/;

/**
 * Where the production server (scripts/serve.mjs) takes a page's compressed bytes, so they need
 * not be wrapped in a Response body stream and read back out of it by the adapter. The
 * middleware passes it on from `locals`; absent under `astro dev`.
 */
export interface BodySink {
  body?: Uint8Array;
}
/** Marks a body-less Response whose bytes are in the sink; the server removes it before writing. */
export const SINK_HEADER = 'x-inkpass-body';

/**
 * The final response: `source`'s status and body with `headers` (already copied and edited by
 * the caller), its text compressed (brotli preferred, then gzip) when the client accepts it.
 * One copy of the body, one Response: this runs on every page. With a `sink`, a compressed 200
 * goes there and the Response carries only the headers. With `preloads`, an HTML page also gets
 * the modulepreload links of its scripts' imports (module-preload.mjs).
 */
export async function compress(source: Response, acceptEncoding: string, headers: Headers = new Headers(source.headers), sink?: BodySink, preloads?: ModulePreloads): Promise<Response> {
  const init = { status: source.status, statusText: source.statusText, headers };
  const type = headers.get('Content-Type') ?? '';
  if (!source.body || headers.has('Content-Encoding') || !COMPRESSIBLE.test(type)) return new Response(source.body, init);
  appendVary(headers, 'Accept-Encoding');
  const encoding = /\bbr\b/.test(acceptEncoding) ? 'br' : /\bgzip\b/.test(acceptEncoding) ? 'gzip' : null;
  const html = preloads !== undefined && type.startsWith('text/html');
  if (!encoding && !html) return new Response(source.body, init);
  let raw: Buffer = Buffer.from(await source.arrayBuffer());
  if (html) raw = withModulePreloads(raw, preloads);
  if (!encoding || raw.length < 1024) {
    // The links lengthen the page: a length the renderer set no longer holds.
    headers.set('Content-Length', String(raw.length));
    return new Response(new Uint8Array(raw), init);
  }
  const body =
    encoding === 'br'
      ? zlib.brotliCompressSync(raw, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: raw.length } })
      : zlib.gzipSync(raw, { level: GZIP_LEVEL });
  headers.set('Content-Encoding', encoding);
  headers.set('Content-Length', String(body.length));
  if (sink && source.status === 200) {
    sink.body = body;
    headers.set(SINK_HEADER, '1');
    return new Response(null, init);
  }
  return new Response(body, init);
}

/**
 * An answer that depends on the visitor's country says so to shared caches. Only the
 * configured country header is believed (COUNTRY_HEADER), so it is the only one to vary on;
 * without one nothing depends on the country.
 */
export function varyOnCountry(headers: Headers): void {
  if (config.countryHeader) appendVary(headers, config.countryHeader);
}

export function appendVary(headers: Headers, value: string): void {
  const current = headers.get('Vary');
  if (!current) headers.set('Vary', value);
  else if (!current.split(',').some((v) => v.trim().toLowerCase() === value.toLowerCase())) headers.set('Vary', `${current}, ${value}`);
}

/** Reads a positive integer query parameter, clamped; anything malformed gives the fallback. */
export function intParam(value: string | null, fallback: number, min: number, max: number): number {
  if (value == null || !/^\d{1,9}$/.test(value)) return fallback;
  return Math.min(max, Math.max(min, Number(value)));
}
