// @ts-check
/**
 * Error reporting (spec sections 7-9; docs/operations.md, "Error reporting"; docs/decisions.md,
 * "Error reporting"). With SENTRY_DSN set (and INKPASS_DEBUG not), the official Sentry SDK for
 * Node (@sentry/node) sends events there: route errors (src/pages/500.astro), the browser's
 * errors that came through the tunnel (POST /api/errors/), uncaught exceptions, and one
 * transaction per request, one in ten sampled (scripts/serve.mjs). Without a DSN the SDK is never
 * imported and each error is one JSON line in the log (stdout, observe.mjs), with its request id.
 *
 * Plain JavaScript (typed by JSDoc): scripts/serve.mjs loads it without a build, and the Astro
 * build bundles its own copy. The two copies share one state on globalThis, which the server
 * fills before it listens, so both reach the same SDK client.
 */
import fs from 'node:fs';
import { ignoredBecause, scrub, scrubEvent, CHUNK_LOAD_ERROR } from './error-filter.mjs';
import { log } from './observe.mjs';

/** The spec's release (section 9): 1.0.0 with the build's hash. */
export const RELEASE_VERSION = '1.0.0';
/** Written at build time beside the server bundle (scripts/release-integration.mjs). */
export const BUILD_HASH_FILE = 'build-hash.txt';

/**
 * @typedef {typeof import('@sentry/node')} Sentry
 * @typedef {{ sentry: Sentry | null, release: string, environment: string }} ReportingState
 */

const STATE = Symbol.for('inkpass.errorReporting');
/** @returns {ReportingState} */
function state() {
  const g = /** @type {Record<symbol, ReportingState | undefined>} */ (/** @type {unknown} */ (globalThis));
  return (g[STATE] ??= { sentry: null, release: `${RELEASE_VERSION}+dev`, environment: 'demo' });
}

/** The build hash written next to the server bundle, or 'unknown' for a build made before it existed. */
/** @param {URL} serverDir dist/server/ */
export function readBuildHash(serverDir) {
  try {
    const hash = fs.readFileSync(new URL(BUILD_HASH_FILE, serverDir), 'utf8').trim();
    return /^[0-9a-f]{6,64}$/.test(hash) ? hash : 'unknown';
  } catch {
    return 'unknown';
  }
}

/**
 * The SDK's options: the spec's rates, buffer and release; only the integrations that cost
 * nothing per request (no OpenTelemetry, no automatic http instrumentation: scripts/serve.mjs
 * makes the one transaction per request itself); the ignore list and the scrubber on every
 * event. The SDK's transport backs off 60 s after a 429, or for its Retry-After or
 * X-Sentry-Rate-Limits (@sentry/core's updateRateLimits; src/server/error-reports.test.ts).
 * @param {Sentry} Sentry
 * @param {import('./config.mjs').ErrorReportingConfig} errors
 * @param {string} release
 */
export function sdkOptions(Sentry, errors, release) {
  return {
    dsn: /** @type {string} */ (errors.dsn),
    release,
    environment: errors.environment,
    sampleRate: errors.sampleRate,
    tracesSampleRate: errors.tracesSampleRate,
    // Transactions, not streamed spans: what GlitchTip and older self-hosted Sentry take.
    traceLifecycle: /** @type {const} */ ('static'),
    sendDefaultPii: false,
    sendClientReports: false,
    transportOptions: { bufferSize: errors.bufferSize },
    integrations: [
      Sentry.linkedErrorsIntegration(),
      Sentry.dedupeIntegration(),
      Sentry.onUncaughtExceptionIntegration(),
      // 'strict' exits as Node itself does on an unhandled rejection: reporting changes nothing else.
      Sentry.onUnhandledRejectionIntegration({ mode: 'strict' }),
    ],
    /** @param {import('@sentry/node').ErrorEvent} event */
    beforeSend: (event) => (ignoredBecause(event) ? null : scrubEvent(event)),
    /** @template {import('@sentry/node').Event} E @param {E} event */
    beforeSendTransaction: (event) => scrubEvent(event),
  };
}

/**
 * Sets the release and environment, and loads and starts the SDK when a DSN is set and the debug
 * flag is not. Returns the SDK, or null (then it was never imported: nothing is sent, errors are
 * log lines). Called once by scripts/serve.mjs before it listens.
 * @param {import('./config.mjs').ErrorReportingConfig} errors
 * @param {string} buildHash
 * @returns {Promise<Sentry | null>}
 */
