/**
 * The Portuguese site lists two of the demo's English-only series, as translations under way,
 * because a series a site does not list is a 404 there (docs/decisions.md) and the Portuguese
 * pages of the e2e suite and the benches meet the age gate (velvet-hours) and the free ways in
 * (ghost-ward-13) on them.
 */
import type { DB } from '~/server/db';

export const PORTUGUESE_LISTINGS = ['velvet-hours', 'ghost-ward-13'] as const;

export async function listOnPortugueseSite(db: DB, slugs: readonly string[] = PORTUGUESE_LISTINGS): Promise<void> {
  for (const slug of slugs) {
    const { id } = await db.selectFrom('series').select('id').where('slug', '=', slug).executeTakeFirstOrThrow();
    await db.insertInto('series_languages').values({ series_id: id, language: 'pt-br', site_id: 3, chapter_count: 0, last_updated: 0 })
      .onConflict((oc) => oc.doNothing()).execute();
  }
}
