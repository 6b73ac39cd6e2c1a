/**
 * The browse pages (issue 30; docs/home.md, "Browse pages") over real HTTP on both dialects and
 * both sites: /genres/, /new/, /top/, /updates/ (paged, 30 days back) and /collections/{slug}/
 * (in the collection's order; unknown or malformed slugs are the 404 page). What a reader sees:
 * the expected series in the expected order, headings and links, the site's own series only (the
 * Portuguese site never shows a series it does not list), and bad input never a 500.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { htmlText, leakIn, markup, message, selectedDialects, useServer, withDb, type ServerClient, type SiteName } from './harness';
import { DEMO } from '@db/seed/index';
import { COLLECTIONS } from '@db/seed/collections';
// The pages' sizes (docs/home.md, "Browse pages"): 20 new series, 6 per format on /top/.
const NEW_CARDS = 20;
const TOP_CARDS = 6;

const SITE_ID: Record<SiteName, 1 | 3> = { en: 1, br: 3 };
const LOCALE = { en: 'en', br: 'pt-BR' } as const;
const DAY = 86_400;

/** Series slugs linked from the page's markup, in document order, each once. */
function slugsIn(html: string): string[] {
  return [...new Set([...markup(html).matchAll(/href="\/comics\/([a-z0-9-]+)\/"/g)].map((m) => m[1]!))];
}
/** The markup of the main element. */
function main(html: string): string {
  const m = /<main[\s\S]*?<\/main>/.exec(html);
  expect(m, 'a <main> element').toBeTruthy();
  return markup(m![0]);
}
/** The markup of a section by its heading id. */
function section(html: string, id: string): string {
  const m = new RegExp(`<section[^>]*aria-labelledby="${id}"[\\s\\S]*?</section>`).exec(html);
  expect(m, `section ${id}`).toBeTruthy();
  return m![0];
}

interface Catalogue {
  /** Series each site promotes (ACTIVE, not adult, listed on the site), by slug. */
  promoted: Record<1 | 3, Set<string>>;
  /** Series each site lists at all (any state). */
  listed: Record<1 | 3, Set<string>>;
  /** Newest first (created_at, id), the site's promoted series. */
  newest: Record<1 | 3, string[]>;
  /** Most popular first per format (popularity, id). */
  top: Record<1 | 3, Record<string, string[]>>;
  /** Tags with promoted series on the site: slug and name in the site's language. */
  tags: Record<1 | 3, { slug: string; name: string }[]>;
  /** An English-only ACTIVE series (not listed on the Portuguese site), and a series both list. */
  englishOnly: { id: number; slug: string };
  shared: { id: number; slug: string };
  /** Series the site lists whose newest chapter in the site's language is more than 31 days old. */
  stale: Record<1 | 3, string[]>;
}

