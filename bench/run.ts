/**
 * npm run bench: throughput and latency of the hot pages on the large catalogue, against the
 * production build, compared with a bare node:http server sending the same bytes; the series
 * page of a signed-in reader who owns chapters; and unlocks per second on SQLite and PostgreSQL
 * (bench/keys.ts). Closed loop, 25 connections, loopback only, bounded duration.
 * BENCH_ONLY=series|suggest|keys|signed|comments|fanout|payments|upload|workers runs one part.
 */
import { spawn, execSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import autocannon from 'autocannon';
import { createDb, type DB } from '~/server/db';
import { migrateToLatest } from '@db/migrate';
import { isCatalogEmpty, seedDemo } from '@db/seed/index';
import { findChapter } from '~/features/catalog/index.server';
import { benchPayments } from './payments';
import { benchUnlocks, makeReaders, unlockable } from './keys';
import { benchUpload, UPLOAD_TARGET_SECONDS } from './upload';
import { chapterWithComments, COMMENTS_ON_CHAPTER } from './comments';
import { englishSlugs, FANOUT_READERS, FANOUT_TARGET_SECONDS, inboxItemsOf, itemsFor, notifiedSeries, releaseChapter, removeChapter } from './fanout';

const PORT = Number(process.env.BENCH_PORT ?? 4390);
const CONNECTIONS = 25;
const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const DB_FILE = path.resolve(process.env.BENCH_DB ?? 'data/bench-large.db');
const DATABASE_URL = `file:${DB_FILE}`;
const MEDIA_DIR = path.resolve(process.env.MEDIA_DIR ?? 'data/media');
const TARGETS = { p99Ms: 50, rps: 300, jsGzip: 15 * 1024, htmlGzip: 30 * 1024, suggestP99Ms: 20, unlocksPerSecond: 300, workersRatio: 1.6 };

async function prepare() {
  if (!fs.existsSync('dist/server/entry.mjs') || process.env.BENCH_BUILD === '1') {
    console.log('Building…');
    execSync('npx astro build', { stdio: 'inherit' });
  }
  const { db } = await createDb(DATABASE_URL);
  try {
    await migrateToLatest(db);
    if (await isCatalogEmpty(db)) {
      console.log('Seeding the large catalogue (once; kept in', DB_FILE, ')…');
      const t0 = Date.now();
      const r = await seedDemo(db, { mediaDir: MEDIA_DIR, large: true, log: (m) => console.log(' ', m) });
      console.log(`  ${r.series} series, ${r.chapters} chapters in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
    }
    // The series the English site lists (the bench asks for localhost): a series published only in
    // Portuguese is a 404 there, which the rows would count as errors.
    const slugs = await englishSlugs(db);
    const names = (await db.selectFrom('series').select('name').where('state', '=', 'ACTIVE').orderBy('id').execute()).map((r) => r.name);
    return { slugs, queries: suggestQueries(names) };
  } finally {
    await db.destroy();
  }
}

/**
 * What readers type into the search overlay: prefixes (2 characters up to the whole word) of
 * words from series names, a third of them after a whole first word ("the wan"), each with one
 * of the three language filters. Deterministic (a fixed LCG), 2,000 distinct-ish requests, so
 * short popular prefixes ("th", "ma") that match thousands of series come up as often as they
 * would in real typing.
 */
function suggestQueries(names: string[]): string[] {
  let seed = 42;
  const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const filters = ['site_id=1', 'site_id=3', 'show_all_sites=true'];
  const out: string[] = [];
  for (let i = 0; i < 2000; i++) {
    const words = names[Math.floor(rand() * names.length)]!.split(/[^\p{L}\p{N}]+/u).filter((w) => w.length >= 2);
    if (!words.length) continue;
    const w = Math.floor(rand() * words.length);
    const word = words[w]!;
    const prefix = word.slice(0, 2 + Math.floor(rand() * (word.length - 1)));
    const q = w > 0 && rand() < 0.33 ? `${words[w - 1]} ${prefix}` : prefix;
    out.push(`/search/suggest/?cover=true&q=${encodeURIComponent(q)}&${filters[i % 3]}`);
  }
  return out;
}

/**
 * The server under test. Rendering rows run with the page cache off (PAGE_CACHE_MB=0), so that
 * a random series page is rendered, not replayed; the hot-page row starts its own server with
 * the cache at its default. One process (WORKERS=1) unless `env` says otherwise: the workers
 * row compares it with a cluster.
 */
function startServer(port = PORT, env: Record<string, string> = { PAGE_CACHE_MB: '0' }): Promise<ChildProcess> {
  // The server's log lines go to a file, not through a pipe into this process: reading them here
  // would take CPU from the load generator on the same cores and lower every figure.
  const logFile = path.join(os.tmpdir(), `inkpass-bench-${port}.log`);
  const out = fs.openSync(logFile, 'w');
  const child = spawn(process.execPath, ['scripts/serve.mjs'], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATABASE_URL, MEDIA_DIR, NODE_ENV: 'production', WORKERS: '1', ...env },
    stdio: ['ignore', out, 'inherit'],
  });
  fs.closeSync(out);
  // A cluster is ready once every worker listens (each has warmed itself up first).
  const ready = Number(env.WORKERS ?? 1) > 1 ? 'workers are listening' : 'serving';
  return new Promise((resolve, reject) => {
    const poll = setInterval(() => {
      if (fs.readFileSync(logFile, 'utf8').includes(ready)) { clearInterval(poll); resolve(child); }
    }, 100);
    child.on('exit', (code) => { clearInterval(poll); reject(new Error(`server exited with ${code}; its log: ${logFile}`)); });
  });
}

function get(urlPath: string, headers: Record<string, string> = {}): Promise<{ status: number; body: Buffer; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    http.get({ host: '127.0.0.1', port: PORT, path: urlPath, headers: { host: `localhost:${PORT}`, ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks), headers: res.headers }));
    }).on('error', reject);
  });
}

/** A same-origin form POST through node:http (fetch would not let the Host header be set). */
function postForm(urlPath: string, body: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: PORT, path: urlPath, method: 'POST', headers: { host: `localhost:${PORT}`, 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(body), ...headers } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const PAIRS = 7;
const PAIR_SECONDS = 3;
/** Requests per second on one path for PAIR_SECONDS, 25 connections, printed by the caller. */
async function rps(urlPath: string, extraHeaders: Record<string, string>): Promise<number> {
  const result = await autocannon({ url: `http://127.0.0.1:${PORT}${urlPath}`, connections: CONNECTIONS, duration: PAIR_SECONDS, headers: { host: `localhost:${PORT}`, 'accept-encoding': 'br, gzip', ...extraHeaders } });
  if (result.errors + result.non2xx > 0) throw new Error(`${urlPath} failed ${result.errors + result.non2xx} times`);
  return result.requests.average;
}

/** `allow404`: a 404 is a valid answer (the suggestions endpoint's "no results"), not an error. */
async function load(name: string, port: number, pathFor: () => string, connections = CONNECTIONS, allow404 = false, duration = DURATION, extraHeaders: Record<string, string> = {}) {
  const result = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections,
    duration,
    headers: { host: `localhost:${port}`, 'accept-encoding': 'br, gzip', ...extraHeaders },
    requests: [{ setupRequest: (req: any) => ({ ...req, path: pathFor() }) }],
  });
  const non2xx = allow404 ? result.non2xx - (result.statusCodeStats?.['404']?.count ?? 0) : result.non2xx;
  const row = { name, rps: Math.round(result.requests.average), p50: result.latency.p50, p99: result.latency.p99, errors: result.errors + non2xx };
  console.log(`${name.padEnd(34)} ${String(row.rps).padStart(6)} req/s   p50 ${String(row.p50).padStart(4)} ms   p99 ${String(row.p99).padStart(4)} ms   errors ${row.errors}`);
  return row;
}

/**
 * The first seconds of a fresh server process are not the steady state the targets describe:
 * V8 is still compiling the hot paths, SQLite's pages are coming into memory, and the first
 * release check after a start recomputes a week of releases (on this catalogue 7,500 series,
 * about 0.4 s of work in small slices). The same load runs for WARMUP seconds first; its row is
 * printed, marked, and not used for any target.
 */
const WARMUP = Number(process.env.BENCH_WARMUP ?? 3);
function warmUp(pathFor: () => string) {
  return load(`  (first ${WARMUP} s of the process)`, PORT, pathFor, CONNECTIONS, false, WARMUP);
}

/** The p-quantile (0..1) of an ascending list; 0 for an empty one. */
function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;
}

/**
 * Open loop: requests arrive at `rate` per second with exponential gaps (a Poisson stream, like
 * many independent readers), whether or not earlier ones have been answered, over a pool of
 * keep-alive connections. Latency counts from the moment a request was due, so a stalled server
 * is not hidden by requests that were never sent (no coordinated omission). This is the
 * latency a reader sees at that traffic; the closed loop above measures the saturated server.
 */
async function openLoop(name: string, rate: number, pathFor: () => string, extraHeaders: Record<string, string> = {}) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const latencies: number[] = [];
  let errors = 0;
  const started = performance.now();
  const end = started + DURATION * 1000;
  const pending: Promise<void>[] = [];
  let due = started;
  while (due < end) {
    due += (-Math.log(1 - Math.random()) / rate) * 1000;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    const scheduled = due;
    pending.push(new Promise<void>((resolve) => {
      const req = http.get({ host: '127.0.0.1', port: PORT, path: pathFor(), agent, headers: { host: `localhost:${PORT}`, 'accept-encoding': 'br, gzip', ...extraHeaders } }, (res) => {
        res.resume();
        res.on('end', () => {
          if (res.statusCode !== 200) errors++;
          latencies.push(performance.now() - scheduled);
          resolve();
        });
      });
      req.on('error', () => { errors++; resolve(); });
    }));
  }
  await Promise.all(pending);
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (p: number) => Math.round(percentile(latencies, p));
  const row = { name, rps: Math.round(latencies.length / DURATION), p50: at(0.5), p99: at(0.99), errors };
  console.log(`${name.padEnd(34)} ${String(row.rps).padStart(6)} req/s   p50 ${String(row.p50).padStart(4)} ms   p99 ${String(row.p99).padStart(4)} ms   errors ${row.errors}   (open loop)`);
  return row;
}

