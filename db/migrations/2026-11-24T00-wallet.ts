import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Frozen once landed. The keys ledger (docs/wallet.md): double-entry, append-only, two
// currencies (paid keys and Xtra keys), one balance row per account that only the ledger writes,
// a unique idempotency key per transaction; what a reader owns or rents; ad views.
export async function up(db: Kysely<any>): Promise<void> {
  const isPg = db.getExecutor().adapter instanceof PostgresAdapter;
  const id = (c: any) => (isPg ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement());

  // A reader's account, or a system account (key sales, unlock revenue, bonus issuance, grants)
  // that takes the other side of every entry; one row per owner and currency.
  await db.schema.createTable('wallet_accounts')
    .addColumn('id', 'integer', id)
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('restrict'))
    .addColumn('system_code', 'text')
    .addColumn('currency', 'text', (c) => c.notNull().check(sql`currency in ('keys', 'xtra')`))
    .addColumn('balance', 'bigint', (c) => c.notNull().defaultTo(0))
    .addCheckConstraint('wallet_accounts_owner', sql`(user_id is null) <> (system_code is null)`)
    // A reader can never owe keys; system accounts run negative as they issue them.
    .addCheckConstraint('wallet_accounts_user_balance', sql`user_id is null or balance >= 0`)
    .execute();
  await db.schema.createIndex('wallet_accounts_user_idx').on('wallet_accounts').columns(['user_id', 'currency']).unique().execute();
  await db.schema.createIndex('wallet_accounts_system_idx').on('wallet_accounts').columns(['system_code', 'currency']).unique().execute();

  await db.schema.createTable('ledger_transactions')
    .addColumn('id', 'integer', id)
    // Unique: a retried request finds the first transaction instead of writing a second.
    .addColumn('idempotency_key', 'text', (c) => c.notNull().unique())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('restrict'))
    .addColumn('chapter_id', 'integer', (c) => c.references('chapters.id').onDelete('restrict'))
    .addColumn('reason', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('ledger_transactions_user_idx').on('ledger_transactions').columns(['user_id', 'id']).execute();

  await db.schema.createTable('ledger_entries')
    .addColumn('id', 'integer', id)
    .addColumn('transaction_id', 'integer', (c) => c.notNull().references('ledger_transactions.id').onDelete('restrict'))
    .addColumn('account_id', 'integer', (c) => c.notNull().references('wallet_accounts.id').onDelete('restrict'))
    .addColumn('currency', 'text', (c) => c.notNull().check(sql`currency in ('keys', 'xtra')`))
    .addColumn('amount', 'bigint', (c) => c.notNull().check(sql`amount <> 0`))
    .execute();
  await db.schema.createIndex('ledger_entries_transaction_idx').on('ledger_entries').column('transaction_id').execute();
  await db.schema.createIndex('ledger_entries_account_idx').on('ledger_entries').columns(['account_id', 'id']).execute();

  // A chapter a reader owns for good, each bought by exactly one ledger transaction.
  await db.schema.createTable('chapter_unlocks')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('restrict'))
    .addColumn('chapter_id', 'integer', (c) => c.notNull().references('chapters.id').onDelete('restrict'))
    .addColumn('transaction_id', 'integer', (c) => c.notNull().unique().references('ledger_transactions.id').onDelete('restrict'))
    .addColumn('price', 'integer', (c) => c.notNull().check(sql`price > 0`))
    .addColumn('currency', 'text', (c) => c.notNull().check(sql`currency in ('keys', 'xtra')`))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('chapter_unlocks_pk', ['user_id', 'chapter_id'])
    .execute();

  // A chapter a reader may read until expires_at: by daily pass, an ad, or (later) a plan.
  await db.schema.createTable('rentals')
    .addColumn('id', 'integer', id)
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('chapter_id', 'integer', (c) => c.notNull().references('chapters.id').onDelete('cascade'))
    .addColumn('series_id', 'integer', (c) => c.notNull().references('series.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('daily_pass', 'ad', 'plan')`))
    .addColumn('transaction_id', 'integer', (c) => c.notNull().unique().references('ledger_transactions.id').onDelete('restrict'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('rentals_user_chapter_idx').on('rentals').columns(['user_id', 'chapter_id', 'expires_at']).execute();
  await db.schema.createIndex('rentals_user_series_idx').on('rentals').columns(['user_id', 'series_id', 'kind', 'created_at']).execute();

  // One house ad shown to a reader: the token is handed out when the ad starts and is good for
  // one rental, no sooner than the ad's minimum time.
  await db.schema.createTable('ad_views')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('chapter_id', 'integer', (c) => c.notNull().references('chapters.id').onDelete('cascade'))
    .addColumn('promoted_series_id', 'integer', (c) => c.references('series.id').onDelete('set null'))
    .addColumn('started_at', 'bigint', (c) => c.notNull())
    .addColumn('ready_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .execute();
  await db.schema.createIndex('ad_views_user_idx').on('ad_views').columns(['user_id', 'started_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['ad_views', 'rentals', 'chapter_unlocks', 'ledger_entries', 'ledger_transactions', 'wallet_accounts']) {
    await db.schema.dropTable(t).ifExists().execute();
  }
}
