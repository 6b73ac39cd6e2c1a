import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Frozen once landed. Unix-second columns were `integer`, which PostgreSQL stores in 32 bits:
// they would overflow on 2038-01-19. SQLite's INTEGER is already 64-bit, so this only
// changes PostgreSQL. New time columns are created `bigint` from the start (docs/data-model.md).
export const TIME_COLUMNS: Record<string, string[]> = {
  series: ['created_at', 'modified_at', 'last_updated'],
  series_languages: ['last_updated'],
  campaigns: ['starts_at', 'ends_at'],
  chapters: ['released_at', 'sale_at', 'expired_at', 'created_at'],
  users: ['created_at', 'password_changed_at'],
  sessions: ['created_at', 'last_seen_at', 'expires_at'],
  rate_limits: ['window_start'],
  favorites: ['created_at'],
  reading_progress: ['first_read', 'last_read', 'token_issued_at'],
};

export async function up(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  for (const [table, columns] of Object.entries(TIME_COLUMNS)) {
    const changes = columns.map((c) => sql`alter column ${sql.ref(c)} type bigint`);
    await sql`alter table ${sql.table(table)} ${sql.join(changes)}`.execute(db);
  }
}

export async function down(): Promise<void> {
  // Narrowing back could fail on dates after 2038; there is no way down.
}
