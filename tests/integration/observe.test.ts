/**
 * Logs, metrics and health (issue 29, docs/operations.md "Logs, metrics and health"), on both
 * databases, against one server of this file's own (LOG_LEVEL=info, METRICS_TOKEN set, the page
 * cache on) whose database can be taken away and given back: on PostgreSQL it reaches the
 * shared test database through a TCP proxy this test closes and reopens; on SQLite it runs on a
 * copy of the shared database whose file is moved away and back (a file no longer at its path
 * is a database a restart would not find).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appCheckHeader, createReader, leakIn, selectedDialects, startExtraServer, useServer, withDb, type Reader, type ServerHandle, type TestResponse } from './harness';

const TOKEN = crypto.randomBytes(24).toString('hex');
const now = () => Math.floor(Date.now() / 1000);

/** A TCP proxy to 127.0.0.1:`target` that can be closed (every connection cut) and reopened on the same port. */
function tcpProxy(target: number) {
  const sockets = new Set<net.Socket>();
  let server: net.Server | null = null;
  let port = 0;
  return {
    get port() { return port; },
    start: () => new Promise<void>((resolve, reject) => {
      server = net.createServer((client) => {
        const upstream = net.connect(target, '127.0.0.1');
        sockets.add(client).add(upstream);
        const end = () => { client.destroy(); upstream.destroy(); sockets.delete(client); sockets.delete(upstream); };
        client.on('error', end).on('close', end);
        upstream.on('error', end).on('close', end);
        client.pipe(upstream).pipe(client);
      });
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        port = (server!.address() as net.AddressInfo).port;
        resolve();
      });
    }),
    stop: () => new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      sockets.clear();
      if (!server) return resolve();
      server.close(() => resolve());
      server = null;
    }),
  };
}

interface LogLine { level: string; msg: string; req_id?: string; route?: string; status?: number; ms?: number; reader?: string; cache?: string; method?: string; [k: string]: unknown }

/** The JSON lines the server wrote so far. */
function logLines(server: ServerHandle): LogLine[] {
  return server.output().split('\n').filter((l) => l.startsWith('{')).flatMap((l) => {
    try { return [JSON.parse(l) as LogLine]; } catch { return []; }
  });
}

