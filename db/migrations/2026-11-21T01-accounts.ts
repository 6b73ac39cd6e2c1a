import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Frozen once landed. Accounts, sessions (Lucia guide pattern: only a hash of the secret is
// stored) and database-held rate-limit counters, so limits hold across server processes.
export async function up(db: Kysely<any>): Promise<void> {
  const isPg = db.getExecutor().adapter instanceof PostgresAdapter;

  await db.schema.createTable('users')
    .addColumn('id', 'integer', (c) => (isPg ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement()))
    // Stored lower-cased and trimmed; the unique constraint is therefore case-insensitive in practice.
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('display_name', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('is_staff', 'integer', (c) => c.notNull().defaultTo(0).check(sql`is_staff in (0, 1)`))
    .addColumn('keys', 'integer', (c) => c.notNull().defaultTo(0).check(sql`keys >= 0`))
    .addColumn('free_keys', 'integer', (c) => c.notNull().defaultTo(0).check(sql`free_keys >= 0`))
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .addColumn('password_changed_at', 'integer', (c) => c.notNull())
    .execute();

  await db.schema.createTable('sessions')
    // The public half of the token; the secret half is only stored as a SHA-256 hex digest.
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('secret_hash', 'text', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .addColumn('last_seen_at', 'integer', (c) => c.notNull())
    // Absolute end of the session, whatever the activity (created_at + lifetime).
    .addColumn('expires_at', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sessions_user_idx').on('sessions').column('user_id').execute();

  await db.schema.createTable('rate_limits')
    .addColumn('bucket', 'text', (c) => c.primaryKey())
    .addColumn('window_start', 'integer', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['rate_limits', 'sessions', 'users']) await db.schema.dropTable(t).ifExists().execute();
}
