import { Migrator } from 'kysely/migration';
import { sql } from 'kysely';
import type { DB } from '~/server/db';
import { migrationProvider } from './migrations/index';

/**
 * Applies every pending migration, in name order; throws with the failing migration's error.
 * Pending means not yet applied, wherever its name sorts: work merged from parallel branches
 * lands migrations whose names sort before one a database already ran (2026-12-03T00-notifications
 * after 2026-12-03T00-promotions-preview had run), and Kysely's default refuses those databases
 * ("corrupted migrations"). Each migration touches its own tables, so the order between
 * branches does not matter; within one branch, names still give the order.
 */
export async function migrateToLatest(db: DB): Promise<string[]> {
  const migrator = new Migrator({ db, provider: migrationProvider, allowUnorderedMigrations: true });
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
