import { type Kysely, sql } from 'kysely';

// Frozen once landed. The email digest of new chapters (issue 32, docs/notifications.md "Email
// digest"): one row per reader who ever chose a frequency. `last_digest_at` is claimed with a
// conditional UPDATE by the digest pass, so a restart or two machines never send one period twice;
// it starts at the moment the digest was turned on (the first digest covers what came after).
// `site_id`: the site the reader chose it on, whose language the digest is written in.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createTable('notification_digests')
    .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('frequency', 'text', (c) => c.notNull().check(sql`frequency in ('off', 'daily', 'weekly')`))
    .addColumn('site_id', 'integer', (c) => c.notNull())
    .addColumn('last_digest_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  // The pass reads the due readers of one frequency in user-id order.
  await db.schema.createIndex('notification_digests_due_idx').on('notification_digests').columns(['frequency', 'last_digest_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('notification_digests').ifExists().execute();
}
