import { PostgresAdapter, type Kysely, sql } from 'kysely';

// Frozen once landed. Notifications (issue 32): the favorite's notify switch, the inbox, and the
// reader's preferences. `notification_deliveries` holds one row per reader per released chapter:
// its primary key is what makes the fan-out idempotent (a release check run twice, or by two
// machines at once, inserts the pair once and only the winner writes the inbox item).
// `notifications.group_key` folds several chapters of a series into one item (the 6-hour cap).
export async function up(db: Kysely<any>): Promise<void> {
  const isPg = db.getExecutor().adapter instanceof PostgresAdapter;
  const id = (c: any) => (isPg ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement());
  await db.schema.alterTable('favorites').addColumn('notify', 'integer', (c) => c.notNull().defaultTo(0).check(sql`notify in (0, 1)`)).execute();
  // The fan-out reads a series' notified readers in user-id order, 500 at a time.
  await db.schema.createIndex('favorites_notify_idx').on('favorites').columns(['series_id', 'notify', 'user_id']).execute();

  await db.schema.createTable('notifications')
    .addColumn('id', 'integer', id)
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('category', 'text', (c) => c.notNull().check(sql`category in ('chapters', 'money', 'community')`))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('series_id', 'integer')
    .addColumn('chapter_id', 'integer')
    .addColumn('site_id', 'integer')
    .addColumn('chapter_count', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('data', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('read_at', 'bigint')
    .execute();
  await db.schema.createIndex('notifications_user_idx').on('notifications').columns(['user_id', 'updated_at']).execute();
  await db.schema.createIndex('notifications_unread_idx').on('notifications').columns(['user_id', 'read_at']).execute();
  await db.schema.createIndex('notifications_series_idx').on('notifications').columns(['user_id', 'series_id', 'created_at']).execute();

  await db.schema.createTable('notification_deliveries')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('chapter_id', 'integer', (c) => c.notNull().references('chapters.id').onDelete('cascade'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('notification_deliveries_pk', ['chapter_id', 'user_id'])
    .execute();

  await db.schema.createTable('notification_prefs')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('category', 'text', (c) => c.notNull().check(sql`category in ('chapters', 'money', 'community')`))
    .addColumn('channel', 'text', (c) => c.notNull().check(sql`channel in ('inbox', 'push', 'email')`))
    .addColumn('enabled', 'integer', (c) => c.notNull().check(sql`enabled in (0, 1)`))
    .addPrimaryKeyConstraint('notification_prefs_pk', ['user_id', 'category', 'channel'])
    .execute();

}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('notification_prefs').ifExists().execute();
  await db.schema.dropTable('notification_deliveries').ifExists().execute();
  await db.schema.dropTable('notifications').ifExists().execute();
  await db.schema.dropIndex('favorites_notify_idx').ifExists().execute();
  await db.schema.alterTable('favorites').dropColumn('notify').execute();
}
