import { type Kysely, sql } from 'kysely';

// Frozen once landed. Balances live in the keys ledger (wallet_accounts, docs/wallet.md); the
// two counters on users that came before it are dropped so nothing can read or write a second
// truth. A reader who still has keys there and never had a ledger transaction gets them as one
// grant first (a database seeded before the ledger); anyone else's counters are leftovers.
export async function up(db: Kysely<any>): Promise<void> {
  const now = Math.floor(Date.now() / 1000);
  const holders = await db.selectFrom('users').select(['id', 'keys', 'free_keys'])
    .where((eb) => eb.or([eb('keys', '>', 0), eb('free_keys', '>', 0)]))
    .where((eb) => eb.not(eb.exists(eb.selectFrom('ledger_transactions').select(sql.lit(1).as('one')).whereRef('ledger_transactions.user_id', '=', 'users.id'))))
    .execute();
  const account = async (owner: { user_id: number } | { system_code: string }, currency: 'keys' | 'xtra') => {
    const q = db.selectFrom('wallet_accounts').select('id').where('currency', '=', currency);
    const found = await ('user_id' in owner ? q.where('user_id', '=', owner.user_id) : q.where('system_code', '=', owner.system_code)).executeTakeFirst();
    if (found) return Number(found.id);
    const row = await db.insertInto('wallet_accounts').values({ user_id: null, system_code: null, ...owner, currency, balance: 0 }).returning('id').executeTakeFirstOrThrow();
    return Number(row.id);
  };
  for (const u of holders) {
    const tx = await db.insertInto('ledger_transactions')
      .values({ idempotency_key: `migrated:user-balances:${u.id}`, kind: 'grant', user_id: u.id, chapter_id: null, reason: 'balance before the ledger', created_at: now })
      .returning('id').executeTakeFirstOrThrow();
    for (const [currency, amount] of [['keys', Number(u.keys)], ['xtra', Number(u.free_keys)]] as const) {
      if (amount <= 0) continue;
      const mine = await account({ user_id: Number(u.id) }, currency);
      const grants = await account({ system_code: 'grants' }, currency);
      await db.insertInto('ledger_entries').values([
        { transaction_id: tx.id, account_id: mine, currency, amount },
        { transaction_id: tx.id, account_id: grants, currency, amount: -amount },
      ]).execute();
      await db.updateTable('wallet_accounts').set({ balance: sql`balance + ${amount}` }).where('id', '=', mine).execute();
      await db.updateTable('wallet_accounts').set({ balance: sql`balance - ${amount}` }).where('id', '=', grants).execute();
    }
  }
  await db.schema.alterTable('users').dropColumn('keys').execute();
  await db.schema.alterTable('users').dropColumn('free_keys').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').addColumn('keys', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('users').addColumn('free_keys', 'integer', (c) => c.notNull().defaultTo(0)).execute();
}
