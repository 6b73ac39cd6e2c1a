import { describe, expect, it } from 'vitest';
import { Migrator } from 'kysely/migration';
import { sql } from 'kysely';
import { createDb } from '~/server/db';
import { migrateToLatest, pendingMigrations } from '@db/migrate';
import { migrations } from '@db/migrations/index';

describe('migrateToLatest', () => {
  it('applies a migration merged from another branch whose name sorts before one the database already ran', async () => {
    const { db } = await createDb(':memory:');
    try {
      const names = Object.keys(migrations).sort();
      // A database migrated by a checkout that did not have this migration yet (as the notify
      // branch's was missing where the promotions branch had landed first).
      const late = '2026-12-03T00-notifications';
      expect(names.indexOf(late)).toBeLessThan(names.length - 1);
      const without = new Migrator({ db, provider: { getMigrations: async () => Object.fromEntries(Object.entries(migrations).filter(([name]) => name !== late)) } });
      expect((await without.migrateToLatest()).error).toBeUndefined();
      expect(await pendingMigrations(db)).toEqual([late]);

      expect(await migrateToLatest(db)).toEqual([late]);
      expect(await pendingMigrations(db)).toEqual([]);
      // Its tables are there.
      const { rows } = await sql<{ name: string }>`select name from sqlite_master where type = 'table' and name = 'notifications'`.execute(db);
      expect(rows).toHaveLength(1);
    } finally {
      await db.destroy();
    }
  });
});
