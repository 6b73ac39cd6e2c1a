/**
 * One search (issue 26): the header's suggestions and the listing (`/comics/?q=`, the page and
 * its fragment) find the same series first for the same misspelled text, on both sites and both
 * dialects; a text that matches nothing offers "Did you mean …?" on the listing.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { htmlText, message, selectedDialects, useServer, withDb } from './harness';
import { DEMO } from '@db/seed/index';

type Tuple = [string, string[], string[], string[], string[], number[][]];
type SiteName = 'en' | 'br';

/** [site, typed, the original name of the series it must put first]. */
const MISSPELLINGS: readonly (readonly [SiteName, string, string])[] = [
  // The three (one pice has no series: below).
  ['en', 'villanes', 'The Villainess Retires Early'],
  ['en', 'vilãs', 'The Villainess Retires Early'],
  ['br', 'vilãs', 'The Villainess Retires Early'],
  ['br', 'villanes', 'The Villainess Retires Early'],
  // Dropped, doubled, swapped and wrong letters.
  ['en', 'clockwrk sheriff', 'The Clockwork Sheriff'],
  ['en', 'ravenmor', 'Ravenmoor'],
  ['en', 'harrbor lights', 'Harbor Lights'],
  ['en', 'ironwoood', 'Ironwood'],
  ['en', 'stardsut courier', 'Stardust Courier'],
  ['en', 'menagreie', 'The Brass Menagerie'],
  ['en', 'kaiju wether report', 'Kaiju Weather Report'],
  // Missing spaces, word order, partial words.
  ['en', 'villainessretires', 'The Villainess Retires Early'],
  ['en', 'ghostward', 'Ghost Ward 13'],
  ['en', 'moon quiet blade', 'Blade of the Quiet Moon'],
  ['en', 'sakuragi mount', 'Sakuragi Mountain Express'],
  // Portuguese: accents left out, typos, the Portuguese name of a series of both sites.
  ['br', 'coracao de aco', 'Coração de Aço'],
  ['br', 'cancao da mare', 'Canção da Maré'],
  ['br', 'jabuticba', 'Sabor de Jabuticaba'],
  ['br', 'feitiçeira atrazada', 'Diário de uma Feiticeira Atrasada'],
  ['br', 'vila se aposnta', 'The Villainess Retires Early'],
  ['br', 'luzes do prto', 'Harbor Lights'],
  ['br', 'CAPOERA celestial', 'Capoeira Celestial'],
];

/** The series linked from the listing's results (the cards only, not the page around them). */
function resultSlugs(html: string): string[] {
  const start = html.indexOf('class="ls-results"');
  expect(start, 'the results region').toBeGreaterThanOrEqual(0);
  return [...html.slice(start).matchAll(/href="\/comics\/([a-z0-9-]+)\/"/g)].map((m) => m[1]!);
}

const slugOf = (link: string) => /\/comics\/([^/]+)\/$/.exec(new URL(link).pathname)?.[1] ?? '';

