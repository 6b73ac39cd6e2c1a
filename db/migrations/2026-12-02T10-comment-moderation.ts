import { PostgresAdapter, type Kysely, sql } from 'kysely';

// Frozen once landed. Comment moderation (issue 31): readers' reports (one per reader and
// comment), the open ones counted on the comment in the same transaction (3 hold it, 10 remove
// it); why a comment is not VISIBLE; one pinned comment per chapter and site; bans from
// commenting (one per account, until a time or for good); mutes between readers; blocked words
// per site.
export async function up(db: Kysely<any>): Promise<void> {
  const isPg = db.getExecutor().adapter instanceof PostgresAdapter;
  // Open (not yet reviewed) reports; a moderator's restore or remove reviews them and resets it.
  await db.schema.alterTable('comments').addColumn('report_count', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  // Why the comment is HELD or REMOVED: reports (3 hold), reports_limit (10 remove), words (a blocked word), staff (a moderator).
  await db.schema.alterTable('comments').addColumn('state_reason', 'text', (c) => c.check(sql`state_reason in ('reports', 'reports_limit', 'words', 'staff')`)).execute();
  await db.schema.createIndex('comments_moderation_idx').on('comments').columns(['site_id', 'state', 'report_count']).execute();

  await db.schema.createTable('comment_reports')
    .addColumn('comment_id', 'integer', (c) => c.notNull().references('comments.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('reason', 'text', (c) => c.notNull().check(sql`reason in ('spoiler', 'spam', 'harassment', 'other')`))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    // Set when a moderator restores or removes the comment: the report no longer counts.
    .addColumn('reviewed_at', 'bigint')
    .addPrimaryKeyConstraint('comment_reports_pk', ['comment_id', 'user_id'])
    .execute();

  await db.schema.createTable('comment_pins')
    .addColumn('chapter_id', 'integer', (c) => c.notNull().references('chapters.id').onDelete('cascade'))
    .addColumn('site_id', 'integer', (c) => c.notNull())
    .addColumn('comment_id', 'integer', (c) => c.notNull().unique().references('comments.id').onDelete('cascade'))
    .addColumn('pinned_at', 'bigint', (c) => c.notNull())
    .addColumn('pinned_by', 'integer')
    .addPrimaryKeyConstraint('comment_pins_pk', ['chapter_id', 'site_id'])
    .execute();

  await db.schema.createTable('comment_bans')
    .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('reason', 'text', (c) => c.notNull())
    // Null: for good.
    .addColumn('until', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('created_by', 'integer')
    .execute();

  await db.schema.createTable('comment_mutes')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('muted_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('comment_mutes_pk', ['user_id', 'muted_id'])
    .addCheckConstraint('comment_mutes_self', sql`user_id <> muted_id`)
    .execute();

  const id = (c: any) => (isPg ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement());
  await db.schema.createTable('blocked_words')
    .addColumn('id', 'integer', id)
    .addColumn('site_id', 'integer', (c) => c.notNull())
    // Normalized (lowercase, accents and punctuation gone, single spaces): matched as whole words.
    .addColumn('word', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('created_by', 'integer')
    .addUniqueConstraint('blocked_words_site_word', ['site_id', 'word'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['blocked_words', 'comment_mutes', 'comment_bans', 'comment_pins', 'comment_reports']) await db.schema.dropTable(t).ifExists().execute();
  await db.schema.dropIndex('comments_moderation_idx').ifExists().execute();
  await db.schema.alterTable('comments').dropColumn('state_reason').execute();
  await db.schema.alterTable('comments').dropColumn('report_count').execute();
}
