/**
 * Integration-test harness: a real, built Inkpass server on a fresh database, reached over
 * real HTTP. Used by tests/integration/global-setup.ts (one server per dialect for the whole
 * run) and by the test files through `useServer(dialect)`.
 *
 * Nothing here imports the app's modules at load time (anySeries loads them on demand), so
 * the global setup, which runs in Vitest's main process, can use it too.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, inject } from 'vitest';
import { freePort } from '../support/free-port';

export const dialects = ['sqlite', 'postgres'] as const;
export type TestDialect = (typeof dialects)[number];
export type SiteName = 'en' | 'br';

/** The test servers' APP_CHECK_DIFFICULTY: a challenge hides a counter of 2 or 3. */
export const TEST_APP_CHECK_DIFFICULTY = 3;

export const ROOT = path.resolve(fileURLToPath(new URL('../..', import.meta.url)));
/**
 * The seeded art, shared by every test run so it is generated once (the seed skips files that
 * exist). Only the seed writes here; servers get MEDIA_DIR.
 */
export const ART_DIR = path.resolve(ROOT, process.env.INKPASS_TEST_MEDIA_DIR || 'data/test-media');
/**
 * This run's media: the art linked in (`linkArt`), plus whatever its servers write (studio
 * uploads, chapter drafts, sizes made on demand). One per dialect selection, because `npm test`
 * runs the two dialects' Vitest runs side by side: draft folders are named by id and both
 * databases count from 1, so with one folder a draft removed on SQLite took PostgreSQL's draft
 * of the same id with it, and `drafts cleanup` on one removed the other's drafts.
 */
export const MEDIA_DIR = path.resolve(ROOT, 'data/test-media-runs', (process.env.INKPASS_IT_DIALECTS ?? '').replace(/[^a-z]+/g, '-').replace(/^-|-$/g, '') || 'all');

/** Empties this run's media folder (the global setup, before any server starts): nothing of an earlier run is left in it. */
export function resetRunMedia(): void {
  fs.rmSync(MEDIA_DIR, { recursive: true, force: true });
  fs.mkdirSync(MEDIA_DIR, { recursive: true });
}

/**
 * Hard-links every file of ART_DIR missing from MEDIA_DIR (a copy across file systems). Safe to
 * share inodes: the media store never writes a file in place (a new file, then a rename). The
 * staging folder is left out: its draft folders belong to whichever database made them.
 */
function linkArt(from = ART_DIR, to = MEDIA_DIR): void {
  fs.mkdirSync(to, { recursive: true });
  for (const e of fs.readdirSync(from, { withFileTypes: true })) {
    if (e.name === '.staging' || e.name.endsWith('.tmp')) continue;
    const source = path.join(from, e.name);
    const target = path.join(to, e.name);
    if (e.isDirectory()) linkArt(source, target);
    else if (e.isFile() && !fs.existsSync(target)) {
      try {
        fs.linkSync(source, target);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EEXIST') continue;
        fs.copyFileSync(source, target);
      }
    }
  }
}
/** Administrative connection used to create and drop the per-run PostgreSQL databases. */
export const PG_ADMIN_URL = process.env.INKPASS_TEST_PG_URL || 'postgres://postgres@127.0.0.1:5432/test';
const ENTRY = path.join(ROOT, 'dist/server/entry.mjs');

