/**
 * Run by playwright.config.ts's web server command after prepare-db, before the server starts:
 * the Portuguese listings of portuguese-listings.ts.
 */
import { createDb } from '~/server/db';
import { listOnPortugueseSite } from './portuguese-listings';

const { db } = await createDb(process.env.DATABASE_URL);
try {
  await listOnPortugueseSite(db);
} finally {
  await db.destroy();
}
