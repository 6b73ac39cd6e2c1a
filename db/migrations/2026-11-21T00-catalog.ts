import { type CreateTableBuilder, type Kysely, PostgresAdapter, sql } from 'kysely';

// Frozen once landed. Written once for SQLite and PostgreSQL: integer times, 0/1 booleans, JSON as text.
export async function up(db: Kysely<any>): Promise<void> {
  // SQLite has no identity columns; "integer primary key autoincrement" is its rowid alias.
  const isPg = db.getExecutor().adapter instanceof PostgresAdapter;
  const pk = <T extends string>(t: CreateTableBuilder<T, never>) =>
    t.addColumn('id', 'integer', (c) => (isPg ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement()));

  await pk(db.schema.createTable('publishers'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('language', 'text', (c) => c.notNull())
    .addColumn('homepage', 'text')
    .addColumn('logo', 'text')
    .addColumn('geoblocks', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();

  await pk(db.schema.createTable('people'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('alt', 'text')
    .addColumn('slug', 'text', (c) => c.notNull().unique())
    .execute();

  await pk(db.schema.createTable('tags'))
    .addColumn('slug', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('name_pt', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('color', 'text', (c) => c.notNull().defaultTo('#888888'))
    .addColumn('is_primary', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('icon', 'text', (c) => c.notNull().defaultTo('NONE'))
    .execute();

  await pk(db.schema.createTable('keywords'))
    .addColumn('word', 'text', (c) => c.notNull().unique())
    .execute();

  await pk(db.schema.createTable('series'))
    .addColumn('e4pid', 'text', (c) => c.notNull().unique())
    .addColumn('slug', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('alt', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('excerpt', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('search_text', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('adult', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('format', 'text', (c) => c.notNull().check(sql`format in ('COMIC','MANGA','WEBTOON')`))
    .addColumn('update_status', 'text', (c) => c.notNull().defaultTo('UNKNOWN'))
    .addColumn('update_text', 'text')
    .addColumn('publisher_id', 'integer', (c) => c.references('publishers.id'))
    .addColumn('color', 'text', (c) => c.notNull().defaultTo('#444444'))
    .addColumn('in_exclusive', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('in_hype', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('all_free', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('availability_strategy', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('free_availability', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('geoblocks', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('state', 'text', (c) => c.notNull().defaultTo('ACTIVE'))
    .addColumn('chapter_title', 'text')
    .addColumn('chapter_name_format', 'text')
    .addColumn('images', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('copyright', 'text')
    .addColumn('cover_copyright', 'text')
    .addColumn('chapter_copyright', 'text')
    .addColumn('hints', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('popularity', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .addColumn('modified_at', 'integer', (c) => c.notNull())
    .addColumn('last_updated', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('largest_chapter', 'real', (c) => c.notNull().defaultTo(0))
    .addColumn('chapter_count', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema.createTable('series_people')
    .addColumn('series_id', 'integer', (c) => c.notNull().references('series.id').onDelete('cascade'))
    .addColumn('person_id', 'integer', (c) => c.notNull().references('people.id'))
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('series_people_pk', ['series_id', 'person_id', 'role'])
    .execute();

  await db.schema.createTable('series_tags')
    .addColumn('series_id', 'integer', (c) => c.notNull().references('series.id').onDelete('cascade'))
    .addColumn('tag_id', 'integer', (c) => c.notNull().references('tags.id'))
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('series_tags_pk', ['series_id', 'tag_id'])
    .execute();

  await db.schema.createTable('series_keywords')
    .addColumn('series_id', 'integer', (c) => c.notNull().references('series.id').onDelete('cascade'))
    .addColumn('keyword_id', 'integer', (c) => c.notNull().references('keywords.id'))
    .addPrimaryKeyConstraint('series_keywords_pk', ['series_id', 'keyword_id'])
    .execute();

  await db.schema.createTable('series_languages')
    .addColumn('series_id', 'integer', (c) => c.notNull().references('series.id').onDelete('cascade'))
    .addColumn('language', 'text', (c) => c.notNull())
    .addColumn('site_id', 'integer', (c) => c.notNull())
    .addColumn('chapter_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_updated', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('series_languages_pk', ['series_id', 'language'])
    .execute();

  await pk(db.schema.createTable('campaigns'))
    .addColumn('series_id', 'integer', (c) => c.notNull().references('series.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('override_starting_count', 'integer')
    .addColumn('override_ending_count', 'integer')
    .addColumn('override_all_free', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('discount', 'real', (c) => c.notNull().defaultTo(0))
    .addColumn('starts_at', 'integer', (c) => c.notNull())
    .addColumn('ends_at', 'integer', (c) => c.notNull())
    .execute();

  await pk(db.schema.createTable('chapters'))
    .addColumn('e4pid', 'text', (c) => c.notNull().unique())
    .addColumn('series_id', 'integer', (c) => c.notNull().references('series.id').onDelete('cascade'))
    .addColumn('language', 'text', (c) => c.notNull())
    .addColumn('number', 'real', (c) => c.notNull())
    .addColumn('title', 'text')
    .addColumn('subtitle', 'text')
    .addColumn('released_at', 'integer', (c) => c.notNull())
    .addColumn('sale_at', 'integer', (c) => c.notNull())
    .addColumn('expired_at', 'integer')
    .addColumn('original_price', 'integer', (c) => c.notNull().defaultTo(0).check(sql`original_price >= 0`))
    .addColumn('thumbnail', 'text')
    .addColumn('purchase_enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('purchase_many_enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('daily_pass_enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('ads_enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('rental_enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('subscription_enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('page_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .addUniqueConstraint('chapters_series_lang_number', ['series_id', 'language', 'number'])
    .execute();

  await db.schema.createTable('chapter_pages')
    .addColumn('chapter_id', 'integer', (c) => c.notNull().references('chapters.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('media_key', 'text', (c) => c.notNull())
    .addColumn('width', 'integer', (c) => c.notNull())
    .addColumn('height', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('chapter_pages_pk', ['chapter_id', 'position'])
    .execute();

  // One index per query the pages run (see docs/data-model.md).
  await db.schema.createIndex('series_last_updated_idx').on('series').columns(['last_updated', 'id']).execute();
  await db.schema.createIndex('series_name_idx').on('series').columns(['name', 'id']).execute();
  await db.schema.createIndex('series_popularity_idx').on('series').columns(['popularity', 'id']).execute();
  await db.schema.createIndex('series_chapter_count_idx').on('series').columns(['chapter_count', 'id']).execute();
  await db.schema.createIndex('series_publisher_idx').on('series').column('publisher_id').execute();
  await db.schema.createIndex('series_languages_site_idx').on('series_languages').columns(['site_id', 'series_id']).execute();
  await db.schema.createIndex('series_tags_tag_idx').on('series_tags').columns(['tag_id', 'series_id']).execute();
  await db.schema.createIndex('series_people_person_idx').on('series_people').columns(['person_id', 'series_id']).execute();
  await db.schema.createIndex('campaigns_series_idx').on('campaigns').columns(['series_id', 'starts_at']).execute();
  await db.schema.createIndex('chapters_released_idx').on('chapters').columns(['released_at', 'series_id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['chapter_pages', 'chapters', 'campaigns', 'series_languages', 'series_keywords', 'series_tags', 'series_people', 'series', 'keywords', 'tags', 'people', 'publishers']) {
    await db.schema.dropTable(t).ifExists().execute();
  }
}
