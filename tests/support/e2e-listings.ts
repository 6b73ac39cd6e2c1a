/**
 * Run by playwright.config.ts's web server command after prepare-db, before the server starts:
 * the Portuguese site lists two of the demo's English-only series, as translations under way,
 * because a series a site does not list is a 404 there (docs/decisions.md) and the Portuguese
 * specs meet the age gate (velvet-hours) and the free ways in (ghost-ward-13) on them.
 */
import { createDb } from '~/server/db';

const E2E_PORTUGUESE_LISTINGS = ['velvet-hours', 'ghost-ward-13'];

const { db } = await createDb(process.env.DATABASE_URL);
try {
  for (const slug of E2E_PORTUGUESE_LISTINGS) {
    const { id } = await db.selectFrom('series').select('id').where('slug', '=', slug).executeTakeFirstOrThrow();
    await db.insertInto('series_languages').values({ series_id: id, language: 'pt-br', site_id: 3, chapter_count: 0, last_updated: 0 })
      .onConflict((oc) => oc.doNothing()).execute();
  }
} finally {
  await db.destroy();
}