/** A server that does nothing but send fixed bytes: the ceiling for this machine. */
function bareServer(body: Buffer, headers: http.OutgoingHttpHeaders): Promise<http.Server> {
  const server = http.createServer((_req, res) => { res.writeHead(200, headers); res.end(body); });
  return new Promise((resolve) => server.listen(PORT + 1, '127.0.0.1', () => resolve(server)));
}

/**
 * The rendered series page (page cache off) from one process and from WORKERS=N (default: the
 * cores), two servers on the same database. The machine's speed drifts from one run to the next,
 * so the two alternate in short runs and the median ratio is what the target reads.
 */
async function benchWorkers(slugs: string[]) {
  const n = Number(process.env.BENCH_WORKERS ?? os.availableParallelism());
  const one = await startServer(PORT + 4, { PAGE_CACHE_MB: '0' });
  const many = await startServer(PORT + 5, { PAGE_CACHE_MB: '0', WORKERS: String(n) });
  try {
    const series = () => `/comics/${slugs[Math.floor(Math.random() * slugs.length)]}/`;
    // Both warm (each worker already rendered a few pages before it listened).
    await load(`  (first ${WARMUP} s, 1 worker)`, PORT + 4, series, CONNECTIONS, false, WARMUP);
    await load(`  (first ${WARMUP} s, ${n} workers)`, PORT + 5, series, CONNECTIONS, false, WARMUP);
    const single = await load('series page, 1 worker', PORT + 4, series);
    const cluster = await load(`series page, ${n} workers`, PORT + 5, series);
    const ratios: number[] = [];
    for (let i = 0; i < PAIRS; i++) {
      const a = await load(`  pair ${i + 1}: 1 worker`, PORT + 4, series, CONNECTIONS, false, PAIR_SECONDS);
      const b = await load(`  pair ${i + 1}: ${n} workers`, PORT + 5, series, CONNECTIONS, false, PAIR_SECONDS);
      ratios.push(b.rps / a.rps);
    }
    ratios.sort((x, y) => x - y);
    const ratio = ratios[Math.floor(ratios.length / 2)]!;
    const met = ratio >= TARGETS.workersRatio && single.errors + cluster.errors === 0;
    console.log(`\nWorkers: the rendered series page (page cache off) at ${n} workers is ${ratio.toFixed(2)}× one worker (median of ${PAIRS} alternating pairs of ${PAIR_SECONDS} s: ${ratios.map((r) => r.toFixed(2)).join(', ')}; 10 s rows ${single.rps} and ${cluster.rps} req/s) (target ≥ ${TARGETS.workersRatio}× on this ${os.availableParallelism()}-core machine): ${met ? 'met' : 'NOT met'}.`);
    return { n, ratio, met, single, cluster };
  } finally {
    one.kill('SIGTERM');
    many.kill('SIGTERM');
  }
}

