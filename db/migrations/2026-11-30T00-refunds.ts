import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen once landed. Refunds (issue 28, docs/money-states.md, docs/payments.md):
// - orders and subscription charges gain two final states, REFUNDED and PARTIALLY_REFUNDED; the
//   "paid" checks now say that every paid-then-refunded record keeps its payment;
// - `refunds`: one per refunded payable (a partial unique index over the live ones makes a
//   second refund of the same order impossible, whatever the concurrency), with its keys held in
//   the ledger while the provider is asked, and the provider's refund id once it confirmed (a
//   CHECK: no confirmed refund without one);
// - `refund_events`: every state a refund entered, with what said so;
// - `refunds_due` learns who resolved a row and by which refund;
// - `sandbox_refunds`: the demo sandboxes' side of a refund (the card and Pix stand-ins).
//
// SQLite cannot change a CHECK in place, so `orders` and `subscription_charges` are rebuilt
// (the procedure of SQLite's "ALTER TABLE" page, section 7: foreign keys off, a new table from the
// stored definition with the new checks, rows copied, old table dropped, new one renamed, indexes
// made again, foreign keys checked). Kysely runs SQLite migrations outside a transaction, so the
// rebuild opens its own.
const PAID_LIKE = `'PAID', 'REFUNDED', 'PARTIALLY_REFUNDED'`;
const STATES = `'PENDING', 'PAID', 'FAILED', 'EXPIRED', 'REFUNDED', 'PARTIALLY_REFUNDED'`;
const OLD_STATES = `state in ('PENDING', 'PAID', 'FAILED', 'EXPIRED')`;

const TABLES = [
  { table: 'orders', paidCheck: 'orders_paid', paidOld: `(state = 'PAID') = (paid_at is not null and ledger_transaction_id is not null and payment_id is not null)`, paidNew: `(state in (${PAID_LIKE})) = (paid_at is not null and ledger_transaction_id is not null and payment_id is not null)` },
  { table: 'subscription_charges', paidCheck: 'subscription_charges_paid', paidOld: `(state = 'PAID') = (paid_at is not null and payment_id is not null)`, paidNew: `(state in (${PAID_LIKE})) = (paid_at is not null and payment_id is not null)` },
];

