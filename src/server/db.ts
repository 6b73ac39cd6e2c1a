import { Kysely, PostgresDialect, SqliteDialect, sql, type CompiledQuery, type Transaction } from 'kysely';
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
  database.pragma('cache_size = -65536'); // 64 MiB page cache per connection
  // Reads through a memory map instead of a read() call per page: about 10 % off the series page's queries.
  database.pragma('mmap_size = 1073741824');
  const cached = withStatementCache(database);
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: cached }) });
  sqliteHandles.set(db, {
    // readRows' statements are its own (raw mode); Kysely's driver keeps object-mode ones for the same text.
    prepare: (text) => database.prepare(text) as unknown as RawStatement,
    get inTransaction() { return database.inTransaction; },
    readers: new Map(),
  });
  return { db, dialect: 'sqlite' };
}

interface SqliteHandle {
  prepare: (sql: string) => RawStatement;
  inTransaction: boolean;
  /** `readRows`' own statements: raw (array) rows and a generated row builder per SQL text. */
  readers: Map<string, RowReader>;
}
interface RawStatement {
  raw: (on: boolean) => RawStatement;
  columns: () => { name: string }[];
  all: (...params: readonly unknown[]) => unknown[][];
}
interface RowReader {
  stmt: RawStatement;
  build: (row: unknown[]) => unknown;
}

/** The better-sqlite3 handle behind a SQLite Kysely instance (absent for PostgreSQL). */
const sqliteHandles = new WeakMap<DB, SqliteHandle>();
const MAX_READERS = 500;

/**
 * A statement that returns arrays, and a function that turns one array into the row object,
 * generated from the column names (the last of two equal names wins, as in better-sqlite3's
 * own objects). better-sqlite3 builds each row object from C++ one property at a time, which
 * costs more than the query on a 60-row chapter list (120 µs against 70 µs); the generated
 * literal gives every row the same shape.
 */
function rowReader(handle: SqliteHandle, text: string): RowReader {
  let reader = handle.readers.get(text);
  if (reader) return reader;
  const stmt = handle.prepare(text).raw(true);
  const fields = stmt.columns().map((c, i) => `${JSON.stringify(c.name)}: r[${i}]`);
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- column names are JSON-quoted, indexes are numbers
  const build = new Function('r', `return { ${fields.join(', ')} };`) as (row: unknown[]) => unknown;
  reader = { stmt, build };
  if (handle.readers.size >= MAX_READERS) handle.readers.delete(handle.readers.keys().next().value!);
  handle.readers.set(text, reader);
  return reader;
}

type Compilable<R> = { compile(): CompiledQuery<R>; execute(): Promise<R[]> };

/**
 * Runs a read query built with Kysely. On SQLite the compiled statement runs synchronously on
 * the connection (through the statement cache), skipping Kysely's async executor: its
 * connection mutex and promise chain cost more than the query itself on a hot page (the series
 * page runs seven). Same rows as `query.execute()` (no plugins are installed). While a
 * transaction holds the connection (another request between its awaits), the query waits for it
 * through Kysely instead, so it never sees uncommitted writes. PostgreSQL and transaction
 * handles go through Kysely as usual.
 */
export function readRows<R>(db: DB, query: Compilable<R>): Promise<R[]> {
  const handle = sqliteHandles.get(db);
  if (!handle || handle.inTransaction) return query.execute();
  try {
    const { sql: text, parameters } = query.compile();
    const { stmt, build } = rowReader(handle, text);
    const raw = stmt.all(...parameters);
    const rows = new Array<R>(raw.length);
    for (let i = 0; i < raw.length; i++) rows[i] = build(raw[i]!) as R;
    return Promise.resolve(rows);
  } catch (error) {
    return Promise.reject(error);
  }
}

/** `readRows` for one row (or undefined). */
export function readRow<R>(db: DB, query: Compilable<R>): Promise<R | undefined> {
  return readRows(db, query).then((rows) => rows[0]);
}

/**
 * Kysely's SQLite driver prepares every statement anew; the same few dozen SQL strings run on
 * every page, so prepared statements are kept by SQL text (bounded). Safe because Kysely runs
 * each statement to completion (`all`/`run`) before preparing the next on this connection.
 */
function withStatementCache<D extends { prepare: (sql: string) => unknown }>(database: D, max = 500): D {
  const cache = new Map<string, unknown>();
  const prepare = database.prepare.bind(database);
  return new Proxy(database, {
    get(target, prop, receiver) {
      if (prop !== 'prepare') {
        const v = Reflect.get(target, prop, receiver);
        return typeof v === 'function' ? v.bind(target) : v;
      }
      return (sql: string) => {
        let stmt = cache.get(sql);
        if (!stmt) {
          stmt = prepare(sql);
          if (cache.size >= max) cache.delete(cache.keys().next().value!);
          cache.set(sql, stmt);
        }
        return stmt;
      };
    },
  });
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
