import { Migrator } from 'kysely/migration';
import type { DB } from '~/server/db';
import { migrationProvider } from './migrations/index';

/** Applies every pending migration; throws with the failing migration's error. */
export async function migrateToLatest(db: DB): Promise<string[]> {
  const migrator = new Migrator({ db, provider: migrationProvider });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
