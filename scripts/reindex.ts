/**
 * npm run reindex [-- id id ...]
 *
 * Rebuilds the search documents (series_search, and through it the FTS5 table on SQLite or the
 * GIN index on PostgreSQL) for the given series ids, or for every series. Run after editing
 * series, people, tags or keywords by hand (docs/content.md).
 */
import { createDb } from '~/server/db';
import { migrateToLatest } from '@db/migrate';
import { reindexSeries } from '~/server/search-index';

const args = process.argv.slice(2);
const ids = args.map(Number);
if (ids.some((n) => !Number.isSafeInteger(n) || n <= 0)) {
  console.error('Usage: npm run reindex [-- <series id> ...]');
  process.exit(2);
}
const started = Date.now();
const { db, dialect } = await createDb();
try {
  await migrateToLatest(db);
  const n = await reindexSeries(db, ids.length ? ids : undefined);
  console.log(`Reindexed ${n} series (${dialect}) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
} finally {
  await db.destroy();
}
