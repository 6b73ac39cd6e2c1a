/**
 * The money rows of `npm run bench`: unlocks per second through POST /api/redeem/ (distinct
 * readers, distinct chapters, 25 connections) on a fresh SQLite file and a fresh PostgreSQL
 * database with the demo catalogue, checked afterwards (every unlock answered 200, the ledger
 * audit holds); and readers' sessions for the signed-in series page row.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { createDb, type DB } from '~/server/db';
import { migrateToLatest } from '@db/migrate';
import { seedDemo } from '@db/seed/index';
import { createSession, createUser } from '~/features/accounts/index.server';
import { SESSION_COOKIE } from '~/features/accounts';
import { accessIn, pricingContext } from '~/features/catalog/index.server';
import { auditLedger, grantKeys } from '~/features/wallet/index.server';

const PG_ADMIN = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const READERS = 200;
const CHAPTERS = 20;
const CONNECTIONS = 25;

export interface BenchReader {
  id: number;
  cookie: string;
}

/** Readers with a session each and `keys` paid keys, created with the accounts and wallet doors. */
export async function makeReaders(db: DB, n: number, keys: number, tag: string): Promise<BenchReader[]> {
  const out: BenchReader[] = [];
  const now = Math.floor(Date.now() / 1000);
  for (let i = 0; i < n; i++) {
    const user = await createUser(db, { email: `bench-${tag}-${i}-${Date.now().toString(36)}@example.test`, displayName: `Bench ${i}`, password: 'bench-password-1' });
    if (!user) throw new Error('bench reader already exists');
    const session = await createSession(db, user.id, now);
    await grantKeys(db, { userId: user.id, keys, xtra: 0, reason: 'bench', key: `bench:${tag}:${user.id}`, now });
    out.push({ id: user.id, cookie: `${SESSION_COOKIE}=${session.token}` });
  }
  return out;
}

/** Paid chapters a reader with enough keys may unlock now (active series, no geoblocks). */
export async function unlockable(db: DB, n: number): Promise<string[]> {
  const t = Math.floor(Date.now() / 1000);
  const rows = await db.selectFrom('chapters').innerJoin('series', 'series.id', 'chapters.series_id').select(['chapters.e4pid'])
    .where('series.state', '=', 'ACTIVE').where('series.geoblocks', 'in', ['[]', '']).where('chapters.original_price', '>', 0)
    .where('chapters.released_at', '<=', t - 86400).where('chapters.sale_at', '<=', t - 86400).orderBy('chapters.id').limit(n * 20).execute();
  const rich = { owned: false, rentals: [], balances: { keys: 1e6, xtra: 0 }, dailyPassUsedAt: null, adsWatched: 0, subscription: null };
  const out: string[] = [];
  for (const r of rows) {
    const ctx = await pricingContext(db, r.e4pid, t);
    if (ctx && accessIn(ctx, rich, null, t).unlockMethods.keys.open) out.push(r.e4pid);
    if (out.length === n) break;
  }
  return out;
}

export function serve(port: number, databaseUrl: string, mediaDir: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['scripts/serve.mjs'], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: databaseUrl, MEDIA_DIR: mediaDir, NODE_ENV: 'production', PAGE_CACHE_MB: '0', WARMUP: '0', WORKERS: '1' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => { if (d.toString().includes('serving')) resolve(child); });
    child.on('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
}

export async function scratchDatabase(dialect: 'sqlite' | 'postgres'): Promise<{ url: string; drop: () => Promise<void> }> {
  if (dialect === 'sqlite') {
    const file = path.resolve('data/bench-keys.db');
    for (const f of [file, `${file}-wal`, `${file}-shm`]) fs.rmSync(f, { force: true });
    return { url: `file:${file}`, drop: async () => { for (const f of [file, `${file}-wal`, `${file}-shm`]) fs.rmSync(f, { force: true }); } };
  }
  const name = 'inkpass_bench_keys';
  const admin = async (q: string) => {
    const c = new pg.Client({ connectionString: PG_ADMIN });
    await c.connect();
    try { await c.query(q); } finally { await c.end(); }
  };
  await admin(`drop database if exists ${name} with (force)`);
  await admin(`create database ${name}`);
  const url = new URL(PG_ADMIN);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`drop database if exists ${name} with (force)`) };
}

/**
 * An autocannon run of a fixed number of requests, timed from its start to its last response:
 * autocannon stops on its one-second tick, so its own duration rounds a run up to whole seconds
 * (4,000 unlocks in 5.2 s read as 6.0 s, 665 unlocks/s instead of 770).
 */
// The module is untyped here (bench/autocannon.d.ts).
export async function timedRun(opts: Record<string, unknown>): Promise<{ result: any; seconds: number }> {
  const run = autocannon(opts);
  let first = 0;
  let last = 0;
  run.on('start', () => (first = performance.now()));
  run.on('response', () => (last = performance.now()));
  const result = await run;
  return { result, seconds: Math.max(0.001, (last - first) / 1000) };
}

/** Unlocks per second on one dialect; every unlock must answer 200 and the audit must hold. */
export async function benchUnlocks(dialect: 'sqlite' | 'postgres', port: number, mediaDir: string) {
  const scratch = await scratchDatabase(dialect);
  const { db } = await createDb(scratch.url);
  let server: ChildProcess | null = null;
  try {
    await migrateToLatest(db);
    await seedDemo(db, { mediaDir, log: () => {} });
    const readers = await makeReaders(db, READERS, 1_000_000, dialect);
    const chapters = await unlockable(db, CHAPTERS);
    server = await serve(port, scratch.url, mediaDir);
    // Every (reader, chapter) pair once: each request is a real unlock, none a repeat.
    let next = 0;
    const total = readers.length * chapters.length;
    const { result, seconds } = await timedRun({
      url: `http://127.0.0.1:${port}`,
      connections: CONNECTIONS,
      amount: total,
      headers: { host: `localhost:${port}`, origin: `http://localhost:${port}`, 'content-type': 'application/x-www-form-urlencoded' },
      requests: [{
        method: 'POST',
        setupRequest: (req: any) => {
          const i = next++;
          const reader = readers[i % readers.length]!;
          const chapter = chapters[Math.floor(i / readers.length) % chapters.length]!;
          return { ...req, path: '/api/redeem/', headers: { ...req.headers, cookie: reader.cookie }, body: `content=${chapter}` };
        },
      }],
    });
    const owned = await db.selectFrom('chapter_unlocks').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
    const findings = await auditLedger(db);
    const row = {
      name: `unlock (POST /api/redeem/), ${dialect}`,
      rps: Math.round(Number(owned?.n ?? 0) / seconds),
      p50: result.latency.p50,
      p99: result.latency.p99,
      errors: result.errors + result.non2xx + (Number(owned?.n ?? 0) === total ? 0 : 1) + findings.length,
    };
    console.log(`${row.name.padEnd(34)} ${String(row.rps).padStart(6)} unlocks/s   p50 ${String(row.p50).padStart(4)} ms   p99 ${String(row.p99).padStart(4)} ms   errors ${row.errors}   (${total} unlocks, audit ${findings.length ? 'FAILED' : 'ok'})`);
    return row;
  } finally {
    server?.kill('SIGTERM');
    await db.destroy();
    await scratch.drop();
  }
}
