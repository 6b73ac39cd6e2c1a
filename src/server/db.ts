import { Kysely, PostgresDialect, SqliteDialect, sql, type Transaction } from 'kysely';
import type { Database } from '../../db/schema';
import { config } from './config';
import fs from 'node:fs';
import path from 'node:path';

export type DB = Kysely<Database>;
export type Tx = Transaction<Database>;
export type Dialect = 'sqlite' | 'postgres';

/** The one place that chooses a dialect from a DATABASE_URL. */
export async function createDb(url: string = config.databaseUrl): Promise<{ db: DB; dialect: Dialect }> {
  if (url.startsWith('postgres')) {
    const pg = (await import('pg')).default;
    // int8 (COUNT, SUM) and numeric come back as strings by default; our values fit in a double.
    pg.types.setTypeParser(20, (v: string) => Number(v));
    pg.types.setTypeParser(1700, (v: string) => Number(v));
    const pool = new pg.Pool({ connectionString: url, max: Number(process.env.PG_POOL_MAX ?? 10) });
    return { db: new Kysely<Database>({ dialect: new PostgresDialect({ pool }) }), dialect: 'postgres' };
  }
  const Sqlite = (await import('better-sqlite3')).default;
  const file = url === ':memory:' ? ':memory:' : url.replace(/^file:/, '');
  if (file !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const database = new Sqlite(file);
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = NORMAL');
  database.pragma('foreign_keys = ON');
  database.pragma('busy_timeout = 5000');
  return { db: new Kysely<Database>({ dialect: new SqliteDialect({ database }) }), dialect: 'sqlite' };
}

let shared: Promise<{ db: DB; dialect: Dialect }> | undefined;

/** The process-wide database handle used by the web server. */
export function getDb(): Promise<DB> {
  shared ??= createDb();
  return shared.then((s) => s.db);
}

export async function getDialect(): Promise<Dialect> {
  shared ??= createDb();
  return (await shared).dialect;
}

export { sql };
