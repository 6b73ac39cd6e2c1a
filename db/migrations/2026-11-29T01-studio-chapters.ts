import { PostgresAdapter, type Kysely } from 'kysely';

// Frozen once landed. Chapter drafts (issue 27, docs/staff.md "Chapter uploads"): an upload
// session that staff fill with pages, reorder and check before publishing. Drafts live in their
// own tables, never in `chapters`, so no reader query can show one by mistake; their page files
// are in the staging folder (MEDIA_DIR/.staging/{draft id}/), which no media route serves.
export async function up(db: Kysely<any>): Promise<void> {
  const isPg = db.getExecutor().adapter instanceof PostgresAdapter;
  const id = (c: any) => (isPg ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement());

  await db.schema.createTable('chapter_drafts')
    .addColumn('id', 'integer', id)
    .addColumn('series_id', 'integer', (c) => c.notNull().references('series.id').onDelete('cascade'))
    .addColumn('language', 'text', (c) => c.notNull())
    .addColumn('number', 'real', (c) => c.notNull())
    .addColumn('title', 'text')
    .addColumn('subtitle', 'text')
    .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  // The clean-up looks for drafts untouched for a week.
  await db.schema.createIndex('chapter_drafts_updated_idx').on('chapter_drafts').columns(['updated_at']).execute();

  await db.schema.createTable('chapter_draft_pages')
    .addColumn('draft_id', 'integer', (c) => c.notNull().references('chapter_drafts.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('media_key', 'text', (c) => c.notNull())
    .addColumn('width', 'integer', (c) => c.notNull())
    .addColumn('height', 'integer', (c) => c.notNull())
    .addColumn('original_name', 'text', (c) => c.notNull())
    .addColumn('bytes', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('chapter_draft_pages_pk', ['draft_id', 'position'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('chapter_draft_pages').ifExists().execute();
  await db.schema.dropTable('chapter_drafts').ifExists().execute();
}