export async function startErrorReporting(errors, buildHash) {
  const s = state();
  s.release = `${RELEASE_VERSION}+${buildHash}`;
  s.environment = errors.environment;
  if (!errors.enabled) return null;
  const Sentry = await import('@sentry/node');
  if (!Sentry.isInitialized()) Sentry.initWithoutDefaultIntegrations(sdkOptions(Sentry, errors, s.release));
  s.sentry = Sentry;
  return Sentry;
}

/** Sends what is buffered, within `ms` (at shutdown). */
/** @param {number} ms */
export async function flushErrorReports(ms) {
  await state().sentry?.flush(ms).catch(() => false);
}

/**
 * A path as a route name for transactions: numbers, ids and tokens become `:id`, so names
 * group and no token is in one.
 * @param {string} url
 */
export function routeName(url) {
  const path = url.split('?')[0] ?? '/';
  return path
    .split('/')
    .map((seg) => (seg.length > 24 || /\d/.test(seg) ? ':id' : seg))
    .join('/')
    .slice(0, 200);
}

/**
 * Wraps the HTTP server's request handler so each request is one transaction (a root span,
 * sampled at tracesSampleRate), ended when the response closes, with its request id. Only used
 * when the SDK is on; with no DSN the handler runs unwrapped.
 * @param {Sentry} Sentry
 * @param {(req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => void} handler
 */
export function tracedHandler(Sentry, handler) {
  return (/** @type {import('node:http').IncomingMessage} */ req, /** @type {import('node:http').ServerResponse} */ res) =>
    Sentry.withIsolationScope((scope) =>
      // A new trace per request: the sampling decision is the trace's, so requests must not share one.
      Sentry.startNewTrace(() =>
        Sentry.startSpanManual({ name: `${req.method} ${routeName(req.url ?? '/')}`, op: 'http.server', forceTransaction: true }, (span) => {
          res.once('close', () => {
            span.setAttribute('http.response.status_code', res.statusCode);
            if (res.statusCode >= 500) span.setStatus({ code: 2, message: 'internal_error' });
            span.end();
          });
          handler(req, res);
          // scripts/edge.mjs's assignRequestId has run by now (first thing in the handler).
          const id = String(req.headers['x-request-id'] ?? '');
          if (id) {
            scope.setTag('request_id', id);
            span.setAttribute('request_id', id);
          }
        }),
      ),
    );
}

/**
 * @typedef {object} RequestFacts
 * @property {string | null} requestId The request's id (its X-Request-Id).
 * @property {string} method
 * @property {string} url The full URL (scrubbed before it is kept anywhere).
 */

/** @param {unknown} error */
function describe(error) {
  if (error instanceof Error) return { type: error.name || 'Error', message: error.message, stack: error.stack ?? '' };
  return { type: 'Error', message: typeof error === 'string' ? error : JSON.stringify(error) ?? String(error), stack: '' };
}

/**
 * One error line through the process's one logger (observe.mjs), so operators read one stream in
 * one format; scrubbed like a report.
 * @param {{ msg: string } & Record<string, unknown>} line
 */
function logLine({ msg, ...line }) {
  const s = state();
  log().error(scrub({ release: s.release, environment: s.environment, ...line }), msg);
}

/**
 * Reports an error a route threw (once: src/pages/500.astro, where Astro hands every route's
 * failure). Noise on the ignore list is dropped; the rest goes to Sentry with the request id,
 * or is one JSON line on stderr.
 * @param {unknown} error
 * @param {RequestFacts} request
 */
export function reportRouteError(error, request) {
  const { type, message, stack } = describe(error);
  const probe = { exception: { values: [{ type, value: message }] } };
  if (ignoredBecause(probe)) return;
  const { sentry } = state();
  if (!sentry) {
    logLine({ msg: 'route error', source: 'server', request_id: request.requestId, method: request.method, route: routeName(new URL(request.url).pathname), url: request.url, error: { type, message, stack } });
    return;
  }
  sentry.withScope((scope) => {
    if (request.requestId) scope.setTag('request_id', request.requestId);
    scope.setTag('source', 'server');
    scope.setTag('route', routeName(new URL(request.url).pathname));
    // The SDK's request-data integration is off (it would read headers and cookies): the method and URL, scrubbed by beforeSend, are all it gets.
    scope.addEventProcessor((event) => ({ ...event, request: { method: request.method, url: request.url } }));
    sentry.captureException(error);
  });
}