if (process.env.BENCH_ONLY === 'payments') {
  const rows = [await benchPayments('sqlite', PORT + 3, MEDIA_DIR), await benchPayments('postgres', PORT + 3, MEDIA_DIR)];
  console.log(`\nPayments: order creation ${rows.map((r) => r.orders.rps).join(' / ')} orders/s, webhook confirmation ${rows.map((r) => r.webhooks.rps).join(' / ')} paid/s (SQLite / PostgreSQL); errors ${rows.reduce((n, r) => n + r.orders.errors + r.webhooks.errors, 0)}.`);
  process.exit(0);
}

if (process.env.BENCH_ONLY === 'keys') {
  const rows = [await benchUnlocks('sqlite', PORT + 3, MEDIA_DIR), await benchUnlocks('postgres', PORT + 3, MEDIA_DIR)];
  console.log(`\nTarget: ≥ ${TARGETS.unlocksPerSecond} unlocks/s on SQLite: ${rows[0]!.rps >= TARGETS.unlocksPerSecond && rows[0]!.errors === 0 ? 'met' : 'NOT met'} (${rows[0]!.rps}); PostgreSQL ${rows[1]!.rps} unlocks/s.`);
  process.exit(0);
}

const { slugs, queries } = await prepare();
const pick = <T>(xs: T[]) => xs[Math.floor(Math.random() * xs.length)]!;
const server = await startServer();

/**
 * The series page of a signed-in reader who owns five of its chapters (bought through the
 * redeem call), beside the same page for an anonymous visitor, both rendered.
 */
