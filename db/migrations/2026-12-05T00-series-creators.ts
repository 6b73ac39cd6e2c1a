import type { Kysely } from 'kysely';

// Frozen once landed. A series' creators (issue 31): the reader accounts of the people who make a
// series, set by staff in the series editor. Comments by them carry a "Creator" badge on that
// series' chapters. A deleted account takes its rows with it.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createTable('series_creators')
    .addColumn('series_id', 'integer', (c) => c.notNull().references('series.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('series_creators_pk', ['series_id', 'user_id'])
    .execute();
  // A comment's badge looks the author up by account.
  await db.schema.createIndex('series_creators_user_idx').on('series_creators').columns(['user_id', 'series_id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('series_creators').ifExists().execute();
}
