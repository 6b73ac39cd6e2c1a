/**
 * Web push (issue 32) over real HTTP and the push worker with an injected clock, on both
 * dialects, against a local stand-in of a push service (a node http server on a free port that
 * records each request and answers what the test says: 201, 404, 410, 500). The server accepts
 * the stand-in's endpoint because the test servers run with PUSH_ENDPOINT_HOSTS=127.0.0.1; any
 * other endpoint a browser could give (cloud metadata, another host) is refused with 422.
 *
 * Pushes are queued a year ahead (the fan-out and notifyReader run here with that clock), so the
 * server's own worker (real clock) never takes them; this test sends them with
 * `deliverDuePushes(db, now)` at chosen hours: noon UTC (awake) and 23:00 UTC (quiet by default).
 */
import crypto from 'node:crypto';
import http from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createReader, selectedDialects, useServer, withDb, type Reader } from './harness';
import { DEMO } from '@db/seed/index';

const ece = createRequire(import.meta.url)('http_ece') as { decrypt(buffer: Buffer, params: Record<string, unknown>): Buffer };

interface Recorded { path: string; headers: http.IncomingHttpHeaders; body: Buffer }

/** The push service stand-in: records every request; `answer` sets the status per path (201 otherwise). */
async function standIn() {
  const got: Recorded[] = [];
  const answer = new Map<string, number>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      got.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) });
      res.writeHead(answer.get(req.url ?? '') ?? 201).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return { got, answer, url: (path: string) => `http://127.0.0.1:${port}${path}`, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/** A browser's side of a subscription: a P-256 key pair and a 16-byte auth secret. */
function browserKeys() {
  const ecdh = crypto.createECDH('prime256v1');
  ecdh.generateKeys();
  const auth = crypto.randomBytes(16);
  return { ecdh, auth, keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') } };
}

for (const dialect of selectedDialects()) {
  describe(`web push (${dialect})`, () => {
    const server = useServer(dialect);
    let push: Awaited<ReturnType<typeof standIn>>;
    let a: Reader, b: Reader, d: Reader;
    let seriesId = 0;
    const tag = `psh${Date.now().toString(36)}${dialect}`;
    const realNow = Math.floor(Date.now() / 1000);
    // Noon UTC on a day a year ahead: awake for a UTC subscription; DAY + 11 h is 23:00 UTC, quiet.
    const DAY = Math.floor((realNow + 365 * 86_400) / 86_400) * 86_400;
    const NOON = DAY + 12 * 3600;
    const headers = (cookie?: string, type = 'application/json') => ({ 'content-type': type, origin: server.origin(), 'sec-fetch-site': 'same-origin', ...(cookie ? { cookie } : {}) });
    const subscribe = (reader: Reader | null, body: unknown, raw?: string) =>
      server.request('/my/notifications/push/', { method: 'POST', body: raw ?? JSON.stringify(body), headers: headers(reader?.cookie) });
    const deliver = async (now: number) => {
      const { deliverDuePushes } = await import('~/features/notifications/index.server');
      return withDb(server, (db) => deliverDuePushes(db, now));
    };
    const money = async (reader: Reader, now: number) => {
      const { notifyReader } = await import('~/features/notifications/index.server');
      await withDb(server, (db) => notifyReader(db, reader.id, 'money', 'PAYMENT_PAID', { keys: 100 }, now));
    };
    const subs = (reader: Reader) => withDb(server, (db) => db.selectFrom('push_subscriptions').selectAll().where('user_id', '=', reader.id).orderBy('id').execute());
    const settings = (reader: Reader, on: string[]) => server.request('/my/notifications/settings/', {
      method: 'POST', body: new URLSearchParams(on.map((v) => ['on', v])).toString(), headers: headers(reader.cookie, 'application/x-www-form-urlencoded'),
    });
    let chapterNo = 7000;
    const release = (at: number) => withDb(server, async (db) => {
      const source = await db.selectFrom('chapters').selectAll().where('language', '=', 'en').limit(1).executeTakeFirstOrThrow();
      const { id: _c, ...copy } = source;
      const n = ++chapterNo;
      await db.insertInto('chapters').values({ ...copy, e4pid: `EPI-${tag}-${n}`, series_id: seriesId, language: 'en', number: n, title: `Secret twist ${n}`, released_at: at, sale_at: at, original_price: 0 }).execute();
      return n;
    });
    const fanOut = async (since: number, now: number) => {
      const { fanOutReleases } = await import('~/features/notifications/index.server');
      return withDb(server, (db) => fanOutReleases(db, since, now));
    };

    beforeAll(async () => {
      push = await standIn();
      [a, b, d] = await Promise.all([createReader(server, { name: 'Ana' }), createReader(server, { name: 'Bia' }), createReader(server, { name: 'Duda' })]);
      await withDb(server, async (db) => {
        const source = await db.selectFrom('series').selectAll().where('slug', '=', DEMO.decimal).executeTakeFirstOrThrow();
        const { id: _omit, ...copy } = source;
        const inserted = await db.insertInto('series').values({ ...copy, e4pid: `SER-${tag}`, slug: `push-${tag}`, state: 'ACTIVE', name: `Push ${tag}` }).returning('id').executeTakeFirstOrThrow();
        seriesId = Number(inserted.id);
        await db.insertInto('favorites').values({ user_id: a.id, series_id: seriesId, created_at: realNow, notify: 1 }).execute();
      });
    });

    afterAll(async () => {
      await withDb(server, async (db) => {
        await db.deleteFrom('push_outbox').where('user_id', 'in', [a.id, b.id, d.id]).execute();
        await db.deleteFrom('notifications').where('series_id', '=', seriesId).execute();
        await db.deleteFrom('favorites').where('series_id', '=', seriesId).execute();
        await db.deleteFrom('chapters').where('series_id', '=', seriesId).execute();
        await db.deleteFrom('series').where('id', '=', seriesId).execute();
      });
      await push.close();
    });

    it('refuses hostile and broken subscriptions: cloud metadata, other hosts, bad keys, no session, oversized or broken bodies', async () => {
      const { keys } = browserKeys();
      for (const endpoint of ['http://169.254.169.254/latest/meta-data/', 'https://evil.example/push', 'https://fcm.googleapis.com.evil.example/x', 'http://10.0.0.1:8080/', 'file:///etc/passwd']) {
        const res = await subscribe(a, { endpoint, keys });
        expect(res.status, endpoint).toBe(422);
        expect(res.json().detail).toBe("This browser's push service is not one this site sends to.");
      }
      const badKeys = await subscribe(a, { endpoint: push.url('/sub/a'), keys: { p256dh: 'short', auth: keys.auth } });
      expect(badKeys.status).toBe(422);
      expect((await subscribe(null, { endpoint: push.url('/sub/a'), keys })).status).toBe(401);
      expect((await subscribe(a, null, '{"endpoint":')).status).toBe(400);
      expect((await subscribe(a, null, JSON.stringify({ endpoint: push.url('/sub/a'), keys, pad: 'x'.repeat(5000) }))).status).toBe(413);
      const other = await server.request('/my/notifications/push/', { method: 'POST', body: JSON.stringify({ endpoint: push.url('/sub/a'), keys }), headers: { ...headers(a.cookie), origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' } });
      expect(other.status).toBe(403);
      expect(await subs(a)).toHaveLength(0);
      expect(push.got).toHaveLength(0);
    });

    let browserA: ReturnType<typeof browserKeys>;
    it('a release reaches the stand-in encrypted and signed (VAPID), naming the series and the chapter by number only; a folded chapter sends no second push', async () => {
      browserA = browserKeys();
      const ok = await subscribe(a, { endpoint: push.url('/sub/a'), keys: browserA.keys, timeZone: 'UTC' });
      expect(ok.status).toBe(200);
      const [sub] = await subs(a);
      expect(sub).toMatchObject({ endpoint: push.url('/sub/a'), time_zone: 'UTC', site_id: 1 });
      // Subscribing turned push on for new chapters: the settings page shows the box ticked.
      const page = await server.request('/my/notifications/settings/', { headers: { cookie: a.cookie } });
      expect(page.text).toMatch(/value="chapters\.push"[^>]*checked/);

      const n = await release(NOON - 60);
      await fanOut(NOON - 120, NOON);
      const pass = await deliver(NOON);
      expect(pass.sent).toBe(1);
      expect(push.got).toHaveLength(1);
      const req = push.got[0]!;
      expect(req.path).toBe('/sub/a');
      expect(req.headers['content-encoding']).toBe('aes128gcm');
      expect(req.headers['content-type']).toBe('application/octet-stream');
      expect(Number(req.headers.ttl)).toBeGreaterThan(0);
      const { pushPublicKey } = await import('~/features/notifications/index.server');
      const auth = /^vapid t=([\w-]+\.[\w-]+\.[\w-]+), k=([\w-]+)$/.exec(String(req.headers.authorization));
      expect(auth, String(req.headers.authorization)).not.toBeNull();
      expect(auth![2]).toBe(pushPublicKey());
      const claims = JSON.parse(Buffer.from(auth![1]!.split('.')[1]!, 'base64url').toString('utf8')) as { aud: string; exp: number; sub: string };
      expect(claims.aud).toBe(push.url('').replace(/\/$/, ''));
      expect(claims.sub).toMatch(/^mailto:/);

      const payload = JSON.parse(ece.decrypt(req.body, { version: 'aes128gcm', privateKey: browserA.ecdh, authSecret: browserA.auth }).toString('utf8')) as Record<string, string>;
      expect(payload.title).toBe(`Push ${tag}`);
      expect(payload.body).toBe(`Chapter ${n} is out`);
      expect(payload.url).toMatch(new RegExp(`^/read/push-${tag}/${tag}-${n}/[a-z]+-${n}/$`));
      expect(payload.tag).toBe(`series-${seriesId}`);
      expect(JSON.stringify(payload)).not.toContain('Secret twist');
      expect(Number((await subs(a))[0]!.last_success_at)).toBe(NOON);

      // An hour later, another chapter folds into the same inbox item: no second push.
      await release(NOON + 3600);
      await fanOut(NOON + 3500, NOON + 3601);
      expect((await deliver(NOON + 3601)).sent).toBe(0);
      expect(push.got).toHaveLength(1);
    });

    it('at most 5 pushes a reader per day; the next day has room again', async () => {
      const bk = browserKeys();
      expect((await subscribe(b, { endpoint: push.url('/sub/b'), keys: bk.keys, timeZone: 'UTC' })).status).toBe(200);
      expect((await settings(b, ['chapters.inbox', 'chapters.push', 'money.inbox', 'money.push'])).status).toBe(303);
      const day2 = NOON + 86_400;
      for (let i = 0; i < 7; i++) await money(b, day2 + i);
      const pass = await deliver(day2 + 10);
      expect(pass).toMatchObject({ sent: 5, capped: 2 });
      const toB = push.got.filter((r) => r.path === '/sub/b');
      expect(toB).toHaveLength(5);
      const payload = JSON.parse(ece.decrypt(toB[0]!.body, { version: 'aes128gcm', privateKey: bk.ecdh, authSecret: bk.auth }).toString('utf8')) as Record<string, string>;
      expect(payload).toMatchObject({ title: 'Inkpass', body: 'Your payment went through', url: '/my/notifications/' });
      // The inbox still has all seven.
      const inbox = await withDb(server, (db) => db.selectFrom('notifications').select('id').where('user_id', '=', b.id).where('kind', '=', 'PAYMENT_PAID').execute());
      expect(inbox).toHaveLength(7);
      await money(b, day2 + 86_400);
      expect((await deliver(day2 + 86_400 + 1)).sent).toBe(1);
      expect(push.got.filter((r) => r.path === '/sub/b')).toHaveLength(6);
    });

    it('quiet hours (22:00-08:00 in the subscription\'s zone by default) send nothing; turned off on the settings page, the push goes', async () => {
      const night = DAY + 3 * 86_400 + 23 * 3600;
      const before = push.got.length;
      await money(b, night);
      expect(await deliver(night + 1)).toMatchObject({ sent: 0, quiet: 1 });
      expect(push.got.length).toBe(before);
      // 23:00 UTC is 20:00 in São Paulo: a subscription there is awake.
      const sp = browserKeys();
      expect((await subscribe(b, { endpoint: push.url('/sub/b-sp'), keys: sp.keys, timeZone: 'America/Sao_Paulo' })).status).toBe(200);
      await money(b, night + 2);
      expect((await deliver(night + 3)).sent).toBe(1);
      expect(push.got.slice(before).map((r) => r.path)).toEqual(['/sub/b-sp']);
      // Quiet hours off (the form without the box): the UTC device gets pushes at night too.
      const off = await server.request('/my/notifications/quiet/', { method: 'POST', body: 'start=22&end=8', headers: headers(b.cookie, 'application/x-www-form-urlencoded') });
      expect(off.status).toBe(303);
      const page = await server.request('/my/notifications/settings/', { headers: { cookie: b.cookie } });
      expect(page.text).not.toMatch(/name="quiet" value="1" checked/);
      await money(b, night + 4);
      expect((await deliver(night + 5)).sent).toBe(2);
      expect(push.got.slice(before).map((r) => r.path).sort()).toEqual(['/sub/b', '/sub/b-sp', '/sub/b-sp']);
    });

    it('404 and 410 from the push service delete the subscription; 500 keeps it and backs off', async () => {
      for (const path of ['/sub/d-404', '/sub/d-410', '/sub/d-500']) {
        expect((await subscribe(d, { endpoint: push.url(path), keys: browserKeys().keys, timeZone: 'UTC' })).status).toBe(200);
      }
      push.answer.set('/sub/d-404', 404).set('/sub/d-410', 410).set('/sub/d-500', 500);
      expect((await settings(d, ['money.inbox', 'money.push'])).status).toBe(303);
      const at = NOON + 10 * 86_400;
      await money(d, at);
      expect(await deliver(at + 1)).toMatchObject({ sent: 0, pruned: 2, failed: 1 });
      const left = await subs(d);
      expect(left.map((s) => s.endpoint)).toEqual([push.url('/sub/d-500')]);
      expect(Number(left[0]!.failure_count)).toBe(1);
      expect(Number(left[0]!.retry_at)).toBe(at + 1 + 60);
      // Within the back-off the device is not called; after it, it is, and a success clears the count.
      const calls = () => push.got.filter((r) => r.path === '/sub/d-500').length;
      await money(d, at + 10);
      await deliver(at + 11);
      expect(calls()).toBe(1);
      push.answer.set('/sub/d-500', 201);
      await money(d, at + 100);
      expect((await deliver(at + 101)).sent).toBe(1);
      expect(calls()).toBe(2);
      expect(Number((await subs(d))[0]!.failure_count)).toBe(0);
    });

    it('unsubscribing (DELETE) forgets the device; another reader cannot remove it', async () => {
      const del = (reader: Reader, endpoint: string) => server.request('/my/notifications/push/', { method: 'DELETE', body: JSON.stringify({ endpoint }), headers: headers(reader.cookie) });
      expect((await del(b, push.url('/sub/a'))).status).toBe(200);
      expect(await subs(a)).toHaveLength(1);
      expect((await del(a, push.url('/sub/a'))).status).toBe(200);
      expect(await subs(a)).toHaveLength(0);
    });

    it('serves the service worker at /sw.js with its type, a revalidating cache and push handlers', async () => {
      const res = await server.request('/sw.js');
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/javascript/);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.text).toContain("addEventListener('push'");
      expect(res.text).toContain("addEventListener('notificationclick'");
    });
  });
}
