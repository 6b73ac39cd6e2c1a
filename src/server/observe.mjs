// @ts-check
/**
 * Logs and metrics (docs/operations.md, "Logs, metrics and health"): the one logger (pino, JSON
 * lines on stdout at LOG_LEVEL) and every Prometheus metric (prom-client's default registry),
 * registered here and nowhere else.
 *
 * scripts/serve.mjs imports this file and the Astro server bundles its own copy (as with
 * page-cache.mjs), so the state lives on globalThis: whichever copy runs first creates the
 * logger and the metrics, and both use them. prom-client itself stays a node_modules dependency
 * (the bundle imports it, never inlines it), so there is one registry per process.
 *
 * Several worker processes (node:cluster): each keeps its own metrics; `metricsText()` answers
 * for this process, and /metrics on any worker answers for the machine: the primary sums the
 * workers' counters and histograms with prom-client's AggregatorRegistry (scripts/cluster.mjs).
 * The figures read from the database are the same in every worker, so they are aggregated as one
 * value (`max`, or `min` for "the read succeeded"), never summed.
 */
import cluster from 'node:cluster';
import pino from 'pino';
import client from 'prom-client';
import { config } from './config.mjs';

/** How long the figures read from the database at scrape time are reused (a scrape storm reads them once). */
export const FIGURES_TTL_MS = 15_000;

/**
 * What the database says at scrape time, gathered by the app (src/middleware/figures.ts) through
 * its features' repositories.
 * @typedef {object} Figures
 * @property {Record<string, number>} ordersByState Key-pack orders by state.
 * @property {{ order: number | null, charge: number | null }} oldestPendingSeconds Age of the oldest PENDING order and subscription charge (null: none).
 * @property {number} renewalsOverdue Live subscriptions whose paid time ended with no charge for the next period.
 * @property {{ at: number, failedRules: number } | null} lastAudit The last `npm run keys -- audit` (null: never run).
 */

/**
 * What the app tells scripts/serve.mjs about a request it answered, for the log line and the
 * histogram (passed as `locals.observe`).
 * @typedef {object} RequestNote
 * @property {string} [route] The route pattern Astro matched (`/comics/[slug]/`), never the URL.
 * @property {string} [reader] The signed-in reader's log id (src/server/secrets.ts, readerLogId).
 */

/**
 * @typedef {object} PoolFigures
 * @property {number} total Connections open.
 * @property {number} idle
 * @property {number} waiting Queries waiting for a connection.
 */

/**
 * @typedef {object} ObserveState
 * @property {import('pino').Logger} logger
 * @property {import('prom-client').Histogram<'route' | 'status_class'>} duration
 * @property {import('prom-client').Counter<'result'>} pageCache
 * @property {import('prom-client').Counter<'way'>} unlocks
 * @property {import('prom-client').Counter<'provider' | 'outcome'>} webhooks
 * @property {import('prom-client').Counter<'limit'>} refusals
 * @property {(() => Promise<Figures>) | null} figuresSource
 * @property {{ at: number, promise: Promise<Figures | null> } | null} figures
 * @property {Figures | null} lastFigures
 * @property {boolean} figuresUp
 */

const STATE = Symbol.for('inkpass.observe');
/** Kept apart from the state, so a command that only opens the database creates no logger or metrics. */
const POOL = Symbol.for('inkpass.observe.pool');

/** @returns {ObserveState} */
function state() {
  const g = /** @type {Record<symbol, ObserveState | undefined>} */ (/** @type {unknown} */ (globalThis));
  return (g[STATE] ??= create());
}

