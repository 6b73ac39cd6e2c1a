import zlib from 'node:zlib';

// Synchronous on purpose: for 10-100 KB pages the stream machinery of async zlib costs the
// event loop more (about 0.6 ms a page, measured) than compressing in place (0.25 ms).

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

export const PUBLIC_CACHE = 'public, max-age=0, s-maxage=60, stale-while-revalidate=600';
export const PRIVATE_CACHE = 'private, no-cache';

const COMPRESSIBLE = /^(text\/|application\/(json|xml|rss\+xml|manifest\+json|javascript))/;

/** Compresses a buffered text response (brotli preferred, then gzip) when the client accepts it. */
export async function compress(response: Response, acceptEncoding: string): Promise<Response> {
  const type = response.headers.get('Content-Type') ?? '';
  if (!response.body || response.headers.has('Content-Encoding') || !COMPRESSIBLE.test(type)) return response;
  const encoding = /\bbr\b/.test(acceptEncoding) ? 'br' : /\bgzip\b/.test(acceptEncoding) ? 'gzip' : null;
  const headers = new Headers(response.headers);
  appendVary(headers, 'Accept-Encoding');
  if (!encoding) return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  const raw = Buffer.from(await response.arrayBuffer());
  if (raw.length < 1024) return new Response(raw, { status: response.status, statusText: response.statusText, headers });
  const body =
    encoding === 'br'
      ? zlib.brotliCompressSync(raw, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 2, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: raw.length } })
      : zlib.gzipSync(raw, { level: 6 });
  headers.set('Content-Encoding', encoding);
  headers.set('Content-Length', String(body.length));
  return new Response(body, { status: response.status, statusText: response.statusText, headers });
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
