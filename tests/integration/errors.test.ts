import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, preparedDatabase, startExtraServer, withDb, type ServerHandle } from './harness';
import { startSentryReceiver, type SentryReceiver } from '../support/sentry-receiver';

/**
 * Error reporting (spec sections 7-9, docs/operations.md "Error reporting"): one server that
 * reports to a local Sentry stand-in (tests/support/sentry-receiver.ts), one without a DSN, both
 * on a SQLite database whose short-link table was dropped, so that a share link (/l/{code}/)
 * fails in the route: a test-only breakage, no route of the app throws on purpose.
 */
const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
// Personal data a request or a report may carry; none of it may reach the receiver.
const SECRETS = {
  email: 'reader.secret@example.com',
  session: 'sessionvalue0123456789abcdef',
  bearer: 'bearertoken-9f8e7d6c5b4a',
  sig: 'signature0abc123def456',
  token: 'apptoken-77aa88bb99cc',
  cpf: '123.456.789-09',
  cpfBare: '12345678909',
  cnpj: '12.345.678/0001-95',
  card: '4111 1111 1111 1111',
  ip: '203.0.113.77',
};
const leaked = (text: string) => Object.entries(SECRETS).filter(([, v]) => text.includes(v)).map(([k]) => k);

let receiver: SentryReceiver;
let db: { url: string; drop(): Promise<void> };
let server: ServerHandle & { kill(signal: NodeJS.Signals): Promise<void> };
let ip = 0;
/** Each call from its own address (the server trusts the proxy header), so the tunnel's per-client limit is not what a test meets. */
const from = () => ({ 'x-forwarded-for': `10.77.${(++ip >> 8) & 255}.${ip & 255}` });
const release = `1.0.0+${fs.readFileSync(path.join(ROOT, 'dist/server/build-hash.txt'), 'utf8').trim()}`;

function tunnel(target: ServerHandle, body: unknown, headers: Record<string, string> = {}) {
  return target.request('/api/errors/', {
    method: 'POST',
    body: typeof body === 'string' ? body : JSON.stringify(body),
    headers: { origin: target.origin(), 'content-type': 'text/plain;charset=UTF-8', 'user-agent': CHROME, ...from(), ...headers },
  });
}
/** A share link: fails in the route on this database, with personal data in its URL and headers. */
function failingRoute(target: ServerHandle) {
  return target.request(`/l/brokenShareLink1/?email=${SECRETS.email}&token=${SECRETS.token}&sig=${SECRETS.sig}&cpf=${SECRETS.cpfBare}`, {
    headers: { cookie: `inkpass_session=${SECRETS.session}`, authorization: `Bearer ${SECRETS.bearer}`, 'user-agent': CHROME, ...from() },
  });
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  receiver = await startSentryReceiver();
  db = await preparedDatabase('sqlite', {});
  await withDb({ databaseUrl: db.url }, (k) => sql`DROP TABLE short_links`.execute(k));
  server = await startExtraServer({ dialect: 'sqlite', databaseUrl: db.url }, { SENTRY_DSN: receiver.dsn, TRUST_PROXY: '1' });
}, 300_000);
afterAll(async () => {
  await server?.stop();
  await receiver?.close();
  await db?.drop();
});