async function catalogue(server: ServerClient): Promise<Catalogue> {
  return withDb(server, async (db) => {
    const rows = await db.selectFrom('series')
      .innerJoin('series_languages', 'series_languages.series_id', 'series.id')
      .select(['series.id', 'series.slug', 'series.state', 'series.adult', 'series.format', 'series.popularity', 'series.created_at', 'series_languages.site_id'])
      .execute();
    const tagRows = await db.selectFrom('series_tags').innerJoin('tags', 'tags.id', 'series_tags.tag_id').select(['series_tags.series_id', 'tags.slug', 'tags.name', 'tags.name_pt']).execute();
    const out: Catalogue = {
      promoted: { 1: new Set(), 3: new Set() }, listed: { 1: new Set(), 3: new Set() }, newest: { 1: [], 3: [] }, top: { 1: {}, 3: {} }, tags: { 1: [], 3: [] },
      englishOnly: { id: 0, slug: '' }, shared: { id: 0, slug: '' }, stale: { 1: [], 3: [] },
    };
    const monthAgo = Math.floor(Date.now() / 1000) - 31 * DAY;
    const latest = await db.selectFrom('series_languages').innerJoin('series', 'series.id', 'series_languages.series_id')
      .innerJoin('chapters', (j) => j.onRef('chapters.series_id', '=', 'series.id').onRef('chapters.language', '=', 'series_languages.language'))
      .select(['series.slug', 'series_languages.site_id', (eb) => eb.fn.max('chapters.released_at').as('newest')])
      .where('chapters.released_at', '<=', Math.floor(Date.now() / 1000))
      .groupBy(['series.slug', 'series_languages.site_id'])
      .execute();
    for (const r of latest) if (Number(r.newest) < monthAgo && (Number(r.site_id) === 1 || Number(r.site_id) === 3)) out.stale[Number(r.site_id) as 1 | 3].push(r.slug);
    for (const site of [1, 3] as const) {
      const seen = new Map<number, (typeof rows)[number]>();
      for (const r of rows) {
        if (Number(r.site_id) !== site) continue;
        out.listed[site].add(r.slug);
        if (r.state === 'ACTIVE' && Number(r.adult) === 0) seen.set(Number(r.id), r);
      }
      const list = [...seen.values()];
      for (const r of list) out.promoted[site].add(r.slug);
      out.newest[site] = [...list].sort((a, b) => Number(b.created_at) - Number(a.created_at) || Number(b.id) - Number(a.id)).map((r) => r.slug);
      for (const format of ['MANGA', 'WEBTOON', 'COMIC']) {
        out.top[site][format] = list.filter((r) => r.format === format).sort((a, b) => Number(b.popularity) - Number(a.popularity) || Number(b.id) - Number(a.id)).map((r) => r.slug);
      }
      const tags = new Map<string, string>();
      for (const t of tagRows) if (seen.has(Number(t.series_id))) tags.set(t.slug, site === 3 ? t.name_pt || t.name : t.name);
      out.tags[site] = [...tags].map(([slug, name]) => ({ slug, name }));
    }
    const idOf = new Map(rows.map((r) => [r.slug, Number(r.id)]));
    const englishOnly = [...out.promoted[1]].find((s) => !out.listed[3].has(s) && s !== DEMO.adult)!;
    const shared = [...out.promoted[1]].find((s) => out.promoted[3].has(s))!;
    out.englishOnly = { id: idOf.get(englishOnly)!, slug: englishOnly };
    out.shared = { id: idOf.get(shared)!, slug: shared };
    return out;
  });
}