/** Dialects to run, from INKPASS_IT_DIALECTS (e.g. "sqlite"); both by default. */
export function selectedDialects(): TestDialect[] {
  const wanted = (process.env.INKPASS_IT_DIALECTS ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  if (!wanted.length) return [...dialects];
  const unknown = wanted.filter((d) => !(dialects as readonly string[]).includes(d));
  if (unknown.length) throw new Error(`INKPASS_IT_DIALECTS: unknown dialect(s) ${unknown.join(', ')}; use ${dialects.join(', ')}`);
  return dialects.filter((d) => wanted.includes(d));
}

// ---------------------------------------------------------------------------------------------
// HTTP

export interface RequestOptions {
  /** Which site: the Host header is `localhost:PORT` (en) or `br.localhost:PORT` (br). */
  site?: SiteName;
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Decode a br/gzip/deflate body into `text`/`body` (the headers are left as sent). Default true. */
  decompress?: boolean;
  timeoutMs?: number;
}

export interface TestResponse {
  status: number;
  /** Lower-cased names; repeated headers joined with ", " (set-cookie with "\n"). */
  headers: Record<string, string>;
  /** The body exactly as it came over the wire. */
  raw: Buffer;
  /** The body, decompressed unless `decompress: false`. */
  body: Buffer;
  text: string;
  json<T = any>(): T;
}

export interface ServerClient {
  dialect: TestDialect;
  port: number;
  databaseUrl: string;
  /** The server's process, when this harness started it (for `catalogEdited`). */
  pid?: number;
  request(pathAndQuery: string, options?: RequestOptions): Promise<TestResponse>;
  /** Absolute URL for a path on a site, for messages and for comparing links. */
  origin(site?: SiteName): string;
}

export interface ServerHandle extends ServerClient {
  /** What the server and prepare-db printed (the tail), for failure messages. */
  output(): string;
  stop(): Promise<void>;
}

export function hostFor(site: SiteName, port: number): string {
  return site === 'br' ? `br.localhost:${port}` : `localhost:${port}`;
}

/** One HTTP request over node:http to 127.0.0.1 with an explicit Host header. */
export function httpRequest(port: number, pathAndQuery: string, options: RequestOptions = {}): Promise<TestResponse> {
  const { site = 'en', method = 'GET', body, decompress = true, timeoutMs = 20_000 } = options;
  const headers: Record<string, string> = { host: hostFor(site, port) };
  for (const [k, v] of Object.entries(options.headers ?? {})) headers[k.toLowerCase()] = v;
  if (body !== undefined && headers['content-length'] === undefined) headers['content-length'] = String(Buffer.byteLength(body));
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, path: pathAndQuery, method, headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          try {
            const raw = Buffer.concat(chunks);
            const flat: Record<string, string> = {};
            for (const [k, v] of Object.entries(res.headers)) {
              if (v === undefined) continue;
              flat[k] = Array.isArray(v) ? v.join(k === 'set-cookie' ? '\n' : ', ') : String(v);
            }
            const decoded = decompress ? decode(raw, flat['content-encoding'], `${method} ${pathAndQuery}`) : raw;
            const text = decoded.toString('utf8');
            resolve({
              status: res.statusCode ?? 0,
              headers: flat,
              raw,
              body: decoded,
              text,
              json() {
                try {
                  return JSON.parse(text);
                } catch {
                  throw new Error(`${method} ${pathAndQuery} (${res.statusCode}, ${flat['content-type'] ?? 'no content-type'}) is not JSON: ${text.slice(0, 300)}`);
                }
              },
            });
          } catch (e) {
            reject(e);
          }
        });
      },
    );
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`${method} ${pathAndQuery}: no answer within ${timeoutMs} ms`)));
    req.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code === 'ECONNREFUSED') e.message += ' (is the server down? a previous request may have crashed it: see its output above)';
      reject(e);
    });
    req.end(body);
  });
}

function decode(raw: Buffer, encoding: string | undefined, what: string): Buffer {
  const enc = (encoding ?? '').trim().toLowerCase();
  if (!enc || enc === 'identity' || raw.length === 0) return raw;
  try {
    if (enc === 'br') return zlib.brotliDecompressSync(raw);
    if (enc === 'gzip' || enc === 'x-gzip') return zlib.gunzipSync(raw);
    if (enc === 'deflate') return zlib.inflateSync(raw);
  } catch (e) {
    throw new Error(`${what}: body says Content-Encoding ${enc} but does not decode: ${(e as Error).message}`);
  }
  throw new Error(`${what}: unexpected Content-Encoding "${enc}"`);
}

export function clientFor(info: { dialect: TestDialect; port: number; databaseUrl: string; pid?: number }): ServerClient {
  return {
    ...info,
    request: (p, o) => httpRequest(info.port, p, o),
    origin: (site = 'en') => `http://${hostFor(site, info.port)}`,
  };
}

// ---------------------------------------------------------------------------------------------
// Lifecycle

/**
 * What every test server runs with: the production build in demo mode with the bot check on
 * (every money call carries a token: `appCheckHeader`), at a difficulty low enough that a token
 * is solved in a few milliseconds; the country header a CDN would set (geoblocking tests), and a
 * short body time-out so the slow-body tests need not wait long.
 */
