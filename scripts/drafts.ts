/**
 * npm run drafts -- cleanup
 *
 * Removes chapter drafts nobody touched for 7 days (each with an audit record, the command
 * line as actor), staging folders no draft owns, and upload work folders a crash left behind
 * (docs/operations.md, "Chapter drafts"). Safe to run at any time, from cron for instance.
 */
import { createDb } from '~/server/db';
import { migrateToLatest } from '@db/migrate';
import { cleanupDrafts } from '~/features/studio/index.server';

if (process.argv[2] !== 'cleanup' || process.argv.length > 3) {
  console.error('Usage: npm run drafts -- cleanup');
  process.exit(2);
}
const { db, dialect } = await createDb();
try {
  await migrateToLatest(db);
  const { drafts, folders } = await cleanupDrafts(db, Math.floor(Date.now() / 1000));
  console.log(`Removed ${drafts} abandoned draft(s) and ${folders} orphan staging folder(s) (${dialect}).`);
} finally {
  await db.destroy();
}
