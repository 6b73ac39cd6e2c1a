import type { Kysely } from 'kysely';

// Frozen once landed. Bot-check tokens are single use across every process on one database
// (src/server/app-check.ts): a token's id is claimed here by its first use; rows are pruned once
// the token has expired, when no use of it could pass anyway.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createTable('app_check_uses')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('app_check_uses_expires_idx').on('app_check_uses').column('expires_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('app_check_uses').ifExists().execute();
}
