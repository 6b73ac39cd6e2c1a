/**
 * The series listing over real HTTP: the page, its HTML-fragment endpoint and the anonymous
 * JSON comics API (/sapi/comics), on both dialects and both sites.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createReader, htmlText, message, selectedDialects, useServer, type ServerClient } from './harness';
import { DEMO } from '@db/seed/index';

const PAGE_SIZE = 24;
const COMIC_FIELDS = ['e4pid', 'last_updated', 'name', 'uslug', 'link', 'format', 'color', 'thumbnail', 'cover'].sort();
/** The spec's comic (section 3; http.test.ts pins each field's shape) plus the list's fields and languages. */
const DETAIL_FIELDS = [...new Set([...COMIC_FIELDS, 'id', 'slug', 'alt', 'author', 'artist', 'tags', 'keywords', 'description', 'excerpt', 'adult', 'modified_at', 'publisher',
  'in_exclusive', 'in_hype', 'all_free', 'availability_strategy', 'geoblocks', 'campaigns', 'largest_chapter', 'chapter_count', 'created_at', 'update_status', 'update_text',
  'chapter_title', 'chapterNameFormat', 'images', 'copyright', 'cover_copyright', 'chapter_copyright', 'hints', 'state', 'languages', 'promotional_visuals'])].sort();
const SAPI_CACHE = 'public, max-age=60, s-maxage=300';

interface Expected {
  /** Listable series per site (not BLOCKED, with a language of that site). */
  bySite: Record<1 | 3, { slug: string; name: string; e4pid: string }[]>;
  blocked: { slug: string; e4pid: string };
  portugueseOnly: { slug: string; name: string };
}

/** What the listing should contain, read straight from the server's database. */
async function expectedFrom(server: ServerClient): Promise<Expected> {
  const { createDb } = await import('~/server/db');
  const { db } = await createDb(server.databaseUrl);
  try {
    const rows = await db
      .selectFrom('series_languages')
      .innerJoin('series', 'series.id', 'series_languages.series_id')
      .select(['series.slug', 'series.name', 'series.e4pid', 'series.state', 'series_languages.site_id'])
      .execute();
    const bySite: Expected['bySite'] = { 1: [], 3: [] };
    for (const site of [1, 3] as const) {
      const seen = new Set<string>();
      for (const r of rows) {
        if (Number(r.site_id) !== site || r.state === 'BLOCKED' || r.state === 'DRAFT' || seen.has(r.slug)) continue;
        seen.add(r.slug);
        bySite[site].push({ slug: r.slug, name: r.name, e4pid: r.e4pid });
      }
    }
    const blocked = await db.selectFrom('series').select(['slug', 'e4pid']).where('slug', '=', DEMO.blocked).executeTakeFirstOrThrow();
    const pt = await db.selectFrom('series').select(['slug', 'name']).where('slug', '=', DEMO.portugueseOnly).executeTakeFirstOrThrow();
    return { bySite, blocked, portugueseOnly: pt };
  } finally {
    await db.destroy();
  }
}

/** Series slugs linked from a listing page or fragment. */
function slugsIn(html: string): string[] {
  return [...html.matchAll(/href="\/comics\/([a-z0-9-]+)\/"/g)].map((m) => m[1]!);
}