async function benchSignedIn() {
  const { db } = await createDb(DATABASE_URL);
  try {
    const [reader] = await makeReaders(db, 1, 1_000_000, 'series');
    const bySeries = new Map<string, string[]>();
    for (const e4pid of await unlockable(db, 200)) {
      const found = await findChapter(db, e4pid);
      if (found) bySeries.set(found.series.slug, [...(bySeries.get(found.series.slug) ?? []), e4pid]);
    }
    const [slug, chapters] = [...bySeries.entries()].sort((a, b) => b[1].length - a[1].length)[0]!;
    for (const e4pid of chapters.slice(0, 5)) {
      const status = await postForm('/api/redeem/', `content=${e4pid}`, { origin: `http://localhost:${PORT}`, cookie: reader!.cookie });
      if (status !== 200) throw new Error(`unlock of ${e4pid} answered ${status}`);
    }
    const anonymous = await load('series page, anonymous (same)', PORT, () => `/comics/${slug}/`);
    const signedIn = await load('series page, signed in, owns 5', PORT, () => `/comics/${slug}/`, CONNECTIONS, false, DURATION, { cookie: reader!.cookie });
    // The comparison itself: this machine's speed drifts by tens of per cent from one 10-second
    // run to the next, so the two pages alternate in short runs and each pair gives a ratio; the
    // median of those is what the target reads.
    const ratios: number[] = [];
    for (let i = 0; i < PAIRS; i++) {
      const a = await rps(`/comics/${slug}/`, {});
      const b = await rps(`/comics/${slug}/`, { cookie: reader!.cookie });
      ratios.push(b / a);
    }
    ratios.sort((x, y) => x - y);
    const ratio = ratios[Math.floor(ratios.length / 2)]!;
    console.log(`  signed in / anonymous, ${PAIRS} alternating pairs of ${PAIR_SECONDS} s: median ${(ratio * 100).toFixed(0)} % (${ratios.map((r) => `${(r * 100).toFixed(0)} %`).join(', ')})`);
    const signedOpen = await openLoop(`  signed in, ${TARGETS.rps} req/s arriving`, TARGETS.rps, () => `/comics/${slug}/`, { cookie: reader!.cookie });
    return { anonymous, signedIn, signedOpen, ratio };
  } finally {
    await db.destroy();
  }
}
/**
 * The comments page of a chapter with 200 comments (issue 31's row: at least 300 req/s, and a p99
 * of 50 ms or less at 300 req/s arriving), rendered for an anonymous visitor.
 */
async function benchComments() {
  const { db } = await createDb(DATABASE_URL);
  let page: string;
  try {
    page = await chapterWithComments(db);
  } finally {
    await db.destroy();
  }
  const first = await get(page);
  if (first.status !== 200) throw new Error(`${page} answered ${first.status}`);
  console.log(`comments page: ${first.body.length} bytes HTML, ${zlib.gzipSync(first.body, { level: 6 }).length} bytes gzipped`);
  await warmUp(() => page);
  const row = await load(`comments page, ${COMMENTS_ON_CHAPTER} comments`, PORT, () => page);
  const open = await openLoop(`comments page, ${TARGETS.rps} req/s arriving`, TARGETS.rps, () => page);
  const met = row.rps >= TARGETS.rps && open.p99 <= TARGETS.p99Ms && row.errors === 0 && open.errors === 0;
  console.log(`\nComments page (${COMMENTS_ON_CHAPTER} comments): ${row.rps} req/s (target ≥ ${TARGETS.rps}); at ${TARGETS.rps} req/s arriving p99 ${open.p99} ms (target ≤ ${TARGETS.p99Ms} ms): ${met ? 'met' : 'NOT met'}.`);
  return { row, open, met };
}

/**
 * The load the targets assume, as a share of what the machine serves: 300 req/s arriving on the
 * machine the targets were set on, whose rendered series page served 719 req/s closed loop
 * (docs/performance.md). On a slower machine 300 req/s arriving is its whole capacity or more, and
 * any extra work queues requests whatever it is; the fan-out row then also runs at this share of
 * the machine's own capacity, to show the fan-out's own effect at the load the target means.
 */
const TARGET_SHARE = 300 / 719;
const SCALED_PASSES = 3;

/**
 * The fan-out row (bench/fanout.ts): a chapter of a series 10,000 readers are notified of is
 * released while series pages (random ones, as the series page row, and one in five the released
 * series' own; series the English site lists) arrive at TARGETS.rps per second. The server's own
 * release check (at most once a minute, on requests) writes the items; this process counts them
 * every 100 ms. Reports the time from the release to the last item, the fan-out's own duration,
 * and the series pages' rate and p99 over the whole run and over the requests sent while the
 * fan-out was writing (±0.5 s). When this machine's capacity is below TARGETS.rps / TARGET_SHARE,
 * a second pass runs at TARGET_SHARE of it (reported beside the verdict, which stays the target's).
 */
