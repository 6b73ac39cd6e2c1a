// Production server: static files from dist/client (precompressed, cached), everything else
// through the Astro handler. Honours PORT and HOST.
// WORKERS > 1: this process is the cluster primary, which forks workers that run this file and
// never returns here (scripts/cluster.mjs).
import cluster from 'node:cluster';
import { CATALOG_EDITED, drainOnSignals, machineMetrics } from './cluster.mjs';
import http from 'node:http';
import crypto from 'node:crypto';
import fs from 'node:fs';
import { pipeline } from 'node:stream';
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
const observe = await import('../src/server/observe.mjs');
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
  // A file that went away after it was listed (a deploy replacing dist/ under a running server)
  // ends this one answer, not the process: pipeline destroys the response instead of throwing.
  pipeline(fs.createReadStream(file), res, () => {});
}


/** Requests answered 400 for a URL that cannot be decoded, since the last report. */
let malformed = 0;
setInterval(() => {
  if (malformed === 0) return;
  observe.log().warn(`[inkpass] ${malformed} request(s) with a malformed URL answered 400 in the last minute`);
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

/**
 * The operator's endpoints (docs/operations.md, "Health" and "Metrics"): no log line and no
 * histogram entry for them, since a load balancer and Prometheus poll them every few seconds.
 */
const QUIET_PATHS = /^\/(healthz|readyz|metrics)\/?$/;

/** `Authorization: Bearer <METRICS_TOKEN>`, compared in constant time (digests of equal length). */
const metricsDigest = config.metricsToken ? crypto.createHash('sha256').update(config.metricsToken).digest() : null;
function metricsAllowed(req) {
  if (!metricsDigest) return false;
  const m = /^Bearer +(\S+) *$/i.exec(String(req.headers.authorization ?? ''));
  return crypto.timingSafeEqual(crypto.createHash('sha256').update(m ? m[1] : '').digest(), metricsDigest) && m !== null;
}

/** GET /metrics: the machine's metrics (every worker's, summed by the primary) or this process's (src/server/observe.mjs). */
async function serveMetrics(req, res) {
  let text;
  try {
    text = (cluster.isWorker ? await machineMetrics() : null) ?? (await observe.metricsText());
  } catch (error) {
    observe.log().error({ err: error instanceof Error ? error.message : String(error) }, 'metrics: collecting failed');
    res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' });
    return res.end('metrics unavailable\n');
  }
  res.writeHead(200, { 'Content-Type': observe.METRICS_CONTENT_TYPE, 'Content-Length': Buffer.byteLength(text), 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' });
  res.end(req.method === 'HEAD' ? undefined : text);
}

/**
 * What a request's log line says besides what the request and response carry: the route
 * pattern (the app's, "static", "refused", or the kept page's), the reader's log id and the
 * page cache's answer. The app fills it in as `locals.observe` (src/middleware/context.ts, session.ts).
 */
const NOTE = Symbol('inkpass.requestNote');
function track(req, res, id, t0) {
  const note = { route: undefined, reader: undefined, cache: undefined };
  res[NOTE] = note;
  // 'close' comes once per response, after it finished or when the client went away first.
  res.once('close', () => {
    const aborted = !res.writableFinished;
    observe.recordRequest({
      // A URL no route matches is answered by Astro's 404 page without the middleware's note.
      id, method: req.method, route: note.route ?? (res.statusCode === 404 ? '/404' : 'unmatched'), status: aborted && !res.headersSent ? 499 : res.statusCode,
      ms: performance.now() - t0, reader: note.reader, cache: note.cache, aborted,
    });
  });
  return note;
}

/** `quiet`: the start-up probe's own requests (warmUp), which are nobody's. */
function onRequest(req, res, quiet = false) {
  const t0 = performance.now();
  const id = assignRequestId(req, res, config.trustProxy);
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  const urlPath = q < 0 ? url : url.slice(0, q);
  const read = req.method === 'GET' || req.method === 'HEAD';
  if (QUIET_PATHS.test(urlPath)) {
    quiet = true;
    // The process is up (no database: that is /readyz's question).
    if (read && urlPath.startsWith('/healthz')) {
      res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': 3, 'Cache-Control': 'no-store' });
      return res.end(req.method === 'HEAD' ? undefined : 'ok\n');
    }
    // Without the token (or when none is set) /metrics is the site's usual 404, from the app.
    if (read && urlPath.startsWith('/metrics') && metricsAllowed(req)) return void serveMetrics(req, res);
    // Probes ask without the slash as often as with it: both are answered, with no redirect.
    if (!urlPath.endsWith('/')) req.url = `${urlPath}/${url.slice(urlPath.length)}`;
  }
  const note = quiet ? { route: undefined, reader: undefined, cache: undefined } : track(req, res, id, t0);
  if (read) {
    const entry = urlPath.length < 512 ? lookup(urlPath) : null;
    if (entry) {
      note.route = 'static';
      return serveStatic(req, res, entry);
    }
  }
  if (isMalformedPath(url)) {
    malformed++;
    note.route = 'refused';
    return refuse(req, res, 400, 'error.url.malformed');
  }
  if (isOversized(req.headers, url)) {
    note.route = 'refused';
    return refuse(req, res, 413, 'error.body.tooLarge');
  }
  if (!UPLOAD_PATHS.test(req.url ?? '/')) boundRequest(req, res, REQUEST_TIMEOUT_MS);
  applyProxyPolicy(req.headers, config.trustProxy);
  req.url = withTrailingSlash(req.url ?? '/');
  const key = config.pageCacheBytes > 0 ? pages.pageCacheKey(req, config) : null;
  if (key === null) return enqueue(req, res, null, note);
  const hit = pages.lookupPage(key);
  const rendering = pages.renderingPage(key);
  if (hit && (hit.fresh || rendering)) return sendPage(req, res, hit.page, hit.fresh ? 'HIT' : 'STALE', note);
  // Single flight: wait for the render under way; if it could not be kept, render as usual.
  if (rendering) return void rendering.then((page) => (page ? sendPage(req, res, page, 'HIT', note) : miss(req, res, null, note)));
  // A miss, or a stale page nobody is rendering again yet: this request renders it and keeps it.
  miss(req, res, req.method === 'GET' ? pages.beginRender(key) : null, note);
}

/** A cacheable request the page cache could not answer: Astro renders it. */
function miss(req, res, keep, note) {
  observe.countPageCache('miss');
  note.cache = 'MISS';
  enqueue(req, res, keep, note);
}

/**
 * Sends a kept page (src/server/page-cache.mjs) without waking Astro. Its headers are flattened
 * once per page: a flat array is what Node writes fastest.
 */
const flatHeaders = new WeakMap();
function sendPage(req, res, page, state, note) {
  observe.countPageCache(state === 'HIT' ? 'hit' : 'stale');
  note.route = page.route ?? 'cached';
  note.cache = state;
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
/**
 * `keep` (or null): settles the page cache's render for this request with what it answered.
 * `note`: the request's log note (track), which the app fills in as `locals.observe`.
 */
function enqueue(req, res, keep, note) {
  res[NOTE] = note;
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
    handler(req, res, undefined, { sink: bodySink(res, keep), modulePreloads, observe: res[NOTE] });
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
  observe.log().error(`[serve] body sink not working: ${what} (scripts/serve.mjs, src/server/http.ts)`);
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
      // The kept page remembers its route pattern for the log lines of the requests it answers.
      if (keep && armed) answer = { status, headers: { ...headers }, body: sink.body, route: res[NOTE]?.route };
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
 * 120 ms and a p99 of 200-300 ms over the first seconds). WARMUP=0 skips the pages (the
 * readiness request, which loads the middleware, always goes through). It never fails the
 * start: an error page or a refused request is only a colder start.
 */
async function warmUp(pagesToo) {
  const probe = http.createServer((req, res) => onRequest(req, res, true));
  // exclusive: a cluster worker's probe port is its own, not shared with the other workers.
  await new Promise((resolve) => probe.listen({ port: 0, host: '127.0.0.1', exclusive: true }, resolve));
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
    // Always: loads the middleware, which tells /metrics where its database figures come from
    // (src/middleware/figures.ts), and opens the database.
    await get('/readyz/', 'localhost');
    if (!pagesToo) return;
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
await warmUp(config.warmup);

const { port, host } = config;
server.listen(port, host, () => {
  // With several workers, one says it (the one that runs the machine's checks), not each of them.
  if (cluster.isWorker && process.env.INKPASS_MACHINE_TIMERS !== '1') return;
  console.log(startup.modeLine(config));
  const where = host === '0.0.0.0' || host === '::' ? 'every interface' : host;
  console.log(`Inkpass is serving http://localhost:${port}/ (English) and http://br.localhost:${port}/ (Português), listening on ${where}`);
});
// Events still buffered are sent (2 s at most) before the process exits, after the drain.
drainOnSignals(server, () => errorReports.flushErrorReports(2_000));
// SIGHUP: an operator changed catalogue rows by hand (SQL). The server forgets what it keeps of
// the catalogue and its kept pages (src/server/cache.ts listens), without a restart; a worker
// passes it on to the others. The cluster primary does the same for all (scripts/cluster.mjs).
process.on('SIGHUP', () => process.emit(CATALOG_EDITED));
