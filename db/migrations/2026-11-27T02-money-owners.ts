import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen once landed. Money records with one owner each (issue 25, docs/money-states.md):
// - a reader has at most one live subscription (PENDING, TRIAL, ACTIVE, PAST_DUE), enforced by a
//   partial unique index; before it is made, any reader holding more than one keeps the newest
//   and the others expire, each with an event saying why;
// - subscription charges get their own events (the subscriptions feature alone writes a
//   subscription's), and a subscription's "period paid" event names the charge that paid it;
// - a payment that arrives for a closed order or charge (or a second payment of a paid one) is
//   recorded "to refund", once per provider payment, for the support desk.
const LIVE = ['PENDING', 'TRIAL', 'ACTIVE', 'PAST_DUE'];

export async function up(db: Kysely<any>): Promise<void> {
  const isPg = db.getExecutor().adapter instanceof PostgresAdapter;
  const id = (c: any) => (isPg ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement());
  await db.schema.alterTable('subscription_events').addColumn('charge_id', 'integer', (c) => c.references('subscription_charges.id').onDelete('restrict')).execute();
  await db.schema.createIndex('subscription_events_charge_idx').on('subscription_events').column('charge_id').execute();

  await db.schema.createTable('charge_events')
    .addColumn('id', 'integer', id)
    .addColumn('charge_id', 'integer', (c) => c.notNull().references('subscription_charges.id').onDelete('cascade'))
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('detail', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('charge_events_charge_idx').on('charge_events').columns(['charge_id', 'id']).execute();

  await db.schema.createTable('refunds_due')
    .addColumn('id', 'integer', id)
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('restrict'))
    .addColumn('payable_kind', 'text', (c) => c.notNull())
    .addColumn('payable_id', 'text', (c) => c.notNull())
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('payment_id', 'text', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('resolved_at', 'bigint')
    .addColumn('resolution', 'text')
    .execute();
  await db.schema.createIndex('refunds_due_payment_idx').on('refunds_due').columns(['provider', 'payment_id']).unique().execute();
  await db.schema.createIndex('refunds_due_user_idx').on('refunds_due').columns(['user_id', 'id']).execute();

  // Periods paid before this migration: their event named the charge in its text.
  const paid = await db.selectFrom('subscription_charges').select(['id', 'public_id', 'subscription_id']).where('state', '=', 'PAID').execute();
  for (const c of paid) {
    await db.updateTable('subscription_events').set({ charge_id: c.id })
      .where('subscription_id', '=', c.subscription_id).where('state', '=', 'ACTIVE').where('charge_id', 'is', null)
      .where('detail', 'like', `charge ${c.public_id} paid%`).execute();
  }

  // Readers with more than one live subscription keep the newest.
  const now = Math.floor(Date.now() / 1000);
  const extra = await db.selectFrom('subscriptions as s').select(['s.id'])
    .where('s.state', 'in', LIVE)
    .where((eb) => eb.exists(eb.selectFrom('subscriptions as n').select('n.id').whereRef('n.user_id', '=', 's.user_id').where('n.state', 'in', LIVE).whereRef('n.id', '>', 's.id')))
    .execute();
  for (const { id } of extra) {
    await db.updateTable('subscriptions').set({ state: 'EXPIRED', updated_at: now }).where('id', '=', id).execute();
    await db.insertInto('subscription_events').values({ subscription_id: id, state: 'EXPIRED', source: 'migration', detail: 'a newer live subscription of the same reader replaced it (one live subscription per reader)', created_at: now }).execute();
  }
  await db.schema.createIndex('subscriptions_one_live_idx').on('subscriptions').column('user_id').unique()
    .where(sql.ref('state'), 'in', LIVE.map((s) => sql.lit(s)))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('subscriptions_one_live_idx').ifExists().execute();
  await db.schema.dropTable('refunds_due').ifExists().execute();
  await db.schema.dropTable('charge_events').ifExists().execute();
  await db.schema.dropIndex('subscription_events_charge_idx').ifExists().execute();
  await db.schema.alterTable('subscription_events').dropColumn('charge_id').execute();
}