/** @returns {ObserveState} */
function create() {
  // Asynchronous: a log line is a buffer append; the bytes go out between requests.
  const destination = pino.destination({ dest: 1, sync: false });
  process.once('exit', () => {
    try { destination.flushSync(); } catch { /* nothing left to write, or stdout is gone */ }
  });
  const logger = pino(
    {
      level: config.logLevel,
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    destination,
  );

  // Process and Node.js figures: CPU, memory, heap, event-loop lag (nodejs_eventloop_lag_*), handles, GC.
  client.collectDefaultMetrics();
  // A cluster worker answers the primary's requests for its metrics (the aggregator adds that
  // listener when one is made; scripts/cluster.mjs sums them for /metrics).
  if (cluster.isWorker) new client.AggregatorRegistry();
  /** @type {ObserveState} */
  const s = {
    logger,
    duration: new client.Histogram({
      name: 'inkpass_http_request_duration_seconds',
      help: 'Time from the request arriving to its answer finishing, by route pattern and status class.',
      labelNames: ['route', 'status_class'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    }),
    pageCache: new client.Counter({ name: 'inkpass_page_cache_requests_total', help: 'Cacheable anonymous page requests, by result: hit, stale (served while one renders it again) or miss.', labelNames: ['result'] }),
    unlocks: new client.Counter({ name: 'inkpass_unlocks_total', help: 'Chapters unlocked, by way: keys, xtra (Xtra keys), daily_pass, plan, ad.', labelNames: ['way'] }),
    webhooks: new client.Counter({ name: 'inkpass_webhook_events_total', help: "Payment providers' webhook deliveries, by provider and outcome.", labelNames: ['provider', 'outcome'] }),
    refusals: new client.Counter({ name: 'inkpass_rate_limit_refusals_total', help: 'Requests the limiter refused (429), by limit.', labelNames: ['limit'] }),
    figuresSource: null,
    figures: null,
    lastFigures: null,
    figuresUp: false,
  };

  new client.Gauge({
    name: 'inkpass_db_pool_connections',
    help: 'Database connections of this process, by state: total, idle, waiting (queries queued for one). SQLite: one connection.',
    labelNames: ['state'],
    collect() {
      const p = /** @type {Record<symbol, (() => PoolFigures) | undefined>} */ (/** @type {unknown} */ (globalThis))[POOL]?.();
      if (!p) return;
      this.set({ state: 'total' }, p.total);
      this.set({ state: 'idle' }, p.idle);
      this.set({ state: 'waiting' }, p.waiting);
    },
  });
  new client.Gauge({
    name: 'inkpass_db_figures_up',
    aggregator: 'min',
    help: 'Whether the last read of the figures below from the database succeeded (1) or failed (0).',
    async collect() {
      await figures(s);
      this.set(s.figuresUp ? 1 : 0);
    },
  });
  /**
   * A gauge read from the database's figures (at most every 15 s): with several workers the
   * primary keeps the largest answer, since each worker reads the same rows.
   * @param {string} name @param {string} help @param {string[]} labelNames
   * @param {(f: Figures) => [Record<string, string>, number][]} values
   */
  const figureGauge = (name, help, labelNames, values) =>
    new client.Gauge({
      name, help, labelNames, aggregator: 'max',
      async collect() {
        const f = await figures(s);
        if (!f) return;
        this.reset();
        for (const [labels, n] of values(f)) this.set(labels, n);
      },
    });
  figureGauge('inkpass_orders', 'Key-pack orders by state (read from the database, at most every 15 s).', ['state'],
    (f) => Object.entries(f.ordersByState).map(([state, n]) => [{ state }, n]));
  figureGauge('inkpass_oldest_pending_payment_age_seconds', 'Age of the oldest PENDING key-pack order (kind=order) and subscription charge (kind=charge); 0 when none.', ['kind'],
    (f) => [[{ kind: 'order' }, f.oldestPendingSeconds.order ?? 0], [{ kind: 'charge' }, f.oldestPendingSeconds.charge ?? 0]]);
  figureGauge('inkpass_renewals_overdue', 'Live, not cancelled subscriptions whose paid time has ended with no charge for the next period.', [],
    (f) => [[{}, f.renewalsOverdue]]);
  figureGauge('inkpass_ledger_audit_last_run_timestamp_seconds', 'When `npm run keys -- audit` last ran (Unix seconds; 0: never).', [],
    (f) => [[{}, f.lastAudit?.at ?? 0]]);
  figureGauge('inkpass_ledger_audit_failed_rules', 'Rules the last ledger audit found broken (0: every invariant holds).', [],
    (f) => [[{}, f.lastAudit?.failedRules ?? 0]]);
  return s;
}

/**
 * The figures, read at most once per FIGURES_TTL_MS (one read at a time); the last good ones
 * when the database does not answer (inkpass_db_figures_up says so).
 * @param {ObserveState} s
 * @returns {Promise<Figures | null>}
 */
function figures(s) {
  const source = s.figuresSource;
  if (!source) return Promise.resolve(null);
  const now = Date.now();
  if (s.figures && now - s.figures.at < FIGURES_TTL_MS) return s.figures.promise;
  const promise = source().then(
    (f) => {
      s.figuresUp = true;
      s.lastFigures = f;
      return f;
    },
    (error) => {
      s.figuresUp = false;
      s.logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'metrics: reading the figures from the database failed');
      return s.lastFigures;
    },
  );
  s.figures = { at: now, promise };
  return promise;
}

/** The logger (pino). Never give it cookies, tokens, query strings or a reader's id. */
export function log() {
  return state().logger;
}

/**
 * One request, answered: its log line (at info) and its duration in the histogram.
 * @param {{ id: string, method: string, route: string, status: number, ms: number, reader?: string, cache?: string, aborted?: boolean }} r
 */
export function recordRequest(r) {
  const s = state();
  s.duration.observe({ route: r.route, status_class: `${Math.floor(r.status / 100)}xx` }, r.ms / 1000);
  if (s.logger.isLevelEnabled('info')) {
    s.logger.info({ req_id: r.id, method: r.method, route: r.route, status: r.status, ms: Math.round(r.ms * 10) / 10, reader: r.reader, cache: r.cache, aborted: r.aborted || undefined }, 'request');
  }
}

/** @param {'hit' | 'stale' | 'miss'} result */
export function countPageCache(result) {
  state().pageCache.inc({ result });
}

/** @param {'keys' | 'xtra' | 'daily_pass' | 'plan' | 'ad'} way */
export function countUnlock(way) {
  state().unlocks.inc({ way });
}

/** @param {string} provider @param {string} outcome */
export function countWebhook(provider, outcome) {
  state().webhooks.inc({ provider, outcome });
}

/** @param {string} limit */
export function countRefusal(limit) {
  state().refusals.inc({ limit });
}

/** Where the database pool's figures come from (src/server/db.ts). @param {() => PoolFigures} source */
export function observePool(source) {
  /** @type {Record<symbol, unknown>} */ (/** @type {unknown} */ (globalThis))[POOL] = source;
}

/** Where the scrape-time figures come from (src/middleware/figures.ts). @param {() => Promise<Figures>} source */
export function observeFigures(source) {
  const s = state();
  s.figuresSource = source;
  s.figures = null;
}

/** Whether the app has said where its figures come from (it does when its middleware loads). */
export function figuresObserved() {
  return state().figuresSource !== null;
}

/** This process's metrics in Prometheus' text format. */
export function metricsText() {
  state();
  return client.register.metrics();
}

/** This process's metrics as prom-client's JSON, for AggregatorRegistry in a cluster's primary. */
export function metricsJson() {
  state();
  return client.register.getMetricsAsJSON();
}

export const METRICS_CONTENT_TYPE = client.register.contentType;