for (const dialect of selectedDialects()) {
  describe(`listing (${dialect})`, () => {
    const server = useServer(dialect);
    let expected: Expected;
    beforeAll(async () => {
      expected = await expectedFrom(server);
    });

    describe('HTML fragment endpoint', () => {
      it('answers 200 with only the results HTML, shared-cacheable', async () => {
        const res = await server.request('/comics/fragment/');
        expect(res.status).toBe(200);
        expect(res.headers['content-type']).toMatch(/^text\/html/);
        expect(res.headers['cache-control']).toMatch(/\bpublic\b.*\bs-maxage=\d+/);
        expect(res.text).not.toMatch(/<html|<head|<body/i);
        expect(res.text).toContain('data-results-heading');
        expect(slugsIn(res.text).length).toBe(Math.min(PAGE_SIZE, expected.bySite[1].length));
      });

      it('answers 404 with the "Couldn\'t find a series?" panel when nothing matches', async () => {
        const res = await server.request('/comics/fragment/?q=qqzzxx-no-such-series');
        expect(res.status).toBe(404);
        expect(res.headers['cache-control']).toMatch(/\bpublic\b/);
        const text = htmlText(res.text);
        expect(text).toContain(message('en', 'listing.notFound.title'));
        expect(res.text).toContain('https://discord.gg/inkpass');
      });

      it('gives an empty page, not an error, past the end', async () => {
        const res = await server.request('/comics/fragment/?page=500');
        expect(res.status).toBe(200);
        expect(slugsIn(res.text)).toEqual([]);
        expect(htmlText(res.text)).toContain(message('en', 'listing.pastEnd.title'));
      });

      it('ignores unknown values, clamps the page, truncates q and never fails', async () => {
        const probes = [
          '?order=sideways&view=3d&filter=%3Cscript%3E&site_id=7&show_all_sites=maybe',
          '?page=-4', '?page=99999999999999999999', '?page=abc', `?q=${'x'.repeat(5000)}`, '?q=%25%5F%5C', '?q=a',
          '?order=name&order=-name&page=2&page=1', '?filter=complete&filter=exclusive&filter=webtoon&filter=comic&filter=no-such-tag',
        ];
        for (const p of probes) {
          const res = await server.request(`/comics/fragment/${p}`);
          expect([200, 404], `${p} -> ${res.status}`).toContain(res.status);
        }
        const same = await server.request('/comics/fragment/?order=sideways&view=3d&filter=%3Cscript%3E&site_id=7');
        const plain = await server.request('/comics/fragment/');
        expect(slugsIn(same.text)).toEqual(slugsIn(plain.text));
        expect(same.text).not.toContain('<script>');
      });

      it('filters by format and orders by name', async () => {
        const res = await server.request('/comics/fragment/?filter=manga&order=name&show_all_sites=true');
        expect(res.status).toBe(200);
        const formats = [...res.text.matchAll(/data-format="([a-z]+)"/g)].map((m) => m[1]);
        expect(new Set(formats)).toEqual(new Set(['manga']));
      });
    });

    describe('both sites list their own language by default', () => {
      it('English site: only series with an English-site language; none blocked', async () => {
        const all: string[] = [];
        for (let page = 1; page <= Math.ceil(expected.bySite[1].length / PAGE_SIZE); page++) {
          const r = await server.request(`/comics/fragment/?order=name&page=${page}`);
          all.push(...slugsIn(r.text));
        }
        expect(new Set(all)).toEqual(new Set(expected.bySite[1].map((s) => s.slug)));
        expect(all).not.toContain(expected.blocked.slug);
        expect(all).not.toContain(expected.portugueseOnly.slug);
      });

      it('Portuguese site: only series with a Portuguese-site language', async () => {
        const all: string[] = [];
        for (let page = 1; page <= Math.ceil(expected.bySite[3].length / PAGE_SIZE); page++) {
          const r = await server.request(`/comics/fragment/?order=name&page=${page}`, { site: 'br' });
          all.push(...slugsIn(r.text));
        }
        expect(new Set(all)).toEqual(new Set(expected.bySite[3].map((s) => s.slug)));
        expect(all).toContain(expected.portugueseOnly.slug);
      });

      it('by name, the Portuguese site orders the names it shows (translations), not the originals', async () => {
        const shown: string[] = [];
        for (const desc of [false, true]) {
          const names: string[] = [];
          for (let page = 1; page <= Math.ceil(expected.bySite[3].length / PAGE_SIZE); page++) {
            const r = await server.request(`/comics/fragment/?order=${desc ? '-' : ''}name&page=${page}`, { site: 'br' });
            names.push(...[...r.text.matchAll(/class="(?:sr-title|title)"[^>]*>(?:<a [^>]*>)?([^<]+)</g)].map((m) => htmlText(m[1]!)));
          }
          // Code-point order: SQLite's BINARY collation, and the C.UTF-8 test databases on PostgreSQL.
          const sorted = [...names].sort();
          expect(names).toEqual(desc ? sorted.reverse() : sorted);
          if (!desc) shown.push(...names);
        }
        expect(shown).toHaveLength(expected.bySite[3].length);
        // Translated names are shown (so the old order by the original names would not be sorted).
        expect(shown).toContain('A Estrada das Lanternas');
      });

      it('the search ignores case and accents on both sites', async () => {
        const br = await server.request(`/comics/fragment/?q=${encodeURIComponent('CORACAO de aco')}`, { site: 'br' });
        expect(br.status).toBe(200);
        expect(slugsIn(br.text)).toContain(expected.portugueseOnly.slug);
        const accented = await server.request(`/comics/fragment/?q=${encodeURIComponent('Coração')}`, { site: 'br' });
        expect(slugsIn(accented.text)).toContain(expected.portugueseOnly.slug);
        // Not on the English site unless Portuguese is switched on.
        expect((await server.request(`/comics/fragment/?q=coracao`)).status).toBe(404);
        expect(slugsIn((await server.request(`/comics/fragment/?q=coracao&site_id=3`)).text)).toContain(expected.portugueseOnly.slug);
      });
    });

    describe('page', () => {
      it('renders the results server-side with the live region and localized text', async () => {
        const en = await server.request('/comics/');
        expect(en.status).toBe(200);
        expect(en.text).toMatch(/aria-live="polite"/);
        expect(htmlText(en.text)).toContain(message('en', 'listing.title'));
        const br = await server.request('/comics/', { site: 'br' });
        expect(htmlText(br.text)).toContain(message('pt-BR', 'listing.title'));
      });

      it('redirects the no-JavaScript form to the canonical URL, applying the language rule', async () => {
        const res = await server.request('/comics/?q=&filter=&filter=manga&order=-updated&langs_was=en');
        expect(res.status).toBe(303);
        expect(res.headers.location).toBe('/comics/?filter=manga&site_id=3');
      });

      it('remembers an explicit view in a 30-day cookie and keeps that response private', async () => {
        const res = await server.request('/comics/?view=grid');
        expect(res.status).toBe(200);
        expect(res.headers['set-cookie']).toMatch(/view=grid;.*Max-Age=2592000/i);
        expect(res.headers['cache-control']).not.toMatch(/public/);
        const withCookie = await server.request('/comics/', { headers: { cookie: 'view=grid' } });
        expect(withCookie.text).toContain('class="grid ls-grid"');
      });
    });

    describe('/sapi/comics', () => {
      it('lists 24 comics a page with exactly the documented fields', async () => {
        const res = await server.request('/sapi/comics/?ordering=-last_updated&page=1');
        expect(res.status).toBe(200);
        expect(res.headers['cache-control']).toBe(SAPI_CACHE);
        const body = res.json();
        expect(Object.keys(body).sort()).toEqual(['count', 'next', 'results']);
        expect(body.count).toBe(expected.bySite[1].length);
        expect(body.results).toHaveLength(Math.min(PAGE_SIZE, body.count));
        for (const c of body.results) {
          expect(Object.keys(c).sort()).toEqual(COMIC_FIELDS);
          expect(c.e4pid).toMatch(/^SER-/);
          expect(new Date(c.last_updated).toISOString()).toBe(c.last_updated);
          expect(c.link).toBe(`${server.origin('en')}/comics/${c.uslug}/`);
          expect(['COMIC', 'MANGA', 'WEBTOON']).toContain(c.format);
          if (c.thumbnail !== null) expect(c.thumbnail).toMatch(new RegExp(`^${server.origin('en')}/media/`));
          if (c.cover !== null) expect(c.cover).toMatch(new RegExp(`^${server.origin('en')}/media/`));
        }
        const times = body.results.map((c: { last_updated: string }) => c.last_updated);
        expect(times).toEqual([...times].sort().reverse());
        if (body.count > PAGE_SIZE) expect(body.next).toBe(`${server.origin('en')}/sapi/comics/?ordering=-last_updated&page=2`);
        else expect(body.next).toBeNull();
      });

      it('follows next to the end, and a page past the end is empty', async () => {
        const seen: string[] = [];
        let path: string | null = '/sapi/comics/?ordering=name&page=1';
        while (path) {
          const body: { results: { e4pid: string }[]; next: string | null } = (await server.request(path, { site: 'br' })).json();
          seen.push(...body.results.map((c: { e4pid: string }) => c.e4pid));
          path = body.next ? new URL(body.next).pathname + new URL(body.next).search : null;
        }
        expect(new Set(seen)).toEqual(new Set(expected.bySite[3].map((s) => s.e4pid)));
        const past = (await server.request('/sapi/comics/?page=999', { site: 'br' })).json();
        expect(past).toEqual({ results: [], next: null, count: expected.bySite[3].length });
      });

      it('sorts by name and ignores unknown orderings', async () => {
        const byName = (await server.request('/sapi/comics/?ordering=name')).json();
        const names: string[] = byName.results.map((c: { name: string }) => c.name);
        // Code-point order: SQLite's BINARY collation, and the C.UTF-8 test databases on PostgreSQL.
        expect(names).toEqual([...names].sort());
        const bogus = (await server.request('/sapi/comics/?ordering=popularity;drop')).json();
        const dflt = (await server.request('/sapi/comics/')).json();
        expect(bogus.results.map((c: { e4pid: string }) => c.e4pid)).toEqual(dflt.results.map((c: { e4pid: string }) => c.e4pid));
      });

      it('answers /sapi/comics?… as named in the spec, without a redirect', async () => {
        const res = await server.request('/sapi/comics?ordering=-last_updated&page=2');
        expect(res.status).toBe(200);
        const slashed = await server.request('/sapi/comics/?ordering=-last_updated&page=2');
        expect(res.json().results).toEqual(slashed.json().results);
      });

      it('returns one comic with the detail fields', async () => {
        const first = (await server.request('/sapi/comics/')).json().results[0];
        const res = await server.request(`/sapi/comics/${first.e4pid}/`);
        expect(res.status).toBe(200);
        expect(res.headers['cache-control']).toBe(SAPI_CACHE);
        const c = res.json();
        expect(Object.keys(c).sort()).toEqual(DETAIL_FIELDS);
        expect(c.e4pid).toBe(first.e4pid);
        expect(Array.isArray(c.author) && Array.isArray(c.artist) && Array.isArray(c.tags) && Array.isArray(c.languages)).toBe(true);
        expect(typeof c.chapter_count).toBe('number');
      });

      it('takes the spec\'s comic query: each filter narrows to the comics it names, skip/limit page, bad values are 400 {detail}', async () => {
        type Page = { results: { e4pid: string; name: string; format: string }[]; next: string | null; count: number };
        const get = async (query: string, init: Parameters<ServerClient['request']>[1] = {}): Promise<Page> => {
          const res = await server.request(`/sapi/comics/?${query}`, init);
          expect(res.status, query).toBe(200);
          return res.json();
        };
        const detail = async (e4pid: string) => (await server.request(`/sapi/comics/${e4pid}/`)).json();
        const all = await get('limit=100');
        expect(all.count).toBe(expected.bySite[1].length);
        // A sample comic gives the values to filter by: its publisher, an author, two of its tags.
        const pool = await Promise.all(all.results.slice(0, 12).map((c) => detail(c.e4pid)));
        const sample = pool.find((c) => c.publisher && c.author.length > 0 && c.tags.length >= 2)!;
        expect(sample, 'a demo comic with a publisher, an author and two tags').toBeDefined();
        const narrows = async (query: string, holds: (c: Awaited<ReturnType<typeof detail>>) => boolean) => {
          const page = await get(`${query}&limit=100`);
          expect(page.count, `${query} narrows`).toBeGreaterThan(0);
          expect(page.count, `${query} narrows`).toBeLessThan(all.count);
          for (const c of page.results.slice(0, 6)) expect(holds(await detail(c.e4pid)), `${c.name} matches ${query}`).toBe(true);
          return page;
        };
        const [t1, t2] = sample.tags as { slug: string }[];
        const one = await narrows(`tags=${t1!.slug}`, (c) => c.tags.some((t: { slug: string }) => t.slug === t1!.slug));
        const both = await narrows(`tags=${t1!.slug}&tags=${t2!.slug}`, (c) => [t1, t2].every((x) => c.tags.some((t: { slug: string }) => t.slug === x!.slug)));
        expect(both.count).toBeLessThanOrEqual(one.count);
        expect(both.results.map((c) => c.e4pid)).toContain(sample.e4pid);
        await narrows(`publisher=${sample.publisher.id}`, (c) => c.publisher?.id === sample.publisher.id);
        const person = sample.author[0].id;
        await narrows(`person=${person}`, (c) => [...c.author, ...c.artist].some((p: { id: number }) => p.id === person));
        await narrows('complete=true', (c) => c.update_status === 'COMPLETED');
        await narrows('exclusive=true', (c) => c.in_exclusive === true);
        await narrows('format=WEBTOON', (c) => c.format === 'WEBTOON');
        expect((await get(`query=${encodeURIComponent(sample.name)}`)).results.map((c) => c.e4pid)).toContain(sample.e4pid);
        // Languages: Portuguese only on the English host is the Portuguese site's catalogue; both is every site's.
        const pt = await get('languages=pt-br&limit=100');
        expect(new Set(pt.results.map((c) => c.e4pid))).toEqual(new Set(expected.bySite[3].map((s) => s.e4pid)));
        expect((await get('languages=en&languages=pt-br')).count).toBe(new Set([...expected.bySite[1], ...expected.bySite[3]].map((s) => s.e4pid)).size);
        // Favorited: the signed-in reader's own favorites only, never a shared cache's.
        const reader = await createReader(server);
        for (const c of all.results.slice(0, 2)) {
          expect((await server.request(`/api/favorites/${c.e4pid}/`, { method: 'POST', headers: { origin: server.origin(), 'sec-fetch-site': 'same-origin', cookie: reader.cookie } })).status).toBe(200);
        }
        const favRes = await server.request('/sapi/comics/?favorited=true', { headers: { cookie: reader.cookie } });
        expect(favRes.headers['cache-control']).toBe('private, no-store');
        expect(new Set((favRes.json() as Page).results.map((c) => c.e4pid))).toEqual(new Set(all.results.slice(0, 2).map((c) => c.e4pid)));
        expect((await server.request('/sapi/comics/?favorited=true')).status).toBe(401);
        // Sort, invert, skip and limit: NAME ascending, inverted descending; skip/limit walk it and next keeps the form.
        const byName = await get('sort=NAME&limit=5');
        expect(byName.results.map((c) => c.name)).toEqual([...byName.results.map((c) => c.name)].sort());
        expect(byName.next).toBe(`${server.origin('en')}/sapi/comics/?sort=NAME&limit=5&skip=5`);
        const second = await get('sort=NAME&limit=5&skip=5');
        expect((await get('sort=NAME&limit=10')).results.map((c) => c.e4pid)).toEqual([...byName.results, ...second.results].map((c) => c.e4pid));
        const inverted = await get('sort=NAME&invert=true&limit=5');
        expect(inverted.results.map((c) => c.name)).toEqual([...inverted.results.map((c) => c.name)].sort().reverse());
        // Well-formed but unknown: nothing, not an error.
        expect((await get('tags=no-such-tag')).count).toBe(0);
        expect((await get('publisher=999999')).count).toBe(0);
        for (const bad of ['skip=-1', 'limit=0', 'limit=101', 'limit=ten', 'sort=SIZE', 'format=NOVEL', 'complete=maybe', 'publisher=abc', 'person=1.5', 'languages=fr', 'tags=%3Cscript%3E']) {
          const res = await server.request(`/sapi/comics/?${bad}`, { site: 'br' });
          expect(res.status, bad).toBe(400);
          expect(res.json(), bad).toEqual({ detail: message('pt-BR', 'error.api.badParam', { param: bad.split('=')[0]! }) });
        }
      });

      it('answers 404 {"detail"} for an unknown or blocked comic, in the site language', async () => {
        const unknown = await server.request('/sapi/comics/SER-doesnotexist/');
        expect(unknown.status).toBe(404);
        expect(unknown.json()).toEqual({ detail: message('en', 'error.api.notFound') });
        const blocked = await server.request(`/sapi/comics/${expected.blocked.e4pid}/`, { site: 'br' });
        expect(blocked.status).toBe(404);
        expect(blocked.json()).toEqual({ detail: message('pt-BR', 'error.api.notFound') });
      });
    });
  });
}
