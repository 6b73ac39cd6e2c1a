/**
 * The staff command for keys (`npm run keys -- …`, scripts/keys.ts) as staff run it, on a fresh
 * database per dialect (`startServer`: its own seeded database and server, so nothing here can
 * disturb the shared ones): `audit` exits 0 on a whole ledger, and exits 1 naming the rule and
 * printing the offending rows when one invariant is broken directly in the database; `balance`
 * and `grant` print what the ledger holds, grants are idempotent on `--key`, and bad arguments
 * exit 2 with a message and the usage, before anything is written. Each corruption is undone in
 * its test, and the ledger audit passes after every test.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { appCheckHeader, createReader, npmRun, selectedDialects, startServer, withDb, type Reader, type Run, type ServerHandle } from './harness';

const now = () => Math.floor(Date.now() / 1000);


/** `npm run keys -- …args` on a database, as staff would type it. */
const keys = (databaseUrl: string, args: string[]): Promise<Run> => npmRun(databaseUrl, 'keys', args);

/** The audit's report: each failed rule with the rows it printed under it. */
function findingsIn(stderr: string): Record<string, Record<string, unknown>[]> {
  const out: Record<string, Record<string, unknown>[]> = {};
  let rule: string | null = null;
  for (const line of stderr.split('\n')) {
    const failed = /^FAILED: (.+)$/.exec(line);
    if (failed) out[(rule = failed[1]!)] = [];
    else if (rule && line.startsWith('  {')) out[rule]!.push(JSON.parse(line.trim()) as Record<string, unknown>);
  }
  return out;
}

const RULE = {
  unbalanced: 'entries of a transaction sum to zero per currency',
  drift: 'a balance equals the sum of its entries',
  negative: 'no reader balance is negative',
  totals: 'all accounts sum to zero per currency',
  ownership: 'each ownership is tied to one unlock that charged its price',
  charge: 'each unlock charge bought an ownership',
  bonus: 'a bonus of floor(price / 10) Xtra keys is given back exactly when the price is above 9',
} as const;

