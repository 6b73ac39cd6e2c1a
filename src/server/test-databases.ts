/**
 * Real databases for tests beside the code (docs/testing.md): an in-memory SQLite database and a
 * fresh PostgreSQL database on the test server, each migrated, so a repository or an owner of a
 * money record is tested on both dialects without a web server. Only tests import this.
 *
 *   for (const dialect of testDialects()) describe(dialect, () => { const t = useTestDatabase(dialect); … t.db … });
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll } from 'vitest';
import { migrateToLatest } from '@db/migrate';
import { createDb, type DB, type Dialect } from './db';

/** The PostgreSQL server the tests may create databases on (the integration tests use the same). */
export const TEST_PG_ADMIN_URL = process.env.INKPASS_TEST_PG_URL || 'postgres://postgres@127.0.0.1:5432/test';

/** Dialects to test on: INKPASS_IT_DIALECTS (e.g. "sqlite"), both by default. */
export function testDialects(): Dialect[] {
  const wanted = (process.env.INKPASS_IT_DIALECTS ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  const all: Dialect[] = ['sqlite', 'postgres'];
  return wanted.length ? all.filter((d) => wanted.includes(d)) : all;
}

async function admin(sqlText: string): Promise<void> {
  const pg = (await import('pg')).default;
  const client = new pg.Client({ connectionString: TEST_PG_ADMIN_URL });
  try {
    await client.connect();
  } catch (e) {
    throw new Error(`PostgreSQL is not reachable at ${TEST_PG_ADMIN_URL} (${(e as Error).message}): start it, or run SQLite only with INKPASS_IT_DIALECTS=sqlite`);
  }
  try {
    await client.query(sqlText);
  } finally {
    await client.end().catch(() => {});
  }
}

/** A fresh, migrated database of this dialect; `drop` removes it. */
export async function createTestDatabase(dialect: Dialect): Promise<{ db: DB; dialect: Dialect; url: string; drop(): Promise<void> }> {
  if (dialect === 'sqlite') {
    const { db } = await createDb(':memory:');
    await migrateToLatest(db);
    return { db, dialect, url: ':memory:', drop: () => db.destroy() };
  }
  const name = `inkpass_unit_${crypto.randomBytes(5).toString('hex')}`;
  await admin(`create database ${name}`);
  const url = new URL(TEST_PG_ADMIN_URL);
  url.pathname = `/${name}`;
  const { db } = await createDb(url.toString());
  try {
    await migrateToLatest(db);
  } catch (e) {
    await db.destroy();
    await admin(`drop database if exists ${name} with (force)`);
    throw e;
  }
  return {
    db, dialect, url: url.toString(),
    drop: async () => {
      await db.destroy();
      await admin(`drop database if exists ${name} with (force)`);
    },
  };
}

/** Inside a `describe`: a fresh database of this dialect for the block, from `beforeAll` on. */
export function useTestDatabase(dialect: Dialect): { readonly db: DB; readonly url: string } {
  let made: Awaited<ReturnType<typeof createTestDatabase>> | undefined;
  beforeAll(async () => {
    made = await createTestDatabase(dialect);
  }, 60_000);
  afterAll(async () => {
    await made?.drop();
  });
  return {
    get db() {
      if (!made) throw new Error(`the ${dialect} test database is not ready (used outside a test)`);
      return made.db;
    },
    get url() {
      if (!made) throw new Error(`the ${dialect} test database is not ready (used outside a test)`);
      return made.url;
    },
  };
}
