import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen once landed. The studio's series editor (issue 27, docs/staff.md) adds a fourth series
// state, DRAFT: made in the studio, invisible to readers until published (ACTIVE). series.state
// had no CHECK, so a typo would have read as ACTIVE; now the database refuses any other name. On
// PostgreSQL a table constraint; SQLite cannot add one to an existing table without rebuilding
// it, so triggers say the same on insert and update. Also an index for the studio's list by
// state (drafts are few, and read on every studio visit).
const STATES = ['DRAFT', 'ACTIVE', 'REMOVED', 'BLOCKED'];

export async function up(db: Kysely<any>): Promise<void> {
  const isPg = db.getExecutor().adapter instanceof PostgresAdapter;
  const names = sql.join(STATES.map((s) => sql.lit(s)));
  if (isPg) {
    await sql`alter table series add constraint series_state check (state in (${names}))`.execute(db);
  } else {
    await sql`create trigger series_state_insert before insert on series when new.state not in (${names}) begin select raise(abort, 'series.state: unknown state'); end`.execute(db);
    await sql`create trigger series_state_update before update of state on series when new.state not in (${names}) begin select raise(abort, 'series.state: unknown state'); end`.execute(db);
  }
  await db.schema.createIndex('series_state_idx').on('series').columns(['state', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  const isPg = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema.dropIndex('series_state_idx').execute();
  if (isPg) await sql`alter table series drop constraint series_state`.execute(db);
  else {
    await sql`drop trigger series_state_insert`.execute(db);
    await sql`drop trigger series_state_update`.execute(db);
  }
}
