// Production server: static files from dist/client (precompressed, cached), everything else
// through the Astro handler. Honours PORT and HOST.
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { withTrailingSlash } from './slashless.mjs';
import { applyProxyPolicy, assignRequestId, isMalformedPath, isOversized, refuse, UPLOAD_PATHS } from './edge.mjs';
import { MODULE_PRELOADS_FILE } from './module-preload-integration.mjs';

process.env.NODE_ENV ??= 'production';
const { config } = await import('../src/server/config.mjs');
// Demo or production (INKPASS_MODE): refuse to start, one line per reason, before anything listens.
const startup = await import('../src/server/startup.mjs');
const refusals = await startup.refusalsAtStart(config);
if (refusals.length) {
  for (const r of refusals) console.error(`[inkpass] refusing to start: ${r}`);
  process.exit(1);
}
// Error reporting (src/server/error-reports.mjs): the SDK is loaded only with SENTRY_DSN set and
// INKPASS_DEBUG unset; otherwise `sentry` is null, nothing is sent and requests are not wrapped.
const errorReports = await import('../src/server/error-reports.mjs');
const sentry = await errorReports.startErrorReporting(config.errors, errorReports.readBuildHash(new URL('../dist/server/', import.meta.url)));
const pages = await import('../src/server/page-cache.mjs');
pages.configurePageCache(config.pageCacheBytes);
const root = path.resolve(fileURLToPath(new URL('../dist/client/', import.meta.url)));
const { handler } = await import('../dist/server/entry.mjs');
const { parseModulePreloads } = await import('../src/server/module-preload.mjs');
// What each page's scripts import, for the modulepreload links in its head (scripts/module-preload-integration.mjs).
// A build without the map (made before it existed) serves pages without the links.
const preloadsFile = new URL(`../dist/server/${MODULE_PRELOADS_FILE}`, import.meta.url);
const modulePreloads = parseModulePreloads(fs.existsSync(preloadsFile) ? fs.readFileSync(preloadsFile, 'utf8') : '{}');

const TYPES = {
  '.js': 'text/javascript; charset=utf-8', '.mjs': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml', '.png': 'image/png', '.ico': 'image/x-icon', '.webp': 'image/webp', '.avif': 'image/avif',
  '.json': 'application/json', '.txt': 'text/plain; charset=utf-8', '.xml': 'application/xml', '.woff2': 'font/woff2',
  '.webmanifest': 'application/manifest+json',
};

/** Static files are resolved once per path and remembered (the build output never changes while serving). */
const staticCache = new Map();
function lookup(urlPath) {
  if (staticCache.has(urlPath)) return staticCache.get(urlPath);
  let found = null;
  try {
    const decoded = decodeURIComponent(urlPath);
    const file = path.join(root, decoded);
    if (file.startsWith(root + path.sep) && !decoded.endsWith('/')) {
      const stat = fs.statSync(file, { throwIfNoEntry: false });
      if (stat?.isFile()) {
        found = {
          file,
          size: stat.size,
          type: TYPES[path.extname(file)] ?? 'application/octet-stream',
          br: fs.existsSync(file + '.br') ? fs.statSync(file + '.br').size : 0,
          gz: fs.existsSync(file + '.gz') ? fs.statSync(file + '.gz').size : 0,
          immutable: decoded.startsWith('/_astro/'),
        };
      }
    }
  } catch { found = null; }
  if (staticCache.size < 10_000) staticCache.set(urlPath, found);
  return found;
}

function serveStatic(req, res, entry) {
  const accept = String(req.headers['accept-encoding'] ?? '');
  let file = entry.file, size = entry.size, encoding = null;
  if (entry.br && /\bbr\b/.test(accept)) { file += '.br'; size = entry.br; encoding = 'br'; }
  else if (entry.gz && /\bgzip\b/.test(accept)) { file += '.gz'; size = entry.gz; encoding = 'gzip'; }
  const headers = {
    'Content-Type': entry.type,
    'Content-Length': size,
    'Cache-Control': entry.immutable ? 'public, max-age=31536000, immutable' : 'public, max-age=3600',
    'X-Content-Type-Options': 'nosniff',
  };
  if (entry.br || entry.gz) headers.Vary = 'Accept-Encoding';
  if (encoding) headers['Content-Encoding'] = encoding;
  res.writeHead(200, headers);
  if (req.method === 'HEAD') return res.end();
  fs.createReadStream(file).pipe(res);
}


/** Requests answered 400 for a URL that cannot be decoded, since the last report. */
let malformed = 0;
setInterval(() => {
  if (malformed === 0) return;
  console.log(`[inkpass] ${malformed} request(s) with a malformed URL answered 400 in the last minute`);
  malformed = 0;
}, 60_000).unref();

/**
 * Node's request time-out for one request: when its body has not all arrived within `ms`, the
 * answer is 408 (if none has started) and the connection is closed, as Node does itself.
 */