async function benchFanout() {
  const { db } = await createDb(DATABASE_URL);
  try {
    const t0 = Date.now();
    const { seriesId, slug } = await notifiedSeries(db);
    console.log(`fan-out: ${FANOUT_READERS} readers notify on /comics/${slug}/ (ready in ${((Date.now() - t0) / 1000).toFixed(1)} s)`);
    const listed = await englishSlugs(db);
    const pathFor = () => (Math.random() < 0.2 ? `/comics/${slug}/` : `/comics/${pick(listed)}/`);
    await warmUp(pathFor);
    const capacity = await load('series pages, closed loop', PORT, pathFor);
    const main = await fanOutPass(db, seriesId, pathFor, TARGETS.rps);
    const met = main.met && main.all.rps >= TARGETS.rps * 0.95;
    console.log(`
Fan-out: ${main.summary}: ${met ? 'met' : 'NOT met'}.`);
    const share = Math.round(capacity.rps * TARGET_SHARE);
    let scaled: boolean | null = null;
    if (share < TARGETS.rps) {
      console.log(`\nThis machine serves ${capacity.rps} req/s closed loop (the targets' machine 719): ${TARGETS.rps} req/s arriving is ${Math.round((TARGETS.rps / capacity.rps) * 100)} % of it. The same pass ${SCALED_PASSES} times at ${share} req/s arriving (${Math.round(TARGET_SHARE * 100)} %, the share ${TARGETS.rps} req/s is on the targets' machine):`);
      // A window of about 1.6 s holds under 200 requests, so its p99 is their second-slowest: one
      // garbage collection decides a single pass. The verdict takes the median pass.
      const passes = [];
      for (let i = 0; i < SCALED_PASSES; i++) {
        const pass = await fanOutPass(db, seriesId, pathFor, share);
        console.log(`  pass ${i + 1}: ${pass.summary}\n`);
        passes.push(pass);
      }
      const median = [...passes].sort((a, b) => (a.during?.p99 ?? Infinity) - (b.during?.p99 ?? Infinity))[Math.floor(passes.length / 2)]!;
      scaled = median.met;
      console.log(`Fan-out at ${share} req/s arriving, median of ${SCALED_PASSES} passes by p99 during the fan-out (${passes.map((p) => p.during?.p99 ?? '?').join(', ')} ms): ${median.summary}: p99 target ${scaled ? 'held' : 'NOT held'} at this machine's share.`);
    }
    return { met, scaled };
  } finally {
    await db.destroy();
  }
}

/** One release of a new chapter while series pages arrive at `rate` per second; the chapter and its items are removed after. */
async function fanOutPass(db: DB, seriesId: number, pathFor: () => string, rate: number) {
  let chapterId = 0;
  try {
    // The same load without a fan-out, just before: what this machine does at this moment.
    const before = await openLoop(`series pages, before the release`, rate, pathFor);
    const releasedAt = Math.floor(Date.now() / 1000) + 1;
    chapterId = await releaseChapter(db, seriesId, releasedAt);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
    const samples: { at: number; ms: number; ok: boolean }[] = [];
    const pending: Promise<void>[] = [];
    let firstAt = 0;
    let doneAt = 0;
    let stopAt = Number.POSITIVE_INFINITY;
    const deadline = performance.now() + (FANOUT_TARGET_SECONDS + 30) * 1000;
    // The counter: deliveries are written in the same transaction as the items.
    const counting = (async () => {
      while (!doneAt && performance.now() < deadline) {
        const n = await itemsFor(db, chapterId);
        if (n > 0 && !firstAt) firstAt = performance.now();
        if (n >= FANOUT_READERS) { doneAt = performance.now(); stopAt = doneAt + 2000; }
        await new Promise((r) => setTimeout(r, 100));
      }
      if (!doneAt) stopAt = performance.now();
    })();
    const releaseMs = performance.now() + (releasedAt * 1000 - Date.now());
    let due = performance.now();
    while (due < Math.min(stopAt, deadline)) {
      due += (-Math.log(1 - Math.random()) / rate) * 1000;
      const wait = due - performance.now();
      if (wait > 1) await new Promise((r) => setTimeout(r, wait));
      const scheduled = due;
      pending.push(new Promise<void>((resolve) => {
        const req = http.get({ host: '127.0.0.1', port: PORT, path: pathFor(), agent, headers: { host: `localhost:${PORT}`, 'accept-encoding': 'br, gzip' } }, (res) => {
          res.resume();
          res.on('end', () => { samples.push({ at: scheduled, ms: performance.now() - scheduled, ok: res.statusCode === 200 }); resolve(); });
        });
        req.on('error', () => { samples.push({ at: scheduled, ms: performance.now() - scheduled, ok: false }); resolve(); });
      }));
    }
    await counting;
    await Promise.all(pending);
    agent.destroy();
    const items = await inboxItemsOf(db, chapterId);
    const stats = (name: string, rows: typeof samples) => {
      const lat = rows.map((r) => r.ms).sort((a, b) => a - b);
      const span = rows.length > 1 ? (rows[rows.length - 1]!.at - rows[0]!.at) / 1000 : 1;
      const row = { name, rps: Math.round(rows.length / Math.max(span, 0.001)), p50: Math.round(percentile(lat, 0.5)), p99: Math.round(percentile(lat, 0.99)), errors: rows.filter((r) => !r.ok).length, n: rows.length };
      console.log(`${name.padEnd(34)} ${String(row.rps).padStart(6)} req/s   p50 ${String(row.p50).padStart(4)} ms   p99 ${String(row.p99).padStart(4)} ms   errors ${row.errors}   (${row.n} requests, open loop)`);
      return row;
    };
    samples.sort((a, b) => a.at - b.at);
    const all = stats(`series pages, whole run`, samples);
    const during = firstAt ? stats(`series pages, during the fan-out`, samples.filter((r) => r.at >= firstAt - 500 && r.at <= doneAt + 500)) : null;
    const fromRelease = doneAt ? (doneAt - releaseMs) / 1000 : null;
    const writing = doneAt && firstAt ? (doneAt - firstAt) / 1000 : null;
    const met = fromRelease !== null && fromRelease <= FANOUT_TARGET_SECONDS && items === FANOUT_READERS && during !== null
      && during.p99 <= TARGETS.p99Ms && during.errors === 0 && all.p99 <= TARGETS.p99Ms && all.errors === 0 && all.rps >= rate * 0.95;
    const summary = `${items} of ${FANOUT_READERS} inbox items; the last written ${fromRelease?.toFixed(1) ?? 'never'} s after the release (target ≤ ${FANOUT_TARGET_SECONDS} s; the check runs at most every RELEASE_CHECK_SECONDS), the writing itself took ${writing === null ? '?' : `≤ ${(writing + 0.1).toFixed(1)}`} s; series pages at ${rate} req/s arriving: p99 ${all.p99} ms over the run, ${during?.p99 ?? '?'} ms during the fan-out, ${before.p99} ms in the ${DURATION} s before the release (target ≤ ${TARGETS.p99Ms} ms)`;
    return { met, all, during, before, summary };
  } finally {
    if (chapterId) await removeChapter(db, chapterId);
  }
}

