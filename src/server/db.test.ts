import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createDb, planStable, preparedRead, readRow, readRows, type DB } from './db';
import { migrateToLatest } from '@db/migrate';

// readRows runs SQLite reads synchronously beside Kysely's executor; these tests pin down that
// it returns what Kysely returns and never reads inside another request's open transaction.
let db: DB;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'inkpass-db-'));

beforeAll(async () => {
  db = (await createDb(`file:${path.join(dir, 'test.db')}`)).db;
  await migrateToLatest(db);
  await db.insertInto('tags').values([
    { slug: 'action', name: 'Action', name_pt: 'Ação', color: '#f00' },
    { slug: 'drama', name: 'Drama', name_pt: 'Drama', color: '#00f' },
  ] as never).execute();
});
afterAll(async () => {
  await db.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
});

/**
 * Another request's transaction, in the middle of its work: it has added a tag and waits (so the
 * connection is held) until `release`, then rolls back. `rolledBack` settles once it has.
 */
async function openTransactionAdding(slug: string) {
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  const tx = db.transaction().execute(async (trx) => {
    await trx.insertInto('tags').values({ slug, name: slug, name_pt: slug, color: '#000' } as never).execute();
    await held;
    throw new Error('rolled back');
  });
  await new Promise((r) => setTimeout(r, 10));
  return { release, rolledBack: expect(tx).rejects.toThrow('rolled back') };
}

describe('readRows on SQLite', () => {
  it('returns the same rows as Kysely', async () => {
    const query = db.selectFrom('tags').selectAll().orderBy('slug');
    expect(await readRows(db, query)).toEqual(await query.execute());
    expect(await readRow(db, db.selectFrom('tags').select('name').where('slug', '=', 'drama'))).toEqual({ name: 'Drama' });
    expect(await readRow(db, db.selectFrom('tags').select('name').where('slug', '=', 'none'))).toBeUndefined();
  });

  it('builds the same objects as Kysely for joins, repeated column names, nulls and odd names', async () => {
    const join = db.selectFrom('tags as a').innerJoin('tags as b', 'b.slug', 'a.slug').select(['a.slug', 'b.slug', 'a.name_pt as nome "x"', 'a.color']).orderBy('a.slug');
    const rows = await readRows(db, join);
    expect(rows).toEqual(await join.execute());
    expect(rows[0]).toEqual({ slug: 'action', 'nome "x"': 'Ação', color: '#f00' });
    const empty = db.selectFrom('tags').selectAll().where('slug', '=', 'none');
    expect(await readRows(db, empty)).toEqual([]);
    // The same SQL text through Kysely afterwards still gives objects (its statements are separate).
    expect(await db.selectFrom('tags').selectAll().orderBy('slug').execute()).toEqual(await readRows(db, db.selectFrom('tags').selectAll().orderBy('slug')));
  });

  it('waits for an open transaction instead of reading its uncommitted rows', async () => {
    const { release, rolledBack } = await openTransactionAdding('phantom');
    const during = readRows(db, db.selectFrom('tags').select('slug').orderBy('slug'));
    release();
    await rolledBack;
    expect((await during).map((t) => t.slug)).toEqual(['action', 'drama']);
  });

  it('rejects (does not throw synchronously) on a bad query', async () => {
    const bad = db.selectFrom('tags').select('slug').where('no_such_column' as never, '=', 1 as never);
    const result = readRows(db, bad);
    await expect(result).rejects.toThrow(/no such column/);
  });
});

describe('preparedRead', () => {
  const bySlug = preparedRead((db, slug: string) => db.selectFrom('tags').select(['slug', 'name']).where('slug', '=', slug));
  const bySlugs = preparedRead((db, color: string, slugs: readonly string[]) =>
    db.selectFrom('tags').select('slug').where('color', '!=', color).where('slug', 'in', slugs).orderBy('slug'));

  it('gives what the built query gives, for every value and list length, call after call', async () => {
    for (const slug of ['drama', 'action', 'none', 'drama']) {
      expect(await bySlug(db, slug)).toEqual(await db.selectFrom('tags').select(['slug', 'name']).where('slug', '=', slug).execute());
    }
    expect(await bySlugs(db, '#000', ['drama'])).toEqual([{ slug: 'drama' }]);
    expect(await bySlugs(db, '#000', ['drama', 'action'])).toEqual([{ slug: 'action' }, { slug: 'drama' }]);
    expect(await bySlugs(db, '#00f', ['drama', 'action'])).toEqual([{ slug: 'action' }]);
    expect(await bySlugs(db, '#000', ['nope', 'drama', 'action'])).toEqual([{ slug: 'action' }, { slug: 'drama' }]);
    expect(await bySlugs(db, '#000', ['drama'])).toEqual([{ slug: 'drama' }]);
  });

  it('refuses a builder that does not use each argument once as a value', async () => {
    const twice = preparedRead((db, slug: string) => db.selectFrom('tags').select('slug').where('slug', '=', slug).where('name', '!=', slug));
    await expect(twice(db, 'drama')).rejects.toThrow(/exactly once/);
    const unused = preparedRead((db, _slug: string) => db.selectFrom('tags').select('slug'));
    await expect(unused(db, 'drama')).rejects.toThrow(/exactly once/);
  });

  it('waits for an open transaction instead of reading its uncommitted rows', async () => {
    const { release, rolledBack } = await openTransactionAdding('ghost');
    const during = bySlug(db, 'ghost');
    release();
    await rolledBack;
    expect(await during).toEqual([]);
  });
});

describe('planStable', () => {
  it('hides bound values from the query planner after comparisons and in lists, and nowhere else', () => {
    expect(planStable('select "a"."x" from "a" inner join "b" on "b"."id" = "a"."b_id" where "a"."id" = ? and "a"."n" >= ? and "a"."m" <> ? and "a"."k" in (?, ?, ?) limit ?'))
      .toBe('select "a"."x" from "a" inner join "b" on "b"."id" = "a"."b_id" where "a"."id" = +? and "a"."n" >= +? and "a"."m" <> +? and "a"."k" in (+?, +?, +?) limit ?');
    expect(planStable('insert into "t" ("a", "b") values (?, ?)')).toBe('insert into "t" ("a", "b") values (?, ?)');
    expect(planStable('select "x" from "t" where "name" like ?')).toBe('select "x" from "t" where "name" like ?');
    // A literal could hold a question mark that is text: left alone.
    expect(planStable(`select "x" from "t" where "a" = ? and "b" = 'why = ?'`)).toBe(`select "x" from "t" where "a" = ? and "b" = 'why = ?'`);
  });

  it('keeps what the rewritten statements find: joins, ranges, lists, text and integer keys, nulls', async () => {
    const join = (slug: string) => db.selectFrom('tags as a').innerJoin('tags as b', 'b.slug', 'a.slug').select(['a.slug', 'b.name']).where('a.slug', '=', slug);
    for (const slug of ['action', 'drama', 'none']) expect(await readRows(db, join(slug))).toEqual(await join(slug).execute());
    const range = db.selectFrom('tags').select('slug').where('slug', '>=', 'b').where('slug', 'in', ['action', 'drama']).orderBy('slug');
    expect((await readRows(db, range)).map((r) => r.slug)).toEqual(['drama']);
    const byId = db.selectFrom('tags').select('slug').where('id', '=', 1).where('color', '<>', '#000');
    expect(await readRows(db, byId)).toEqual(await byId.execute());
    expect(await readRows(db, db.selectFrom('tags').select('slug').where('slug', '=', null as never))).toEqual([]);
  });
});
