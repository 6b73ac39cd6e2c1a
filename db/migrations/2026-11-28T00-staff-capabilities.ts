import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen once landed. Staff capabilities replace the single is_staff flag (issue 27,
// docs/staff.md): one row per (account, capability). Every account that was staff becomes an
// admin (granted_by null: no one granted it; the audit trail is written only by the app's
// writeAudit, so the migration adds no record). users.is_staff stays, as "holds at least one capability", kept by the code that grants
// and revokes in the same transaction, so a reader's session look-up reads no second table.
// The audit trail is append-only: triggers refuse UPDATE and DELETE on both dialects. Short
// share links (spec sections 6-8: POST /_/dynamic_link, GET /l/{code}) count their visits.
const CAPABILITIES = ['content', 'pricing', 'support', 'money', 'moderation', 'admin'];

export async function up(db: Kysely<any>): Promise<void> {
  const isPg = db.getExecutor().adapter instanceof PostgresAdapter;
  const id = (c: any) => (isPg ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement());
  const names = sql.join(CAPABILITIES.map((c) => sql.lit(c)));

  await db.schema.createTable('user_capabilities')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('capability', 'text', (c) => c.notNull().check(sql`capability in (${names})`))
    .addColumn('granted_at', 'bigint', (c) => c.notNull())
    .addColumn('granted_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addPrimaryKeyConstraint('user_capabilities_pk', ['user_id', 'capability'])
    .execute();

  // Actor ids carry no foreign key: a key would have to change (or block) the row when an
  // account goes, and the trail outlives accounts.
  await db.schema.createTable('audit_log')
    .addColumn('id', 'integer', id)
    .addColumn('at', 'bigint', (c) => c.notNull())
    .addColumn('actor_id', 'integer')
    .addColumn('capability', 'text', (c) => c.check(sql`capability in (${names})`))
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('object_table', 'text', (c) => c.notNull())
    .addColumn('object_id', 'text', (c) => c.notNull())
    .addColumn('before_json', 'text')
    .addColumn('after_json', 'text')
    .addColumn('ip', 'text')
    .addColumn('user_agent', 'text')
    .execute();
  await db.schema.createIndex('audit_log_actor_idx').on('audit_log').columns(['actor_id', 'id']).execute();
  await db.schema.createIndex('audit_log_object_idx').on('audit_log').columns(['object_table', 'object_id', 'id']).execute();
  if (isPg) {
    await sql`create function audit_log_immutable() returns trigger language plpgsql as $$
      begin raise exception 'audit_log is append-only: % refused', tg_op; end $$`.execute(db);
    await sql`create trigger audit_log_no_update before update or delete on audit_log for each row execute function audit_log_immutable()`.execute(db);
    // TRUNCATE skips row triggers: refuse it with a statement trigger.
    await sql`create trigger audit_log_no_truncate before truncate on audit_log for each statement execute function audit_log_immutable()`.execute(db);
  } else {
    await sql`create trigger audit_log_no_update before update on audit_log begin select raise(abort, 'audit_log is append-only: UPDATE refused'); end`.execute(db);
    await sql`create trigger audit_log_no_delete before delete on audit_log begin select raise(abort, 'audit_log is append-only: DELETE refused'); end`.execute(db);
  }

  await db.schema.createTable('short_links')
    .addColumn('id', 'integer', id)
    .addColumn('code', 'text', (c) => c.notNull().unique())
    .addColumn('site_id', 'integer', (c) => c.notNull())
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('visits', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();

  const now = Math.floor(Date.now() / 1000);
  const staff = await db.selectFrom('users').select('id').where('is_staff', '=', 1).execute();
  for (const { id: userId } of staff) {
    await db.insertInto('user_capabilities').values({ user_id: userId, capability: 'admin', granted_at: now, granted_by: null }).execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  const isPg = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema.dropTable('short_links').ifExists().execute();
  await db.schema.dropTable('audit_log').ifExists().execute();
  if (isPg) await sql`drop function if exists audit_log_immutable()`.execute(db);
  await db.schema.dropTable('user_capabilities').ifExists().execute();
}
