import { PostgresAdapter, type Kysely, sql } from 'kysely';

// Frozen once landed. Web push (issue 32, docs/notifications.md "Web push"):
// - push_subscriptions: one row per browser (endpoint unique), with its keys, the zone its quiet
//   hours are read in, the site it subscribed on (the language of its pushes), and the failure
//   back-off (404/410 delete the row);
// - push_outbox: pushes waiting for the server's worker, written in the transaction that made
//   the inbox item (so a rolled-back change sends nothing), taken by one DELETE … RETURNING;
// - push_daily: pushes sent per reader per UTC day (the 5-a-day cap, one atomic upsert);
// - push_quiet_hours: a reader's quiet hours; no row: 22:00–08:00, on.
export async function up(db: Kysely<any>): Promise<void> {
  const isPg = db.getExecutor().adapter instanceof PostgresAdapter;
  const id = (c: any) => (isPg ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement());

  await db.schema.createTable('push_subscriptions')
    .addColumn('id', 'integer', id)
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('endpoint', 'text', (c) => c.notNull().unique())
    .addColumn('p256dh', 'text', (c) => c.notNull())
    .addColumn('auth', 'text', (c) => c.notNull())
    .addColumn('time_zone', 'text', (c) => c.notNull())
    .addColumn('site_id', 'integer', (c) => c.notNull())
    .addColumn('device', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_success_at', 'bigint')
    .addColumn('failure_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('retry_at', 'bigint')
    .execute();
  await db.schema.createIndex('push_subscriptions_user_idx').on('push_subscriptions').columns(['user_id']).execute();

  await db.schema.createTable('push_outbox')
    .addColumn('id', 'integer', id)
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('category', 'text', (c) => c.notNull().check(sql`category in ('chapters', 'money', 'community')`))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('series_id', 'integer')
    .addColumn('site_id', 'integer')
    .addColumn('data', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('due_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('push_outbox_due_idx').on('push_outbox').columns(['due_at', 'id']).execute();

  await db.schema.createTable('push_daily')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('sent', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('push_daily_pk', ['user_id', 'day'])
    .execute();

  await db.schema.createTable('push_quiet_hours')
    .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('enabled', 'integer', (c) => c.notNull().check(sql`enabled in (0, 1)`))
    .addColumn('start_hour', 'integer', (c) => c.notNull().check(sql`start_hour between 0 and 23`))
    .addColumn('end_hour', 'integer', (c) => c.notNull().check(sql`end_hour between 0 and 23`))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('push_quiet_hours').ifExists().execute();
  await db.schema.dropTable('push_daily').ifExists().execute();
  await db.schema.dropTable('push_outbox').ifExists().execute();
  await db.schema.dropTable('push_subscriptions').ifExists().execute();
}