for (const dialect of selectedDialects()) {
  describe(`npm run keys (${dialect})`, () => {
    let server: ServerHandle;
    let reader: Reader;
    /** The reader's setup grant, and two chapters they bought through the redeem call: one above 9 keys (with its bonus), one at 9 or less. */
    let grantTx: number;
    let pricey: { id: number; price: number; tx: number };
    let cheap: { id: number; price: number; tx: number };
    /** A paid chapter at 9 keys or less the reader does not own. */
    let other: { id: number; price: number };

    const run = (...args: string[]) => keys(server.databaseUrl, args);
    const audit = () => withDb(server, async (db) => (await import('~/features/wallet/index.server')).auditLedger(db));
    const balances = (userId: number) => withDb(server, async (db) => (await import('~/features/wallet/index.server')).balancesOf(db, userId));
    const accountId = (owner: { user: number } | { system: string }, currency: 'keys' | 'xtra') =>
      withDb(server, async (db) => {
        const q = db.selectFrom('wallet_accounts').select('id').where('currency', '=', currency);
        const row = await ('user' in owner ? q.where('user_id', '=', owner.user) : q.where('system_code', '=', owner.system)).executeTakeFirstOrThrow();
        return Number(row.id);
      });
    const redeem = async (e4pid: string) =>
      server.request('/api/redeem/', { method: 'POST', body: `content=${e4pid}`, headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.origin(), cookie: reader.cookie, ...(await appCheckHeader(server, reader)) } });
    /** Runs the audit command on the corrupted database and returns its findings (it must exit 1). */
    const failingAudit = async () => {
      const r = await run('audit');
      expect(r.code, r.stdout + r.stderr).toBe(1);
      expect(r.stdout).not.toContain('every invariant holds');
      return findingsIn(r.stderr);
    };

    beforeAll(async () => {
      server = await startServer({ dialect });
      reader = await createReader(server);
      grantTx = await withDb(server, async (db) => {
        const { grantKeys } = await import('~/features/wallet/index.server');
        await grantKeys(db, { userId: reader.id, keys: 300, xtra: 0, reason: 'keys-cli setup', key: `keys-cli:${reader.id}`, now: now() });
        return Number((await db.selectFrom('ledger_transactions').select('id').where('idempotency_key', '=', `keys-cli:${reader.id}`).executeTakeFirstOrThrow()).id);
      });
      const chapters = await withDb(server, async (db) => {
        const { pricingContext, accessIn } = await import('~/features/catalog/index.server');
        const t = now();
        const paid = (low: number, high: number) => db.selectFrom('chapters').innerJoin('series', 'series.id', 'chapters.series_id').select(['chapters.id', 'chapters.e4pid'])
          .where('series.state', '=', 'ACTIVE').where('series.geoblocks', 'in', ['[]', '']).where('chapters.original_price', '>=', low).where('chapters.original_price', '<=', high)
          .where('chapters.released_at', '<=', t - 86400).where('chapters.sale_at', '<=', t - 86400).orderBy('chapters.id').limit(200).execute();
        const rows = [...(await paid(10, 1000)), ...(await paid(1, 9))];
        const rich = { owned: false, rentals: [], balances: { keys: 1e6, xtra: 0 }, dailyPassUsedAt: null, adsWatched: 0, subscription: null };
        const found: { id: number; e4pid: string; price: number }[] = [];
        for (const r of rows) {
          const a = accessIn((await pricingContext(db, r.e4pid, t))!, rich, null, t);
          if (a.unlockMethods.keys.open && a.finalPrice > 0 && a.readableUntil === null) found.push({ id: Number(r.id), e4pid: r.e4pid, price: a.finalPrice });
        }
        return found;
      });
      const above = chapters.find((c) => c.price > 9);
      const [low, low2] = chapters.filter((c) => c.price <= 9);
      if (!above || !low || !low2) throw new Error('the demo catalogue needs a chapter above 9 keys and two at 9 or less');
      const bought = async (c: { id: number; e4pid: string; price: number }) => {
        const res = await redeem(c.e4pid);
        expect(res.status, res.text).toBe(200);
        const tx = await withDb(server, (db) => db.selectFrom('chapter_unlocks').select('transaction_id').where('user_id', '=', reader.id).where('chapter_id', '=', c.id).executeTakeFirstOrThrow());
        return { id: c.id, price: c.price, tx: Number(tx.transaction_id) };
      };
      pricey = await bought(above);
      cheap = await bought(low);
      other = { id: low2.id, price: low2.price };
    }, 300_000);

    afterAll(async () => {
      await server?.stop();
    });

    afterEach(async () => {
      expect(await audit()).toEqual([]);
    });

    it('audit: a whole ledger (the demo grants, real unlocks and bonuses) exits 0 and says so', async () => {
      const r = await run('audit');
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout.trim()).toBe('ledger audit: every invariant holds');
      expect(r.stderr).toBe('');
    });

    it('audit: a transaction whose entries do not sum to zero', async () => {
      const grants = await accountId({ system: 'grants' }, 'keys');
      const corrupt = (by: number) =>
        withDb(server, async (db) => {
          await db.updateTable('ledger_entries').set({ amount: sql`amount + ${by}` }).where('transaction_id', '=', grantTx).where('account_id', '=', grants).execute();
          // The balance follows its entries, so only the transaction (and the ledger's total) is wrong.
          await db.updateTable('wallet_accounts').set({ balance: sql`balance + ${by}` }).where('id', '=', grants).execute();
        });
      await corrupt(1);
      try {
        const found = await failingAudit();
        expect(Object.keys(found).sort()).toEqual([RULE.totals, RULE.unbalanced].sort());
        expect(found[RULE.unbalanced]).toEqual([{ transaction_id: grantTx, currency: 'keys', total: 1 }]);
        expect(found[RULE.totals]).toEqual([{ currency: 'keys', total: 1 }]);
      } finally {
        await corrupt(-1);
      }
    });

    it('audit: a balance row that drifts from the sum of its entries', async () => {
      const mine = await accountId({ user: reader.id }, 'keys');
      const before = (await balances(reader.id)).keys;
      const corrupt = (by: number) => withDb(server, (db) => db.updateTable('wallet_accounts').set({ balance: sql`balance + ${by}` }).where('id', '=', mine).execute());
      await corrupt(7);
      try {
        const found = await failingAudit();
        expect(Object.keys(found).sort()).toEqual([RULE.drift, RULE.totals].sort());
        expect(found[RULE.drift]).toEqual([{ id: mine, user_id: reader.id, system_code: null, currency: 'keys', balance: before + 7, total: before }]);
        expect(found[RULE.totals]).toEqual([{ currency: 'keys', total: 7 }]);
      } finally {
        await corrupt(-7);
      }
    });

    it('the database CHECK refuses a negative reader balance', async () => {
      const mine = await accountId({ user: reader.id }, 'keys');
      const before = await balances(reader.id);
      await expect(withDb(server, (db) => db.updateTable('wallet_accounts').set({ balance: -1 }).where('id', '=', mine).execute())).rejects.toThrow(/wallet_accounts_user_balance/);
      expect(await balances(reader.id)).toEqual(before);
    });

    // PostgreSQL enforces a CHECK for every session (short of changing the table), so the test
    // above is the whole story there. SQLite lets a connection switch CHECKs off: the audit must
    // still catch a negative balance written that way, even one whose entries add up.
    if (dialect === 'sqlite') it('audit: a negative reader balance written past the CHECK (SQLite ignore_check_constraints)', async () => {
      const mine = await accountId({ user: reader.id }, 'keys');
      const grants = await accountId({ system: 'grants' }, 'keys');
      const before = (await balances(reader.id)).keys;
      const take = before + 3;
      const key = `keys-cli:negative:${reader.id}`;
      await withDb(server, async (db) => {
        await sql`pragma ignore_check_constraints = on`.execute(db);
        const tx = await db.insertInto('ledger_transactions').values({ idempotency_key: key, kind: 'grant', user_id: reader.id, chapter_id: null, reason: 'corruption', created_at: now() }).returning('id').executeTakeFirstOrThrow();
        await db.insertInto('ledger_entries').values([
          { transaction_id: Number(tx.id), account_id: mine, currency: 'keys', amount: -take },
          { transaction_id: Number(tx.id), account_id: grants, currency: 'keys', amount: take },
        ]).execute();
        await db.updateTable('wallet_accounts').set({ balance: sql`balance - ${take}` }).where('id', '=', mine).execute();
        await db.updateTable('wallet_accounts').set({ balance: sql`balance + ${take}` }).where('id', '=', grants).execute();
        await sql`pragma ignore_check_constraints = off`.execute(db);
      });
      try {
        const found = await failingAudit();
        expect(Object.keys(found)).toEqual([RULE.negative]);
        expect(found[RULE.negative]).toEqual([{ id: mine, user_id: reader.id, currency: 'keys', balance: -3 }]);
      } finally {
        await withDb(server, async (db) => {
          const tx = await db.selectFrom('ledger_transactions').select('id').where('idempotency_key', '=', key).executeTakeFirstOrThrow();
          await db.deleteFrom('ledger_entries').where('transaction_id', '=', tx.id).execute();
          await db.deleteFrom('ledger_transactions').where('id', '=', tx.id).execute();
          await db.updateTable('wallet_accounts').set({ balance: sql`balance + ${take}` }).where('id', '=', mine).execute();
          await db.updateTable('wallet_accounts').set({ balance: sql`balance - ${take}` }).where('id', '=', grants).execute();
        });
      }
    });

    it('audit: an ownership no charge paid for', async () => {
      const key = `keys-cli:free-ownership:${reader.id}`;
      const tx = await withDb(server, async (db) => {
        const row = await db.insertInto('ledger_transactions').values({ idempotency_key: key, kind: 'unlock', user_id: reader.id, chapter_id: other.id, reason: null, created_at: now() }).returning('id').executeTakeFirstOrThrow();
        await db.insertInto('chapter_unlocks').values({ user_id: reader.id, chapter_id: other.id, transaction_id: Number(row.id), price: other.price, currency: 'keys', created_at: now() }).execute();
        return Number(row.id);
      });
      try {
        const found = await failingAudit();
        expect(Object.keys(found)).toEqual([RULE.ownership]);
        expect(found[RULE.ownership]).toEqual([expect.objectContaining({ user_id: reader.id, chapter_id: other.id, transaction_id: tx, price: other.price })]);
      } finally {
        await withDb(server, async (db) => {
          await db.deleteFrom('chapter_unlocks').where('transaction_id', '=', tx).execute();
          await db.deleteFrom('ledger_transactions').where('id', '=', tx).execute();
        });
      }
    });

    it('audit: a second charge for a chapter the reader already owns', async () => {
      const mine = await accountId({ user: reader.id }, 'keys');
      const revenue = await accountId({ system: 'unlock_revenue' }, 'keys');
      const key = `keys-cli:second-charge:${reader.id}`;
      const tx = await withDb(server, async (db) => {
        const row = await db.insertInto('ledger_transactions').values({ idempotency_key: key, kind: 'unlock', user_id: reader.id, chapter_id: pricey.id, reason: null, created_at: now() }).returning('id').executeTakeFirstOrThrow();
        await db.insertInto('ledger_entries').values([
          { transaction_id: Number(row.id), account_id: mine, currency: 'keys', amount: -pricey.price },
          { transaction_id: Number(row.id), account_id: revenue, currency: 'keys', amount: pricey.price },
        ]).execute();
        await db.updateTable('wallet_accounts').set({ balance: sql`balance - ${pricey.price}` }).where('id', '=', mine).execute();
        await db.updateTable('wallet_accounts').set({ balance: sql`balance + ${pricey.price}` }).where('id', '=', revenue).execute();
        return Number(row.id);
      });
      try {
        const found = await failingAudit();
        expect(Object.keys(found)).toEqual([RULE.charge]);
        expect(found[RULE.charge]).toEqual([{ id: tx, user_id: reader.id, chapter_id: pricey.id }]);
      } finally {
        await withDb(server, async (db) => {
          await db.deleteFrom('ledger_entries').where('transaction_id', '=', tx).execute();
          await db.deleteFrom('ledger_transactions').where('id', '=', tx).execute();
          await db.updateTable('wallet_accounts').set({ balance: sql`balance + ${pricey.price}` }).where('id', '=', mine).execute();
          await db.updateTable('wallet_accounts').set({ balance: sql`balance - ${pricey.price}` }).where('id', '=', revenue).execute();
        });
      }
    });

    it('audit: the bonus missing from an unlock above 9 keys', async () => {
      const mineXtra = await accountId({ user: reader.id }, 'xtra');
      const issuance = await accountId({ system: 'bonus_issuance' }, 'xtra');
      const bonus = Math.floor(pricey.price / 10);
      const bonusEntries = () => withDb(server, (db) => db.selectFrom('ledger_entries').select(['transaction_id', 'account_id', 'currency', 'amount'])
        .where('transaction_id', '=', pricey.tx).where('currency', '=', 'xtra').where('account_id', 'in', [mineXtra, issuance]).where('amount', '<>', -pricey.price).execute());
      const saved = (await bonusEntries()).map((e) => ({ ...e, transaction_id: Number(e.transaction_id), account_id: Number(e.account_id), amount: Number(e.amount) }));
      expect(saved.map((e) => e.amount).sort((a, b) => a - b)).toEqual([-bonus, bonus]);
      // Taken out entries and balances alike: the transaction still balances, only the bonus is gone.
      const move = (sign: 1 | -1) =>
        withDb(server, async (db) => {
          await db.updateTable('wallet_accounts').set({ balance: sql`balance + ${sign * bonus}` }).where('id', '=', mineXtra).execute();
          await db.updateTable('wallet_accounts').set({ balance: sql`balance - ${sign * bonus}` }).where('id', '=', issuance).execute();
        });
      await withDb(server, (db) => db.deleteFrom('ledger_entries').where('transaction_id', '=', pricey.tx).where('currency', '=', 'xtra').where('account_id', 'in', [mineXtra, issuance]).where('amount', '<>', -pricey.price).execute());
      await move(-1);
      try {
        const found = await failingAudit();
        expect(Object.keys(found)).toEqual([RULE.bonus]);
        expect(found[RULE.bonus]).toEqual([{ transaction_id: pricey.tx, price: pricey.price, user_id: reader.id, bonus: 0 }]);
      } finally {
        await withDb(server, (db) => db.insertInto('ledger_entries').values(saved).execute());
        await move(1);
      }
    });

    it('audit: a bonus given for an unlock of 9 keys or less', async () => {
      const mineXtra = await accountId({ user: reader.id }, 'xtra');
      const issuance = await accountId({ system: 'bonus_issuance' }, 'xtra');
      await withDb(server, async (db) => {
        await db.insertInto('ledger_entries').values([
          { transaction_id: cheap.tx, account_id: mineXtra, currency: 'xtra', amount: 1 },
          { transaction_id: cheap.tx, account_id: issuance, currency: 'xtra', amount: -1 },
        ]).execute();
        await db.updateTable('wallet_accounts').set({ balance: sql`balance + 1` }).where('id', '=', mineXtra).execute();
        await db.updateTable('wallet_accounts').set({ balance: sql`balance - 1` }).where('id', '=', issuance).execute();
      });
      try {
        const found = await failingAudit();
        expect(Object.keys(found)).toEqual([RULE.bonus]);
        expect(found[RULE.bonus]).toEqual([{ transaction_id: cheap.tx, price: cheap.price, user_id: reader.id, bonus: 1 }]);
      } finally {
        await withDb(server, async (db) => {
          await db.deleteFrom('ledger_entries').where('transaction_id', '=', cheap.tx)
            .where((eb) => eb.or([eb.and([eb('account_id', '=', mineXtra), eb('amount', '=', 1)]), eb.and([eb('account_id', '=', issuance), eb('amount', '=', -1)])])).execute();
          await db.updateTable('wallet_accounts').set({ balance: sql`balance - 1` }).where('id', '=', mineXtra).execute();
          await db.updateTable('wallet_accounts').set({ balance: sql`balance + 1` }).where('id', '=', issuance).execute();
        });
      }
    });

    it('balance: prints both balances from the ledger, whatever the email\'s case; an unknown email exits 1', async () => {
      const b = await balances(reader.id);
      const line = `${reader.email}: ${b.keys} keys, ${b.xtra} Xtra keys`;
      for (const email of [reader.email, ` ${reader.email.toUpperCase()} `]) {
        const r = await run('balance', '--email', email);
        expect(r.code, r.stderr).toBe(0);
        expect(r.stdout.trim()).toBe(line);
      }
      const unknown = await run('balance', '--email', 'nobody-here@example.test');
      expect(unknown.code).toBe(1);
      expect(unknown.stderr.trim()).toBe('No account with the email nobody-here@example.test.');
    });

    it('grant: credits both currencies as one grant with its reason, and --key makes a repeat credit nothing', async () => {
      const q = await createReader(server);
      const first = await run('grant', '--email', q.email, '--keys', '30', '--xtra', '10', '--reason', 'support ticket 123');
      expect(first.code, first.stderr).toBe(0);
      expect(first.stdout.trim()).toBe(`Granted: ${q.email} now has 30 keys, 10 Xtra keys.`);
      expect(await balances(q.id)).toEqual({ keys: 30, xtra: 10 });
      const grants = () => withDb(server, (db) => db.selectFrom('ledger_transactions').select(['kind', 'reason']).where('user_id', '=', q.id).orderBy('id').execute());
      expect(await grants()).toEqual([{ kind: 'grant', reason: 'support ticket 123' }]);
      // The same --key twice (a retried command): one credit, and the second run says so.
      const once = await run('grant', '--email', q.email, '--keys', '5', '--reason', 'ticket 7', '--key', `ticket-7-${q.id}`);
      expect(once.stdout.trim()).toBe(`Granted: ${q.email} now has 35 keys, 10 Xtra keys.`);
      const again = await run('grant', '--email', q.email, '--keys', '5', '--reason', 'ticket 7', '--key', `ticket-7-${q.id}`);
      expect(again.code, again.stderr).toBe(0);
      expect(again.stdout.trim()).toBe(`Already granted (same --key): ${q.email} now has 35 keys, 10 Xtra keys.`);
      expect(await balances(q.id)).toEqual({ keys: 35, xtra: 10 });
      expect(await grants()).toHaveLength(2);
      // Without --key every run is a grant of its own.
      await run('grant', '--email', q.email, '--keys', '1', '--reason', 'twice');
      await run('grant', '--email', q.email, '--keys', '1', '--reason', 'twice');
      expect(await balances(q.id)).toEqual({ keys: 37, xtra: 10 });
      // A --key belongs to the reader it was used for: another reader with the same key is credited.
      const other = await createReader(server);
      const theirs = await run('grant', '--email', other.email, '--keys', '5', '--reason', 'ticket 7', '--key', `ticket-7-${q.id}`);
      expect(theirs.stdout.trim()).toBe(`Granted: ${other.email} now has 5 keys, 0 Xtra keys.`);
      expect(await balances(other.id)).toEqual({ keys: 5, xtra: 0 });
      const unknown = await run('grant', '--email', 'nobody-here@example.test', '--keys', '5', '--reason', 'x');
      expect(unknown.code).toBe(1);
      expect(unknown.stderr.trim()).toBe('No account with the email nobody-here@example.test.');
    });

    it('bad arguments exit 2 with what is wrong and the usage, and change nothing', async () => {
      const q = await createReader(server);
      const e = q.email;
      const cases: [string[], RegExp][] = [
        [['grant', '--email', e, '--keys', 'lots', '--reason', 'r'], /^--keys must be a whole number of keys$/m],
        [['grant', '--email', e, '--keys', '-5', '--reason', 'r'], /'--keys' argument is ambiguous/],
        [['grant', '--email', e, '--xtra', '1.5', '--reason', 'r'], /^--xtra must be a whole number of keys$/m],
        [['grant', '--email', e, '--keys', '9999999999', '--reason', 'r'], /^--keys must be a whole number of keys$/m],
        [['grant', '--email', e, '--reason', 'r'], /^grant at least one key \(--keys or --xtra\)$/m],
        [['grant', '--email', e, '--keys', '0', '--xtra', '0', '--reason', 'r'], /^grant at least one key/m],
        [['grant', '--email', e, '--keys', '5'], /^--reason is required$/m],
        [['grant', '--email', e, '--keys', '5', '--reason', '   '], /^--reason is required$/m],
        [['grant', '--keys', '5', '--reason', 'r'], /^--email is required$/m],
        [['balance'], /^--email is required$/m],
        [['grant', '--email', e, '--keys', '5', '--reason', 'r', '--bogus', 'x'], /Unknown option '--bogus'/],
        [['refund', '--email', e], /^Unknown command "refund"\.$/m],
        [['audit', 'now'], /^Unexpected argument "now"\.$/m],
        [[], /^Usage: npm run keys -- grant/m],
      ];
      const results = await Promise.all(cases.map(([args]) => run(...args)));
      cases.forEach(([args, wanted], i) => {
        const r = results[i]!;
        const what = `keys ${args.join(' ')}`;
        expect(r.code, what).toBe(2);
        expect(r.stderr, what).toMatch(wanted);
        expect(r.stderr, what).toMatch(/^Usage: npm run keys -- grant --email <email>/m);
        expect(r.stdout, what).toBe('');
      });
      expect(await balances(q.id)).toEqual({ keys: 0, xtra: 0 });
      expect(await withDb(server, (db) => db.selectFrom('ledger_transactions').select('id').where('user_id', '=', q.id).execute())).toEqual([]);
      // Fourteen processes at once: on a busy two-core machine they need more than the default.
    }, 120_000);
  });
}
