import { PostgresAdapter, type Kysely } from 'kysely';

// Frozen once landed. Each run of `npm run keys -- audit` records its verdict (issue 29,
// docs/operations.md "Metrics"): when it ran, how many rules failed and which. /metrics shows
// the latest, so an operator is alerted when the audit fails or stops running.
export async function up(db: Kysely<any>): Promise<void> {
  const isPg = db.getExecutor().adapter instanceof PostgresAdapter;
  const id = (c: any) => (isPg ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement());
  await db.schema.createTable('ledger_audits')
    .addColumn('id', 'integer', id)
    .addColumn('at', 'bigint', (c) => c.notNull())
    .addColumn('failed_rules', 'integer', (c) => c.notNull())
    /** JSON list of the failed rules' names (no rows: those stay in the command's output). */
    .addColumn('rules_json', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('ledger_audits').execute();
}