const SERVER_ENV = {
  NODE_ENV: 'production', INKPASS_MODE: 'demo', APP_CHECK: 'on', APP_CHECK_DIFFICULTY: String(TEST_APP_CHECK_DIFFICULTY),
  COUNTRY_HEADER: 'cf-ipcountry', BODY_TIMEOUT_MS: '2000', PAGE_CACHE_MB: '0',
  // One process, as fast to start as ever; INKPASS_IT_WORKERS=2 runs every test server as a
  // cluster (scripts/cluster.mjs), and a test may start its own with { WORKERS: '2' }.
  WORKERS: process.env.INKPASS_IT_WORKERS || '1',
  // Warnings and errors only: a line per request would push them out of the output's tail (observe.test.ts sets info).
  LOG_LEVEL: 'warn',
  // New readers start at 0 keys here, so tests count from there; welcome.test.ts sets its own.
  WELCOME_XTRA_KEYS_EN: '0', WELCOME_XTRA_KEYS_BR: '0',
  // Web push may go to a local stand-in of a push service (tests/integration/push.test.ts).
  PUSH_ENDPOINT_HOSTS: '127.0.0.1',
} as const;

/** `node scripts/serve.mjs` on a database, on a free port, with the test settings plus `env` ('' removes one). */
async function spawnServe(databaseUrl: string, env: Record<string, string>): Promise<{ child: ChildProcess; port: number; log: Tail; workers: number }> {
  const log = new Tail();
  const port = await freePort();
  const merged: NodeJS.ProcessEnv = { ...process.env, ...SERVER_ENV, DATABASE_URL: databaseUrl, MEDIA_DIR, PORT: String(port), HOST: '127.0.0.1', WARMUP: '0', ...env };
  for (const [k, v] of Object.entries(env)) if (v === '') delete merged[k];
  const child = spawn(process.execPath, ['scripts/serve.mjs'], { cwd: ROOT, env: merged, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout!.on('data', (c) => log.push(String(c)));
  child.stderr!.on('data', (c) => log.push(String(c)));
  return { child, port, log, workers: Number(merged.WORKERS ?? 1) };
}

/**
 * Another server process on an existing database, with settings of its own (`env` is added to
 * the usual ones; a value of '' removes a setting). For tests of settings and of several
 * processes sharing one database. Stop it when done.
 */
export async function startExtraServer(base: { dialect: TestDialect; databaseUrl: string }, env: Record<string, string> = {}): Promise<ServerHandle & { pid: number; kill(signal: NodeJS.Signals): Promise<void> }> {
  const { child, port, log, workers } = await spawnServe(base.databaseUrl, env);
  try {
    await waitUntilAnswering(port, child, 60_000, workers);
  } catch (e) {
    await killChild(child);
    (e as Error).message += `\n--- output (tail) ---\n${log.text()}`;
    throw e;
  }
  return {
    ...clientFor({ dialect: base.dialect, port, databaseUrl: base.databaseUrl, pid: child.pid! }),
    output: () => log.text(),
    /** The process started: the server, or with WORKERS > 1 the cluster primary. */
    pid: child.pid!,
    stop: () => killChild(child),
    kill: (signal) => {
      const exited = new Promise<void>((r) => (child.exitCode !== null || child.signalCode !== null ? r() : child.once('exit', () => r())));
      child.kill(signal);
      return exited;
    },
  };
}

/** Builds a fresh database, prepares it (migrate + seed), starts `node scripts/serve.mjs` on it. */
export async function startServer({ dialect }: { dialect: TestDialect }): Promise<ServerHandle> {
  if (!fs.existsSync(ENTRY)) {
    throw new Error(`${path.relative(ROOT, ENTRY)} is missing: build first with \`npx astro build\` (npm test does it for you).`);
  }
  const log = new Tail();
  const db = await createFreshDatabase(dialect);
  let child: ChildProcess | undefined;
  let stopping = false;
  const stop = async () => {
    stopping = true;
    if (child) await killChild(child);
    child = undefined;
    await db.drop();
  };
  try {
    fs.mkdirSync(ART_DIR, { recursive: true });
    const env = { ...process.env, ...SERVER_ENV, DATABASE_URL: db.url, MEDIA_DIR };
    const started = Date.now();
    // The seed's images go to the shared art folder (made once), then are linked into this run's.
    const prep = await run('npx', ['tsx', 'scripts/prepare-db.ts'], { env: { ...env, MEDIA_DIR: ART_DIR }, log, timeoutMs: 240_000 });
    if (prep !== 0) throw new Error(`prepare-db (${dialect}) exited with ${prep}`);
    linkArt();
    log.push(`[harness] prepare-db (${dialect}) took ${((Date.now() - started) / 1000).toFixed(1)} s\n`);

    const port = await freePort();
    child = spawn(process.execPath, ['scripts/serve.mjs'], {
      cwd: ROOT,
      env: { ...env, PORT: String(port), HOST: '127.0.0.1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (c) => log.push(String(c)));
    child.stderr!.on('data', (c) => log.push(String(c)));
    const server = child;
    server.once('exit', (code, signal) => {
      if (stopping) return;
      // A request killed the server: say so loudly, every later request will be refused.
      const why = signal ? `killed by ${signal}`
        : code === 0 ? 'exit code 0: something sent it SIGTERM or SIGINT'
        : `exit code ${code}: look for an uncaught error below`;
      console.error(`\n[harness] the ${dialect} server (port ${port}, pid ${server.pid}) exited unexpectedly (${why}). Its output (tail):\n${log.text()}\n`);
    });
    await waitUntilAnswering(port, child, 60_000, Number(SERVER_ENV.WORKERS));
    return {
      ...clientFor({ dialect, port, databaseUrl: db.url, pid: child.pid }),
      output: () => log.text(),
      stop,
    };
  } catch (e) {
    await stop().catch(() => {});
    const err = e as Error;
    err.message = `${err.message}\n--- output (tail) ---\n${log.text()}`;
    throw err;
  }
}

/**
 * A fresh, empty database of this dialect, prepared (`scripts/prepare-db.ts`) and optionally
 * seeded (`npm run seed`) with `env` (INKPASS_MODE=production, say): for tests of a differently
 * prepared installation. Drop it when done.
 */
export async function preparedDatabase(dialect: TestDialect, env: Record<string, string>, opts: { seed?: boolean } = {}): Promise<{ url: string; drop(): Promise<void> }> {
  const db = await createFreshDatabase(dialect);
  const log = new Tail();
  const full = { ...process.env, ...SERVER_ENV, DATABASE_URL: db.url, MEDIA_DIR, ...env };
  try {
    if ((await run('npx', ['tsx', 'scripts/prepare-db.ts'], { env: full, log, timeoutMs: 240_000 })) !== 0) throw new Error(`prepare-db failed:\n${log.text()}`);
    if (opts.seed && (await run('npx', ['tsx', 'scripts/seed.ts'], { env: full, log, timeoutMs: 240_000 })) !== 0) throw new Error(`seed failed:\n${log.text()}`);
  } catch (e) {
    await db.drop();
    throw e;
  }
  return db;
}

/**
 * Starts `scripts/serve.mjs` on a database with these settings and waits for it to exit (a
 * refusal to start) or to answer: `code` is null when it started and was stopped.
 */
export async function startOrRefuse(base: { databaseUrl: string }, env: Record<string, string>, timeoutMs = 60_000): Promise<{ code: number | null; output: string }> {
  const { child, port, log, workers } = await spawnServe(base.databaseUrl, env);
  const exited = new Promise<number>((r) => child.once('exit', (code) => r(code ?? 1)));
  try {
    await waitUntilAnswering(port, child, timeoutMs, workers);
  } catch {
    return { code: await exited, output: log.text() };
  }
  await killChild(child);
  return { code: null, output: log.text() };
}

async function createFreshDatabase(dialect: TestDialect): Promise<{ url: string; drop(): Promise<void> }> {
  if (dialect === 'sqlite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'inkpass-it-'));
    return {
      url: `file:${path.join(dir, 'inkpass.db')}`,
      drop: async () => fs.rmSync(dir, { recursive: true, force: true }),
    };
  }
  const name = `inkpass_it_${crypto.randomBytes(5).toString('hex')}`;
  const admin = async <T>(fn: (c: import('pg').Client) => Promise<T>): Promise<T> => {
    const pg = (await import('pg')).default;
    const client = new pg.Client({ connectionString: PG_ADMIN_URL });
    try {
      await client.connect();
    } catch (e) {
      throw new Error(`PostgreSQL is not reachable at ${PG_ADMIN_URL} (${(e as Error).message}). ` +
        'Start it with `pg_ctlcluster --skip-systemctl-redirect 15 main start`, or run only SQLite with INKPASS_IT_DIALECTS=sqlite.');
    }
    try {
      return await fn(client);
    } finally {
      await client.end().catch(() => {});
    }
  };
  await admin((c) => c.query(`create database ${name}`));
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  let dropped = false;
  return {
    url: url.toString(),
    drop: async () => {
      if (dropped) return;
      dropped = true;
      await admin((c) => c.query(`drop database if exists ${name} with (force)`));
    },
  };
}

function run(cmd: string, args: string[], o: { env: NodeJS.ProcessEnv; log: Tail; timeoutMs: number }): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: ROOT, env: o.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    child.stdout!.on('data', (c) => o.log.push(String(c)));
    child.stderr!.on('data', (c) => o.log.push(String(c)));
    const timer = setTimeout(() => {
      try { process.kill(-child.pid!, 'SIGKILL'); } catch { /* gone */ }
      reject(new Error(`${cmd} ${args.join(' ')} did not finish within ${o.timeoutMs / 1000} s`));
    }, o.timeoutMs);
    child.on('error', (e) => { clearTimeout(timer); reject(e); });
    child.on('exit', (code, signal) => { clearTimeout(timer); resolve(code ?? (signal ? 128 : 1)); });
  });
}

async function killChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

/**
 * The worker processes of a cluster primary (WORKERS > 1, scripts/cluster.mjs), from the
 * process table: what an operator sees with `ps --ppid`.
 */
export function workerPids(primaryPid: number): number[] {
  const children: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // The parent pid is the second field after the command in parentheses.
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === primaryPid) children.push(Number(entry));
    } catch { /* gone meanwhile */ }
  }
  return children.sort((a, b) => a - b);
}

