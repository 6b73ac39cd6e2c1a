/**
 * The demo's curated collections (docs/data-model.md, "Collections"): a few lists per site, in an
 * editor's order, written in the site's language. A series a site does not list is left out of
 * that site's collections here; the pages filter again anyway (a series can leave a site later).
 */
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../schema';

export interface CollectionDef {
  slug: string;
  title: string;
  description: string;
  /** Series slugs in the collection's order. */
  series: string[];
}

/** By site id: 1 English, 3 Portuguese. */
export const COLLECTIONS: Record<1 | 3, CollectionDef[]> = {
  1: [
    {
      slug: 'staff-picks',
      title: 'Staff picks',
      description: 'The series our editors keep coming back to.',
      series: ['the-lantern-road', 'harbor-lights', 'kaiju-weather-report', 'ashfall-academy', 'the-last-cartographer', 'ironwood'],
    },
    {
      slug: 'samurai-and-swords',
      title: 'Samurai and swords',
      description: 'Duels, ronin and blades in the moonlight.',
      series: ['crimson-tide-ronin', 'blade-of-the-quiet-moon', 'return-of-the-sword-saint'],
    },
    {
      slug: 'weird-and-wonderful',
      title: 'Weird and wonderful',
      description: 'Monsters, ghosts and clockwork lawmen.',
      series: ['night-shift-at-the-museum-of-monsters', 'the-clockwork-sheriff', 'spirit-kitchen-hanako', 'ninth-floor-exorcist'],
    },
  ],
  3: [
    {
      slug: 'escolhas-da-equipe',
      title: 'Escolhas da equipe',
      description: 'As séries que a nossa equipe não para de reler.',
      series: ['coracao-de-aco', 'the-lantern-road', 'harbor-lights', 'kaiju-weather-report', 'the-last-cartographer'],
    },
    {
      slug: 'espadas-e-samurais',
      title: 'Espadas e samurais',
      description: 'Duelos, ronins e lâminas ao luar.',
      series: ['crimson-tide-ronin', 'blade-of-the-quiet-moon', 'the-clockwork-sheriff'],
    },
  ],
};

type Db = Kysely<Database> | Transaction<Database>;

/** Inserts the demo collections; series missing from the catalogue or not listed on the site are skipped. */
export async function seedCollections(db: Db, now: number): Promise<number> {
  let made = 0;
  for (const [site, defs] of Object.entries(COLLECTIONS)) {
    const siteId = Number(site);
    for (const [position, def] of defs.entries()) {
      const listed = await db.selectFrom('series')
        .innerJoin('series_languages', 'series_languages.series_id', 'series.id')
        .select(['series.id', 'series.slug'])
        .where('series.slug', 'in', def.series)
        .where('series_languages.site_id', '=', siteId)
        .execute();
      const idOf = new Map(listed.map((r) => [r.slug, Number(r.id)]));
      const ids = [...new Set(def.series.map((s) => idOf.get(s)).filter((id): id is number => id !== undefined))];
      const { id } = await db.insertInto('collections')
        .values({ site_id: siteId, slug: def.slug, title: def.title, description: def.description, position, created_at: now })
        .returning('id').executeTakeFirstOrThrow();
      if (ids.length) await db.insertInto('collection_items').values(ids.map((series_id, i) => ({ collection_id: Number(id), series_id, position: i }))).execute();
      made++;
    }
  }
  return made;
}