/** The tunnel's body caps (POST /api/errors/): 413 past the bytes, 400 past the count or a field's length. */
export const BROWSER_REPORT_LIMITS = Object.freeze({ bytes: 16 * 1024, events: 10, message: 1000, stack: 4000, url: 2000 });

/**
 * @typedef {object} BrowserReport What the inline handler (src/lib/error-handler.ts) sends, one per error.
 * @property {'e' | 'r' | 'c' | 'p'} t What caught it: the error event, an unhandled rejection, a chunk that failed to load, or the page's own report (a redeem failure).
 * @property {string} m The message.
 * @property {string} [s] The stack.
 * @property {string} [u] The page's URL.
 * @property {string} [f] The file the error came from.
 */

const KINDS = new Set(['e', 'r', 'c', 'p']);

/**
 * The tunnel's body as reports, or null when it is not the shape the inline handler sends (400).
 * @param {unknown} body
 * @returns {BrowserReport[] | null}
 */
export function parseBrowserReports(body) {
  if (!Array.isArray(body) || body.length === 0 || body.length > BROWSER_REPORT_LIMITS.events) return null;
  /** @type {BrowserReport[]} */
  const out = [];
  for (const r of body) {
    if (!r || typeof r !== 'object' || Array.isArray(r)) return null;
    const { t, m, s, u, f } = /** @type {Record<string, unknown>} */ (r);
    if (typeof t !== 'string' || !KINDS.has(t)) return null;
    if (typeof m !== 'string' || m.length > BROWSER_REPORT_LIMITS.message) return null;
    for (const [v, max] of /** @type {const} */ ([[s, BROWSER_REPORT_LIMITS.stack], [u, BROWSER_REPORT_LIMITS.url], [f, BROWSER_REPORT_LIMITS.url]])) {
      if (v !== undefined && v !== null && (typeof v !== 'string' || v.length > max)) return null;
    }
    out.push({ t: /** @type {BrowserReport['t']} */ (t), m, ...(typeof s === 'string' && s ? { s } : {}), ...(typeof u === 'string' && u ? { u } : {}), ...(typeof f === 'string' && f ? { f } : {}) });
  }
  return out;
}

/**
 * The page a report came from, on this site only (a report cannot name another site's URL).
 * @param {string | undefined} u
 * @param {string} origin
 */
function pageUrl(u, origin) {
  try {
    const url = new URL(u ?? '/', origin);
    return `${origin}${url.origin === origin ? url.pathname + url.search : '/'}`;
  } catch {
    return `${origin}/`;
  }
}

/** The exception type a browser report is filed under. */
/** @param {BrowserReport} r */
function browserType(r) {
  if (r.t === 'c' || CHUNK_LOAD_ERROR.test(r.m)) return 'ChunkLoadError';
  if (r.t === 'r') return 'UnhandledRejection';
  if (r.t === 'p') return 'ReportedError';
  // Chromium's error event says "Uncaught TypeError: …".
  return /^(?:Uncaught )?(\w*Error)\b/.exec(r.m)?.[1] ?? 'Error';
}

/**
 * Sends the browser's reports on (the tunnel, POST /api/errors/): each becomes a Sentry event
 * through the SDK (the same ignore list and scrubber as the server's), or a JSON log line
 * without a DSN. Synchronous: the SDK's transport sends in the background, so the tunnel
 * answers 202 at once. Returns how many were kept.
 * @param {BrowserReport[]} reports
 * @param {{ requestId: string | null, userAgent: string, origin: string }} from
 */
export function reportBrowserErrors(reports, from) {
  const { sentry, release, environment } = state();
  let kept = 0;
  for (const r of reports) {
    const type = browserType(r);
    const event = {
      level: /** @type {const} */ ('error'),
      platform: 'javascript',
      release,
      environment,
      exception: { values: [{ type, value: r.m, mechanism: { type: r.t === 'r' ? 'onunhandledrejection' : 'onerror', handled: r.t === 'p' } }] },
      tags: { source: 'browser', ...(from.requestId ? { request_id: from.requestId } : {}) },
      extra: { ...(r.s ? { stack: r.s } : {}), ...(r.f ? { file: r.f } : {}) },
      request: { url: pageUrl(r.u, from.origin), headers: { 'User-Agent': from.userAgent } },
    };
    if (ignoredBecause(event)) continue;
    kept++;
    if (sentry) sentry.captureEvent(event);
    else logLine({ msg: 'browser error', source: 'browser', request_id: from.requestId, error: { type, message: r.m, stack: r.s ?? '' }, url: event.request.url, user_agent: from.userAgent.slice(0, 300) });
  }
  return kept;
}