for (const dialect of selectedDialects()) {
  describe(`browse pages (${dialect})`, () => {
    const server = useServer(dialect);
    let cat: Catalogue;
    const get = (path: string, site: SiteName = 'en') => server.request(path, { site });

    beforeAll(async () => {
      cat = await catalogue(server);
      expect(cat.englishOnly.slug, 'an English-only series').toBeTruthy();
      // A Portuguese collection that names an English-only series: the Portuguese site must leave it out.
      await withDb(server, async (db) => {
        await db.deleteFrom('collections').where('slug', '=', 'it-mixed').execute();
        const { id } = await db.insertInto('collections').values({ site_id: 3, slug: 'it-mixed', title: 'Misturada', description: 'Teste', position: 99, created_at: 0 }).returning('id').executeTakeFirstOrThrow();
        await db.insertInto('collection_items').values([
          { collection_id: Number(id), series_id: cat.englishOnly.id, position: 0 },
          { collection_id: Number(id), series_id: cat.shared.id, position: 1 },
        ]).execute();
      });
    });

    for (const site of ['en', 'br'] as const) {
      const locale = LOCALE[site];
      const siteId = SITE_ID[site];

      describe(`on the ${site} site`, () => {
        it('links every browse page from the footer and the home page, and each answers 200 with its heading, cacheable', async () => {
          const home = await get('/', site);
          expect(home.status).toBe(200);
          const links = markup(home.text);
          for (const path of ['/genres/', '/new/', '/top/', '/updates/']) expect(links, `home links ${path}`).toContain(`href="${path}"`);
          const footer = /<footer[\s\S]*?<\/footer>/.exec(links)![0];
          for (const path of ['/genres/', '/new/', '/top/', '/updates/']) expect(footer, `footer links ${path}`).toContain(`href="${path}"`);

          for (const [path, key] of [['/genres/', 'browse.genres.title'], ['/new/', 'browse.new.title'], ['/top/', 'browse.top.title'], ['/updates/', 'browse.updates.title']] as const) {
            const res = await get(path, site);
            expect(res.status, path).toBe(200);
            expect(res.headers['cache-control'], path).toMatch(/public.*s-maxage/);
            expect(htmlText(/<h1[\s\S]*?<\/h1>/.exec(res.text)![0])).toBe(message(locale, key));
            expect(res.text).toContain(`<html lang="${locale}"`);
            expect(res.text).toContain(`<link rel="canonical" href="${server.origin(site)}${path}"`);
            expect(res.text).toContain('<link rel="alternate" hreflang="pt-BR"');
            // The slow-phone budget of a first document (docs/performance.md).
            expect(Buffer.byteLength(res.text), `${path} bytes`).toBeLessThanOrEqual(60_000);
            expect((res.text.match(/<img /g) ?? []).length, `${path} images`).toBeLessThanOrEqual(40);
          }
        });

        it('/genres/ shows each genre the site has, headed by a link to the listing filtered by it, with only series the site promotes', async () => {
          const res = await get('/genres/', site);
          const html = main(res.text);
          for (const tag of cat.tags[siteId]) {
            const part = section(html, `genre-${tag.slug}`);
            expect(htmlText(/<h2[\s\S]*?<\/h2>/.exec(part)![0])).toBe(tag.name);
            expect(part).toContain(`href="/comics/?filter=${tag.slug}"`);
            const slugs = slugsIn(part);
            expect(slugs.length, tag.slug).toBeGreaterThanOrEqual(1);
            for (const s of slugs) expect(cat.promoted[siteId].has(s), `${s} on ${site}`).toBe(true);
          }
          // The site's collections are linked from here.
          for (const c of COLLECTIONS[siteId]) expect(html).toContain(`href="/collections/${c.slug}/"`);
        });

        it('/new/ lists the newest series of the site, newest first', async () => {
          const res = await get('/new/', site);
          expect(slugsIn(main(res.text))).toEqual(cat.newest[siteId].slice(0, NEW_CARDS));
        });

        it('/top/ has one section per format, most popular first', async () => {
          const html = main((await get('/top/', site)).text);
          for (const [format, slugs] of Object.entries(cat.top[siteId])) {
            if (slugs.length === 0) {
              expect(html).not.toContain(`id="top-${format.toLowerCase()}"`);
              continue;
            }
            const part = section(html, `top-${format.toLowerCase()}`);
            expect(htmlText(/<h2[\s\S]*?<\/h2>/.exec(part)![0])).toBe(message(locale, 'browse.top.section', { format: message(locale, `format.${format}`) }));
            expect(slugsIn(part)).toEqual(slugs.slice(0, TOP_CARDS));
          }
        });

        it('/updates/ pages the latest updates 15 at a time with previous/next links, back 30 days at most', async () => {
          const first = await get('/updates/', site);
          const entries = (h: string) => (markup(h).match(/<li class="latest-entry"/g) ?? []).length;
          const n1 = entries(first.text);
          expect(n1).toBeGreaterThan(0);
          expect(n1).toBeLessThanOrEqual(15);
          const pages: string[] = [first.text];
          let html = first.text;
          for (let page = 2; /rel="next"/.test(html); page++) {
            expect(markup(html)).toContain(`href="/updates/?page=${page}" rel="next"`);
            const res = await get(`/updates/?page=${page}`, site);
            expect(res.status).toBe(200);
            expect(markup(res.text)).toContain(`href="${page === 2 ? '/updates/' : `/updates/?page=${page - 1}`}" rel="prev"`);
            html = res.text;
            pages.push(html);
            expect(page).toBeLessThanOrEqual(4);
          }
          const counts = pages.map(entries);
          // Every page but the last is full; at most 50 series in all (the home block's list).
          for (const c of counts.slice(0, -1)) expect(c).toBe(15);
          expect(counts.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(50);
          if (n1 === 15) expect(pages.length).toBeGreaterThan(1);
          // No series twice, only the site's series, every release within 30 days.
          const all = pages.flatMap((p) => [...markup(p).matchAll(/<h2 class="latest-name"[^>]*><a href="\/comics\/([a-z0-9-]+)\/"/g)].map((m) => m[1]!));
          expect(new Set(all).size).toBe(all.length);
          // A series last updated more than 30 days ago is not among them (the demo has several, on hiatus or completed).
          expect(cat.stale[siteId].length, 'stale series in the demo').toBeGreaterThan(0);
          for (const s of cat.stale[siteId]) expect(all, `${s} updated over 30 days ago`).not.toContain(s);
          for (const s of all) expect(cat.listed[siteId].has(s), `${s} listed on ${site}`).toBe(true);
          const now = Math.floor(Date.now() / 1000);
          for (const p of pages) {
            const times = [...main(p).matchAll(/<time datetime="([^"]+)"/g)].map((m) => Date.parse(m[1]!) / 1000);
            expect(times.length).toBeGreaterThan(0);
            for (const at of times) expect(at).toBeGreaterThanOrEqual(now - 30 * DAY - 120);
          }
          // The page past the last one is not found (no clamping to the last page).
          const past = await get(`/updates/?page=${pages.length + 1}`, site);
          expect(past.status).toBe(404);
        });

        it('a collection lists its series in the collection order; an unknown collection is the 404 page', async () => {
          for (const c of COLLECTIONS[siteId]) {
            const res = await get(`/collections/${c.slug}/`, site);
            expect(res.status, c.slug).toBe(200);
            expect(htmlText(/<h1[\s\S]*?<\/h1>/.exec(res.text)![0])).toBe(c.title);
            const expected = c.series.filter((s) => cat.promoted[siteId].has(s));
            expect(expected.length).toBeGreaterThan(1);
            expect(slugsIn(main(res.text))).toEqual(expected);
            // A collection is its site's own: no hreflang alternate pointing at the other site.
            expect(res.text).not.toContain('<link rel="alternate" hreflang=');
          }
          const other = COLLECTIONS[site === 'en' ? 3 : 1][0]!;
          for (const path of ['/collections/no-such-list/', `/collections/${other.slug}/`]) {
            const res = await get(path, site);
            expect(res.status, path).toBe(404);
            expect(htmlText(res.text)).toContain(message(locale, 'error.notFound.title'));
          }
        });

        it('bad input is a 404 or a page, never a 500', async () => {
          const paths = [
            '/updates/?page=0', '/updates/?page=-1', '/updates/?page=abc', '/updates/?page=1.5', '/updates/?page=99999999999999999999',
            '/updates/?page=%00', '/updates/?page=2&page=3', `/updates/?page=${'9'.repeat(5000)}`,
            '/collections/Staff-Picks/', '/collections/a--b/', `/collections/${'a'.repeat(300)}/`, '/collections/%2e%2e/', '/collections/%C3%A7/',
            '/collections/x%00y/', "/collections/'%20or%201=1/", '/genres/?page=abc', '/top/?format=<script>', '/new/?x=%ff',
          ];
          for (const path of paths) {
            const res = await get(path, site);
            expect([200, 400, 404], `${path}: ${res.status}`).toContain(res.status);
            expect(leakIn(res.text), path).toBeNull();
          }
          expect((await get('/updates/?page=0', site)).status).toBe(404);
          expect((await get('/updates/?page=abc', site)).status).toBe(404);
        });
      });
    }

    it('the Portuguese site shows no series it does not list, even one its collection names', async () => {
      const res = await get('/collections/it-mixed/', 'br');
      expect(res.status).toBe(200);
      const slugs = slugsIn(main(res.text));
      expect(slugs).toContain(cat.shared.slug);
      expect(slugs).not.toContain(cat.englishOnly.slug);
      expect((await get(`/comics/${cat.englishOnly.slug}/`, 'br')).status).toBe(404);
      for (const path of ['/genres/', '/new/', '/top/', '/updates/']) {
        for (const s of slugsIn(main((await get(path, 'br')).text))) expect(cat.listed[3].has(s), `${s} on br${path}`).toBe(true);
      }
      // And the English site none it does not list (the Portuguese-only series).
      for (const path of ['/genres/', '/new/', '/top/', '/updates/']) {
        expect(slugsIn(main((await get(path, 'en')).text)), path).not.toContain(DEMO.portugueseOnly);
      }
    });

    it('adult, removed and blocked series are not promoted on the browse pages', async () => {
      for (const path of ['/genres/', '/new/', '/top/']) {
        const slugs = slugsIn(main((await get(path)).text));
        for (const s of [DEMO.adult, DEMO.removed, DEMO.blocked]) expect(slugs, `${s} on ${path}`).not.toContain(s);
      }
    });
  });
}
