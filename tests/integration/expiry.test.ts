/**
 * Payments that expire by themselves (docs/payments.md, "Expiry"): a Pix order past its expiry
 * stops being payable and gives its coupon use back with no cron running, at read time (a
 * coupon's limits are counted after its holders past their time are settled) and from the
 * server's own timer. Servers run on the shared database; the ones "later"
 * run on a fake clock (tests/support/fake-clock.mjs) set to the exact second that matters.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appCheckToken, createReader, message, ROOT, selectedDialects, startExtraServer, useServer, withDb, type Reader, type ServerClient, type ServerHandle } from './harness';

const FAKE_CLOCK = pathToFileURL(path.join(ROOT, 'tests/support/fake-clock.mjs')).href;
// Frozen at that second: a ticking clock would be seconds past it once the server has started.
const at = (unix: number) => ({ NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import ${FAKE_CLOCK}`.trim(), INKPASS_FAKE_NOW: String(unix), INKPASS_FAKE_FROZEN: '1', PIX_EXPIRES_SECONDS: '10' });

async function post(server: ServerClient, reader: Reader, p: string, fields: Record<string, string>) {
  // A Pix charge carries a solved bot-check token, as the checkout island sends it.
  const check: Record<string, string> = p === '/my/purchase/pix/' ? { 'x-app-check': await appCheckToken(server, reader, 'br') } : {};
  return server.request(p, {
    method: 'POST', site: 'br', body: new URLSearchParams(fields).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.origin('br'), cookie: reader.cookie, ...check },
  });
}

for (const dialect of selectedDialects()) {
  describe(`Pix orders that expire by themselves (${dialect})`, () => {
    const server = useServer(dialect);
    let quick: ServerHandle | undefined;
    const extra: ServerHandle[] = [];
    /** A server on the shared database whose clock reads `unix` now. */
    const later = async (unix: number) => {
      const s = await startExtraServer(server, at(unix));
      extra.push(s);
      return s;
    };

    beforeAll(async () => {
      // An hour: the real clock must never reach an order's expiry during the test (each server's
      // own timer would settle it for real before the fake-clock servers ask), however busy the
      // machine; the servers "later" jump to the exact seconds instead.
      quick = await startExtraServer(server, { PIX_EXPIRES_SECONDS: '3600' });
    }, 120_000);
    afterAll(async () => {
      await Promise.all([quick, ...extra].map((s) => s?.stop()));
    });

    it('two abandoned orders hold a two-use coupon until the second their charges expire, then give it back with no cron', { timeout: 120_000 }, async () => {
      const code = `LIMIT${dialect.toUpperCase()}${Date.now() % 100000}`;
      await withDb(server, (db) => db.insertInto('coupons').values({
        site_id: 3, code, percent_off: 10, amount_off: null, currency: null, starts_at: null, ends_at: null, max_redemptions: 2, per_reader_limit: 1, active: 1, created_at: Math.floor(Date.now() / 1000),
      }).execute());
      const [a, b, c] = [await createReader(server, { site: 'br' }), await createReader(server, { site: 'br' }), await createReader(server, { site: 'br' })];
      for (const r of [a, b]) expect((await post(quick!, r, '/my/purchase/pix/', { pack: 'starter', coupon: code })).status).toBe(200);
      const usedUp = await post(quick!, c, '/my/purchase/coupon/', { pack: 'starter', coupon: code });
      expect(usedUp.status).toBe(409);
      expect(usedUp.text).toBe(message('pt-BR', 'purchase.coupon.usedUp'));
      const orders = await withDb(server, (db) => db.selectFrom('orders').select(['id', 'public_id', 'expires_at']).where('user_id', 'in', [a.id, b.id]).execute());
      const expiry = Math.max(...orders.map((o) => Number(o.expires_at)));

      // One second before the later charge expires, that order still holds its use: the coupon is
      // usable only if the other order expired a second earlier (they were made a moment apart).
      const before = await later(expiry - 1);
      const early = await post(before, c, '/my/purchase/coupon/', { pack: 'starter', coupon: code });
      const earliest = Math.min(...orders.map((o) => Number(o.expires_at)));
      expect(early.status).toBe(earliest === expiry ? 409 : 200);
      expect(await withDb(server, (db) => db.selectFrom('orders').select('state').where('expires_at', '=', expiry).where('id', 'in', orders.map((o) => o.id)).execute()))
        .toEqual(orders.filter((o) => Number(o.expires_at) === expiry).map(() => ({ state: 'PENDING' })));

      // At the second both have expired: the coupon is usable again, and each order says what closed it.
      const after = await later(expiry);
      const ok = await post(after, c, '/my/purchase/coupon/', { pack: 'starter', coupon: code });
      expect(ok.status).toBe(200);
      const closed = await withDb(server, (db) => db.selectFrom('orders').select(['state']).where('id', 'in', orders.map((o) => o.id)).execute());
      expect(closed.map((o) => o.state)).toEqual(['EXPIRED', 'EXPIRED']);
      const events = await withDb(server, (db) => db.selectFrom('order_events').select(['state', 'source']).where('order_id', 'in', orders.map((o) => o.id)).where('state', '=', 'EXPIRED').execute());
      expect(events.map((e) => e.source)).toEqual(['expiry', 'expiry']);
      expect(await withDb(server, (db) => db.selectFrom('coupons').select('redemptions').where('code', '=', code).executeTakeFirstOrThrow())).toMatchObject({ redemptions: 0 });
      // The third reader can now buy with it.
      expect((await post(after, c, '/my/purchase/pix/', { pack: 'starter', coupon: code })).status).toBe(200);
    });

    it('the server\'s own timer closes an expired order nobody asks about', { timeout: 120_000 }, async () => {
      const reader = await createReader(server, { site: 'br' });
      expect((await post(quick!, reader, '/my/purchase/pix/', { pack: 'popular' })).status).toBe(200);
      const order = await withDb(server, (db) => db.selectFrom('orders').select(['id', 'expires_at', 'state']).where('user_id', '=', reader.id).executeTakeFirstOrThrow());
      expect(order.state).toBe('PENDING');
      // A process whose clock is past the expiry: any request starts its minute's check in the background.
      const s = await later(Number(order.expires_at) + 1);
      await s.request('/about/', { site: 'br' });
      let state = 'PENDING';
      for (let i = 0; i < 50 && state === 'PENDING'; i++) {
        await new Promise((r) => setTimeout(r, 100));
        state = (await withDb(server, (db) => db.selectFrom('orders').select('state').where('id', '=', order.id).executeTakeFirstOrThrow())).state;
      }
      expect(state).toBe('EXPIRED');
      // The reader's poll says so, and the charge can no longer be paid.
      const poll = await s.request(`/my/purchase/pix/${(await withDb(server, (db) => db.selectFrom('orders').select('public_id').where('id', '=', order.id).executeTakeFirstOrThrow())).public_id}/`, { site: 'br', headers: { cookie: reader.cookie } });
      expect(poll.json()).toEqual({ status: 'EXPIRED', paid: false });
    });
  });
}
