import { Migrator } from 'kysely/migration';
import { sql } from 'kysely';
import type { DB } from '~/server/db';
import { migrationProvider } from './migrations/index';

/** Applies every pending migration; throws with the failing migration's error. */
export async function migrateToLatest(db: DB): Promise<string[]> {
  const migrator = new Migrator({ db, provider: migrationProvider });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/**
 * Migrations this build knows that the database has not applied (readiness: /readyz). Reads the
 * migrator's own table; a database never migrated has none of them applied.
 */
export async function pendingMigrations(db: DB): Promise<string[]> {
  const known = Object.keys(await migrationProvider.getMigrations());
  const applied = await sql<{ name: string }>`select name from kysely_migration`.execute(db).then(
    (r) => new Set(r.rows.map((row) => row.name)),
    () => new Set<string>(),
  );
  return known.filter((name) => !applied.has(name));
}
