/** The studio's rows: share links. Private to the studio feature. */
import { readRow, writeRows, type DB, type WriteTx } from '~/server/db';

export async function insertShortLink(tx: WriteTx, row: { code: string; site_id: number; path: string; created_by: number; created_at: number }): Promise<number> {
  const r = await tx.insertInto('short_links').values(row).returning('id').executeTakeFirstOrThrow();
  return Number(r.id);
}

/** Counts one visit of the site's link and answers its path (undefined: no such link), in one statement. */
export async function visitShortLink(db: DB, siteId: number, code: string): Promise<string | undefined> {
  const rows = await writeRows(db, db.updateTable('short_links')
    .set((eb) => ({ visits: eb('visits', '+', 1) }))
    .where('code', '=', code).where('site_id', '=', siteId)
    .returning('path'));
  return rows[0]?.path;
}

/** The site's link's path without counting (a HEAD request). */
export async function peekShortLink(db: DB, siteId: number, code: string): Promise<string | undefined> {
  return (await readRow(db, db.selectFrom('short_links').select('path').where('code', '=', code).where('site_id', '=', siteId)))?.path;
}
