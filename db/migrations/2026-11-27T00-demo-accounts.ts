import type { Kysely } from 'kysely';

// Frozen once landed. Demo accounts are marked, so a production server can refuse to start while
// one exists (docs/operations.md, "Demo and production"). The two accounts the demo has always
// created (db/seed/users.ts) are marked here; later ones are marked when the seed makes them.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').addColumn('is_demo', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.updateTable('users').set({ is_demo: 1 }).where('email', 'in', ['reader@inkpass.test', 'staff@inkpass.test']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('is_demo').execute();
}