/** Whether a process is alive (a zombie waiting for its parent counts as gone). */
export function processAlive(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

/** Polls `check` every 100 ms until it holds; fails with `what` after `timeoutMs`. */
export async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export { freePort };

/** Any HTTP answer counts (even a 500): the tests then say what is wrong with it. */
export async function waitUntilAnswering(port: number, child: ChildProcess, timeoutMs: number, workers = 1): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  // An answer on the port is this child's only once it has said it listens: between freePort()
  // and its listen, another test's server (the other dialect's run) can take the port, and this
  // one then exits while the other answers in its place (a flake seen in CI: a 404 from a server
  // with a database, where this test's server had none). A child without piped output is taken
  // at its first answer. A cluster (`workers` > 1) answers once its first worker listens; it is
  // taken as ready when all do, so that every worker gets connections from the first request.
  let listening = !child.stdout;
  let said = '';
  const ready = workers > 1 ? `all ${workers} workers are listening` : 'listening on ';
  const hear = (c: Buffer | string) => {
    said = (said + String(c)).slice(-4_096);
    if (said.includes(ready)) listening = true;
  };
  child.stdout?.on('data', hear);
  try {
    while (Date.now() < deadline) {
      if (child.exitCode !== null || child.signalCode !== null) {
        throw new Error(`the server exited (${child.exitCode ?? child.signalCode}) before answering on port ${port}`);
      }
      if (!listening) {
        last = 'not listening yet';
        await new Promise((r) => setTimeout(r, 100));
        continue;
      }
      try {
        await httpRequest(port, '/robots.txt', { timeoutMs: 2_000 });
        return;
      } catch (e) {
        last = (e as Error).message;
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  } finally {
    child.stdout?.off('data', hear);
  }
  throw new Error(`the server did not answer on port ${port} within ${timeoutMs / 1000} s (${last})`);
}

class Tail {
  private parts: string[] = [];
  private size = 0;
  push(s: string) {
    this.parts.push(s);
    this.size += s.length;
    while (this.size > 20_000 && this.parts.length > 1) this.size -= this.parts.shift()!.length;
  }
  text() {
    return this.parts.join('').slice(-20_000);
  }
}

// ---------------------------------------------------------------------------------------------
// Test-side helpers

export interface ServerInfo {
  dialect: TestDialect;
  port?: number;
  databaseUrl?: string;
  pid?: number;
  /** Set when the global setup could not start this dialect's server. */
  error?: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    inkpassServers: Partial<Record<TestDialect, ServerInfo>>;
  }
}

/**
 * Gives back every per-address route budget (all anonymous test requests come from 127.0.0.1):
 * after a file that spends them (hostile probes), before one that needs them (the preference
 * forms allow 30 posts a minute), whatever order the files run in.
 */
export async function clearAddressLimits(server: { databaseUrl: string }): Promise<void> {
  await withDb(server, (db) => db.deleteFrom('rate_limits').where('bucket', 'like', 'route:%:ip:%').execute());
}

/** Runs `fn` with a Kysely handle on the server's own database (to arrange or inspect rows). */
export async function withDb<T>(server: { databaseUrl: string }, fn: (db: import('~/server/db').DB) => Promise<T>): Promise<T> {
  const { createDb } = await import('~/server/db');
  const { db } = await createDb(server.databaseUrl);
  try {
    return await fn(db);
  } finally {
    await db.destroy();
  }
}

/**
 * Inside a `describe`: the server for `dialect`, available from `beforeAll` on. Uses the one
 * the global setup started; starts (and stops) its own when run without it.
 */
export function useServer(dialect: TestDialect): ServerClient {
  let client: ServerClient | undefined;
  let own: ServerHandle | undefined;
  const ready = () => {
    if (!client) throw new Error(`the ${dialect} server is not ready (used outside a test, or its beforeAll failed)`);
    return client;
  };
  beforeAll(async () => {
    const info = inject('inkpassServers')?.[dialect];
    if (info?.error) throw new Error(`the ${dialect} server could not start in the global setup:\n${info.error}`);
    if (info?.port && info.databaseUrl) {
      client = clientFor({ dialect, port: info.port, databaseUrl: info.databaseUrl, pid: info.pid });
    } else {
      own = await startServer({ dialect });
      client = own;
    }
  });
  afterAll(async () => {
    await own?.stop();
  });
  return {
    dialect,
    get port() { return ready().port; },
    get databaseUrl() { return ready().databaseUrl; },
    get pid() { return ready().pid; },
    request: (p, o) => ready().request(p, o),
    origin: (site) => ready().origin(site),
  };
}

// ---------------------------------------------------------------------------------------------
// Data from the database the harness created

export interface SeriesSample {
  id: number;
  e4pid: string;
  slug: string;
  name: string;
  format: 'COMIC' | 'MANGA' | 'WEBTOON';
  /** Content languages with at least one chapter. */
  languages: string[];
  /** An English chapter already released (free ones first), with its reader path on the English site. */
  chapter?: { id: number; e4pid: string; number: number; readerPath: string };
}

/** A few active series (with their English chapter if any), read through the app's own createDb. */
export async function anySeries(server: { databaseUrl: string }, limit = 5): Promise<SeriesSample[]> {
  const { createDb } = await import('~/server/db');
  const { readerPath } = await import('~/lib/paths');
  const { db } = await createDb(server.databaseUrl);
  try {
    const now = Math.floor(Date.now() / 1000);
    const rows = await db
      .selectFrom('series')
      .select(['id', 'e4pid', 'slug', 'name', 'format'])
      .where('state', '=', 'ACTIVE')
      .orderBy('id')
      .limit(limit)
      .execute();
    const out: SeriesSample[] = [];
    for (const r of rows) {
      const langs = await db
        .selectFrom('series_languages')
        .select('language')
        .where('series_id', '=', r.id)
        .where('chapter_count', '>', 0)
        .orderBy('language')
        .execute();
      const ch = await db
        .selectFrom('chapters')
        .select(['id', 'e4pid', 'number'])
        .where('series_id', '=', r.id)
        .where('language', '=', 'en')
        .where('released_at', '<=', now)
        .orderBy('original_price')
        .orderBy('number')
        .limit(1)
        .executeTakeFirst();
      out.push({
        id: Number(r.id),
        e4pid: r.e4pid,
        slug: r.slug,
        name: r.name,
        format: r.format,
        languages: langs.map((l) => l.language),
        chapter: ch && {
          id: Number(ch.id),
          e4pid: ch.e4pid,
          number: Number(ch.number),
          readerPath: readerPath({ slug: r.slug, format: r.format }, { e4pid: ch.e4pid, number: Number(ch.number), language: 'en' }),
        },
      });
    }
    return out;
  } finally {
    await db.destroy();
  }
}

// ---------------------------------------------------------------------------------------------
// Catalogue and body checks

/**
 * Lists a series on the Portuguese site too (a pt-br language row without chapters yet, as a
 * translation under way): the demo's English-only series are 404 there, and some tests look at
 * how that site shows an English series' chapters.
 */
export async function listOnPortugueseSite(server: { databaseUrl: string; pid?: number }, slug: string): Promise<void> {
  await withDb(server, async (db) => {
    const { id } = await db.selectFrom('series').select('id').where('slug', '=', slug).executeTakeFirstOrThrow();
    await db.insertInto('series_languages').values({ series_id: id, language: 'pt-br', site_id: 3, chapter_count: 0, last_updated: 0 })
      .onConflict((oc) => oc.doNothing()).execute();
  });
  await catalogEdited(server);
}

/**
 * After a test changed catalogue rows behind the server's back (withDb): tells the server, as an
 * operator would after an edit by hand (SIGHUP, docs/operations.md), so its caches and kept
 * pages do not show later files the catalogue as it was. Without the process (a server started
 * elsewhere), nothing.
 */
export async function catalogEdited(server: { pid?: number }): Promise<void> {
  if (!server.pid) return;
  process.kill(server.pid, 'SIGHUP');
  // The server handles it on its next turn of the event loop; a moment's wait makes sure.
  await new Promise((r) => setTimeout(r, 50));
}

export { message } from '../support/messages';

/** A test card's expiry a few years ahead, as the sandbox widget's reader would type it. */
export const CARD_EXPIRY = `12/${String((new Date().getUTCFullYear() + 4) % 100).padStart(2, '0')}`;
/** Text with its whitespace (Intl's non-breaking spaces included: pt-BR writes "R$\u00a039,90") made single plain spaces. */
export const plain = (s: string): string => s.replace(/\s+/g, ' ').trim();

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };
/** Text of an HTML document with tags removed and entities decoded, whitespace collapsed. */
/**
 * The page's markup without its inline stylesheets and scripts: pages carry their CSS inline, so a
 * class name such as `btn-unlock` is in every page's `<style>` whether or not an element has it.
 */
