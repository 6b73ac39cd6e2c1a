// @ts-check
/**
 * The page cache: anonymous answers kept in this process and sent by scripts/serve.mjs without
 * waking Astro. An anonymous page is the same for every visitor of a site (per encoding and,
 * when a country header is configured, per country), and is already declared shared-cacheable
 * for 60 s (`s-maxage=60`), so keeping it a few seconds here changes nothing a CDN would not.
 *
 * What it keys on (pageCacheKey): the host (which decides the site) and, behind a trusted
 * proxy, the forwarded host and protocol; the path and query exactly as sent; the content
 * encoding the answer will use (br or gzip); the visitor's country from the configured header.
 *
 * When it is never used (the request goes to Astro as usual): any method but GET and HEAD; a
 * request carrying a session, theme, view or age-confirmation cookie (those pages are personal;
 * the age gate of an adult series must never reach a visitor who confirmed, nor the reverse); an
 * Authorization or Origin header (API clients, the language switch's CORS check); a client
 * that accepts neither br nor gzip.
 * What it never keeps (isCacheable): anything but a 200 whose Cache-Control is public with an
 * s-maxage, that sets no cookie, and whose compressed bytes the middleware handed over.
 *
 * Freshness: FRESH_MS; then, up to STALE_MS more, one request renders the page again while
 * the others get the stale copy; older copies are dropped. Single flight: while a page renders
 * for a key, other requests for it wait for that render. Bounded: least recently used pages go
 * first past config.pageCacheBytes. invalidatePages() empties it in this process when the
 * catalogue changes (through catalogChanged() in cache.ts, with the other shared caches, which
 * also tells the other workers of this machine: src/server/workers.ts); other machines, and
 * prices that change with the clock alone (a campaign's start or end), rely on the short
 * freshness.
 *
 * State lives on globalThis because two copies of this module run in one process: the one
 * serve.mjs imports and the one bundled into the Astro server.
 */

/** How long a kept page is served as it is. */
export const FRESH_MS = 10_000;
/** After that, how long it is still served while one request renders it again. */
export const STALE_MS = 50_000;

/** Cookies whose presence makes a page personal (the middleware marks such pages private). */
export const PERSONAL_COOKIES = /(?:^|;\s*)(inkpass_session|dark|lite|view|adult)=/;

/**
 * @typedef {object} CachedPage
 * @property {Record<string, string>} headers The answer's headers, as sent.
 * @property {Buffer} body The compressed body.
 * @property {number} at When it was kept (ms).
 * @property {string} [route] The route pattern that rendered it (the log lines of the requests it answers name it).
 */

/**
 * @typedef {object} PageCacheState
 * @property {Map<string, CachedPage>} pages In least-recently-used order.
 * @property {Map<string, Promise<CachedPage | null>>} rendering Keys being rendered now.
 * @property {number} bytes
 * @property {number} maxBytes
 * @property {number} generation Bumped by invalidatePages, so a render begun before it is not kept.
 */

const STATE = Symbol.for('inkpass.pageCache');

/** @returns {PageCacheState} */
function state() {
  const g = /** @type {Record<symbol, PageCacheState | undefined>} */ (/** @type {unknown} */ (globalThis));
  return (g[STATE] ??= { pages: new Map(), rendering: new Map(), bytes: 0, maxBytes: 64 * 1024 * 1024, generation: 0 });
}

/** Sets the memory bound (bytes of kept bodies and headers). @param {number} maxBytes */
export function configurePageCache(maxBytes) {
  const s = state();
  s.maxBytes = maxBytes;
  evict(s);
}

/** Forgets every kept page in this process: the catalogue (a series, chapter, campaign or price) changed. */
export function invalidatePages() {
  const s = state();
  s.pages.clear();
  s.bytes = 0;
  s.generation++;
}

export function pageCacheStats() {
  const s = state();
  return { pages: s.pages.size, bytes: s.bytes, maxBytes: s.maxBytes };
}

/**
 * The cache key of a request, or null when the request must not be answered from the cache.
 * @param {{ method?: string, url?: string, headers: Record<string, string | string[] | undefined> }} req
 * @param {{ countryHeader: string | null, trustProxy: boolean }} config
 */
