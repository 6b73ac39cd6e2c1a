import { Kysely, PostgresAdapter, PostgresDialect, SqliteDialect, sql, type CompiledQuery } from 'kysely';
import type { Database } from '@db/schema';
import { config } from './config.mjs';
import { log, observePool } from './observe.mjs';
import fs from 'node:fs';
import path from 'node:path';

export type DB = Kysely<Database>;
export type Dialect = 'sqlite' | 'postgres';

declare const WRITE_TRANSACTION: unique symbol;
/**
 * A handle inside `writeTransaction`, which alone hands one out. Every function that moves value
 * or a money record's state requires it, so calling one with a plain handle (outside a
 * transaction) does not compile (src/server/write-tx.typecheck.ts shows it). It is a DB for
 * reading, so read functions take either.
 */
export type WriteTx = DB & { readonly [WRITE_TRANSACTION]: true };

/** The one place that chooses a dialect from a DATABASE_URL. */
export async function createDb(url: string = config.databaseUrl): Promise<{ db: DB; dialect: Dialect }> {
  if (url.startsWith('postgres')) {
    const pg = (await import('pg')).default;
    // int8 (COUNT, SUM) and numeric come back as strings by default; our values fit in a double.
    pg.types.setTypeParser(20, (v: string) => Number(v));
    pg.types.setTypeParser(1700, (v: string) => Number(v));
    const pool = new pg.Pool({ connectionString: url, max: config.pgPoolMax });
    // A connection the database ends (a restart, a failover, an administrator's terminate) emits
    // 'error': on the pool when it was idle, on the client when it was checked out between
    // queries. Unheard, either is an uncaught exception that stops the process. The pool drops the
    // connection and opens a new one on the next query; a query in flight fails on its own.
    pool.on('error', (e) => log().warn(`[db] an idle PostgreSQL connection closed: ${e.message}`));
    pool.on('connect', (client) => client.on('error', () => {}));
    // The server's own pool is the one /metrics shows (commands and tests open others).
    if (url === config.databaseUrl) observePool(() => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }));
    return { db: new Kysely<Database>({ dialect: new PostgresDialect({ pool }) }), dialect: 'postgres' };
  }
  const Sqlite = (await import('better-sqlite3')).default;
  const file = url === ':memory:' ? ':memory:' : url.replace(/^file:/, '');
  if (file !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const database = new Sqlite(file);
  // The file this connection has open, so readiness can tell when it is no longer at its path.
  const opened = file === ':memory:' ? null : fs.statSync(file, { bigint: true });
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
    prepare: (text) => database.prepare(planStable(text)) as unknown as RawStatement,
    get inTransaction() { return database.inTransaction; },
    readers: new Map(),
    fileMissing: () => {
      if (!opened) return false;
      const now = fs.statSync(file, { bigint: true, throwIfNoEntry: false });
      return !now || now.ino !== opened.ino || now.dev !== opened.dev;
    },
  });
  if (url === config.databaseUrl) observePool(() => ({ total: 1, idle: database.inTransaction ? 0 : 1, waiting: 0 }));
  return { db, dialect: 'sqlite' };
}

interface SqliteHandle {
  prepare: (sql: string) => RawStatement;
  inTransaction: boolean;
  /** `readRows`' own statements: raw (array) rows and a generated row builder per SQL text. */
  readers: Map<string, RowReader>;
  /** True when the database file this connection opened is no longer at its path (removed, replaced, its volume gone). */
  fileMissing: () => boolean;
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
    return Promise.resolve(readSync<R>(handle, text, parameters));
  } catch (error) {
    return Promise.reject(error);
  }
}

function readSync<R>(handle: SqliteHandle, text: string, parameters: readonly unknown[]): R[] {
  const { stmt, build } = rowReader(handle, text);
  const raw = stmt.all(...parameters);
  const rows = new Array<R>(raw.length);
  for (let i = 0; i < raw.length; i++) rows[i] = build(raw[i]!) as R;
  return rows;
}

/** What a prepared read takes: scalars, and lists for `in (…)` (the SQL is kept per list length). */
type ReadArg = string | number | null | readonly (string | number)[];

/** Stands in for argument `arg` (element `item` of a list, or -1) while the SQL is compiled. */
class Slot {
  constructor(readonly arg: number, readonly item: number) {}
}

/**
 * A read whose query is built and compiled once per database and argument shape instead of on
 * every call: the builder runs with placeholder objects in place of the arguments, and the
 * compiled SQL is kept with the places those placeholders took in its parameter list. Building
 * and compiling the seven queries of a series page with Kysely cost about 5 % of the page. The
 * builder must be a plain function of its arguments (no branching on their values); a builder
 * whose compiled parameters do not hold each placeholder exactly once is refused at its first
 * call. Runs like `readRows` (synchronously on SQLite outside transactions).
 */