function boundRequest(req, res, ms) {
  if (req.complete) return;
  const timer = setTimeout(() => {
    if (req.complete) return;
    if (!res.headersSent) {
      res.writeHead(408, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store', Connection: 'close' });
      res.end('Request Timeout');
    }
    req.socket.destroy();
  }, ms);
  const clear = () => clearTimeout(timer);
  req.once('close', clear);
  res.once('close', clear);
}

function onRequest(req, res) {
  assignRequestId(req, res, config.trustProxy);
  if (req.method === 'GET' || req.method === 'HEAD') {
    const urlPath = (req.url ?? '/').split('?')[0];
    const entry = urlPath.length < 512 ? lookup(urlPath) : null;
    if (entry) return serveStatic(req, res, entry);
  }
  if (isMalformedPath(req.url ?? '/')) {
    malformed++;
    return refuse(req, res, 400, 'error.url.malformed');
  }
  if (isOversized(req.headers, req.url ?? '/')) return refuse(req, res, 413, 'error.body.tooLarge');
  if (!UPLOAD_PATHS.test(req.url ?? '/')) boundRequest(req, res, REQUEST_TIMEOUT_MS);
  applyProxyPolicy(req.headers, config.trustProxy);
  req.url = withTrailingSlash(req.url ?? '/');
  const key = config.pageCacheBytes > 0 ? pages.pageCacheKey(req, config) : null;
  if (key === null) return enqueue(req, res, null);
  const hit = pages.lookupPage(key);
  const rendering = pages.renderingPage(key);
  if (hit && (hit.fresh || rendering)) return sendPage(req, res, hit.page, hit.fresh ? 'HIT' : 'STALE');
  // Single flight: wait for the render under way; if it could not be kept, render as usual.
  if (rendering) return void rendering.then((page) => (page ? sendPage(req, res, page, 'HIT') : enqueue(req, res, null)));
  // A miss, or a stale page nobody is rendering again yet: this request renders it and keeps it.
  enqueue(req, res, req.method === 'GET' ? pages.beginRender(key) : null);
}

/**
 * Sends a kept page (src/server/page-cache.mjs) without waking Astro. Its headers are flattened
 * once per page: a flat array is what Node writes fastest.
 */
const flatHeaders = new WeakMap();
function sendPage(req, res, page, state) {
  let flat = flatHeaders.get(page);
  if (!flat) flatHeaders.set(page, (flat = Object.entries(page.headers).flatMap(([k, v]) => (Array.isArray(v) ? v.flatMap((x) => [k, x]) : [k, v]))));
  res.writeHead(200, [...flat, 'x-cache', state]);
  res.end(req.method === 'HEAD' ? undefined : page.body);
}
// With the SDK on, each request is one transaction (one in ten sampled); without it, no wrapper at all.
const server = http.createServer(sentry ? errorReports.tracedHandler(sentry, onRequest) : onRequest);
// A request, body included, must arrive within 30 s (Node's default is five minutes): a client
// that announces a body and never sends it holds a socket and a queued page for no one. The
// chapter upload routes take up to 300 MB, which needs 80 Mbit/s to arrive in 30 s: Node's own
// limit is theirs (15 minutes), and every other request is held to 30 s by boundRequest.
const REQUEST_TIMEOUT_MS = 30_000;
server.requestTimeout = 15 * 60_000;
server.headersTimeout = 20_000;

/**
 * Pages start in arrival order, one per turn of the event loop. Node would otherwise start every
 * request a socket poll delivered back to back inside the poll, and a request arriving just
 * after a poll would wait for the whole next batch as well: under load the slowest percent of
 * requests took twice the mean. Between turns the loop polls again, so later arrivals queue
 * behind earlier ones. A page that waits on I/O (PostgreSQL) yields its turn, so requests still
 * overlap; with SQLite each runs to completion in its turn. See docs/performance.md.
 */
const queue = [];
let head = 0;
let scheduled = false;
/** `keep` (or null): settles the page cache's render for this request with what it answered. */
function enqueue(req, res, keep) {
  queue.push(req, res, keep);
  if (!scheduled) { scheduled = true; setImmediate(startNext); }
}
function startNext() {
  scheduled = false;
  while (head < queue.length) {
    const req = queue[head], res = queue[head + 1], keep = queue[head + 2];
    queue[head] = queue[head + 1] = queue[head + 2] = undefined;
    head += 3;
    // A client that gave up while queued costs nothing.
    if (req.socket?.destroyed || res.destroyed) {
      keep?.(null);
      continue;
    }
    handler(req, res, undefined, { sink: bodySink(res, keep), modulePreloads });
    break;
  }
  if (head === queue.length) { queue.length = 0; head = 0; return; }
  if (head > 6144) { queue.splice(0, head); head = 0; }
  if (!scheduled) { scheduled = true; setImmediate(startNext); }
}

/**
 * A compressed page comes back from the middleware as a body-less Response marked with
 * SINK_HEADER, its bytes in the sink (src/server/http.ts, `compress`): the adapter writes the
 * head and ends the response, and the bytes go out with the end. Building a Response body
 * stream only for the adapter to read it back cost about 0.09 ms a page. A response without
 * the mark (any other, or one Astro replaced after the middleware) is written untouched.
 */
const SINK_HEADER = 'x-inkpass-body';
/**
 * The sink relies on how the adapter writes a Response (writeHead with a headers object, then
 * end). If a new adapter or Astro version stops doing that, pages still go out, only slower, or
 * a marked page would lose its bytes: either is said once, loudly, on stderr, and
 * tests/integration/http.test.ts fails on that line.
 */
let sinkComplaint = false;
function complainAboutSink(what) {
  if (sinkComplaint) return;
  sinkComplaint = true;
  console.error(`[serve] body sink not working: ${what} (scripts/serve.mjs, src/server/http.ts)`);
}
/** Whether headers (an object, or a flat [name, value, …] array) describe a compressed HTML page. */
function compressedHtml(headers) {
  const get = (name) => {
    if (!Array.isArray(headers)) return headers?.[name];
    for (let i = 0; i + 1 < headers.length; i += 2) if (String(headers[i]).toLowerCase() === name) return headers[i + 1];
    return undefined;
  };
  return !!get('content-encoding') && String(get('content-type') ?? '').startsWith('text/html');
}
function bodySink(res, keep) {
  const sink = {};
  let armed = false;
  let answer = null;
  const { writeHead, end } = res;
  res.writeHead = function (status, ...rest) {
    const headers = rest[rest.length - 1];
    if (headers && typeof headers === 'object' && !Array.isArray(headers) && SINK_HEADER in headers) {
      delete headers[SINK_HEADER];
      armed = sink.body !== undefined;
      if (!armed) complainAboutSink('a page was marked but its bytes were not in the sink');
      if (keep && armed) answer = { status, headers: { ...headers }, body: sink.body };
    } else if (status === 200 && compressedHtml(headers ?? this.getHeaders())) {
      complainAboutSink('a compressed page reached writeHead without the mark');
    }
    return writeHead.call(this, status, ...rest);
  };
  res.end = function (...args) {
    if (armed && args.length === 0) {
      armed = false;
      return end.call(this, sink.body);
    }
    return end.apply(this, args);
  };
  // The page cache learns what this request answered, once, whether it completed or not.
  if (keep) {
    let settled = false;
    const settle = (ok) => {
      if (settled) return;
      settled = true;
      keep(ok ? answer : null);
    };
    res.once('finish', () => settle(true));
    res.once('close', () => settle(false));
  }
  return sink;
}

server.keepAliveTimeout = 65_000;

/**
 * Before the public port opens, a few pages go through the same handler on a private loopback
 * port: both sites' home, listing, about and one series page. A fresh process otherwise makes
 * its first readers wait while it loads the page modules, opens the database, compiles the hot
 * paths and runs the first release check (on the 10,000-series catalogue: stalls of up to
 * 120 ms and a p99 of 200-300 ms over the first seconds). WARMUP=0 skips it. It never fails the
 * start: an error page or a refused request is only a colder start.
 */
async function warmUp() {
  const probe = http.createServer(onRequest);
  await new Promise((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port: probePort } = probe.address();
  const get = (path, siteHost) =>
    new Promise((resolve) => {
      const req = http.get({ host: '127.0.0.1', port: probePort, path, agent: false, headers: { host: `${siteHost}:${probePort}` } }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => { if (body.length < 200_000) body += chunk; });
        res.on('end', () => resolve(body));
        res.on('error', () => resolve(''));
      });
      req.setTimeout(30_000, () => req.destroy());
      req.on('error', () => resolve(''));
    });
  try {
    for (const siteHost of ['localhost', 'br.localhost']) {
      await get('/about/', siteHost);
      const listing = await get('/comics/', siteHost);
      const series = /href="(\/comics\/[a-z0-9-]+\/)"/.exec(listing)?.[1];
      if (series) await get(series, siteHost);
      await get('/', siteHost);
    }
  } finally {
    await new Promise((resolve) => probe.close(resolve));
  }
}
if (config.warmup) await warmUp();

const { port, host } = config;
server.listen(port, host, () => {
  console.log(startup.modeLine(config));
  const where = host === '0.0.0.0' || host === '::' ? 'every interface' : host;
  console.log(`Inkpass is serving http://localhost:${port}/ (English) and http://br.localhost:${port}/ (Português), listening on ${where}`);
});
// Events still buffered are sent (2 s at most) before the process exits.
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.close(() => errorReports.flushErrorReports(2_000).then(() => process.exit(0))));