export function markup(html: string): string {
  return html.replace(/<style[\s\S]*?<\/style>/gi, ' ').replace(/<script[\s\S]*?<\/script>/gi, ' ');
}

export function htmlText(html: string): string {
  return html
    .replace(/<script[\s\S]*?<\/script>/gi, ' ')
    .replace(/<style[\s\S]*?<\/style>/gi, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, e: string) => {
      if (e[0] === '#') return String.fromCodePoint(e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10));
      return ENTITIES[e.toLowerCase()] ?? m;
    })
    .replace(/[\s\u00a0]+/g, ' ')
    .trim();
}

/** Signs that a response leaks server internals (a stack trace or file paths). */
const LEAKS: RegExp[] = [
  /\bat [^\n<]{0,200}\.(?:mjs|cjs|js|ts|tsx|astro):\d+:\d+/, // "    at fn (/app/dist/server/chunks/x.mjs:12:5)"
  /\.mjs:\d+/,
  /node_modules[\\/]/,
  /file:\/\/\//,
  new RegExp(ROOT.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') + '/'), // an absolute path into the checkout
];
export function leakIn(text: string): string | null {
  for (const re of LEAKS) {
    const m = re.exec(text);
    if (m) return text.slice(Math.max(0, m.index - 80), m.index + 120);
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// Readers, made through the app

export interface Reader {
  id: number;
  email: string;
  password: string;
  name: string;
  /** The session cookie's value (`id.secret`). */
  token: string;
  /** A Cookie header carrying the session. */
  cookie: string;
}

/**
 * A new reader, signed up through the sign-up form as a person would (terms accepted), with the
 * session the app gave it. Every request of a test run comes from 127.0.0.1, so the per-address
 * sign-up counter is reset first (the limit itself is tested in auth.test.ts).
 */
export async function createReader(server: ServerClient, opts: { site?: SiteName; name?: string; password?: string } = {}): Promise<Reader> {
  const email = `reader-${crypto.randomBytes(6).toString('hex')}@example.test`;
  const password = opts.password ?? 'correct-horse-9';
  const name = opts.name ?? 'Test Reader';
  await withDb(server, (db) => db.deleteFrom('rate_limits').where('bucket', 'like', 'signup:ip:%').execute());
  const res = await server.request('/auth/signup/', {
    site: opts.site,
    method: 'POST',
    body: new URLSearchParams({ email, display_name: name, password, terms: '1' }).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.origin(opts.site), 'sec-fetch-site': 'same-origin' },
  });
  const token = /(?:^|\n)inkpass_session=([^;]+)/.exec(res.headers['set-cookie'] ?? '')?.[1];
  if (res.status !== 303 || !token) throw new Error(`sign-up failed (${res.status}): ${res.text.slice(0, 300)}`);
  const cookie = `inkpass_session=${token}`;
  const page = await server.request('/', { site: opts.site, headers: { cookie } });
  const data = /<script type="application\/json" id="page-user-data">([\s\S]*?)<\/script>/.exec(page.text)?.[1];
  const id = data ? (JSON.parse(data) as { id?: number } | null)?.id : undefined;
  if (typeof id !== 'number') throw new Error('the signed-up reader does not appear in the page user data');
  return { id, email, password, name, token, cookie };
}

/**
 * A new reader (signed up as createReader does) holding these staff capabilities, granted as
 * `npm run user -- grant-role` grants them (the command line as the actor, with its audit record).
 */
export async function createStaff(server: ServerClient, ...capabilities: ('content' | 'pricing' | 'support' | 'money' | 'moderation' | 'admin')[]): Promise<Reader> {
  const r = await createReader(server);
  await withDb(server, async (db) => {
    const { changeCapability } = await import('~/features/accounts/index.server');
    for (const capability of capabilities) await changeCapability(db, { email: r.email, capability, change: 'grant', actor: { userId: null, capability: 'admin', ip: null, userAgent: null } });
  });
  return r;
}

/** Forgets a reader's route limits (src/server/routes.ts), for a test that checks what comes after a burst the limiter cut. */
export async function forgetLimits(server: { databaseUrl: string }, reader: { id: number }): Promise<void> {
  await withDb(server, (db) => db.deleteFrom('rate_limits').where('bucket', 'like', `route:%:reader:${reader.id}`).execute());
}

// ---------------------------------------------------------------------------------------------
// The bot check, as a browser passes it

/**
 * A solved bot-check token, obtained as the browser's island does: the challenge from the server
 * (asked with the reader's session, so it counts against the reader's challenge limit, not the
 * test run's one address), its counter found here (fast at TEST_APP_CHECK_DIFFICULTY).
 */
export async function appCheckToken(server: ServerClient, reader: { cookie: string } | null, site: SiteName = 'en'): Promise<string> {
  const { solveAppCheck } = await import('../support/app-check');
  const { APP_CHECK_CHALLENGE_ENDPOINT } = await import('~/lib/paths');
  const ask = () => server.request(APP_CHECK_CHALLENGE_ENDPOINT, { site, headers: reader ? { cookie: reader.cookie } : {} });
  let res = await ask();
  // Tests that fire a hundred money calls at once need a hundred tokens: the challenge limit
  // itself is tested in app-check.test.ts, so here its counters are reset, as createReader does
  // (again while concurrent asks fill them up).
  for (let i = 0; res.status === 429 && i < 20; i++) {
    await withDb(server, (db) => db.deleteFrom('rate_limits').where('bucket', 'like', 'route:appCheck:%').execute());
    await new Promise((r) => setTimeout(r, Math.random() * 50));
    res = await ask();
  }
  if (res.status !== 200) throw new Error(`the challenge call answered ${res.status}: ${res.text.slice(0, 200)}`);
  return solveAppCheck(res.json());
}

/** The header a money call carries its token in (spread into a request's headers). */
export async function appCheckHeader(server: ServerClient, reader: { cookie: string } | null, site: SiteName = 'en'): Promise<Record<string, string>> {
  const { APP_CHECK_HEADER } = await import('~/lib/app-check');
  return { [APP_CHECK_HEADER.toLowerCase()]: await appCheckToken(server, reader, site) };
}

// ---------------------------------------------------------------------------------------------
// The project's commands, run as staff or cron would

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `npm run <script> -- …args` on a database (`env` adds settings); killed after `timeoutMs`. */
export function npmRun(databaseUrl: string, script: string, args: string[], env: Record<string, string> = {}, timeoutMs = 60_000): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['run', '--silent', script, '--', ...args], { cwd: ROOT, env: { ...process.env, DATABASE_URL: databaseUrl, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (c) => (stdout += String(c)));
    child.stderr!.on('data', (c) => (stderr += String(c)));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
