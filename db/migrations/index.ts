import type { Migration, MigrationProvider } from 'kysely';
import * as catalog from './2026-11-21T00-catalog';
import * as accounts from './2026-11-21T01-accounts';
import * as library from './2026-11-21T02-library';
import * as search from './2026-11-21T03-search';

/** Every migration, in order. Add new ones at the end; never edit one that has landed. */
export const migrations: Record<string, Migration> = {
  '2026-11-21T00-catalog': catalog,
  '2026-11-21T01-accounts': accounts,
  '2026-11-21T02-library': library,
  '2026-11-21T03-search': search,
};

export const migrationProvider: MigrationProvider = { getMigrations: async () => migrations };