export function pageCacheKey(req, config) {
  if (req.method !== 'GET' && req.method !== 'HEAD') return null;
  const h = req.headers;
  if (h.authorization !== undefined || h.origin !== undefined) return null;
  if (PERSONAL_COOKIES.test(String(h.cookie ?? ''))) return null;
  const encoding = chooseEncoding(String(h['accept-encoding'] ?? ''));
  if (!encoding) return null;
  const host = String(h.host ?? '').toLowerCase();
  const proxied = config.trustProxy ? `${h['x-forwarded-host'] ?? ''}|${h['x-forwarded-proto'] ?? ''}` : '';
  const country = config.countryHeader ? String(h[config.countryHeader] ?? '').toUpperCase() : '';
  return `${host}|${proxied}|${encoding}|${country}|${req.url ?? '/'}`;
}

/** The encoding the middleware would pick (src/server/http.ts): brotli, then gzip. @param {string} acceptEncoding */
export function chooseEncoding(acceptEncoding) {
  return /\bbr\b/.test(acceptEncoding) ? 'br' : /\bgzip\b/.test(acceptEncoding) ? 'gzip' : null;
}

/**
 * A kept page for a key: `fresh`, `stale` (the caller should let one request render it
 * again) or nothing.
 * @param {string} key
 * @returns {{ page: CachedPage, fresh: boolean } | null}
 */
export function lookupPage(key, now = Date.now()) {
  const s = state();
  const page = s.pages.get(key);
  if (!page) return null;
  const age = now - page.at;
  if (age >= FRESH_MS + STALE_MS) {
    drop(s, key, page);
    return null;
  }
  s.pages.delete(key);
  s.pages.set(key, page);
  return { page, fresh: age < FRESH_MS };
}

/** The render under way for a key, if any (single flight). @param {string} key */
export function renderingPage(key) {
  return state().rendering.get(key) ?? null;
}

/**
 * Marks a render as under way for a key; the returned function settles it with what the render
 * answered (kept only when cacheable and the catalogue did not change meanwhile).
 * @param {string} key
 * @returns {(answer: { status: number, headers: Record<string, string>, body: Buffer | undefined, route?: string } | null) => CachedPage | null}
 */
export function beginRender(key) {
  const s = state();
  const generation = s.generation;
  /** @type {(p: CachedPage | null) => void} */
  let settle = () => {};
  const promise = new Promise((resolve) => (settle = resolve));
  s.rendering.set(key, /** @type {Promise<CachedPage | null>} */ (promise));
  return (answer) => {
    if (s.rendering.get(key) === promise) s.rendering.delete(key);
    const page = answer && answer.body && isCacheable(answer.status, answer.headers) ? { headers: answer.headers, body: answer.body, at: Date.now(), route: answer.route } : null;
    if (page && s.generation === generation) keep(s, key, page);
    settle(page);
    return page;
  };
}

/**
 * Whether an answer may be kept for everyone.
 * @param {number} status
 * @param {Record<string, string>} headers lower-cased names
 */
export function isCacheable(status, headers) {
  if (status !== 200 || headers['set-cookie'] !== undefined) return false;
  const cc = String(headers['cache-control'] ?? '');
  return /\bpublic\b/.test(cc) && /\bs-maxage=\d+/.test(cc) && !/\b(private|no-store|no-cache)\b/.test(cc) && !!headers['content-encoding'];
}

/** @param {PageCacheState} s @param {string} key @param {CachedPage} page */
function keep(s, key, page) {
  const old = s.pages.get(key);
  if (old) drop(s, key, old);
  s.pages.set(key, page);
  s.bytes += sizeOf(page);
  evict(s);
}

/** @param {PageCacheState} s */
function evict(s) {
  for (const [key, page] of s.pages) {
    if (s.bytes <= s.maxBytes) break;
    drop(s, key, page);
  }
}

/** @param {PageCacheState} s @param {string} key @param {CachedPage} page */
function drop(s, key, page) {
  if (s.pages.get(key) !== page) return;
  s.pages.delete(key);
  s.bytes -= sizeOf(page);
}

/** @param {CachedPage} page */
function sizeOf(page) {
  let n = page.body.length + 200;
  for (const [k, v] of Object.entries(page.headers)) n += k.length + String(v).length;
  return n;
}
