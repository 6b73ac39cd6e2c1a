// @ts-check
/**
 * Every core of one machine (WORKERS, docs/operations.md). scripts/serve.mjs imports this module
 * first. With WORKERS > 1, the process started is the cluster primary: it runs the start-up
 * refusals once, forks WORKERS workers, replaces one that dies, passes messages between them and
 * drains them on SIGTERM. It never loads the Astro handler and never returns to serve.mjs (its
 * top-level await does not settle). Each worker runs serve.mjs from the top: its own warm-up,
 * page cache and request queue, and its listen() is what makes the primary hand it connections.
 * With WORKERS=1 the process is the server itself, as before; only `drainOnSignals` is used.
 */
import cluster from 'node:cluster';

/** Messages between the workers and the primary. */
export const MESSAGES = {
  /** A worker's catalogue changed: every other worker forgets its kept pages (src/server/workers.ts). */
  catalogChanged: 'inkpass:catalog-changed',
  /** Worker → primary: the machine's metrics, please; the answer carries `text` (see `machineMetrics`). */
  metrics: 'inkpass:metrics',
  /** Primary → worker: stop accepting, finish what is under way, exit. */
  drain: 'inkpass:drain',
};

/**
 * The event a server process emits on itself at SIGHUP (scripts/serve.mjs): src/server/cache.ts
 * forgets the catalogue then, as if a staff edit had changed it.
 */
export const CATALOG_EDITED = 'inkpass:catalog-edited';

/** How long a draining process waits for requests under way before it exits anyway. */
const DRAIN_MS = 25_000;
/** How long the primary waits for its draining workers before it kills them. */
const PRIMARY_DRAIN_MS = DRAIN_MS + 5_000;
/** A worker that dies sooner than this after it was forked crashed at start: the next fork waits. */
const QUICK_CRASH_MS = 10_000;
const MAX_BACKOFF_MS = 30_000;
/** A machine whose workers never listened gives up after this many crashes in a row (exit 1). */
const GIVE_UP_AFTER = 5;

/**
 * What the primary answers a worker asking for the machine's metrics (MESSAGES.metrics): null
 * until something is wired here. The /metrics work sets it with `setMachineMetrics`, e.g. to
 * prom-client's `new AggregatorRegistry().clusterMetrics()`, which asks every worker itself.
 * @type {() => Promise<string | null>}
 */
let collectMachineMetrics = async () => null;

/**
 * Primary side of the metrics hook: how the primary gathers the machine's metrics text.
 * @param {() => Promise<string | null>} collect
 */
export function setMachineMetrics(collect) {
  collectMachineMetrics = collect;
}

let metricsSeq = 0;
/**
 * Worker side of the metrics hook: the machine's metrics text from the primary, or null (no
 * cluster, nothing wired, or no answer within `timeoutMs`).
 * @returns {Promise<string | null>}
 */
export function machineMetrics(timeoutMs = 5_000) {
  if (!cluster.isWorker || !process.send || !process.connected) return Promise.resolve(null);
  const id = ++metricsSeq;
  return new Promise((resolve) => {
    /** @param {any} m */
    const onMessage = (m) => {
      if (m?.type !== MESSAGES.metrics || m.id !== id) return;
      done(typeof m.text === 'string' ? m.text : null);
    };
    /** @param {string | null} text */
    const done = (text) => {
      clearTimeout(timer);
      process.off('message', onMessage);
      resolve(text);
    };
    const timer = setTimeout(() => done(null), timeoutMs);
    process.on('message', onMessage);
    process.send?.({ type: MESSAGES.metrics, id });
  });
}

/**
 * SIGTERM or SIGINT (or the primary's MESSAGES.drain): stop accepting, close idle keep-alive
 * connections, let the requests under way finish, then exit 0; after DRAIN_MS, exit anyway.
 * Used by every server process, alone or a worker.
 * @param {import('node:http').Server} server
 * @param {() => Promise<unknown>} [beforeExit] what must still happen once the requests are done (sending buffered error reports)
 */
export function drainOnSignals(server, beforeExit = async () => {}) {
  let draining = false;
  const drain = () => {
    if (draining) return;
    draining = true;
    server.close(() => beforeExit().catch(() => {}).finally(() => process.exit(0)));
    server.closeIdleConnections();
    // A keep-alive connection that was busy becomes idle once its answer is out: close it then.
    setInterval(() => server.closeIdleConnections(), 100).unref();
    setTimeout(() => {
      console.error(`[inkpass] requests still under way ${DRAIN_MS / 1000} s after the signal to stop: exiting anyway`);
      process.exit(0);
    }, DRAIN_MS).unref();
  };
  process.on('SIGTERM', drain);
  process.on('SIGINT', drain);
  if (cluster.isWorker) process.on('message', (/** @type {any} */ m) => { if (m?.type === MESSAGES.drain) drain(); });
}

/**
 * @param {import('../src/server/config.mjs').Config} config
 * @param {(config: import('../src/server/config.mjs').Config) => Promise<string[]>} refusalsAtStart
 */
