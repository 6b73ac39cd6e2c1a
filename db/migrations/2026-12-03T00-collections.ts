import { PostgresAdapter, type Kysely, sql } from 'kysely';

// Frozen once landed. Curated collections (issue 30): a list of series in an editor's order, per
// site. A collection belongs to one site (its title and description are written in that site's
// language), its slug is unique on that site; items keep their order in `position`.
export async function up(db: Kysely<any>): Promise<void> {
  const isPg = db.getExecutor().adapter instanceof PostgresAdapter;
  const id = (c: any) => (isPg ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement());
  await db.schema.createTable('collections')
    .addColumn('id', 'integer', id)
    .addColumn('site_id', 'integer', (c) => c.notNull())
    .addColumn('slug', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('collections_site_slug_unique', ['site_id', 'slug'])
    .addCheckConstraint('collections_slug_check', sql`length(slug) between 1 and 80`)
    .execute();

  await db.schema.createTable('collection_items')
    .addColumn('collection_id', 'integer', (c) => c.notNull().references('collections.id').onDelete('cascade'))
    .addColumn('series_id', 'integer', (c) => c.notNull().references('series.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('collection_items_pk', ['collection_id', 'series_id'])
    .execute();
  await db.schema.createIndex('collection_items_order_idx').on('collection_items').columns(['collection_id', 'position']).execute();
  await db.schema.createIndex('collection_items_series_idx').on('collection_items').columns(['series_id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('collection_items').ifExists().execute();
  await db.schema.dropTable('collections').ifExists().execute();
}
