import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it, expect, afterAll } from 'vitest';
import { MEDIA_DIR, ROOT } from './harness';

/** What `npm start` does before serving: migrate, and seed only an empty catalogue. */
function prepare(databaseUrl: string): string {
  return execFileSync(process.execPath, [path.join(ROOT, 'node_modules/tsx/dist/cli.mjs'), 'scripts/prepare-db.ts'], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: databaseUrl, MEDIA_DIR },
    encoding: 'utf8',
  });
}

describe('starting twice on the same database', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'inkpass-start-'));
  const url = `file:${path.join(dir, 'inkpass.db')}`;
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('seeds the first time, then neither re-seeds nor loses data', async () => {
    const first = prepare(url);
    expect(first).toMatch(/Seeded \d+ series/);

    const { createDb } = await import('~/server/db');
    const { db } = await createDb(url);
    const count = async () => Number((await db.selectFrom('series').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    const before = await count();
    // A change made while the site runs must survive the next start.
    await db.updateTable('series').set({ name: 'Renamed by an editor' }).where('id', '=', 1).execute();

    const second = prepare(url);
    expect(second).not.toMatch(/Seeded/);
    expect(await count()).toBe(before);
    const row = await db.selectFrom('series').select('name').where('id', '=', 1).executeTakeFirstOrThrow();
    expect(row.name).toBe('Renamed by an editor');
    await db.destroy();
  }, 240_000);
});
