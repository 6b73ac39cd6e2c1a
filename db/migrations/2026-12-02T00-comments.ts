import { PostgresAdapter, type Kysely, sql } from 'kysely';

// Frozen once landed. Comments under chapters (issue 31): one level of replies, a spoiler flag,
// likes counted in comment_likes (one row per reader, so a like is idempotent and race-safe) and
// kept in like_count in the same transaction. `state` is for moderation later (HELD, REMOVED);
// the first slice only writes VISIBLE. A chapter's comments are per site (the language the
// reader reads in), so the English and Portuguese threads stay apart.
export async function up(db: Kysely<any>): Promise<void> {
  const isPg = db.getExecutor().adapter instanceof PostgresAdapter;
  const id = (c: any) => (isPg ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement());
  await db.schema.createTable('comments')
    .addColumn('id', 'integer', id)
    .addColumn('chapter_id', 'integer', (c) => c.notNull().references('chapters.id').onDelete('cascade'))
    .addColumn('site_id', 'integer', (c) => c.notNull())
    .addColumn('language', 'text', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('parent_id', 'integer', (c) => c.references('comments.id').onDelete('cascade'))
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('spoiler', 'integer', (c) => c.notNull().defaultTo(0).check(sql`spoiler in (0, 1)`))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('edited_at', 'bigint')
    .addColumn('deleted_at', 'bigint')
    .addColumn('like_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('reply_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('state', 'text', (c) => c.notNull().defaultTo('VISIBLE').check(sql`state in ('VISIBLE', 'HELD', 'REMOVED')`))
    .execute();
  await db.schema.createIndex('comments_thread_idx').on('comments').columns(['chapter_id', 'site_id', 'parent_id', 'created_at']).execute();
  await db.schema.createIndex('comments_parent_idx').on('comments').columns(['parent_id', 'created_at']).execute();
  await db.schema.createIndex('comments_user_idx').on('comments').columns(['user_id', 'created_at']).execute();

  await db.schema.createTable('comment_likes')
    .addColumn('comment_id', 'integer', (c) => c.notNull().references('comments.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('comment_likes_pk', ['comment_id', 'user_id'])
    .execute();
  await db.schema.createIndex('comment_likes_user_idx').on('comment_likes').columns(['user_id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('comment_likes').ifExists().execute();
  await db.schema.dropTable('comments').ifExists().execute();
}
