import type { Migration, MigrationProvider } from 'kysely';
import * as catalog from './2026-11-21T00-catalog';

/** Every migration, in order. Add new ones at the end; never edit one that has landed. */
export const migrations: Record<string, Migration> = {
  '2026-11-21T00-catalog': catalog,
};

export const migrationProvider: MigrationProvider = { getMigrations: async () => migrations };
