import { PostgresAdapter, type Kysely, sql } from 'kysely';

// Frozen once landed. Email and account recovery (issue 32).
// outbox_emails: every message the site sends waits here, written in the business transaction that
// caused it, and is sent afterwards by the server's own worker (src/server/outbox.ts), with retries.
// password_resets: forgotten-password links; only the SHA-256 of the token is kept.
// email_changes: a new email waiting for its confirmation link (also hashed).
export async function up(db: Kysely<any>): Promise<void> {
  const isPg = db.getExecutor().adapter instanceof PostgresAdapter;
  const id = (c: any) => (isPg ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement());
  await db.schema.createTable('outbox_emails')
    .addColumn('id', 'integer', id)
    .addColumn('to_address', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('text_body', 'text', (c) => c.notNull())
    .addColumn('html_body', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending'))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('sent_at', 'bigint')
    .addCheckConstraint('outbox_emails_status_check', sql`status in ('pending', 'sent', 'failed')`)
    .execute();
  await db.schema.createIndex('outbox_emails_due_idx').on('outbox_emails').columns(['status', 'next_attempt_at']).execute();

  await db.schema.createTable('password_resets')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .execute();
  await db.schema.createIndex('password_resets_user_idx').on('password_resets').columns(['user_id']).execute();

  await db.schema.createTable('email_changes')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('new_email', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .execute();
  // Where a session began, from the country header when one is configured (the account page shows it).
  await db.schema.alterTable('sessions').addColumn('country', 'text').execute();
  await db.schema.createIndex('email_changes_user_idx').on('email_changes').columns(['user_id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('sessions').dropColumn('country').execute();
  await db.schema.dropTable('email_changes').ifExists().execute();
  await db.schema.dropTable('password_resets').ifExists().execute();
  await db.schema.dropTable('outbox_emails').ifExists().execute();
}
