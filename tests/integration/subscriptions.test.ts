/**
 * Subscriptions over real HTTP on both databases (issue 15): what a reader or an attacker sees
 * of the subscription Pix call and its status, `npm run payments -- pay` and signed webhooks
 * delivered many times at once, an expired first charge, the one trial per reader raced on one
 * and on two server processes, series slots and plan rentals under bursts of requests, the
 * renewal command (`npm run subscriptions -- renew`) run twice and twice at once for card and Pix
 * subscriptions, cancelling, grace and expiry as the reader page sees them, other readers'
 * checks, bad input, and one subscription anchored on Jan 31.
 *
 * Time is moved by editing a subscription's dates in the database (moveClock keeps its paid
 * charges' periods consistent with them, as the order audit demands); the Jan 31 test runs the
 * renewal command itself on another day (tests/support/fake-clock.mjs). Every test ends with the
 * ledger and order audits empty.
 */
import crypto from 'node:crypto';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { sql } from 'kysely';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { appCheckHeader, createReader, forgetLimits, htmlText, message, npmRun, ROOT, selectedDialects, startExtraServer, useServer, withDb, type Reader, type ServerClient, type SiteName, type Run, type TestResponse } from './harness';
import { LIMITS } from '~/server/rate-limit-rules';

const now = () => Math.floor(Date.now() / 1000);
const DAY = 86_400;
const hex = (n: number) => crypto.randomBytes(n).toString('hex');
const CPF = '529.982.247-25';
const PAYER = 'Maria da Silva';
const EXPIRY = `12/${String((new Date().getUTCFullYear() + 4) % 100).padStart(2, '0')}`;
const FAKE_CLOCK = pathToFileURL(path.join(ROOT, 'tests/support/fake-clock.mjs')).href;

/** `npm run <script> -- …args` on the server's database, as staff or cron would run it. */
const run = (server: { databaseUrl: string }, script: 'payments' | 'subscriptions', args: string[], env: Record<string, string> = {}): Promise<Run> => npmRun(server.databaseUrl, script, args, env, 90_000);

interface PixAnswer {
  success: boolean;
  first_payment: boolean;
  pix_copia_e_cola: string | null;
  pix_expires_at: string | null;
  check: string | null;
  trial_error: boolean;
  error: string | null;
  message: string | null;
  qr_svg: string | null;
}

interface Chapter { e4pid: string; seriesId: number }

function statusCounts(answers: TestResponse[]): Record<number, number> {
  const out: Record<number, number> = {};
  for (const a of answers) out[a.status] = (out[a.status] ?? 0) + 1;
  return out;
}

