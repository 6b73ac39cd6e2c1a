/**
 * Category filters (spec: one category at a time): every tag the catalogue uses on a site is a
 * filter on the listing, selecting it by URL (no JavaScript) lists exactly the series carrying it,
 * the fragment endpoint accepts it alike, and the home page's genre tiles link to these filters.
 * Only the six primary tags were filters once, while the demo catalogue uses fifteen.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { selectedDialects, useServer, withDb, type ServerClient } from './harness';

type Site = 'en' | 'br';
const SITE_ID: Record<Site, number> = { en: 1, br: 3 };

/** Tag slug -> slugs of the listable series of the site carrying it, read from the database. */
async function usedTags(server: ServerClient, siteId: number): Promise<Map<string, Set<string>>> {
  return withDb(server, async (db) => {
    const rows = await db
      .selectFrom('series_tags')
      .innerJoin('tags', 'tags.id', 'series_tags.tag_id')
      .innerJoin('series', 'series.id', 'series_tags.series_id')
      .innerJoin('series_languages', 'series_languages.series_id', 'series.id')
      .select(['tags.slug as tag', 'series.slug as series'])
      .where('series_languages.site_id', '=', siteId)
      .where('series.state', 'not in', ['BLOCKED', 'DRAFT'])
      .execute();
    const out = new Map<string, Set<string>>();
    for (const r of rows) {
      if (!out.has(r.tag)) out.set(r.tag, new Set());
      out.get(r.tag)!.add(r.series);
    }
    return out;
  });
}

/** The category radios of a listing page: value -> checked. */
function categoryRadios(html: string): Map<string, boolean> {
  const out = new Map<string, boolean>();
  for (const m of html.matchAll(/<input type="radio" name="filter"[^>]*>/g)) {
    const value = /value="([^"]*)"/.exec(m[0])?.[1] ?? '';
    out.set(value, /\schecked\b/.test(m[0]));
  }
  return out;
}

const seriesSlugs = (html: string) => new Set([...html.matchAll(/href="\/comics\/([a-z0-9-]+)\/"/g)].map((m) => m[1]!));

for (const dialect of selectedDialects()) {
  describe(`category filters (${dialect})`, () => {
    const server = useServer(dialect);
    const used: Partial<Record<Site, Map<string, Set<string>>>> = {};
    beforeAll(async () => {
      for (const site of ['en', 'br'] as const) used[site] = await usedTags(server, SITE_ID[site]);
    });

    for (const site of ['en', 'br'] as const) {
      it(`offers every tag the ${site} catalogue uses as a filter, more than the six primary ones`, async () => {
        const tags = used[site]!;
        expect(tags.size).toBeGreaterThan(6);
        const res = await server.request('/comics/', { site });
        expect(res.status).toBe(200);
        const radios = categoryRadios(res.text);
        // "All categories" plus one radio per used tag, and nothing else.
        expect([...radios.keys()].filter((v) => v !== '').sort()).toEqual([...tags.keys()].sort());
        expect(radios.get('')).toBe(true);
      });

      it(`filters the ${site} listing by each tag, one at a time, by URL`, async () => {
        for (const [tag, carriers] of used[site]!) {
          const res = await server.request(`/comics/?filter=${tag}&order=name`, { site });
          expect(res.status, tag).toBe(200);
          const radios = categoryRadios(res.text);
          expect([...radios].filter(([, on]) => on).map(([v]) => v), `${tag}: the one checked category`).toEqual([tag]);
          const shown = seriesSlugs(res.text);
          expect(shown.size, `${tag}: some series`).toBeGreaterThan(0);
          for (const s of shown) expect(carriers.has(s), `${tag}: ${s} carries it`).toBe(true);
          if (carriers.size <= 24) expect(shown.size, `${tag}: every carrier`).toBe(carriers.size);
          const fragment = await server.request(`/comics/fragment/?filter=${tag}&order=name`, { site });
          expect(fragment.status, `${tag}: fragment`).toBe(200);
          expect(seriesSlugs(fragment.text)).toEqual(shown);
        }
      });

      it(`takes only the first of two categories on ${site}`, async () => {
        const [a, b] = [...used[site]!.keys()].sort();
        const res = await server.request(`/comics/?filter=${a}&filter=${b}`, { site });
        expect([...categoryRadios(res.text)].filter(([, on]) => on).map(([v]) => v)).toEqual([a]);
      });

      it(`links the ${site} home page's genre tiles to the category filters`, async () => {
        // The genres block arrives as a fragment of the home page as the reader nears it.
        const res = await server.request('/fragments/home/genres/', { site });
        expect(res.status).toBe(200);
        const tiles = [...res.text.matchAll(/<a class="genre-tile" href="([^"]+)"/g)].map((m) => m[1]!.replace(/&amp;/g, '&'));
        expect(tiles.length).toBeGreaterThan(0);
        for (const href of tiles) {
          const m = /^\/comics\/\?filter=([a-z0-9-]+)$/.exec(href);
          expect(m, href).not.toBeNull();
          expect(used[site]!.has(m![1]!), href).toBe(true);
        }
      });
    }
  });
}