export function preparedRead<A extends readonly ReadArg[], R>(build: (db: DB, ...args: A) => Compilable<R>): (db: DB, ...args: A) => Promise<R[]> {
  const prepared = new WeakMap<DB, Map<string, { query: CompiledQuery<R>; slots: (Slot | null)[] }>>();
  return (db, ...args) => {
    try {
      const shape = args.map((a) => (Array.isArray(a) ? a.length : '.')).join(',');
      let byShape = prepared.get(db);
      if (!byShape) prepared.set(db, (byShape = new Map()));
      let entry = byShape.get(shape);
      if (!entry) {
        const placeholders = args.map((a, i) => (Array.isArray(a) ? a.map((_, j) => new Slot(i, j)) : new Slot(i, -1))) as unknown as A;
        const query = build(db, ...placeholders).compile();
        const slots = query.parameters.map((p) => (p instanceof Slot ? p : null));
        const expected = args.reduce<number>((n, a) => n + (Array.isArray(a) ? a.length : 1), 0);
        if (slots.filter(Boolean).length !== expected || new Set(slots.filter(Boolean)).size !== expected) {
          throw new Error('preparedRead: the builder must use each argument exactly once as a value');
        }
        entry = { query, slots };
        byShape.set(shape, entry);
      }
      const { query, slots } = entry;
      const parameters = query.parameters.map((p, k) => {
        const slot = slots[k];
        if (!slot) return p;
        const value = args[slot.arg];
        return slot.item < 0 ? value : (value as readonly unknown[])[slot.item];
      });
      const handle = sqliteHandles.get(db);
      if (handle && !handle.inTransaction) return Promise.resolve(readSync<R>(handle, query.sql, parameters));
      return db.executeQuery<R>({ ...query, parameters }).then((result) => result.rows);
    } catch (error) {
      return Promise.reject(error);
    }
  };
}

/**
 * Runs one statement that writes (an upsert, say) and answers its rows. On SQLite, outside a
 * transaction, it runs synchronously on the connection as one autocommitted statement, instead
 * of queueing behind Kysely's connection mutex for as long as another request's transaction
 * holds it between awaits (the limiter counts every mutation before the route runs: queued, it
 * cost the unlock bench about 10 %). Inside a transaction it goes through Kysely, so it never
 * lands in another request's transaction.
 */
export function writeRows<R>(db: DB, query: Compilable<R>): Promise<R[]> {
  return readRows(db, query);
}

/** `readRows` for one row (or undefined). */
export function readRow<R>(db: DB, query: Compilable<R>): Promise<R | undefined> {
  return readRows(db, query).then((rows) => rows[0]);
}

/**
 * better-sqlite3's SQLite is built with STAT4, under which a statement whose plan the query
 * planner chose by looking at a bound value (a join's `where x = ?`) is marked expired whenever a
 * parameter is bound, and so prepared again on every run: about 10 µs a call, eight times the
 * query itself (a two-table join by key: 12.5 µs against 1.5 µs), on each of the series page's
 * joins. A unary plus makes the value an expression the planner does not read: the same index,
 * the same plan, the same comparison (a parameter has no affinity either way), and no re-prepare.
 * Rewritten only after comparison operators and in `in (…)` lists, and never in SQL holding a
 * string literal, where a `?` might be text.
 */
export function planStable(text: string): string {
  if (text.includes("'")) return text;
  return text
    .replace(/(=|<>|<|>) \?/g, '$1 +?')
    .replace(/ in \(((?:\?, )*\?)\)/g, (_m, list: string) => ` in (${list.replace(/\?/g, '+?')})`);
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
          stmt = prepare(planStable(sql));
          if (cache.size >= max) cache.delete(cache.keys().next().value!);
          cache.set(sql, stmt);
        }
        return stmt;
      };
    },
  });
}

/**
 * Runs `fn` in a write transaction that cannot lose a race: on SQLite it starts with
 * `BEGIN IMMEDIATE`, taking the database's write lock before reading (a plain BEGIN would let two
 * processes read the same balance and then fail or overwrite); on PostgreSQL it is a READ
 * COMMITTED transaction in which the caller locks the rows it will change (`FOR NO KEY UPDATE`, in a
 * fixed order). `fn` must use only the handle it is given (on SQLite the connection is held)
 * and must not wait on the network. Commits when `fn` resolves, rolls back when it throws.
 */
export async function writeTransaction<T>(db: DB, fn: (trx: WriteTx) => Promise<T>): Promise<T> {
  if (isPostgres(db)) return db.transaction().execute((trx) => fn(trx as unknown as WriteTx));
  return db.connection().execute(async (conn) => {
    await sql`begin immediate`.execute(conn);
    try {
      const out = await fn(conn as WriteTx);
      await sql`commit`.execute(conn);
      return out;
    } catch (error) {
      await sql`rollback`.execute(conn).catch(() => {});
      throw error;
    }
  });
}

/** True for PostgreSQL (row locks are needed there; SQLite's write lock covers the database). */
export function isPostgres(db: DB): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
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

/**
 * Whether the database answers (readiness, src/server/readiness.ts): one trivial query, and on
 * SQLite the file the connection opened still at its path (a removed or replaced file still
 * answers through the open handle, but a restart would find another database).
 */
export async function databaseAnswers(db: DB): Promise<boolean> {
  if (sqliteHandles.get(db)?.fileMissing()) return false;
  await sql`select 1`.execute(db);
  return true;
}

/** True for a unique-constraint violation on either dialect (a concurrent insert of the same key won). */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}