for (const dialect of selectedDialects()) {
  describe(`subscriptions (${dialect})`, () => {
    const server = useServer(dialect);
    /** Chapters a reader with a plan (and no series subscribed) may rent now. */
    let rentable: Chapter[] = [];
    /** Subscription-enabled chapters readable only through a subscription to their series. */
    let bySubscription: Chapter[] = [];
    /** Active series, for the slots burst. */
    let seriesIds: number[] = [];

    beforeAll(async () => {
      ({ rentable, bySubscription, seriesIds } = await withDb(server, async (db) => {
        const { pricingContext, accessIn } = await import('~/features/catalog/index.server');
        const t = now();
        const base = { owned: false, rentals: [], balances: { keys: 0, xtra: 0 }, dailyPassUsedAt: null, adsWatched: 0 };
        const plan = { rentCapacity: 5, rented: 0, resetsAt: t + 30 * DAY, rentTtl: 3 * DAY };
        const candidates = (flag: 'rental_enabled' | 'subscription_enabled') => db
          .selectFrom('chapters').innerJoin('series', 'series.id', 'chapters.series_id')
          .select(['chapters.e4pid', 'chapters.series_id'])
          .where('series.state', '=', 'ACTIVE').where('series.geoblocks', 'in', ['[]', '']).where(`chapters.${flag}`, '=', 1)
          .where('chapters.released_at', '<=', t - DAY).orderBy('chapters.id').limit(400).execute();
        const rent: Chapter[] = [];
        for (const r of await candidates('rental_enabled')) {
          const ctx = await pricingContext(db, r.e4pid, t);
          if (!ctx) continue;
          const withPlan = accessIn(ctx, { ...base, subscription: { series: false, plan } }, null, t);
          // Locked for everyone, rentable with a plan, and staying so for the test's length.
          if (accessIn(ctx, null, null, t).readable || withPlan.readable || !withPlan.unlockMethods.rent.open) continue;
          rent.push({ e4pid: r.e4pid, seriesId: Number(r.series_id) });
        }
        const sub: Chapter[] = [];
        for (const r of await candidates('subscription_enabled')) {
          const ctx = await pricingContext(db, r.e4pid, t);
          if (!ctx) continue;
          const without = accessIn(ctx, { ...base, subscription: null }, null, t);
          const subscribed = accessIn(ctx, { ...base, subscription: { series: true, plan: null } }, null, t);
          if (without.readable || !subscribed.readable || subscribed.reason !== 'subscription' || subscribed.readableUntil !== null) continue;
          sub.push({ e4pid: r.e4pid, seriesId: Number(r.series_id) });
        }
        const series = await db.selectFrom('series').select('id').where('state', '=', 'ACTIVE').orderBy('id').limit(50).execute();
        return { rentable: rent, bySubscription: sub, seriesIds: series.map((s) => Number(s.id)) };
      }));
      expect(rentable.length).toBeGreaterThan(30);
      expect(bySubscription.length).toBeGreaterThan(0);
      expect(seriesIds).toHaveLength(50);
    }, 180_000);

    const audit = () =>
      withDb(server, async (db) => {
        const { auditLedger } = await import('~/features/wallet/index.server');
        const { auditOrders } = await import('~/features/commerce/index.server');
        return [...(await auditLedger(db)), ...(await auditOrders(db))];
      });

    afterEach(async () => {
      expect(await audit()).toEqual([]);
    });

    // ------------------------------------------------------------------ requests

    /** A form POST as the checkout island sends it; the subscription calls carry a bot-check token of their own. */
    const form = async (s: ServerClient, reader: Reader | null, p: string, fields: Record<string, string>, site: SiteName = 'en', headers: Record<string, string> = {}) =>
      s.request(p, {
        site, method: 'POST', body: new URLSearchParams(fields).toString(), timeoutMs: 90_000,
        headers: {
          'content-type': 'application/x-www-form-urlencoded', origin: s.origin(site), ...(reader ? { cookie: reader.cookie } : {}),
          ...(reader && /^\/my\/subscribe\/(pix|card)\/$/.test(p) ? await appCheckHeader(s, reader, site) : {}), ...headers,
        },
      });
    const subscribePix = (reader: Reader | null, fields: Record<string, string> = {}, o: { site?: SiteName; s?: ServerClient; headers?: Record<string, string> } = {}) =>
      form(o.s ?? server, reader, '/my/subscribe/pix/', { pix_name: PAYER, pix_doc: CPF, tier_id: 'leitor', ...fields }, o.site ?? 'br', o.headers);
    const status = (reader: Reader | null, check: string, site: SiteName = 'br') =>
      server.request(`/my/subscribe/status/${check}/`, { site, headers: reader ? { cookie: reader.cookie } : {}, timeoutMs: 60_000 });
    const nonceFor = async (reader: Reader, site: SiteName = 'en') => {
      const res = await form(server, reader, '/payments/sandbox/nonce/', { method: 'card', number: '4111111111111111', expiry: EXPIRY, cvv: '123' }, site);
      expect(res.status, res.text).toBe(200);
      return (res.json() as { nonce: string }).nonce;
    };
    const subscribeCard = async (reader: Reader, tier = 'reader', site: SiteName = 'en') => {
      const res = await form(server, reader, '/my/subscribe/card/', { tier_id: tier, method: 'card', nonce: await nonceFor(reader, site), device_data: '{}' }, site);
      expect([res.status, res.json()]).toEqual([200, { success: true, error: null, message: null }]);
      return subOf(reader);
    };
    const addComic = (reader: Reader | null, comicId: unknown, site: SiteName = 'en', p = '/api/subscription/add-comic') =>
      server.request(p, {
        site, method: 'POST', body: JSON.stringify({ comic_id: comicId }), timeoutMs: 90_000,
        headers: { 'content-type': 'application/json', origin: server.origin(site), ...(reader ? { cookie: reader.cookie } : {}) },
      });
    /** The add-comic call's status for the first test series on the Portuguese site (402 without a live plan). */
    const slotStatus = async (reader: Reader) => (await addComic(reader, seriesIds[0], 'br')).status;
    const rent = (reader: Reader | null, e4pid: string) => form(server, reader, '/api/rent/', { content: e4pid });
    /** Whether the reader may read the chapter: its manifest (signed page URLs) or a 403. */
    const readable = async (reader: Reader, e4pid: string, site: SiteName = 'en') => {
      const res = await server.request(`/api/reader/${e4pid}/manifest`, { site, headers: { cookie: reader.cookie } });
      expect([200, 403], res.text).toContain(res.status);
      return res.status === 200;
    };
    const payments = (args: string[]) => run(server, 'payments', args);
    const pay = (id: string) => payments(['pay', id, '--url', `http://127.0.0.1:${server.port}`]);
    const renew = async (times = 1, env: Record<string, string> = {}) => {
      const runs = await Promise.all(Array.from({ length: times }, () => run(server, 'subscriptions', ['renew'], env)));
      for (const r of runs) {
        expect(r.code, r.stdout + r.stderr).toBe(0);
        expect(r.stdout).toMatch(/^renew: \d+ renewals due, \d+ charged; \d+ past due, \d+ expired\.$/m);
      }
      return runs;
    };
    /**
     * Two renewal runs that really meet on one subscription: the database holds them (PostgreSQL:
     * the subscription's row locked; SQLite: the write lock) until both have read it as due and
     * wait to write it (or have finished), then lets them go at once. Started freely, one run is
     * usually over before the other has read anything.
     */
    const renewTogether = async (subId: number) => {
      let release!: () => void;
      const released = new Promise<void>((r) => (release = r));
      let holding!: () => void;
      const held = new Promise<void>((r) => (holding = r));
      const hold = withDb(server, async (db) => {
        if (dialect === 'postgres') {
          await db.transaction().execute(async (trx) => {
            await trx.selectFrom('subscriptions').select('id').where('id', '=', subId).forUpdate().execute();
            holding();
            await released;
          });
        } else {
          await db.connection().execute(async (conn) => {
            await sql`begin immediate`.execute(conn);
            holding();
            await released;
            await sql`rollback`.execute(conn);
          });
        }
      });
      await held;
      let finished = 0;
      const runs = [0, 1].map(() => run(server, 'subscriptions', ['renew']).finally(() => finished++));
      try {
        if (dialect === 'postgres') {
          const waiting = () => withDb(server, async (db) => Number((await sql<{ n: number }>`select count(*) as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`.execute(db)).rows[0]!.n));
          const deadline = Date.now() + 30_000;
          while (Date.now() < deadline && finished + (await waiting()) < 2) await new Promise((r) => setTimeout(r, 100));
        } else {
          // SQLite cannot say who waits: hold long enough for both to start, well within their 5 s busy timeout.
          await new Promise((r) => setTimeout(r, 3_000));
        }
      } finally {
        release();
        await hold;
      }
      const from = Date.now();
      for (const r of await Promise.all(runs)) expect(r.code, r.stdout + r.stderr).toBe(0);
      /** How long the runs took once let go. */
      return Date.now() - from;
    };

    // ------------------------------------------------------------------ rows

    const subOf = (reader: Reader) =>
      withDb(server, async (db) => {
        const s = await db.selectFrom('subscriptions').selectAll().where('user_id', '=', reader.id).orderBy('id', 'desc').executeTakeFirstOrThrow();
        return { ...s, id: Number(s.id), plan_id: Number(s.plan_id), anchor_at: Number(s.anchor_at), paid_until: Number(s.paid_until), cancel_at_period_end: Number(s.cancel_at_period_end) };
      });
    const subsOf = (reader: Reader) =>
      withDb(server, async (db) => (await db.selectFrom('subscriptions').select(['id', 'state']).where('user_id', '=', reader.id).orderBy('id').execute()).map((s) => ({ id: Number(s.id), state: s.state })));
    const chargesOf = (subId: number) =>
      withDb(server, async (db) => (await db.selectFrom('subscription_charges').selectAll().where('subscription_id', '=', subId).orderBy('period_start').orderBy('id').execute())
        .map((c) => ({ ...c, period_start: Number(c.period_start), period_end: Number(c.period_end), amount: Number(c.amount), expires_at: c.expires_at == null ? null : Number(c.expires_at) })));
    const chargeRow = (id: string) =>
      withDb(server, async (db) => {
        const c = await db.selectFrom('subscription_charges').selectAll().where('public_id', '=', id).executeTakeFirstOrThrow();
        return { ...c, subscription_id: Number(c.subscription_id), period_start: Number(c.period_start), period_end: Number(c.period_end), amount: Number(c.amount) };
      });
    const eventsOf = (subId: number) =>
      withDb(server, async (db) => (await db.selectFrom('subscription_events').select(['state', 'source', 'detail']).where('subscription_id', '=', subId).orderBy('id').execute()));
    const eventCount = async (subId: number, state: string, source?: string) => (await eventsOf(subId)).filter((e) => e.state === state && (!source || e.source === source)).length;
    const sandboxCharge = (id: string) =>
      withDb(server, async (db) => db.selectFrom('sandbox_pix_charges').selectAll().where('correlation_id', '=', id).execute());
    const addMonths = async (at: number, n: number) => (await import('~/features/subscriptions')).addMonths(at, n);
    /** The period the renewal command charges next: the subscription's anchor grid (subscriptions.periodStartingAt). */
    const nextPeriod = async (sub: { anchor_at: number; paid_until: number }) =>
      (await import('~/features/subscriptions/index.server')).periodStartingAt(sub.anchor_at, 1, sub.paid_until);

    /**
     * Moves a subscription in time: its paid time now ends at `paidUntil`, with its anchor and its
     * paid charges' periods laid out before it as if it had been paying since then (so the order
     * audit, which wants every paid period inside the subscription's access, still holds).
     */
    const moveClock = async (subId: number, paidUntil: number) => {
      const paid = (await chargesOf(subId)).filter((c) => c.state === 'PAID');
      const anchor = await addMonths(paidUntil, -paid.length);
      const periods = await Promise.all(paid.map(async (_c, i) => ({ start: await addMonths(anchor, i), end: i === paid.length - 1 ? paidUntil : await addMonths(anchor, i + 1) })));
      await withDb(server, async (db) => {
        for (const [i, c] of paid.entries()) {
          await db.updateTable('subscription_charges').set({ period_start: periods[i]!.start, period_end: periods[i]!.end }).where('id', '=', c.id).execute();
        }
        await db.updateTable('subscriptions').set({ anchor_at: anchor, paid_until: paidUntil }).where('id', '=', subId).execute();
      });
    };

    /** A Portuguese reader subscribed to `leitor` by Pix and paid with `npm run payments -- pay`. */
    const paidPixReader = async () => {
      const reader = await createReader(server, { site: 'br' });
      const res = await subscribePix(reader);
      expect(res.status, res.text).toBe(200);
      const check = (res.json() as PixAnswer).check!;
      const paid = await pay(check);
      expect(paid.code, paid.stdout + paid.stderr).toBe(0);
      expect(await subOf(reader)).toMatchObject({ state: 'ACTIVE' });
      return { reader, check };
    };

    // ------------------------------------------------------------------ 1. Pix

    it('issue 25\'s three steps: subscribing to another plan while the first charge is payable closes that charge, at the PSP too; its late payment grants nothing and is to refund; paying the new one leaves one live subscription', { timeout: 120_000 }, async () => {
      const reader = await createReader(server, { site: 'br' });
      const a = (await subscribePix(reader, { tier_id: 'leitor' })).json() as PixAnswer;
      const b = (await subscribePix(reader, { tier_id: 'leitor-plus' })).json() as PixAnswer;
      expect([a.success, b.success]).toEqual([true, true]);
      // Charge A is closed here and at the PSP: the bank app's payment is refused, nothing is granted.
      expect(await withDb(server, (db) => db.selectFrom('subscription_charges').select('state').where('public_id', '=', a.check!).executeTakeFirstOrThrow())).toEqual({ state: 'EXPIRED' });
      const lateA = await pay(a.check!);
      expect(lateA.code).not.toBe(0);
      expect((await status(reader, a.check!)).json()).toMatchObject({ success: false, state: 'EXPIRED' });
      // The reader's bank had paid charge A just as it was closed: the PSP's signed COMPLETED
      // arrives. Nothing is granted, subscription A stays closed, and the payment is to refund.
      const { sandboxEventBody, sandboxWebhookKey, signWebhook } = await import('~/features/payments/sandbox.server');
      const [pspA] = await sandboxCharge(a.check!);
      const paymentA = `E2E${hex(12).toUpperCase()}`;
      const bankPaidA = Buffer.from(sandboxEventBody('OPENPIX:CHARGE_COMPLETED', { correlationID: a.check!, value: Number(pspA!.value), status: 'COMPLETED', brCode: pspA!.br_code, expiresAt: Number(pspA!.expires_at), paymentId: paymentA }));
      const hook = await server.request('/webhooks/pix/', { method: 'POST', body: bankPaidA, headers: { 'content-type': 'application/json', 'x-inkpass-signature': signWebhook(bankPaidA, sandboxWebhookKey()) } });
      expect([hook.status, hook.json()]).toEqual([200, { ok: true, result: 'closed' }]);
      const subA = (await subsOf(reader))[0]!;
      expect(subA.state).toBe('EXPIRED');
      expect(await withDb(server, (db) => db.selectFrom('refunds_due').select(['payable_kind', 'payable_id', 'payment_id', 'amount', 'currency']).where('user_id', '=', reader.id).execute()))
        .toEqual([{ payable_kind: 'charge', payable_id: a.check!, payment_id: paymentA, amount: 1490, currency: 'BRL' }]);
      expect(await slotStatus(reader)).toBe(402);
      const paidB = await pay(b.check!);
      expect(paidB.code, paidB.stdout + paidB.stderr).toBe(0);
      const live = (await subsOf(reader)).filter((x) => ['PENDING', 'TRIAL', 'ACTIVE', 'PAST_DUE'].includes(x.state));
      expect(live).toHaveLength(1);
      expect((await subOf(reader)).plan_id).toBe(await withDb(server, async (db) => Number((await db.selectFrom('plans').select('id').where('site_id', '=', 3).where('code', '=', 'leitor-plus').executeTakeFirstOrThrow()).id)));
    });

    it('Pix: a BR Code for the plan, status false before payment and true after `payments pay`, one period granted', { timeout: 120_000 }, async () => {
      const reader = await createReader(server, { site: 'br' });
      const res = await subscribePix(reader);
      expect(res.status, res.text).toBe(200);
      const body = res.json() as PixAnswer;
      expect(body).toMatchObject({ success: true, first_payment: true, trial_error: false, error: null });
      expect(body.check).toMatch(/^sub[0-9a-f]{24}$/);
      expect(body.qr_svg?.startsWith('<svg')).toBe(true);
      expect(Date.parse(body.pix_expires_at!) / 1000).toBeGreaterThan(now());
      const { parseBrCode } = await import('~/features/payments/index.server');
      const brCode = parseBrCode(body.pix_copia_e_cola!);
      expect(brCode.ok, JSON.stringify(brCode)).toBe(true);
      if (brCode.ok) expect(brCode.fields.amount).toBe(1490);
      const check = body.check!;

      const before = await status(reader, check);
      expect([before.status, before.json()]).toEqual([200, { success: false, trial_error: false, state: 'PENDING' }]);
      const pending = await subOf(reader);
      expect(pending).toMatchObject({ state: 'PENDING', method: 'pix', payer_name: PAYER });
      expect(await slotStatus(reader)).toBe(402);

      const paid = await pay(check);
      expect(paid.code, paid.stdout + paid.stderr).toBe(0);
      expect(paid.stdout).toContain('HTTP 200');
      const after = await status(reader, check);
      expect([after.status, after.json()]).toEqual([200, { success: true, trial_error: false, state: 'PAID' }]);

      const sub = await subOf(reader);
      expect(sub.state).toBe('ACTIVE');
      expect(sub.anchor_at).toBe(pending.anchor_at);
      expect(sub.paid_until).toBe(await addMonths(sub.anchor_at, 1));
      expect(sub.paid_until - sub.anchor_at).toBeGreaterThanOrEqual(28 * DAY);
      expect(sub.paid_until - sub.anchor_at).toBeLessThanOrEqual(31 * DAY);
      const charges = await chargesOf(sub.id);
      expect(charges.map((c) => ({ id: c.public_id, state: c.state, start: c.period_start, end: c.period_end, amount: c.amount, currency: c.currency })))
        .toEqual([{ id: check, state: 'PAID', start: sub.anchor_at, end: sub.paid_until, amount: 1490, currency: 'BRL' }]);
      expect(await eventCount(sub.id, 'ACTIVE')).toBe(1);

      // Paid again (the PSP retries its webhook): nothing more.
      const again = await pay(check);
      expect(again.code, again.stdout + again.stderr).toBe(0);
      expect(again.stdout).toContain('Already paid');
      expect((await subOf(reader)).paid_until).toBe(sub.paid_until);
      expect(await eventCount(sub.id, 'ACTIVE')).toBe(1);
      // A live subscription: the slots are open to it, and a second subscription is refused.
      expect(await slotStatus(reader)).toBe(200);
      const second = await subscribePix(reader);
      expect([second.status, (second.json() as PixAnswer).message]).toEqual([409, message('pt-BR', 'subscribe.error.subscribed')]);

      const page = await server.request('/my/subscriptions/', { site: 'br', headers: { cookie: reader.cookie } });
      expect(page.status).toBe(200);
      expect(htmlText(page.text)).toContain('Leitor');
    });

    it('the same signed webhook 5 times at once while the status is polled: the charge is PAID once, one activation', { timeout: 120_000 }, async () => {
      const reader = await createReader(server, { site: 'br' });
      const res = await subscribePix(reader);
      const check = (res.json() as PixAnswer).check!;
      const { paySandboxCharge, sandboxEventBody, sandboxWebhookKey, signWebhook } = await import('~/features/payments/sandbox.server');
      // The payer pays at the PSP; its webhook has not arrived yet.
      const paidAtPsp = await withDb(server, (db) => paySandboxCharge(db, check, now()));
      expect(paidAtPsp?.charge.status).toBe('COMPLETED');
      const body = Buffer.from(sandboxEventBody('OPENPIX:CHARGE_COMPLETED', paidAtPsp!.charge));
      const key = sandboxWebhookKey();
      const webhook = (b: Buffer, signature: string | null) =>
        server.request('/webhooks/pix/', { method: 'POST', body: b, timeoutMs: 60_000, headers: { 'content-type': 'application/json', ...(signature ? { 'x-inkpass-signature': signature } : {}) } });

      // Unsigned or signed with another key: refused, nothing paid.
      expect((await webhook(body, null)).status).toBe(401);
      expect((await webhook(body, signWebhook(body, crypto.randomBytes(32)))).status).toBe(401);
      expect((await chargeRow(check)).state).toBe('PENDING');

      const answers = await Promise.all([
        ...Array.from({ length: 5 }, () => webhook(body, signWebhook(body, key))),
        ...Array.from({ length: 5 }, () => status(reader, check)),
      ]);
      expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
      const results = answers.slice(0, 5).map((a) => (a.json() as { result: string }).result);
      expect(results.every((r) => r === 'paid' || r === 'already'), results.join()).toBe(true);
      for (const poll of answers.slice(5)) expect(poll.json()).toEqual({ success: true, trial_error: false, state: 'PAID' });

      const charge = await chargeRow(check);
      expect(charge).toMatchObject({ state: 'PAID', payment_id: paidAtPsp!.charge.paymentId });
      const sub = await subOf(reader);
      expect(sub).toMatchObject({ state: 'ACTIVE', paid_until: charge.period_end });
      expect(charge.period_end).toBe(await addMonths(sub.anchor_at, 1));
      expect(await eventCount(sub.id, 'ACTIVE')).toBe(1);
      expect(await eventCount(sub.id, 'PAID')).toBe(0);
      expect(await chargesOf(sub.id)).toHaveLength(1);
    });

    // ------------------------------------------------------------------ 2. expired charge

    it('an expired first charge: status not success, never active, `payments pay` exits 1, a late signed COMPLETED changes nothing', { timeout: 120_000 }, async () => {
      const reader = await createReader(server, { site: 'br' });
      const res = await subscribePix(reader);
      const check = (res.json() as PixAnswer).check!;
      await withDb(server, (db) => db.updateTable('sandbox_pix_charges').set({ expires_at: now() - 5 }).where('correlation_id', '=', check).execute());
      const expired = await status(reader, check);
      expect([expired.status, expired.json()]).toEqual([200, { success: false, trial_error: false, state: 'EXPIRED' }]);
      const sub = await subOf(reader);
      expect(sub.state).toBe('PENDING');
      const tooLate = await pay(check);
      expect(tooLate.code).toBe(1);
      expect(tooLate.stderr).toContain('EXPIRED');

      const { sandboxEventBody, sandboxWebhookKey, signWebhook } = await import('~/features/payments/sandbox.server');
      const [psp] = await sandboxCharge(check);
      const late = Buffer.from(sandboxEventBody('OPENPIX:CHARGE_COMPLETED', {
        correlationID: check, value: Number(psp!.value), status: 'COMPLETED', brCode: psp!.br_code, expiresAt: Number(psp!.expires_at), paymentId: `E2E${hex(12).toUpperCase()}`,
      }));
      const answer = await server.request('/webhooks/pix/', { method: 'POST', body: late, headers: { 'content-type': 'application/json', 'x-inkpass-signature': signWebhook(late, sandboxWebhookKey()) } });
      expect([answer.status, answer.json()]).toEqual([200, { ok: true, result: 'closed' }]);
      expect(await chargeRow(check)).toMatchObject({ state: 'EXPIRED', payment_id: null });
      expect((await status(reader, check)).json()).toEqual({ success: false, trial_error: false, state: 'EXPIRED' });
      const after = await subOf(reader);
      expect(after).toMatchObject({ id: sub.id, state: 'PENDING', paid_until: sub.paid_until });
      expect(await eventCount(sub.id, 'ACTIVE')).toBe(0);
      // No live plan: no slots.
      expect((await addComic(reader, seriesIds[0], 'br')).status).toBe(402);
    });

    // ------------------------------------------------------------------ 3. the trial

    it('the same trial requested twice at once gives one trial and one trial_error, on one process and over two', { timeout: 120_000 }, async () => {
      const race = async (servers: ServerClient[]) => {
        const reader = await createReader(server, { site: 'br' });
        const answers = await Promise.all(servers.map((s) => subscribePix(reader, { tier_id: 'teste' }, { s })));
        const bodies = answers.map((a) => ({ status: a.status, body: a.json() as PixAnswer }));
        const won = bodies.filter((b) => b.body.success);
        const lost = bodies.filter((b) => !b.body.success);
        expect(won, JSON.stringify(bodies)).toHaveLength(1);
        expect(won[0]).toMatchObject({ status: 200, body: { success: true, first_payment: false, check: null, trial_error: false, message: message('pt-BR', 'subscribe.trial.started', { days: 7 }) } });
        expect(lost, JSON.stringify(bodies)).toHaveLength(1);
        expect(lost[0]).toMatchObject({ status: 409, body: { success: false, trial_error: true, message: message('pt-BR', 'subscribe.trial.used') } });
        const subs = await subsOf(reader);
        expect(subs.map((s) => s.state)).toEqual(['TRIAL']);
        const trials = await withDb(server, (db) => db.selectFrom('trial_uses').select(['subscription_id']).where('user_id', '=', reader.id).execute());
        expect(trials.map((t) => Number(t.subscription_id))).toEqual([subs[0]!.id]);
        const sub = await subOf(reader);
        expect(sub.paid_until).toBe(sub.anchor_at);
        expect(sub.anchor_at - Number(sub.created_at)).toBe(7 * DAY);
        // Asked again later: still the notice, and nothing new.
        const later = await subscribePix(reader, { tier_id: 'teste' });
        expect([later.status, later.json()]).toEqual([409, { ...lost[0]!.body }]);
        expect(await subsOf(reader)).toEqual(subs);
        return reader;
      };
      await race([server, server]);
      const second = await startExtraServer(server);
      try {
        await race([server, second]);
      } finally {
        await second.stop();
      }
    });

    // ------------------------------------------------------------------ 4. slots

    it('50 add-comic requests at once for 50 series with a 3-slot plan: 3 taken, slots_left never below zero', { timeout: 120_000 }, async () => {
      const reader = await createReader(server);
      const noPlan = await addComic(reader, seriesIds[0]);
      expect([noPlan.status, noPlan.json()]).toEqual([402, { success: false, error: message('en', 'subscribe.error.noPlan'), slots_left: 0 }]);
      const sub = await subscribeCard(reader);
      expect(sub).toMatchObject({ state: 'ACTIVE' });
      const answers = await Promise.all(seriesIds.map((id, i) => addComic(reader, i % 2 ? id : String(id), 'en', i % 3 ? '/api/subscription/add-comic' : '/sapi/subscription/add-comic')));
      const bodies = answers.map((a) => a.json() as { success: boolean; error: string | null; slots_left: number });
      // One call before the burst: the route limit (LIMITS.subscriptionChanges) lets max - 1 of the 50 through.
      const through = LIMITS.subscriptionChanges.max - 1;
      expect(statusCounts(answers)).toEqual({ 200: 3, 409: through - 3, 429: 50 - through });
      expect(bodies.filter((b) => b.success)).toHaveLength(3);
      for (const [i, b] of bodies.entries()) if (answers[i]!.status !== 429) expect(b.slots_left).toBeGreaterThanOrEqual(0);
      expect(bodies.filter((b) => b.success).map((b) => b.slots_left).sort()).toEqual([0, 1, 2]);
      for (const [i, b] of bodies.entries()) if (!b.success && answers[i]!.status === 409) expect(b).toEqual({ success: false, error: message('en', 'subscribe.error.noSlots', { slots: 3 }), slots_left: 0 });
      const held = await withDb(server, (db) => db.selectFrom('subscription_series').select('series_id').where('subscription_id', '=', sub.id).execute());
      expect(held).toHaveLength(3);
      const winners = seriesIds.filter((_id, i) => bodies[i]!.success).sort();
      expect(held.map((h) => Number(h.series_id)).sort()).toEqual(winners);
      await forgetLimits(server, reader);
      // A series already held answers success with what is left; another is still refused.
      const again = await addComic(reader, winners[0]);
      expect([again.status, again.json()]).toEqual([200, { success: true, error: null, slots_left: 0 }]);
      expect((await addComic(reader, seriesIds.find((id) => !winners.includes(id)))).status).toBe(409);
      expect(await eventsOf(sub.id).then((e) => e.filter((x) => x.source === 'reader').length)).toBe(3);
    });

    // ------------------------------------------------------------------ 5. rentals

    it('30 rentals at once with a capacity of 5: exactly 5, and the next is 409', { timeout: 120_000 }, async () => {
      const reader = await createReader(server);
      const noPlan = await rent(reader, rentable[0]!.e4pid);
      expect([noPlan.status, noPlan.json().detail]).toEqual([409, message('en', 'wallet.rent.noPlan')]);
      await subscribeCard(reader);
      const chosen = rentable.slice(0, 30);
      const answers = await Promise.all(chosen.map((c) => rent(reader, c.e4pid)));
      // One call before the burst: the route limit (LIMITS.unlocks) lets max - 1 of the 30 through.
      expect(statusCounts(answers)).toEqual({ 200: 5, 409: LIMITS.unlocks.max - 1 - 5, 429: 30 - (LIMITS.unlocks.max - 1) });
      const limitText = message('en', 'wallet.rent.limit', { when: '\u0000' }).split('\u0000')[0]!;
      for (const a of answers.filter((x) => x.status === 409)) expect(a.json().detail).toContain(limitText);
      const rented = chosen.filter((_c, i) => answers[i]!.status === 200).map((c) => c.e4pid);
      for (const [i, a] of answers.entries()) {
        if (a.status !== 200) continue;
        const b = a.json() as { content: string; rental: { created_at: string; expires_at: string } };
        expect(b.content).toBe(chosen[i]!.e4pid);
        expect((Date.parse(b.rental.expires_at) - Date.parse(b.rental.created_at)) / 1000).toBe(3 * DAY);
      }
      await forgetLimits(server, reader);
      const sixth = await rent(reader, rentable[30]!.e4pid);
      expect(sixth.status).toBe(409);
      expect(sixth.json().detail).toContain(limitText);
      const rows = await withDb(server, (db) => db.selectFrom('rentals').innerJoin('chapters', 'chapters.id', 'rentals.chapter_id')
        .select(['chapters.e4pid', 'rentals.kind']).where('rentals.user_id', '=', reader.id).execute());
      expect(rows.map((r) => r.kind)).toEqual(Array(5).fill('plan'));
      expect(rows.map((r) => r.e4pid).sort()).toEqual([...rented].sort());
      // /my/subscriptions/ says which chapters the five rentals went to, each linked, and until when.
      const mine = await server.request('/my/subscriptions/', { headers: { cookie: reader.cookie } });
      expect(mine.status).toBe(200);
      const mineText = htmlText(mine.text);
      expect(mineText).toContain(message('en', 'subscriptions.rentals.count', { used: 5, capacity: 5 }));
      const rentalLinks = [...mine.text.matchAll(/<ul class="subs-rentals[^"]*"[^>]*>([\s\S]*?)<\/ul>/g)].flatMap((m) => [...m[1]!.matchAll(/href="([^"]+)"/g)].map((h) => h[1]!));
      expect(rentalLinks).toHaveLength(5);
      for (const e4pid of rented) expect(rentalLinks.some((href) => href.includes(`/${e4pid.replace(/^EPI-/, '')}/`)), `a link to rented chapter ${e4pid}`).toBe(true);
      const untilText = message('en', 'subscriptions.rentals.until', { date: '\u0000' }).split('\u0000')[0]!;
      expect(mineText.split(untilText).length - 1).toBe(5);
      // A rented chapter is readable; one refused is not.
      expect(await readable(reader, rented[0]!)).toBe(true);
      expect(await readable(reader, rentable[30]!.e4pid)).toBe(false);
      // Signed out: 401.
      expect((await rent(null, rentable[31]?.e4pid ?? rentable[0]!.e4pid)).status).toBe(401);
    });

    // ------------------------------------------------------------------ 6. renewals

    it('a card subscription due: renew twice at once and twice more sells one renewal, PAID once, one period added', { timeout: 180_000 }, async () => {
      const reader = await createReader(server);
      const first = await subscribeCard(reader);
      expect(first.payment_token).toMatch(/^vault-/);
      const dueAt = now() + DAY;
      await moveClock(first.id, dueAt);
      const sub = await subOf(reader);
      const period = await nextPeriod(sub);
      expect(period.start).toBe(dueAt);

      // Done when done: the run that charged does not linger on open database connections (cron
      // would stack them up).
      expect(await renewTogether(sub.id)).toBeLessThan(9_000);
      const check = async () => {
        const charges = await chargesOf(sub.id);
        expect(charges.map((c) => ({ state: c.state, start: c.period_start, end: c.period_end, amount: c.amount, currency: c.currency })).at(-1))
          .toEqual({ state: 'PAID', start: period.start, end: period.end, amount: 499, currency: 'USD' });
        expect(charges).toHaveLength(2);
        const renewal = charges.at(-1)!;
        // The card was sold once for it.
        const sales = await withDb(server, (db) => db.selectFrom('sandbox_card_nonces').select('payment_id').where('order_id', '=', renewal.public_id).execute());
        expect(sales).toHaveLength(1);
        expect(renewal.payment_id).toBe(sales[0]!.payment_id);
        const after = await subOf(reader);
        expect(after).toMatchObject({ state: 'ACTIVE', paid_until: period.end });
        expect(period.end - dueAt).toBeGreaterThanOrEqual(28 * DAY);
        expect(period.end - dueAt).toBeLessThanOrEqual(31 * DAY);
        expect(await eventCount(sub.id, 'ACTIVE')).toBe(2);
      };
      await check();
      await renew();
      await renew();
      await check();
    });

    it('a Pix subscription due: one PENDING renewal charge with a BR Code however often renew runs; paying it extends the period', { timeout: 180_000 }, async () => {
      const { reader } = await paidPixReader();
      const first = await subOf(reader);
      const dueAt = now() + DAY;
      await moveClock(first.id, dueAt);
      const sub = await subOf(reader);
      const period = await nextPeriod(sub);

      await renewTogether(sub.id);
      await renew();
      const charges = await chargesOf(sub.id);
      expect(charges).toHaveLength(2);
      const renewal = charges.at(-1)!;
      expect(renewal).toMatchObject({ state: 'PENDING', method: 'pix', period_start: period.start, period_end: period.end, amount: 1490, currency: 'BRL' });
      // Payable until the grace ends.
      expect(Math.abs(renewal.expires_at! - (dueAt + 3 * DAY))).toBeLessThanOrEqual(5);
      const { parseBrCode } = await import('~/features/payments/index.server');
      const code = parseBrCode(renewal.br_code ?? '');
      expect(code.ok, JSON.stringify(code)).toBe(true);
      if (code.ok) expect(code.fields.amount).toBe(1490);
      expect(await sandboxCharge(renewal.public_id)).toHaveLength(1);
      expect(await subOf(reader)).toMatchObject({ state: 'ACTIVE', paid_until: dueAt });
      const before = await status(reader, renewal.public_id);
      expect(before.json()).toEqual({ success: false, trial_error: false, state: 'PENDING' });

      const paid = await pay(renewal.public_id);
      expect(paid.code, paid.stdout + paid.stderr).toBe(0);
      expect((await status(reader, renewal.public_id)).json()).toEqual({ success: true, trial_error: false, state: 'PAID' });
      expect(await subOf(reader)).toMatchObject({ state: 'ACTIVE', paid_until: period.end });
      expect(await eventCount(sub.id, 'ACTIVE')).toBe(2);
      // Not due any more: renew charges nothing new.
      await renew();
      expect(await chargesOf(sub.id)).toHaveLength(2);
    });

    // ------------------------------------------------------------------ 7. lifecycle

    it('a cancelled plan keeps access until the paid period ends, then expires (renew twice at once records it once)', { timeout: 180_000 }, async () => {
      const chapter = bySubscription[0]!;
      const reader = await createReader(server);
      expect(await readable(reader, chapter.e4pid)).toBe(false);
      const sub = await subscribeCard(reader);
      expect(await readable(reader, chapter.e4pid)).toBe(false);
      expect((await addComic(reader, chapter.seriesId)).status).toBe(200);
      expect(await readable(reader, chapter.e4pid)).toBe(true);

      const cancel = () => server.request('/my/subscriptions/cancel/', { method: 'POST', body: '', headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.origin(), cookie: reader.cookie } });
      const c1 = await cancel();
      expect([c1.status, c1.headers.location]).toEqual([303, '/my/subscriptions/']);
      expect((await cancel()).status).toBe(303);
      expect(await subOf(reader)).toMatchObject({ state: 'ACTIVE', cancel_at_period_end: 1 });
      expect((await eventsOf(sub.id)).filter((e) => e.source === 'reader' && /^cancelled/.test(e.detail ?? ''))).toHaveLength(1);
      // Signed out, the form goes to the login page and cancels nothing.
      const anonymous = await server.request('/my/subscriptions/cancel/', { method: 'POST', body: '', headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.origin() } });
      expect(anonymous.status).toBe(303);
      expect(anonymous.headers.location).toMatch(/^\/auth\/login\//);
      // The monthly plan ends when its rental month does: the page says so instead of promising new rentals that day.
      const page = htmlText((await server.request('/my/subscriptions/', { headers: { cookie: reader.cookie } })).text);
      expect(page).toContain(message('en', 'subscriptions.rentals.noRefill', { date: '\u0000' }).split('\u0000')[0]!);
      expect(page).not.toContain(message('en', 'subscriptions.rentals.resets', { date: '\u0000' }).split('\u0000')[0]!);

      // Two minutes before the paid period ends: still readable, not renewed (cancelled), not expired.
      await moveClock(sub.id, now() + 120);
      await renew();
      expect(await subOf(reader)).toMatchObject({ state: 'ACTIVE' });
      expect(await chargesOf(sub.id)).toHaveLength(1);
      expect(await readable(reader, chapter.e4pid)).toBe(true);

      // The paid period is over: no grace after a cancellation.
      await moveClock(sub.id, now() - 60);
      expect(await readable(reader, chapter.e4pid)).toBe(false);
      await renewTogether(sub.id);
      expect(await subOf(reader)).toMatchObject({ state: 'EXPIRED' });
      expect(await eventCount(sub.id, 'EXPIRED', 'renew')).toBe(1);
      expect(await eventCount(sub.id, 'PAST_DUE')).toBe(0);
      expect(await readable(reader, chapter.e4pid)).toBe(false);
      expect(await chargesOf(sub.id)).toHaveLength(1);
      expect((await addComic(reader, seriesIds[1])).status).toBe(402);
    });

    /**
     * Runs `observe(t)` inside one wall-clock second `t`, the server's "now" for every request it
     * makes (whole unix seconds, one per request, same machine): it starts just after a second
     * begins and is run again when it ran past it. It only observes; the caller asserts, so a
     * retried attempt never fails the test.
     */
    const withinOneSecond = async <R>(observe: (t: number) => Promise<R>): Promise<R> => {
      for (let attempt = 0; attempt < 10; attempt++) {
        await new Promise((r) => setTimeout(r, 1000 - (Date.now() % 1000) + 5));
        const t = now();
        const seen = await observe(t);
        if (now() === t) return seen;
      }
      throw new Error('no attempt ran within one second');
    };
    /** What /my/subscriptions/ says: the state, and the date line with its machine-readable instant. */
    const subscriptionsPage = async (reader: Reader, site: SiteName) => {
      const res = await server.request('/my/subscriptions/', { site, headers: { cookie: reader.cookie } });
      expect(res.status).toBe(200);
      const date = /<p class="subs-date"[^>]*><time datetime="([^"]+)"[^>]*>([\s\S]*?)<\/time><\/p>/.exec(res.text);
      const state = /data-testid="subscription-state"[^>]*>([\s\S]*?)<\/span>/.exec(res.text);
      return { state: htmlText(state?.[1] ?? ''), dateAt: date?.[1] ?? null, dateText: htmlText(date?.[2] ?? '') };
    };
    const until = async (at: number, locale: 'en' | 'pt-BR') => {
      const { longDateTimeLabel } = await import('~/lib/dates');
      return longDateTimeLabel(at, locale, locale === 'en' ? 'UTC' : 'America/Sao_Paulo');
    };
    const isoOf = (at: number) => new Date(at * 1000).toISOString();

    it('a trial gives access until the second it ends, as /my/subscriptions/ says, with no grace; then EXPIRED without going past due', { timeout: 180_000 }, async () => {
      const chapter = bySubscription[0]!;
      const reader = await createReader(server, { site: 'br' });
      const started = await subscribePix(reader, { tier_id: 'teste' });
      expect(started.status, started.text).toBe(200);
      const sub = await subOf(reader);
      expect(sub.state).toBe('TRIAL');
      expect((await addComic(reader, chapter.seriesId, 'br')).status).toBe(200);

      // A day before it ends, the first month is charged, payable until the trial ends (no longer).
      await moveClock(sub.id, now() + DAY);
      await renew();
      const [charge] = await chargesOf(sub.id);
      expect(charge).toMatchObject({ state: 'PENDING', method: 'pix' });
      expect(Math.abs(charge!.expires_at! - (now() + DAY))).toBeLessThanOrEqual(5);

      // One second before the trial ends: readable, and the page says it ends then.
      const before = await withinOneSecond(async (t) => {
        await moveClock(sub.id, t + 1);
        return { end: t + 1, readable: await readable(reader, chapter.e4pid, 'br'), page: await subscriptionsPage(reader, 'br') };
      });
      expect(before.readable).toBe(true);
      expect(before.page).toEqual({
        state: message('pt-BR', 'subscriptions.state.trial'),
        dateAt: isoOf(before.end),
        dateText: message('pt-BR', 'subscriptions.date.trialEnds', { date: await until(before.end, 'pt-BR') }),
      });

      // At the second it ends and one second after: not readable, and the page says it ended then.
      for (const past of [0, 1]) {
        const after = await withinOneSecond(async (t) => {
          await moveClock(sub.id, t - past);
          return { end: t - past, readable: await readable(reader, chapter.e4pid, 'br'), page: await subscriptionsPage(reader, 'br'), slot: await slotStatus(reader) };
        });
        expect(after.readable, `${past} s after the end`).toBe(false);
        expect(after.slot).toBe(402);
        expect(after.page).toEqual({
          state: message('pt-BR', 'subscriptions.state.expired'),
          dateAt: isoOf(after.end),
          dateText: message('pt-BR', 'subscriptions.date.ended', { date: await until(after.end, 'pt-BR') }),
        });
      }

      // The renewal command agrees: EXPIRED straight from the trial, never past due, once.
      await renewTogether(sub.id);
      expect(await subOf(reader)).toMatchObject({ state: 'EXPIRED' });
      expect((await eventsOf(sub.id)).filter((e) => e.state === 'EXPIRED')).toEqual([{ state: 'EXPIRED', source: 'renew', detail: 'the trial ended without a payment' }]);
      expect(await eventCount(sub.id, 'PAST_DUE')).toBe(0);
      await renew();
      expect(await eventCount(sub.id, 'EXPIRED')).toBe(1);
      expect(await readable(reader, chapter.e4pid, 'br')).toBe(false);
      expect(await chargesOf(sub.id)).toHaveLength(1);
    });

    it('an unpaid renewal: PAST_DUE and readable through the grace to its last second, as the page says; EXPIRED after it; each move recorded once', { timeout: 180_000 }, async () => {
      const chapter = bySubscription[0]!;
      const { reader } = await paidPixReader();
      const sub = await subOf(reader);
      expect((await addComic(reader, chapter.seriesId, 'br')).status).toBe(200);
      expect(await readable(reader, chapter.e4pid, 'br')).toBe(true);

      // The paid period ended a minute ago and nothing more was paid.
      const endedAt = now() - 60;
      await moveClock(sub.id, endedAt);
      await renewTogether(sub.id);
      expect(await subOf(reader)).toMatchObject({ state: 'PAST_DUE' });
      expect(await eventCount(sub.id, 'PAST_DUE', 'renew')).toBe(1);
      // Within the grace: readable, and the renewal waits to be paid until the grace ends.
      expect(await readable(reader, chapter.e4pid, 'br')).toBe(true);
      const charges = await chargesOf(sub.id);
      expect(charges.map((c) => c.state)).toEqual(['PAID', 'PENDING']);
      // Payable until the grace ends (the sandbox dates the charge from its own clock: a few seconds' leeway).
      expect(Math.abs(charges[1]!.expires_at! - (endedAt + 3 * DAY))).toBeLessThanOrEqual(5);
      await renewTogether(sub.id);
      expect(await subOf(reader)).toMatchObject({ state: 'PAST_DUE' });
      expect(await eventCount(sub.id, 'PAST_DUE')).toBe(1);
      expect(await chargesOf(sub.id)).toHaveLength(2);

      // The grace's last second: readable, and the page says access lasts until then.
      const last = await withinOneSecond(async (t) => {
        await moveClock(sub.id, t + 1 - 3 * DAY);
        return { end: t + 1, readable: await readable(reader, chapter.e4pid, 'br'), page: await subscriptionsPage(reader, 'br') };
      });
      expect(last.readable).toBe(true);
      expect(last.page).toEqual({
        state: message('pt-BR', 'subscriptions.state.pastDue'),
        dateAt: isoOf(last.end),
        dateText: message('pt-BR', 'subscriptions.date.accessUntil', { date: await until(last.end, 'pt-BR') }),
      });
      // One second after the grace.
      const over = await withinOneSecond(async (t) => {
        await moveClock(sub.id, t - 1 - 3 * DAY);
        return { readable: await readable(reader, chapter.e4pid, 'br'), state: (await subscriptionsPage(reader, 'br')).state };
      });
      expect(over).toEqual({ readable: false, state: message('pt-BR', 'subscriptions.state.expired') });
      await renewTogether(sub.id);
      expect(await subOf(reader)).toMatchObject({ state: 'EXPIRED' });
      expect((await eventsOf(sub.id)).filter((e) => e.state === 'EXPIRED')).toEqual([{ state: 'EXPIRED', source: 'renew', detail: 'the renewal was not paid within the grace' }]);
      expect(await eventCount(sub.id, 'PAST_DUE')).toBe(1);
      expect(await readable(reader, chapter.e4pid, 'br')).toBe(false);
      await renew();
      expect(await eventCount(sub.id, 'EXPIRED')).toBe(1);
    });

    // ------------------------------------------------------------------ 8. other readers, signed out, bad input

    it('another reader\'s check is 404, signed out is 401, bad input is a 4xx with a message in the site\'s language', { timeout: 120_000 }, async () => {
      const owner = await createReader(server, { site: 'br' });
      const check = ((await subscribePix(owner)).json() as PixAnswer).check!;
      const intruder = await createReader(server, { site: 'br' });
      for (const site of ['br', 'en'] as const) {
        const other = await status(intruder, check, site);
        expect([other.status, other.json().detail], site).toEqual([404, message(site === 'br' ? 'pt-BR' : 'en', 'purchase.error.order')]);
      }
      for (const bad of ['subnope', 'x'.repeat(65), `${check}x`, `ord${check.slice(3)}`]) expect((await status(intruder, bad)).status, bad).toBe(404);
      // A NUL in the path is refused before any route.
      expect((await status(intruder, 'sub%00')).status).toBe(400);
      expect((await status(owner, check)).json()).toEqual({ success: false, trial_error: false, state: 'PENDING' });

      // Signed out.
      const signedOut = await status(null, check);
      expect([signedOut.status, signedOut.json().detail]).toEqual([401, message('pt-BR', 'subscribe.error.loginStatus')]);
      const pixOut = await subscribePix(null);
      expect([pixOut.status, (pixOut.json() as PixAnswer).message]).toEqual([401, message('pt-BR', 'subscribe.error.login')]);
      expect((await form(server, null, '/my/subscribe/card/', { tier_id: 'reader', method: 'card', nonce: 'x' })).status).toBe(401);
      const comicOut = await addComic(null, seriesIds[0]);
      expect([comicOut.status, comicOut.json()]).toEqual([401, { success: false, error: message('en', 'subscribe.error.loginSeries'), slots_left: 0 }]);

      // Bad input, each refused with its message and no subscription made.
      const reader = await createReader(server, { site: 'br' });
      const refusals: [string, Record<string, string>, number, string][] = [
        ['a CPF with a wrong check digit', { pix_doc: '529.982.247-24' }, 422, 'subscribe.error.doc'],
        ['no document', { pix_doc: '' }, 422, 'subscribe.error.doc'],
        ['an empty name', { pix_name: '' }, 422, 'subscribe.error.name'],
        ['a name of markup', { pix_name: '<script>x</script>' }, 422, 'subscribe.error.name'],
        ['an unknown tier', { tier_id: 'nope' }, 404, 'subscribe.error.plan'],
        ['another site\'s tier', { tier_id: 'reader' }, 404, 'subscribe.error.plan'],
        ['no tier', { tier_id: '' }, 404, 'subscribe.error.plan'],
      ];
      for (const [what, fields, code, key] of refusals) {
        const res = await subscribePix(reader, fields);
        expect([res.status, res.json()], what).toMatchObject([code, { success: false, check: null, trial_error: false, message: message('pt-BR', key) }]);
      }
      const en = await createReader(server);
      const onEn = await subscribePix(en, { tier_id: 'reader' }, { site: 'en' });
      expect([onEn.status, (onEn.json() as PixAnswer).message]).toEqual([422, message('en', 'subscribe.error.pixOnly')]);
      const unknownEn = await subscribePix(en, { tier_id: 'leitor' }, { site: 'en' });
      expect([unknownEn.status, (unknownEn.json() as PixAnswer).message]).toEqual([404, message('en', 'subscribe.error.plan')]);
      const cardBad = await form(server, en, '/my/subscribe/card/', { tier_id: 'reader', method: 'bitcoin', nonce: 'x' });
      expect([cardBad.status, cardBad.json().message]).toEqual([422, message('en', 'purchase.error.method')]);
      const cardNonce = await form(server, en, '/my/subscribe/card/', { tier_id: 'reader', method: 'card', nonce: 'fake-nonce' });
      expect([cardNonce.status, cardNonce.json().message]).toEqual([422, message('en', 'purchase.error.nonce')]);
      for (const comicId of [null, '', 'SER-doesnotexist', 99999999999, { $ne: 1 }]) {
        const res = await addComic(en, comicId);
        expect(res.status, JSON.stringify(comicId)).toBeGreaterThanOrEqual(400);
        expect(res.status, JSON.stringify(comicId)).toBeLessThan(500);
        expect(res.json().success).toBe(false);
      }
      // From another origin: refused before anything is read.
      const cross = await subscribePix(reader, {}, { headers: { origin: 'http://evil.example' } });
      expect(cross.status).toBe(403);
      expect(await subsOf(reader)).toEqual([]);
      expect((await subsOf(en)).map((s) => s.state)).toEqual(['EXPIRED']);
    });

    // ------------------------------------------------------------------ 9. month ends

    // Runs the renewal command on days in 2028, which moves every other subscription of this
    // database past its grace: it stays the file's last test.
    it('a subscription anchored on Jan 31 renews to Feb 29 (2028), then to Mar 31', { timeout: 180_000 }, async () => {
      const reader = await createReader(server);
      const card = await subscribeCard(reader);
      const at = (iso: string) => Date.parse(iso) / 1000;
      const anchor = at('2028-01-31T12:00:00Z');
      // A trial that ends on Jan 31 with the card kept for renewals (the first card subscription put aside).
      const id = await withDb(server, async (db) => {
        await db.updateTable('subscriptions').set({ state: 'EXPIRED' }).where('id', '=', card.id).execute();
        const row = await db.insertInto('subscriptions').values({
          public_id: `sbs${hex(12)}`, user_id: reader.id, site_id: 1, plan_id: card.plan_id, state: 'TRIAL', anchor_at: anchor, paid_until: anchor,
          method: 'card', provider: 'card', payment_token: card.payment_token, created_at: now(), updated_at: now(),
        }).returning('id').executeTakeFirstOrThrow();
        // The reader's one trial is this one (the audit wants every TRIAL to be its reader's trial).
        await db.insertInto('trial_uses').values({ user_id: reader.id, subscription_id: row.id, created_at: now() }).execute();
        return Number(row.id);
      });
      const fake = (iso: string) => ({ NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import ${FAKE_CLOCK}`.trim(), INKPASS_FAKE_NOW: String(at(iso)) });

      await renew(1, fake('2028-01-29T12:00:00Z'));
      expect(await subOf(reader)).toMatchObject({ id, state: 'ACTIVE', paid_until: at('2028-02-29T12:00:00Z') });
      await renew(2, fake('2028-02-27T12:00:00Z'));
      expect(await subOf(reader)).toMatchObject({ id, state: 'ACTIVE', paid_until: at('2028-03-31T12:00:00Z') });
      const charges = await chargesOf(id);
      expect(charges.map((c) => [c.state, new Date(c.period_start * 1000).toISOString(), new Date(c.period_end * 1000).toISOString()])).toEqual([
        ['PAID', '2028-01-31T12:00:00.000Z', '2028-02-29T12:00:00.000Z'],
        ['PAID', '2028-02-29T12:00:00.000Z', '2028-03-31T12:00:00.000Z'],
      ]);
    });
  });
}