/**
 * The suggestions endpoint: first every distinct query once, one at a time (the cold cost of a
 * query nobody asked for in the last minute, which also fills the server's suggestions cache
 * the way a minute of real traffic does), then the typing mix under load, then on one connection.
 */
async function benchSuggestions() {
  const distinct = [...new Set(queries)];
  const cold: number[] = [];
  for (const q of distinct) {
    const t0 = performance.now();
    const res = await get(q);
    cold.push(performance.now() - t0);
    if (res.status !== 200 && res.status !== 404) throw new Error(`${q} answered ${res.status}`);
  }
  cold.sort((a, b) => a - b);
  const at = (p: number) => percentile(cold, p).toFixed(1);
  console.log(`${'search suggestions, cold (each once)'.padEnd(34)} ${String(distinct.length).padStart(6)} queries   p50 ${at(0.5).padStart(4)} ms   p99 ${at(0.99).padStart(4)} ms   max ${at(1)} ms`);
  const row = await load('search suggestions (typed prefixes)', PORT, () => pick(queries), CONNECTIONS, true);
  const single = await load('search suggestions, 1 connection', PORT, () => pick(queries), 1, true);
  return { row, single };
}

try {
  if (process.env.BENCH_ONLY === 'series') {
    // Quick loop while tuning the series page: warm up, then the 25-connection and 1-connection rows.
    await warmUp(() => `/comics/${pick(slugs)}/`);
    const row = await load('series page (random series)', PORT, () => `/comics/${pick(slugs)}/`);
    const single = await load('series page, 1 connection', PORT, () => `/comics/${pick(slugs)}/`, 1);
    const open = await openLoop(`series page, ${TARGETS.rps} req/s arriving`, TARGETS.rps, () => `/comics/${pick(slugs)}/`);
    console.log(`\nSeries page: p99 ${row.p99} ms at ${CONNECTIONS} connections (target ≤ ${TARGETS.p99Ms} ms): ${row.p99 <= TARGETS.p99Ms && row.errors === 0 ? 'met' : 'NOT met'}; ${row.rps} req/s (target ≥ ${TARGETS.rps}); one connection p50 ${single.p50} ms, p99 ${single.p99} ms; at ${TARGETS.rps} req/s arriving (open loop) p99 ${open.p99} ms.`);
  } else if (process.env.BENCH_ONLY === 'signed') {
    // Only the signed-in series page beside the anonymous one.
    await warmUp(() => `/comics/${pick(slugs)}/`);
    const { anonymous, signedIn, signedOpen, ratio } = await benchSignedIn();
    console.log(`\nSigned-in series page (owns 5): ${signedIn.rps} req/s (anonymous page on the same series ${anonymous.rps} req/s); alternating: ${(ratio * 100).toFixed(0)} % of the anonymous page (reported, not a target: docs/decisions.md); at ${TARGETS.rps} req/s arriving p99 ${signedOpen.p99} ms. The anonymous page's targets (≥ ${TARGETS.rps} req/s, p99 ≤ ${TARGETS.p99Ms} ms at ${TARGETS.rps} req/s arriving): ${signedIn.rps >= TARGETS.rps && signedOpen.p99 <= TARGETS.p99Ms && signedIn.errors === 0 && signedOpen.errors === 0 ? 'met' : 'NOT met'}.`);
  } else if (process.env.BENCH_ONLY === 'workers') {
    await benchWorkers(slugs);
  } else if (process.env.BENCH_ONLY === 'comments') {
    await benchComments();
  } else if (process.env.BENCH_ONLY === 'fanout') {
    await benchFanout();
  } else if (process.env.BENCH_ONLY === 'upload') {
    const up = await benchUpload(DATABASE_URL, PORT);
    console.log(`\nChapter upload: a ${up.pages}-page ${up.megabytes} MB CBZ is a draft with its preview in ${up.seconds} s (target ≤ ${UPLOAD_TARGET_SECONDS} s): ${up.seconds <= UPLOAD_TARGET_SECONDS ? 'met' : 'NOT met'}.`);
  } else if (process.env.BENCH_ONLY === 'suggest') {
    // Quick loop while tuning the search: only the suggestions rows.
    const { row, single } = await benchSuggestions();
    console.log(`\nSuggestions: p99 ${row.p99} ms at ${CONNECTIONS} connections (target ≤ ${TARGETS.suggestP99Ms} ms): ${row.p99 <= TARGETS.suggestP99Ms && row.errors === 0 ? 'met' : 'NOT met'}; one connection p50 ${single.p50} ms, p99 ${single.p99} ms.`);
  } else {
    // Sizes of one series page as a reader downloads it.
    const sample = await get(`/comics/${slugs[0]}/`);
    const html = sample.body;
    const htmlGz = zlib.gzipSync(html, { level: 6 }).length;
    const scripts = [...html.toString().matchAll(/<script\b[^>]*?(?:src="([^"]+)")?[^>]*>([\s\S]*?)<\/script>/g)];
    let js = 0;
    for (const [, src, inline] of scripts) {
      if (src) js += zlib.gzipSync((await get(src)).body, { level: 9 }).length;
      else if (inline && !/application\/(ld\+)?json/.test(inline)) js += zlib.gzipSync(Buffer.from(inline), { level: 9 }).length;
    }
    const inlineJsonLd = (html.toString().match(/<script type="application\/ld\+json">/g) ?? []).length;
    console.log(`\nSeries page: ${html.length} bytes HTML, ${htmlGz} bytes gzipped (target ≤ ${TARGETS.htmlGzip}); JS ${js} bytes gzipped (target ≤ ${TARGETS.jsGzip}); ${inlineJsonLd} JSON-LD block\n`);

    await warmUp(() => `/comics/${pick(slugs)}/`);

    const rows = [];
    rows.push(await load('series page (random series)', PORT, () => `/comics/${pick(slugs)}/`));
    // Service time without queueing: in a closed loop, mean latency = connections / throughput
    // (Little's law), so the 25-connection p99 is mostly waiting for the one event loop.
    const single = await load('series page, 1 connection', PORT, () => `/comics/${pick(slugs)}/`, 1);
    const open = await openLoop(`series page, ${TARGETS.rps} req/s arriving`, TARGETS.rps, () => `/comics/${pick(slugs)}/`);
    const orders = ['', 'order=name&', 'order=-popularity&', 'order=chapters&'];
    rows.push(await load('listing fragment (random page)', PORT, () => `/comics/fragment/?${pick(orders)}page=${1 + Math.floor(Math.random() * 50)}`));
    rows.push(await load('sapi comics (random page)', PORT, () => `/sapi/comics?ordering=-last_updated&page=${1 + Math.floor(Math.random() * 50)}`));
    // The home page: every block of the large catalogue (the shared blocks are cached for a minute per site).
    const home = await get('/');
    const homeGz = zlib.gzipSync(home.body, { level: 6 }).length;
    const homeRow = await load('home page (anonymous)', PORT, () => '/');
    rows.push(homeRow);
    const { row: suggestRow, single: suggestSingle } = await benchSuggestions();
    rows.push(suggestRow);

    const { anonymous: sameAnon, signedIn, signedOpen, ratio: signedRatio } = await benchSignedIn();
    rows.push(sameAnon, signedIn);
    const comments = await benchComments();
    rows.push(comments.row);
    const fanout = await benchFanout();

    // One hot page, as the page cache serves it (src/server/page-cache.mjs, a server with the
    // cache at its default), beside a bare node:http server sending the same bytes, back to back.
    const hotPath = `/comics/${slugs[0]}/`;
    const cached = await startServer(PORT + 2, {});
    const hot = await load('series page, hot (page cache)', PORT + 2, () => hotPath);
    cached.kill('SIGTERM');
    rows.push(hot);
    const compressed = await get(hotPath, { 'accept-encoding': 'br, gzip' });
    const bare = await bareServer(compressed.body, { 'content-type': 'text/html; charset=utf-8', 'content-encoding': String(compressed.headers['content-encoding'] ?? 'identity') });
    const ceiling = await load('bare node:http, same bytes', PORT + 1, () => '/');
    bare.close();

    const series = rows[0]!;
    console.log(`\nService time of one series page (1 connection): p50 ${single.p50} ms, p99 ${single.p99} ms. At 25 connections, Little's law gives a mean of ${(CONNECTIONS / series.rps * 1000).toFixed(0)} ms at ${series.rps} req/s; a 50 ms p99 there needs well over ${Math.round(CONNECTIONS / 0.05)} req/s from one process.`);
    console.log(`At ${TARGETS.rps} req/s arriving at random (open loop, Poisson, latency from when each request was due): p50 ${open.p50} ms, p99 ${open.p99} ms, ${open.errors} errors. The targets above are read from the saturated closed loop.`);
    console.log(`Home page: ${home.body.length} bytes HTML, ${homeGz} bytes gzipped; ${homeRow.rps} req/s, p99 ${homeRow.p99} ms at ${CONNECTIONS} connections.`);
    console.log(`Service time of one suggestions request (1 connection): p50 ${suggestSingle.p50} ms, p99 ${suggestSingle.p99} ms.`);
    console.log(`Series page reaches ${((series.rps / ceiling.rps) * 100).toFixed(1)}% of the bare-server ceiling rendered, ${((hot.rps / ceiling.rps) * 100).toFixed(1)}% from the page cache (p99 ${hot.p99} ms).`);
    const workers = await benchWorkers(slugs);
    const upload = await benchUpload(DATABASE_URL, PORT);
    console.log(`Chapter upload: a ${upload.pages}-page ${upload.megabytes} MB CBZ is a draft with its preview in ${upload.seconds} s (target ≤ ${UPLOAD_TARGET_SECONDS} s): ${upload.seconds <= UPLOAD_TARGET_SECONDS ? 'met' : 'NOT met'}.`);
    const unlocks = [await benchUnlocks('sqlite', PORT + 3, MEDIA_DIR), await benchUnlocks('postgres', PORT + 3, MEDIA_DIR)];
    const payments = [await benchPayments('sqlite', PORT + 3, MEDIA_DIR), await benchPayments('postgres', PORT + 3, MEDIA_DIR)];
    console.log(`Payments: order creation ${payments.map((r) => r.orders.rps).join(' / ')} orders/s, webhook confirmation ${payments.map((r) => r.webhooks.rps).join(' / ')} paid/s (SQLite / PostgreSQL).`);
    console.log(`Signed-in series page (owns 5): ${signedIn.rps} req/s, p99 ${signedIn.p99} ms (anonymous page on the same series ${sameAnon.rps} req/s; ${(signedRatio * 100).toFixed(0)} % of it in alternating runs); at ${TARGETS.rps} req/s arriving p99 ${signedOpen.p99} ms. Unlocks: SQLite ${unlocks[0]!.rps}/s, PostgreSQL ${unlocks[1]!.rps}/s.`);
    const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met');
    console.log(`Targets: series p99 ≤ ${TARGETS.p99Ms} ms at ${CONNECTIONS} connections (saturated): ${verdict(series.p99 <= TARGETS.p99Ms)}; at ${TARGETS.rps} req/s arriving: ${verdict(open.p99 <= TARGETS.p99Ms && open.errors === 0)}; ≥ ${TARGETS.rps} req/s: ${verdict(series.rps >= TARGETS.rps)}; HTML ≤ 30 KB gz: ${verdict(htmlGz <= TARGETS.htmlGzip)}; JS ≤ 15 KB gz: ${verdict(js <= TARGETS.jsGzip)}; suggestions p99 ≤ ${TARGETS.suggestP99Ms} ms: ${verdict(suggestRow.p99 <= TARGETS.suggestP99Ms && suggestRow.errors === 0)}; hot page ≥ 0.8× bare: ${verdict(hot.rps >= 0.8 * ceiling.rps)}; hot page p99 ≤ 20 ms: ${verdict(hot.p99 <= 20 && hot.errors === 0)}; signed-in series page meets the anonymous page's targets (≥ ${TARGETS.rps} req/s, p99 ≤ ${TARGETS.p99Ms} ms at ${TARGETS.rps} req/s arriving): ${verdict(signedIn.rps >= TARGETS.rps && signedOpen.p99 <= TARGETS.p99Ms && signedIn.errors === 0 && signedOpen.errors === 0)}; ≥ ${TARGETS.unlocksPerSecond} unlocks/s on SQLite: ${verdict(unlocks[0]!.rps >= TARGETS.unlocksPerSecond && unlocks[0]!.errors === 0)}; ${workers.n} workers ≥ ${TARGETS.workersRatio}× one on the rendered series page: ${verdict(workers.met)} (${workers.ratio.toFixed(2)}×); comments page (${COMMENTS_ON_CHAPTER} comments) ≥ ${TARGETS.rps} req/s and p99 ≤ ${TARGETS.p99Ms} ms at ${TARGETS.rps} req/s arriving: ${verdict(comments.met)}; fan-out to ${FANOUT_READERS} readers within ${FANOUT_TARGET_SECONDS} s with the series page's targets held: ${verdict(fanout.met)}${fanout.scaled === null ? '' : ` (at this machine's share of the target load: ${fanout.scaled ? 'held' : 'NOT held'})`}`);
  }
} finally {
  server.kill('SIGTERM');
}