export async function up(db: Kysely<any>): Promise<void> {
  const isPg = db.getExecutor().adapter instanceof PostgresAdapter;
  const id = (c: any) => (isPg ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement());

  if (isPg) {
    for (const t of TABLES) {
      await sql`alter table ${sql.table(t.table)} drop constraint ${sql.raw(`${t.table}_state_check`)}`.execute(db);
      await sql`alter table ${sql.table(t.table)} add constraint ${sql.raw(`${t.table}_state_check`)} check (state in (${sql.raw(STATES)}))`.execute(db);
      await sql`alter table ${sql.table(t.table)} drop constraint ${sql.raw(t.paidCheck)}`.execute(db);
      await sql`alter table ${sql.table(t.table)} add constraint ${sql.raw(t.paidCheck)} check (${sql.raw(t.paidNew)})`.execute(db);
    }
  } else {
    for (const t of TABLES) await rebuildSqlite(db, t.table, [[OLD_STATES, `state in (${STATES})`], [t.paidOld, t.paidNew]]);
  }

  await db.schema.createTable('refunds')
    .addColumn('id', 'integer', id)
    // In URLs, in the provider's records (its idempotency key) and in the ledger's keys.
    .addColumn('public_id', 'text', (c) => c.notNull().unique())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('restrict'))
    // What is refunded: an order, a subscription charge, or a payment recorded to refund (`due`).
    .addColumn('payable_kind', 'text', (c) => c.notNull().check(sql`payable_kind in ('order', 'charge', 'due')`))
    // The order's or charge's public id; for `due`, the refunds_due row's id.
    .addColumn('payable_id', 'text', (c) => c.notNull())
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('payment_id', 'text', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull().check(sql`amount > 0`))
    .addColumn('currency', 'text', (c) => c.notNull())
    // Keys and Xtra keys taken back (held while the provider is asked).
    .addColumn('keys', 'integer', (c) => c.notNull().defaultTo(0).check(sql`keys >= 0`))
    .addColumn('xtra_keys', 'integer', (c) => c.notNull().defaultTo(0).check(sql`xtra_keys >= 0`))
    // 1: the whole payable (→ REFUNDED); 0: part of it (→ PARTIALLY_REFUNDED).
    .addColumn('whole', 'integer', (c) => c.notNull().check(sql`whole in (0, 1)`))
    .addColumn('state', 'text', (c) => c.notNull().check(sql`state in ('PENDING', 'CONFIRMED', 'FAILED')`))
    // 'staff' (the desk) or 'reader' (a withdrawal).
    .addColumn('origin', 'text', (c) => c.notNull().check(sql`origin in ('staff', 'reader')`))
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('actor_id', 'integer')
    // A subscription charge's: 'now' ends the subscription at once, 'period_end' lets it run out.
    .addColumn('ending', 'text', (c) => c.check(sql`ending in ('now', 'period_end')`))
    // 'void' (before settlement) or 'refund'.
    .addColumn('provider_action', 'text')
    .addColumn('provider_refund_id', 'text')
    .addColumn('hold_transaction_id', 'integer', (c) => c.unique().references('ledger_transactions.id').onDelete('restrict'))
    .addColumn('ledger_transaction_id', 'integer', (c) => c.unique().references('ledger_transactions.id').onDelete('restrict'))
    .addColumn('failure', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('confirmed_at', 'bigint')
    .addCheckConstraint('refunds_confirmed', sql`(state = 'CONFIRMED') = (confirmed_at is not null and provider_refund_id is not null)`)
    .execute();
  await db.schema.createIndex('refunds_live_idx').on('refunds').columns(['payable_kind', 'payable_id']).unique()
    .where(sql.ref('state'), 'in', [sql.lit('PENDING'), sql.lit('CONFIRMED')])
    .execute();
  await db.schema.createIndex('refunds_user_idx').on('refunds').columns(['user_id', 'id']).execute();
  await db.schema.createIndex('refunds_state_idx').on('refunds').columns(['state', 'created_at']).execute();

  await db.schema.createTable('refund_events')
    .addColumn('id', 'integer', id)
    .addColumn('refund_id', 'integer', (c) => c.notNull().references('refunds.id').onDelete('restrict'))
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('detail', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('refund_events_refund_idx').on('refund_events').columns(['refund_id', 'id']).execute();

  await db.schema.alterTable('refunds_due').addColumn('resolved_by', 'integer').execute();
  await db.schema.alterTable('refunds_due').addColumn('refund_id', 'integer', (c) => c.references('refunds.id').onDelete('restrict')).execute();
  await db.schema.createIndex('refunds_due_open_idx').on('refunds_due').columns(['resolved_at', 'id']).execute();

  await db.schema.createTable('sandbox_refunds')
    .addColumn('id', 'integer', id)
    // 'sandbox' (cards) or 'pix-sandbox'.
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('payment_id', 'text', (c) => c.notNull())
    // Our refund's public id: asking twice gives the same refund.
    .addColumn('correlation_id', 'text', (c) => c.notNull())
    .addColumn('refund_id', 'text', (c) => c.notNull().unique())
    .addColumn('amount', 'bigint', (c) => c.notNull().check(sql`amount > 0`))
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sandbox_refunds_correlation_idx').on('sandbox_refunds').columns(['provider', 'correlation_id']).unique().execute();
  await db.schema.createIndex('sandbox_refunds_payment_idx').on('sandbox_refunds').columns(['provider', 'payment_id']).execute();
}

/** Rebuilds a SQLite table with its stored definition's CHECK texts replaced (SQLite's documented procedure). */
async function rebuildSqlite(db: Kysely<any>, table: string, replacements: [string, string][]): Promise<void> {
  const stored = await sql<{ type: string; name: string; sql: string | null }>`select type, name, sql from sqlite_master where tbl_name = ${table}`.execute(db);
  const create = stored.rows.find((r) => r.type === 'table')?.sql;
  if (!create) throw new Error(`${table}: no stored definition`);
  let next = create;
  for (const [from, to] of replacements) {
    if (!next.includes(from)) throw new Error(`${table}: the definition has no "${from}"`);
    next = next.replace(from, to);
  }
  const temporary = `${table}_rebuilt`;
  next = next.replace(/^create table "?[a-z_]+"?/i, `create table "${temporary}"`);
  const indexes = stored.rows.filter((r) => r.type === 'index' && r.sql).map((r) => r.sql!);
  await sql`pragma foreign_keys = off`.execute(db);
  try {
    await db.transaction().execute(async (trx) => {
      await sql.raw(next).execute(trx);
      await sql.raw(`insert into "${temporary}" select * from "${table}"`).execute(trx);
      await sql.raw(`drop table "${table}"`).execute(trx);
      await sql.raw(`alter table "${temporary}" rename to "${table}"`).execute(trx);
      for (const index of indexes) await sql.raw(index).execute(trx);
      const broken = await sql`pragma foreign_key_check`.execute(trx);
      if (broken.rows.length) throw new Error(`${table}: foreign keys broken by the rebuild`);
    });
  } finally {
    await sql`pragma foreign_keys = on`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  const isPg = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema.dropTable('sandbox_refunds').ifExists().execute();
  await db.schema.dropIndex('refunds_due_open_idx').ifExists().execute();
  await db.schema.alterTable('refunds_due').dropColumn('refund_id').execute();
  await db.schema.alterTable('refunds_due').dropColumn('resolved_by').execute();
  await db.schema.dropTable('refund_events').ifExists().execute();
  await db.schema.dropTable('refunds').ifExists().execute();
  // Back to four states only when no record is refunded.
  if (isPg) {
    for (const t of TABLES) {
      await sql`alter table ${sql.table(t.table)} drop constraint ${sql.raw(`${t.table}_state_check`)}`.execute(db);
      await sql`alter table ${sql.table(t.table)} add constraint ${sql.raw(`${t.table}_state_check`)} check (${sql.raw(OLD_STATES)})`.execute(db);
      await sql`alter table ${sql.table(t.table)} drop constraint ${sql.raw(t.paidCheck)}`.execute(db);
      await sql`alter table ${sql.table(t.table)} add constraint ${sql.raw(t.paidCheck)} check (${sql.raw(t.paidOld)})`.execute(db);
    }
  } else {
    for (const t of TABLES) await rebuildSqlite(db, t.table, [[`state in (${STATES})`, OLD_STATES], [t.paidNew, t.paidOld]]);
  }
}