/** The request line of a response (pino writes asynchronously: waits a little for it). */
async function requestLine(server: ServerHandle, res: TestResponse): Promise<LogLine> {
  const id = res.headers['x-request-id'];
  expect(id).toMatch(/^[A-Za-z0-9_-]{8,64}$/);
  for (let i = 0; i < 50; i++) {
    const line = logLines(server).find((l) => l.msg === 'request' && l.req_id === id);
    if (line) return line;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no request line for ${id} in:\n${server.output().slice(-3000)}`);
}

/**
 * Prometheus' text format, line by line, strictly: HELP and TYPE comments, and samples
 * `name{label="value",…} number`. Answers the samples.
 */
function parsePrometheus(text: string): { name: string; labels: Record<string, string>; value: number }[] {
  const NAME = '[a-zA-Z_:][a-zA-Z0-9_:]*';
  const LABEL = `[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\\\\n]|\\\\["\\\\n])*"`;
  const sample = new RegExp(`^(${NAME})(?:\\{((?:${LABEL})(?:,${LABEL})*)?,?\\})? (-?(?:\\d+(?:\\.\\d+)?(?:e[+-]?\\d+)?|\\+?Inf|-Inf|NaN))(?: -?\\d+)?$`);
  const typed = new Map<string, string>();
  const out: { name: string; labels: Record<string, string>; value: number }[] = [];
  expect(text.endsWith('\n')).toBe(true);
  for (const line of text.slice(0, -1).split('\n')) {
    if (line === '') continue;
    const help = new RegExp(`^# HELP (${NAME}) .*$`).exec(line);
    if (help) continue;
    const type = new RegExp(`^# TYPE (${NAME}) (counter|gauge|histogram|summary|untyped)$`).exec(line);
    if (type) {
      expect(typed.has(type[1]!), `TYPE twice for ${type[1]}`).toBe(false);
      typed.set(type[1]!, type[2]!);
      continue;
    }
    const m = sample.exec(line);
    expect(m, `not a Prometheus sample line: ${line}`).not.toBeNull();
    const labels: Record<string, string> = {};
    for (const l of (m![2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[l[1]!] = l[2]!.replace(/\\(.)/g, (_x, c: string) => (c === 'n' ? '\n' : c));
    const name = m![1]!;
    const family = name.replace(/_(bucket|sum|count)$/, '');
    expect(typed.has(name) || typed.has(family), `a sample of ${name} without its TYPE`).toBe(true);
    out.push({ name, labels, value: Number(m![3]!.replace('+Inf', 'Infinity').replace('Inf', 'Infinity')) });
  }
  return out;
}

for (const dialect of selectedDialects()) {
  describe(`logs, metrics and health (${dialect})`, () => {
    const shared = useServer(dialect);
    let own: ServerHandle;
    let base: { dialect: typeof dialect; databaseUrl: string };
    let proxy: ReturnType<typeof tcpProxy> | null = null;
    let sqliteFile = '';
    let reader: Reader;
    let slug = '';

    beforeAll(async () => {
      let url: string;
      if (dialect === 'postgres') {
        proxy = tcpProxy(Number(new URL(shared.databaseUrl).port || 5432));
        await proxy.start();
        const proxied = new URL(shared.databaseUrl);
        proxied.port = String(proxy.port);
        url = proxied.toString();
        base = { dialect, databaseUrl: shared.databaseUrl };
      } else {
        sqliteFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'inkpass-observe-')), 'copy.db');
        await withDb(shared, async (db) => {
          const { sql } = await import('kysely');
          await sql`vacuum into ${sqliteFile}`.execute(db);
        });
        url = `file:${sqliteFile}`;
        base = { dialect, databaseUrl: url };
      }
      // A clean audit recorded before the first scrape (the figures are then kept 15 s).
      await withDb(base, async (db) => (await import('~/features/wallet/index.server')).recordAudit(db, [], now() - 60));
      own = await startExtraServer(base, { DATABASE_URL: url, LOG_LEVEL: 'info', METRICS_TOKEN: TOKEN, PAGE_CACHE_MB: '16' });
      reader = await createReader(own);
      slug = await withDb(base, async (db) => (await db.selectFrom('series').select('slug').where('state', '=', 'ACTIVE').orderBy('id').limit(1).executeTakeFirstOrThrow()).slug);
    }, 120_000);

    afterAll(async () => {
      await own?.stop();
      await proxy?.stop();
      if (sqliteFile) fs.rmSync(path.dirname(sqliteFile), { recursive: true, force: true });
    });

    const metrics = async () => {
      const res = await own.request('/metrics', { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
      expect(res.headers['cache-control']).toBe('no-store');
      return parsePrometheus(res.text);
    };
    const value = (samples: ReturnType<typeof parsePrometheus>, name: string, labels: Record<string, string> = {}) =>
      samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v)).reduce((sum, s) => sum + s.value, 0);

    it('writes one JSON line per request: its id, the route pattern, status, duration and a keyed hash of the reader, and no secrets', { timeout: 60_000 }, async () => {
      const secretQuery = `token=${crypto.randomBytes(8).toString('hex')}`;
      const page = await own.request(`/comics/${slug}/?${secretQuery}`, { headers: { cookie: reader.cookie } });
      expect(page.status).toBe(200);
      const line = await requestLine(own, page);
      expect(line).toMatchObject({ level: 'info', method: 'GET', route: '/comics/[slug]', status: 200 });
      expect(typeof line.ms).toBe('number');
      expect(line.ms).toBeGreaterThanOrEqual(0);
      expect(line.reader).toMatch(/^[A-Za-z0-9_-]{16}$/);
      // Keyed: neither the id nor a plain hash of it, which anyone could compute from a list of ids.
      expect(line.reader).not.toBe(String(reader.id));
      expect(line.reader).not.toBe(crypto.createHash('sha256').update(String(reader.id)).digest('base64url').slice(0, 16));
      expect(line.reader).not.toBe(crypto.createHash('sha256').update(String(reader.id)).digest('hex').slice(0, 16));
      // Stable for one reader, another for another.
      const again = await requestLine(own, await own.request('/my/favorites/', { headers: { cookie: reader.cookie } }));
      expect(again).toMatchObject({ route: '/my/favorites', status: 200, reader: line.reader });
      const other = await createReader(own);
      const theirs = await requestLine(own, await own.request(`/comics/${slug}/`, { headers: { cookie: other.cookie } }));
      expect(theirs.reader).toMatch(/^[A-Za-z0-9_-]{16}$/);
      expect(theirs.reader).not.toBe(line.reader);

      // Anonymous: no reader; the second copy comes from the page cache and still names its route.
      const anon = () => own.request(`/comics/${slug}/`, { headers: { 'accept-encoding': 'br' } });
      const first = await requestLine(own, await anon());
      expect(first).toMatchObject({ route: '/comics/[slug]', status: 200, cache: 'MISS' });
      expect(first.reader).toBeUndefined();
      const cached = await anon();
      expect(cached.headers['x-cache']).toBe('HIT');
      expect(await requestLine(own, cached)).toMatchObject({ route: '/comics/[slug]', status: 200, cache: 'HIT' });

      // Static files, unknown pages and edge refusals have a pattern too.
      const favicon = await own.request('/favicon.svg');
      expect(favicon.status).toBe(200);
      expect(await requestLine(own, favicon)).toMatchObject({ route: 'static', status: 200 });
      const missing = await own.request(`/nothing-here-${crypto.randomBytes(4).toString('hex')}/`);
      expect(missing.status).toBe(404);
      expect(await requestLine(own, missing)).toMatchObject({ route: '/404', status: 404 });
      const malformed = await own.request('/comics/%E0%A4%A/');
      expect(malformed.status).toBe(400);
      expect(await requestLine(own, malformed)).toMatchObject({ route: 'refused', status: 400 });

      const output = own.output();
      for (const secret of [secretQuery, reader.token, other.token, reader.email, reader.token.split('.')[1]!]) expect(output).not.toContain(secret);
      expect(logLines(own).map((l) => JSON.stringify(l)).join('\n')).not.toMatch(/inkpass_session|cookie|"url"|token=/i);
    });

    it('serves /metrics only with the token, as Prometheus text that counts requests, unlocks and refusals', { timeout: 90_000 }, async () => {
      // Without the token, or with another, /metrics is the site's own 404 page.
      for (const headers of [{} as Record<string, string>, { authorization: `Bearer ${TOKEN.slice(0, -1)}x` }, { authorization: `Basic ${TOKEN}` }, { authorization: TOKEN }]) {
        for (const p of ['/metrics', '/metrics/']) {
          const res = await own.request(p, { headers });
          expect(res.status, `${p} ${JSON.stringify(headers)}`).toBe(404);
          expect(res.headers['content-type']).toMatch(/^text\/html/);
          expect(res.text).not.toContain('inkpass_');
        }
      }
      // The shared server has no METRICS_TOKEN: no token opens it.
      expect((await shared.request('/metrics', { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(404);

      const before = await metrics();
      const series = { name: 'inkpass_http_request_duration_seconds_count', labels: { route: '/comics/[slug]', status_class: '2xx' } };
      expect((await own.request(`/comics/${slug}/`, { headers: { cookie: reader.cookie } })).status).toBe(200);

      // An unlock with keys.
      await withDb(base, async (db) => {
        const { grantKeys } = await import('~/features/wallet/index.server');
        await grantKeys(db, { userId: reader.id, keys: 500, xtra: 0, reason: 'test', key: `observe:${reader.id}`, now: now() });
      });
      const chapter = await withDb(base, async (db) => {
        const { pricingContext, accessIn } = await import('~/features/catalog/index.server');
        const t = now();
        const rows = await db.selectFrom('chapters').innerJoin('series', 'series.id', 'chapters.series_id').select(['chapters.e4pid'])
          .where('series.state', '=', 'ACTIVE').where('series.geoblocks', 'in', ['[]', '']).where('chapters.original_price', '>', 0)
          .where('chapters.released_at', '<=', t - 86400).where('chapters.sale_at', '<=', t - 86400).orderBy('chapters.id').limit(200).execute();
        const rich = { owned: false, rentals: [], balances: { keys: 500, xtra: 0 }, dailyPassUsedAt: null, adsWatched: 0, subscription: null };
        for (const r of rows) {
          const ctx = await pricingContext(db, r.e4pid, t);
          if (ctx && accessIn(ctx, rich, null, t).unlockMethods.keys.open) return r.e4pid;
        }
        throw new Error('no chapter to unlock with keys');
      });
      const unlock = await own.request('/api/redeem/', {
        method: 'POST',
        body: new URLSearchParams({ content: chapter }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: own.origin(), cookie: reader.cookie, ...(await appCheckHeader(own, reader)) },
      });
      expect(unlock.status, unlock.text).toBe(200);

      // A refusal by the limiter: the reader's library limit, already used up.
      const { LIMITS } = await import('~/server/rate-limit');
      await withDb(base, (db) => db.insertInto('rate_limits').values({ bucket: `route:library:reader:${reader.id}`, window_start: now(), count: LIMITS.library.max })
        .onConflict((oc) => oc.column('bucket').doUpdateSet({ window_start: now(), count: LIMITS.library.max })).execute());
      const refused = await own.request(`/api/favorites/${slug}/`, { method: 'POST', headers: { origin: own.origin(), cookie: reader.cookie } });
      expect(refused.status).toBe(429);
      // And the sign-in form's own limit, per email.
      const email = `limited-${crypto.randomBytes(4).toString('hex')}@inkpass.test`;
      await withDb(base, (db) => db.insertInto('rate_limits').values({ bucket: `login:email:${email}`, window_start: now(), count: LIMITS.loginPerEmail.max }).execute());
      const login = await own.request('/auth/login/', {
        method: 'POST', body: new URLSearchParams({ email, password: 'not-the-password' }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: own.origin() },
      });
      expect(login.status).toBe(429);

      const after = await metrics();
      expect(value(after, series.name, series.labels)).toBe(value(before, series.name, series.labels) + 1);
      expect(value(after, 'inkpass_http_request_duration_seconds_bucket', { ...series.labels, le: '+Inf' })).toBe(value(after, series.name, series.labels));
      expect(value(after, 'inkpass_unlocks_total', { way: 'keys' })).toBe(value(before, 'inkpass_unlocks_total', { way: 'keys' }) + 1);
      expect(value(after, 'inkpass_rate_limit_refusals_total', { limit: 'library' })).toBe(value(before, 'inkpass_rate_limit_refusals_total', { limit: 'library' }) + 1);
      expect(value(after, 'inkpass_rate_limit_refusals_total', { limit: 'login' })).toBe(value(before, 'inkpass_rate_limit_refusals_total', { limit: 'login' }) + 1);
      // The page cache's answers (the first test made a miss and a hit).
      expect(value(after, 'inkpass_page_cache_requests_total', { result: 'hit' })).toBeGreaterThanOrEqual(1);
      expect(value(after, 'inkpass_page_cache_requests_total', { result: 'miss' })).toBeGreaterThanOrEqual(1);
      // What the database says, the pool, the event loop and memory.
      expect(value(after, 'inkpass_db_figures_up')).toBe(1);
      expect(after.filter((s) => s.name === 'inkpass_orders').map((s) => s.labels.state).sort()).toEqual(['EXPIRED', 'FAILED', 'PAID', 'PARTIALLY_REFUNDED', 'PENDING', 'REFUNDED']);
      expect(after.some((s) => s.name === 'inkpass_oldest_pending_payment_age_seconds' && s.labels.kind === 'order')).toBe(true);
      expect(after.some((s) => s.name === 'inkpass_renewals_overdue')).toBe(true);
      expect(value(after, 'inkpass_ledger_audit_last_run_timestamp_seconds')).toBeGreaterThanOrEqual(now() - 600);
      expect(value(after, 'inkpass_ledger_audit_failed_rules')).toBe(0);
      expect(value(after, 'inkpass_db_pool_connections', { state: 'total' })).toBeGreaterThanOrEqual(1);
      expect(after.some((s) => s.name === 'nodejs_eventloop_lag_seconds')).toBe(true);
      expect(value(after, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    });

    it('answers /healthz while up and /readyz 503 while the database is gone, 200 once it is back, logging neither', { timeout: 90_000 }, async () => {
      const health = await own.request('/healthz');
      expect(health).toMatchObject({ status: 200, text: 'ok\n' });
      expect(health.headers['cache-control']).toBe('no-store');
      const ready = await own.request('/readyz');
      expect(ready).toMatchObject({ status: 200, text: 'ready\n' });
      expect(ready.headers['cache-control']).toBe('no-store');
      const until = async (status: number) => {
        let res: TestResponse | undefined;
        for (let i = 0; i < 60; i++) {
          res = await own.request('/readyz/');
          if (res.status === status) return res;
          await new Promise((r) => setTimeout(r, 250));
        }
        throw new Error(`/readyz stayed ${res?.status}: ${res?.text}`);
      };
      const quiet: string[] = [health.headers['x-request-id']!, ready.headers['x-request-id']!];

      if (proxy) await proxy.stop();
      else fs.renameSync(sqliteFile, `${sqliteFile}.away`);
      try {
        const down = await until(503);
        expect(down.text).toBe('not ready: database unavailable\n');
        expect(down.headers['cache-control']).toBe('no-store');
        expect(leakIn(down.text)).toBeNull();
        const stillUp = await own.request('/healthz/');
        expect(stillUp.status).toBe(200);
        quiet.push(down.headers['x-request-id']!, stillUp.headers['x-request-id']!);
      } finally {
        if (proxy) await proxy.start();
        else fs.renameSync(`${sqliteFile}.away`, sqliteFile);
      }
      const back = await until(200);
      expect(back.text).toBe('ready\n');
      quiet.push(back.headers['x-request-id']!);
      quiet.push((await own.request('/metrics', { headers: { authorization: `Bearer ${TOKEN}` } })).headers['x-request-id']!);
      // A request after them all has its line, so theirs would have been written by now.
      await requestLine(own, await own.request('/favicon.svg'));
      const lines = logLines(own);
      for (const id of quiet) expect(lines.find((l) => l.req_id === id)).toBeUndefined();
      expect(lines.filter((l) => /healthz|readyz|metrics/.test(String(l.route)))).toEqual([]);
    });
  });
}