for (const dialect of selectedDialects()) {
  describe(`one search for suggestions and listing (${dialect})`, () => {
    const server = useServer(dialect);
    let slugByName: Map<string, string>;
    beforeAll(async () => {
      slugByName = await withDb(server, async (db) =>
        new Map((await db.selectFrom('series').select(['name', 'slug']).execute()).map((r) => [r.name, r.slug])));
    });

    async function firstSuggestion(site: SiteName, q: string): Promise<string | null> {
      const res = await server.request(`/search/suggest/?q=${encodeURIComponent(q)}`, { site });
      expect(res.status, q).toBeLessThan(500);
      const links = res.json<Tuple>()[3];
      return links.length ? slugOf(links[0]!) : null;
    }

    it.each(MISSPELLINGS)('%s: "%s" puts %s first by suggestion and by Enter', async (site, typed, name) => {
      const expected = slugByName.get(name);
      expect(expected, name).toBeTruthy();
      expect(await firstSuggestion(site, typed)).toBe(expected);
      // Enter: the header form (and the overlay) go to the listing with the text as typed.
      const page = await server.request(`/comics/?q=${encodeURIComponent(typed)}`, { site });
      expect(page.status).toBe(200);
      expect(resultSlugs(page.text)[0]).toBe(expected);
      // The listing's in-place updates answer the same.
      const fragment = await server.request(`/comics/fragment/?q=${encodeURIComponent(typed)}`, { site });
      expect(fragment.status).toBe(200);
      expect(resultSlugs(fragment.text)[0]).toBe(expected);
    });

    it('keeps the other filters and pagination with a search, and any order the reader picks', async () => {
      // "the" matches many series: a second page exists, and filters narrow the same hits.
      const all = await server.request('/comics/fragment/?q=the&show_all_sites=true');
      const total = Number(/data-total="(\d+)"/.exec(all.text)?.[1]);
      expect(total).toBeGreaterThan(0);
      const webtoons = await server.request('/comics/fragment/?q=the&filter=webtoon&show_all_sites=true');
      const webtoonTotal = Number(/data-total="(\d+)"/.exec(webtoons.text)?.[1]);
      expect(webtoonTotal).toBeGreaterThan(0);
      expect(webtoonTotal).toBeLessThan(total);
      const byName = await server.request('/comics/fragment/?q=the&order=name&show_all_sites=true');
      expect(Number(/data-total="(\d+)"/.exec(byName.text)?.[1])).toBe(total);
      const names = [...byName.text.matchAll(/class="(?:sr-title|title)"[^>]*>(?:<a [^>]*>)?([^<]+)</g)].map((m) => htmlText(m[1]!));
      expect(names.length).toBeGreaterThan(1);
      expect(names).toEqual([...names].sort());
    });

    it('pages through best-match results without repeating or losing a series', async () => {
      const total = Number(/data-total="(\d+)"/.exec((await server.request('/comics/fragment/?q=fa&show_all_sites=true')).text)?.[1]);
      const seen: string[] = [];
      for (let page = 1; page <= Math.ceil(total / 24); page++) {
        seen.push(...resultSlugs((await server.request(`/comics/fragment/?q=fa&show_all_sites=true&page=${page}`)).text));
      }
      expect(total).toBeGreaterThan(24);
      expect(seen).toHaveLength(total);
      expect(new Set(seen).size).toBe(total);
    });

    it('lists a REMOVED series found by the search (the listing lists it), but never suggests it', async () => {
      const page = await server.request('/comics/fragment/?q=glass%20crwn');
      expect(resultSlugs(page.text)).toContain(DEMO.removed);
      expect(await firstSuggestion('en', 'glass crwn')).toBeNull();
    });

    it('offers "Did you mean …?" with the closest series when nothing matches, in both languages', async () => {
      for (const [site, typed, name, locale] of [
        ['en', 'clokwrok sherif', 'The Clockwork Sheriff', 'en'],
        ['br', 'corasaum de aso', 'Coração de Aço', 'pt-BR'],
      ] as const) {
        expect(await firstSuggestion(site, typed)).toBeNull();
        const page = await server.request(`/comics/?q=${encodeURIComponent(typed)}`, { site });
        expect(page.status).toBe(200);
        const text = htmlText(page.text);
        expect(text).toContain(message(locale, 'listing.notFound.title'));
        const [before] = message(locale, 'listing.didYouMean', { series: '\u0001' }).split('\u0001');
        const offer = /<p class="ls-did-you-mean"[^>]*>(.*?)<\/p>/s.exec(page.text)?.[1] ?? '';
        expect(htmlText(offer)).toContain(before!.trim());
        expect(offer).toContain(`href="/comics/${slugByName.get(name)}/"`);
        const fragment = await server.request(`/comics/fragment/?q=${encodeURIComponent(typed)}`, { site });
        expect(fragment.status).toBe(404);
        expect(fragment.text).toContain(`href="/comics/${slugByName.get(name)}/"`);
      }
    });

    it('offers nothing for text that looks like no series ("one pice" is not in the catalogue)', async () => {
      expect(await firstSuggestion('en', 'one pice')).toBeNull();
      const page = await server.request('/comics/?q=one%20pice');
      expect(page.text).toContain('ls-not-found');
      expect(page.text).not.toContain('class="ls-did-you-mean"');
    });
  });
}
