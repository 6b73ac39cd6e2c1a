import { type Kysely, sql } from 'kysely';

// Frozen once landed. The reader's library: favorites and reading progress. Every row is
// owned by a user; queries always filter by user_id (see docs/data-model.md).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createTable('favorites')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('series_id', 'integer', (c) => c.notNull().references('series.id').onDelete('cascade'))
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('favorites_pk', ['user_id', 'series_id'])
    .execute();
  await db.schema.createIndex('favorites_user_created_idx').on('favorites').columns(['user_id', 'created_at']).execute();

  await db.schema.createTable('reading_progress')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('chapter_id', 'integer', (c) => c.notNull().references('chapters.id').onDelete('cascade'))
    .addColumn('series_id', 'integer', (c) => c.notNull().references('series.id').onDelete('cascade'))
    .addColumn('completion', 'integer', (c) => c.notNull().defaultTo(0).check(sql`completion between 0 and 100`))
    .addColumn('completed', 'integer', (c) => c.notNull().defaultTo(0).check(sql`completed in (0, 1)`))
    .addColumn('first_read', 'integer', (c) => c.notNull())
    .addColumn('last_read', 'integer', (c) => c.notNull())
    // Ordering of accepted updates: (token_issued_at, seq) of the newest update applied. A
    // progress token is issued with each reader page view; an update older than the stored
    // pair (a stale tab, a replay) is ignored.
    .addColumn('token_issued_at', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('seq', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('reading_progress_pk', ['user_id', 'chapter_id'])
    .execute();
  await db.schema.createIndex('reading_progress_user_last_read_idx').on('reading_progress').columns(['user_id', 'last_read']).execute();
  await db.schema.createIndex('reading_progress_user_series_idx').on('reading_progress').columns(['user_id', 'series_id', 'last_read']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('reading_progress').ifExists().execute();
  await db.schema.dropTable('favorites').ifExists().execute();
}
