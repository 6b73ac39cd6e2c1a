import type { Kysely } from 'kysely';

// Frozen once landed. Per-language series texts (docs/data-model.md, "Series texts"): one row per
// series and content language ('en', 'pt-br') holding that language's name, description, excerpt,
// update text and chapter name format. A null column (or no row) falls back to the series' own
// text in `series`, which is the original language's. Chapter titles need no table: chapters are
// already rows per language.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createTable('series_texts')
    .addColumn('series_id', 'integer', (c) => c.notNull().references('series.id').onDelete('cascade'))
    .addColumn('language', 'text', (c) => c.notNull())
    .addColumn('name', 'text')
    .addColumn('description', 'text')
    .addColumn('excerpt', 'text')
    .addColumn('update_text', 'text')
    .addColumn('chapter_name_format', 'text')
    .addPrimaryKeyConstraint('series_texts_pk', ['series_id', 'language'])
    .execute();
  // The translation cache loads one language at a time.
  await db.schema.createIndex('series_texts_language_idx').on('series_texts').columns(['language', 'series_id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('series_texts').ifExists().execute();
}
