import type { Kysely } from 'kysely';

// Frozen once landed. Ended rate-limit counters are pruned by window start
// (src/features/accounts/rate-limit.server.ts); the index keeps that a short range scan.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('rate_limits_window_idx').on('rate_limits').column('window_start').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('rate_limits_window_idx').ifExists().execute();
}