function runPrimary(config, refusalsAtStart) {
  const count = config.workers;
  let stopping = false;
  let everListened = false;
  let quickCrashes = 0;
  let announced = false;
  /** @type {Set<import('node:cluster').Worker>} */
  const listening = new Set();
  /** Workers that run the machine's periodic checks (at most one alive: see src/server/workers.ts). */
  const keepsTimers = new WeakSet();

  /** Workers not yet dead (cluster.workers keeps an exited one until its channel is closed too). */
  const alive = () => {
    /** @type {import('node:cluster').Worker[]} */
    const out = [];
    for (const w of Object.values(cluster.workers ?? {})) if (w && !w.isDead()) out.push(w);
    return out;
  };

  /**
   * Every connected worker but `except` forgets its kept catalogue (src/server/cache.ts).
   * @param {import('node:cluster').Worker} [except]
   */
  const catalogChanged = (except) => {
    for (const w of alive()) if (w !== except && w.isConnected()) w.send({ type: MESSAGES.catalogChanged });
  };

  /** @param {boolean} timers */
  const fork = (timers) => {
    const worker = cluster.fork({ INKPASS_MACHINE_TIMERS: timers ? '1' : '0' });
    const forkedAt = Date.now();
    if (timers) keepsTimers.add(worker);
    worker.on('listening', () => {
      everListened = true;
      listening.add(worker);
      if (!announced && listening.size >= count) {
        announced = true;
        console.log(`[cluster] all ${count} workers are listening (primary pid ${process.pid})`);
      }
    });
    worker.on('message', (/** @type {any} */ m) => {
      if (m?.type === MESSAGES.catalogChanged) {
        catalogChanged(worker);
      } else if (m?.type === MESSAGES.metrics) {
        collectMachineMetrics()
          .catch((e) => { console.error('[cluster] collecting the metrics failed:', e instanceof Error ? e.message : e); return null; })
          .then((text) => { if (worker.isConnected()) worker.send({ type: MESSAGES.metrics, id: m.id, text }); });
      }
    });
    worker.once('exit', (code, signal) => {
      listening.delete(worker);
      if (stopping) {
        if (alive().length === 0) process.exit(0);
        return;
      }
      quickCrashes = Date.now() - forkedAt < QUICK_CRASH_MS ? quickCrashes + 1 : 0;
      if (!everListened && quickCrashes >= GIVE_UP_AFTER) {
        console.error(`[cluster] ${quickCrashes} workers in a row died at start and none ever listened: giving up (see their errors above)`);
        stopping = true;
        for (const w of alive()) w.process.kill('SIGKILL');
        process.exit(1);
      }
      const delay = quickCrashes === 0 ? 0 : Math.min(MAX_BACKOFF_MS, 500 * 2 ** (quickCrashes - 1));
      console.error(`[cluster] worker ${worker.process.pid} died (${signal ?? `exit code ${code}`}); starting another${delay ? ` in ${delay / 1000} s` : ''}`);
      // The replacement inherits the periodic checks, so they never run twice at once.
      setTimeout(() => { if (!stopping) fork(keepsTimers.has(worker)); }, delay);
    });
  };
  const stop = () => {
    if (stopping) return;
    stopping = true;
    const workers = alive();
    if (workers.length === 0) process.exit(0);
    // The workers may have had the signal too (the whole process group): draining twice is once.
    for (const w of workers) if (w.isConnected()) w.send({ type: MESSAGES.drain });
    setTimeout(() => {
      console.error(`[cluster] workers still running ${PRIMARY_DRAIN_MS / 1000} s after the signal to stop: killing them`);
      for (const w of alive()) w.process.kill('SIGKILL');
      process.exit(1);
    }, PRIMARY_DRAIN_MS).unref();
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  // SIGHUP to the primary (catalogue rows changed by hand): every worker forgets the catalogue.
  process.on('SIGHUP', () => catalogChanged());

  return (async () => {
    const refusals = await refusalsAtStart(config);
    if (refusals.length) {
      for (const r of refusals) console.error(`[inkpass] refusing to start: ${r}`);
      process.exit(1);
    }
    for (let i = 0; i < count; i++) fork(i === 0);
  })();
}

if (cluster.isPrimary) {
  process.env.NODE_ENV ??= 'production';
  const { config } = await import('../src/server/config.mjs');
  if (config.workers > 1) {
    const startup = await import('../src/server/startup.mjs');
    // /metrics on any worker answers for the machine: prom-client's aggregator asks every worker
    // for its metrics (each has loaded prom-client, which answers the primary by itself) and sums them.
    const { AggregatorRegistry } = (await import('prom-client')).default;
    const aggregator = new AggregatorRegistry();
    setMachineMetrics(() => aggregator.clusterMetrics());
    await runPrimary(config, startup.refusalsAtStart);
    // The primary serves nothing itself: serve.mjs's code below its imports runs in the workers.
    await new Promise(() => {});
  }
}