describe('error reporting with SENTRY_DSN', () => {
  it('sends an error thrown in a route with its release, environment and request id, scrubbed', async () => {
    const res = await failingRoute(server);
    expect(res.status).toBe(500);
    const id = res.headers['x-request-id'];
    expect(id).toMatch(/^[A-Za-z0-9_-]{12}$/);
    await receiver.waitFor(() => receiver.events().some((e) => e.tags?.request_id === id));
    const events = receiver.events().filter((e) => e.tags?.request_id === id);
    expect(events).toHaveLength(1);
    const event = events[0]!;
    expect(event).toMatchObject({ release, environment: 'demo', level: 'error', tags: { request_id: id, source: 'server', route: '/l/:id/' } });
    expect(JSON.stringify(event.exception)).toContain('short_links');
    expect(event.request.url).toMatch(/\/l\/brokenShareLink1\/\?email=\[Filtered\]&token=\[Filtered\]&sig=\[Filtered\]/);
    expect(event.user).toBeUndefined();
    expect(leaked(receiver.rawText())).toEqual([]);
  });

  it('takes browser errors through /api/errors/, scrubbed, leaving out the ignore list and crawlers', async () => {
    receiver.clear();
    const page = `${server.origin()}/read/some-chapter/?exp=1900000000&sig=${SECRETS.sig}&token=${SECRETS.token}`;
    const personal = `TypeError: cannot pay for ${SECRETS.email}, card ${SECRETS.card}, CPF ${SECRETS.cpf} (${SECRETS.cpfBare}), CNPJ ${SECRETS.cnpj}, from ${SECRETS.ip}, Bearer ${SECRETS.bearer}`;
    const ignored = [
      'AbortError: The user aborted a request.', 'Request cancelled', 'Failed to fetch', 'NetworkError when attempting to fetch resource.', 'Load failed',
      'Error: 429 Too Many Requests', 'QuotaExceededError: The quota has been exceeded.', 'UnknownError: Connection to Indexed Database server lost',
      'Error: altcha verification failed', 'turnstile: widget error', 'Error: instantsearch bridge not ready', 'Error: Adult Content blocked',
      "TypeError: Cannot read properties of null (reading 'document')", 'Redeem failed: HTTP 403 (X-App-Check-Refused: used): Expired check',
    ];
    expect(ignored.length).toBeGreaterThan(8);
    const batches = [ignored.slice(0, 7), ignored.slice(7)].map((ms) => ms.map((m) => ({ t: 'e', m, u: page })));
    for (const b of batches) expect((await tunnel(server, b)).status).toBe(202);
    // A crawler's report: 202, and dropped.
    expect((await tunnel(server, [{ t: 'e', m: 'Error: from a crawler', u: page }], { 'user-agent': 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' })).status).toBe(202);
    const kept = await tunnel(server, [
      { t: 'e', m: personal, s: `TypeError: cannot pay\n    at pay (${server.origin()}/_astro/pay.js:1:200)`, u: page, f: `${server.origin()}/_astro/pay.js` },
      { t: 'c', m: 'Failed to fetch dynamically imported module: /_astro/old.js', u: page },
    ]);
    expect(kept.status).toBe(202);
    const tunnelId = kept.headers['x-request-id'];
    await receiver.waitFor(() => receiver.events().length >= 2);
    await sleep(500);
    const events = receiver.events();
    expect(events.map((e) => e.exception.values[0].type).sort()).toEqual(['ChunkLoadError', 'TypeError']);
    for (const e of events) expect(e).toMatchObject({ release, environment: 'demo', platform: 'javascript', tags: { source: 'browser', request_id: tunnelId } });
    const typeError = events.find((e) => e.exception.values[0].type === 'TypeError')!;
    expect(typeError.exception.values[0].value).toBe('TypeError: cannot pay for [email], card [number], CPF [tax-id] ([tax-id]), CNPJ [tax-id], from [ip], Bearer [Filtered]');
    expect(typeError.request.url).toBe(`${server.origin()}/read/some-chapter/?exp=[Filtered]&sig=[Filtered]&token=[Filtered]`);
    expect(typeError.request.headers).toEqual({ 'User-Agent': CHROME });
    const raw = receiver.rawText();
    expect(leaked(raw)).toEqual([]);
    // Only the two kept events arrived (the chunk-load failure says "Failed to fetch" too, and is no noise).
    for (const m of ['from a crawler', 'aborted', 'cancelled', 'NetworkError', 'Load failed', 'Too Many', 'quota', 'Indexed Database', 'altcha', 'turnstile', 'instantsearch', 'Adult Content', "reading 'document'", 'X-App-Check-Refused']) {
      expect(raw).not.toContain(m);
    }
  });

  it('refuses what is not a report: garbage 400, too large 413, another origin 403, nothing forwarded', async () => {
    receiver.clear();
    expect((await tunnel(server, 'not json')).status).toBe(400);
    expect((await tunnel(server, { t: 'e', m: 'an object, not a list' })).status).toBe(400);
    expect((await tunnel(server, [{ t: 'x', m: 'unknown kind' }])).status).toBe(400);
    expect((await tunnel(server, Array.from({ length: 11 }, () => ({ t: 'e', m: 'eleven' })))).status).toBe(400);
    expect((await tunnel(server, [{ t: 'e', m: 'x'.repeat(17_000) }])).status).toBe(413);
    expect((await tunnel(server, [{ t: 'e', m: 'Error: cross-site' }], { origin: 'https://evil.example' })).status).toBe(403);
    await sleep(500);
    expect(receiver.events()).toEqual([]);
  });

  it('samples one request in ten as a transaction: over 1,000 requests, 10 % ± 3', async () => {
    await sleep(300);
    receiver.clear();
    const paths = ['/favicon.svg', '/robots.txt'];
    let done = 0;
    await Promise.all(Array.from({ length: 4 }, async () => {
      while (done < 1000) {
        done++;
        const res = await server.request(paths[done % 2]!);
        expect(res.status).toBe(200);
      }
    }));
    // Let the last transactions arrive: the count settles.
    let last = -1;
    while (receiver.transactions().length !== last) {
      last = receiver.transactions().length;
      await sleep(700);
    }
    const transactions = receiver.transactions();
    expect(transactions.length).toBeGreaterThanOrEqual(70);
    expect(transactions.length).toBeLessThanOrEqual(130);
    expect(transactions[0]).toMatchObject({ type: 'transaction', release, environment: 'demo', contexts: { trace: { op: 'http.server' } } });
    expect(transactions.map((t) => t.transaction)).toEqual(expect.arrayContaining(['GET /favicon.svg']));
    expect(transactions.every((t) => /^[A-Za-z0-9_-]{12}$/.test(t.tags?.request_id))).toBe(true);
    // One trace each: the sampling decision is per request.
    expect(new Set(transactions.map((t) => t.contexts.trace.trace_id)).size).toBe(transactions.length);
  }, 120_000);

  it('leaves a receiver that answered 429 alone for its Retry-After (60 s without one: the unit test)', async () => {
    // The test before sends about a hundred transactions: wait until the last straggler has
    // arrived (none for 700 ms) before counting from zero, or it lands inside this window.
    for (let seen = -1; receiver.envelopes.length !== seen;) {
      seen = receiver.envelopes.length;
      await sleep(700);
    }
    receiver.clear();
    receiver.refuse(1, { 'Retry-After': '8' });
    const refusedAt = Date.now();
    expect((await failingRoute(server)).status).toBe(500);
    await receiver.waitFor(() => receiver.envelopes.length >= 1);
    expect(receiver.envelopes[0]!.status).toBe(429);
    // The receiver keeps an envelope before it answers: let the server read the 429 first.
    await sleep(200);
    // Envelopes already on their way when the 429 came back (a straggler of the test before, sent
    // beside this one on a loaded run) arrive anyway; the window counts from them.
    const inFlight = receiver.envelopes.length;
    // Within the window: errors and requests, and nothing reaches the receiver.
    for (let i = 0; i < 3; i++) expect((await failingRoute(server)).status).toBe(500);
    for (let i = 0; i < 20; i++) await server.request('/favicon.svg');
    expect((await tunnel(server, [{ t: 'e', m: 'TypeError: inside the window' }])).status).toBe(202);
    // A slow machine must still have made them inside the 8 s, or the check below proves nothing.
    expect(Date.now() - refusedAt).toBeLessThan(6_500);
    await sleep(Math.max(0, refusedAt + 7_000 - Date.now()));
    expect(receiver.envelopes).toHaveLength(inFlight);
    // After it: sent again.
    await sleep(Math.max(0, refusedAt + 8_500 - Date.now()));
    const after = await failingRoute(server);
    await receiver.waitFor(() => receiver.events().some((e) => e.tags?.request_id === after.headers['x-request-id']));
    expect(receiver.events().map((e) => e.exception.values[0].value)).not.toContain('TypeError: inside the window');
  }, 30_000);

  it('costs at most 1 KB on the first load: the inline handler, first in the head, and a hidden banner', async () => {
    const html = (await server.request('/about/', { headers: { 'user-agent': CHROME } })).text;
    const script = /<head>.*?<script>(.*?)<\/script>/s.exec(html)?.[1] ?? '';
    expect(script).toContain("fetch('/api/errors/'");
    expect(Buffer.byteLength(script)).toBeLessThanOrEqual(1024);
    expect(html).toMatch(/<div id="chunk-error" class="chunk-error" hidden>/);
  });
});

describe('error reporting without SENTRY_DSN', () => {
  it('sends nothing, and writes one JSON line per error with its request id', async () => {
    const plain = await startExtraServer({ dialect: 'sqlite', databaseUrl: db.url }, { SENTRY_DSN: '', TRUST_PROXY: '1' });
    try {
      await sleep(300);
      receiver.clear();
      const res = await failingRoute(plain);
      expect(res.status).toBe(500);
      const id = res.headers['x-request-id'];
      const browser = await tunnel(plain, [{ t: 'e', m: `TypeError: broken for ${SECRETS.email}`, u: '/about/' }, { t: 'e', m: 'Failed to fetch' }]);
      expect(browser.status).toBe(202);
      await sleep(1000);
      const lines = plain.output().split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l));
      const route = lines.filter((l) => l.request_id === id);
      expect(route).toHaveLength(1);
      expect(route[0]).toMatchObject({ level: 'error', msg: 'route error', source: 'server', release, environment: 'demo', route: '/l/:id/' });
      expect(route[0].error.message).toContain('short_links');
      const fromBrowser = lines.filter((l) => l.request_id === browser.headers['x-request-id']);
      expect(fromBrowser).toHaveLength(1);
      expect(fromBrowser[0]).toMatchObject({ msg: 'browser error', error: { type: 'TypeError', message: 'TypeError: broken for [email]' } });
      expect(leaked(plain.output())).toEqual([]);
      expect(receiver.envelopes).toEqual([]);
    } finally {
      await plain.stop();
    }
  }, 120_000);
});
