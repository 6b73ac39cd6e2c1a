/**
 * The audit's subscription rules (docs/money-states.md), each proven by breaking the database the
 * way a bug would and watching `npm run keys -- audit` exit 1 naming the rule; each break is
 * undone in its test. A fresh database and server per dialect (`startServer`), with one reader
 * who subscribed by Pix and paid.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { appCheckHeader, createReader, npmRun, selectedDialects, startServer, withDb, type Reader, type ServerHandle } from './harness';

const RULES = {
  oneLive: 'a reader has at most one live subscription',
  granted: 'each paid charge granted exactly one period, of its own subscription',
  covered: "no live subscription without a paid period or a trial covering it (its paid time is its latest paid period's end, or the reader's one trial)",
  closed: 'no payment credited to a closed order or charge',
  refunds: 'every payment to refund matches a payment of that reader',
} as const;

function failedRules(stderr: string): string[] {
  return stderr.split('\n').map((l) => /^FAILED: (.+)$/.exec(l)?.[1]).filter((r): r is string => !!r);
}

for (const dialect of selectedDialects()) {
  describe(`the audit's subscription rules (${dialect})`, () => {
    let server: ServerHandle;
    let reader: Reader;
    let sub: { id: number; paid_until: number; user_id: number; plan_id: number };
    let charge: { id: number; public_id: string; payment_id: string; paid_at: number };

    const audit = () => npmRun(server.databaseUrl, 'keys', ['audit']);
    const failing = async () => {
      const r = await audit();
      expect(r.code, r.stdout + r.stderr).toBe(1);
      return failedRules(r.stderr);
    };

    beforeAll(async () => {
      server = await startServer({ dialect });
      reader = await createReader(server, { site: 'br' });
      const res = await server.request('/my/subscribe/pix/', {
        method: 'POST', site: 'br', body: new URLSearchParams({ tier_id: 'leitor', pix_name: 'Maria Silva', pix_doc: '52998224725' }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.origin('br'), cookie: reader.cookie, ...(await appCheckHeader(server, reader, 'br')) },
      });
      expect(res.status, res.text).toBe(200);
      const check = (res.json() as { check: string }).check;
      const paid = await npmRun(server.databaseUrl, 'payments', ['pay', check, '--url', `http://127.0.0.1:${server.port}`]);
      expect(paid.code, paid.stdout + paid.stderr).toBe(0);
      ({ sub, charge } = await withDb(server, async (db) => ({
        sub: await db.selectFrom('subscriptions').select(['id', 'paid_until', 'user_id', 'plan_id']).where('user_id', '=', reader.id).where('state', '=', 'ACTIVE').executeTakeFirstOrThrow(),
        charge: await db.selectFrom('subscription_charges').select(['id', 'public_id', 'payment_id', 'paid_at']).where('public_id', '=', check).executeTakeFirstOrThrow() as { id: number; public_id: string; payment_id: string; paid_at: number },
      })));
      sub = { id: Number(sub.id), paid_until: Number(sub.paid_until), user_id: Number(sub.user_id), plan_id: Number(sub.plan_id) };
      charge = { ...charge, id: Number(charge.id), paid_at: Number(charge.paid_at) };
    }, 300_000);
    afterAll(async () => {
      await server?.stop();
    });

    it('holds on a whole database: a reader subscribed and paid', async () => {
      const r = await audit();
      expect(r.code, r.stdout + r.stderr).toBe(0);
    });

    it('a second live subscription for the reader (the partial unique index dropped first, as a bug in a migration would)', async () => {
      await withDb(server, async (db) => {
        await sql`drop index subscriptions_one_live_idx`.execute(db);
        await db.insertInto('subscriptions').values({ public_id: `sbsaudit${reader.id}`, user_id: reader.id, site_id: 3, plan_id: sub.plan_id, state: 'PENDING', anchor_at: 1, paid_until: 1, method: 'pix', provider: 'pix', payer_name: null, payer_doc: null, created_at: 1, updated_at: 1 }).execute();
      });
      try {
        expect(await failing()).toContain(RULES.oneLive);
      } finally {
        await withDb(server, async (db) => {
          await db.deleteFrom('subscriptions').where('public_id', '=', `sbsaudit${reader.id}`).execute();
          await sql`create unique index subscriptions_one_live_idx on subscriptions (user_id) where state in ('PENDING', 'TRIAL', 'ACTIVE', 'PAST_DUE')`.execute(db);
        });
      }
      expect((await audit()).code).toBe(0);
    });

    it('a paid charge whose period was granted twice, or to another subscription, or not at all', async () => {
      const event = () => withDb(server, (db) => db.selectFrom('subscription_events').select('id').where('charge_id', '=', charge.id).executeTakeFirstOrThrow());
      const { id } = await event();
      await withDb(server, (db) => db.updateTable('subscription_events').set({ charge_id: null }).where('id', '=', id).execute());
      try {
        expect(await failing()).toContain(RULES.granted);
      } finally {
        await withDb(server, (db) => db.updateTable('subscription_events').set({ charge_id: charge.id }).where('id', '=', id).execute());
      }
      await withDb(server, (db) => db.insertInto('subscription_events').values({ subscription_id: sub.id, state: 'ACTIVE', source: 'webhook', detail: 'twice', charge_id: charge.id, created_at: 1 }).execute());
      try {
        expect(await failing()).toContain(RULES.granted);
      } finally {
        await withDb(server, (db) => db.deleteFrom('subscription_events').where('detail', '=', 'twice').where('charge_id', '=', charge.id).execute());
      }
      expect((await audit()).code).toBe(0);
    });

    it('a subscription whose paid time was moved without a payment (the revival bug: paid_until or ACTIVE set by hand)', async () => {
      await withDb(server, (db) => db.updateTable('subscriptions').set({ paid_until: sub.paid_until + 86_400 }).where('id', '=', sub.id).execute());
      try {
        expect(await failing()).toContain(RULES.covered);
      } finally {
        await withDb(server, (db) => db.updateTable('subscriptions').set({ paid_until: sub.paid_until }).where('id', '=', sub.id).execute());
      }
      expect((await audit()).code).toBe(0);
    });

    it('a closed charge that granted its period anyway', async () => {
      await withDb(server, (db) => db.updateTable('subscription_charges').set({ state: 'EXPIRED', paid_at: null, payment_id: null }).where('id', '=', charge.id).execute());
      try {
        expect(await failing()).toContain(RULES.closed);
      } finally {
        await withDb(server, (db) => db.updateTable('subscription_charges').set({ state: 'PAID', paid_at: charge.paid_at, payment_id: charge.payment_id }).where('id', '=', charge.id).execute());
      }
      expect((await audit()).code).toBe(0);
    });

    it('a payment to refund that matches no payment of that reader', async () => {
      await withDb(server, (db) => db.insertInto('refunds_due').values({ user_id: reader.id, payable_kind: 'charge', payable_id: 'subnosuchcharge', provider: 'pix-sandbox', payment_id: 'E2Emadeup', amount: 1490, currency: 'BRL', reason: 'made up', created_at: 1 }).execute());
      try {
        expect(await failing()).toContain(RULES.refunds);
      } finally {
        await withDb(server, (db) => db.deleteFrom('refunds_due').where('payment_id', '=', 'E2Emadeup').execute());
      }
      expect((await audit()).code).toBe(0);
    });
  });
}
