/**
 * The home page over real HTTP on both dialects and both sites : the
 * blocks are there with real series links, the anonymous page is the same shared-cacheable HTML
 * for everyone with no private data, a signed-in reader gets a private page with the shelf,
 * favorites and recommendations of their own, and the hover-reel endpoint answers JSON.
 */
import zlib from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO } from '@db/seed/index';
import { createReader, leakIn, message, selectedDialects, useServer, withDb, type ServerClient, type SiteName } from './harness';

/** The carousel regions of a page: accessible name → the HTML of the region. */
function regions(html: string): Map<string, string> {
  const out = new Map<string, string>();
  const re = /<section[^>]*class="carousel[^"]*"[^>]*>/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(html))) {
    const tag = m[0];
    const end = html.indexOf('</section>', m.index);
    const body = html.slice(m.index, end);
    const label = /aria-label="([^"]*)"/.exec(tag)?.[1] ?? (/<h2[^>]*>([^<]*)<\/h2>/.exec(body)?.[1] ?? '');
    out.set(decode(label), body);
  }
  return out;
}
const decode = (s: string) => s.replace(/&#39;/g, "'").replace(/&amp;/g, '&').replace(/&quot;/g, '"');
const seriesLinks = (html: string) => [...new Set([...html.matchAll(/href="(\/comics\/[a-z0-9-]+\/)"/g)].map((m) => m[1]!))];
const homeData = (html: string) => JSON.parse(/<script type="application\/json" id="home-data">([\s\S]*?)<\/script>/.exec(html)![1]!);
/** The later blocks' placeholders in a first document: block name → fragment URL. */
const deferredBlocks = (html: string) => [...html.matchAll(/data-home-block="([a-z]+)" data-src="([^"]+)"/g)].map((m) => ({ block: m[1]!, src: m[2]! }));
/**
 * The home page as a reader with JavaScript ends up with it: the first document with each later
 * block's placeholder replaced by its fragment (src/components/home-fragments.client.ts).
 */
async function assembledHome(server: ServerClient, site: SiteName = 'en', headers: Record<string, string> = {}): Promise<string> {
  let html = (await server.request('/', { site, headers })).text;
  for (const { src } of deferredBlocks(html)) {
    const res = await server.request(src, { site, headers });
    expect(res.status, src).toBe(200);
    html = html.replace(new RegExp(`<div class="home-deferred"[^>]*data-src="${src}"[^>]*>[\\s\\S]*?</div>`), () => res.text);
  }
  return html;
}
/** The page without the parts that change with the clock ("3 hours ago"). */
const stable = (html: string) => html.replace(/<time[^>]*>[^<]*<\/time>/g, '<time/>');

for (const dialect of selectedDialects()) {
  describe(`home page (${dialect})`, () => {
    const server = useServer(dialect);

    for (const site of ['en', 'br'] as SiteName[]) {
      const locale = site === 'br' ? 'pt-BR' : 'en';
      it(`renders the blocks with real series links (${site})`, async () => {
        const first = await server.request('/', { site });
        expect(first.status).toBe(200);
        const res = { text: await assembledHome(server, site) };
        expect(leakIn(res.text)).toBeNull();
        const found = regions(res.text);
        for (const key of ['home.heroLabel', 'home.newest', 'home.popular', 'home.categories', 'home.genres']) {
          const name = message(locale, key);
          expect([...found.keys()], key).toContain(name);
          const region = found.get(name)!;
          expect(region).toContain(`aria-roledescription="${message(locale, 'carousel.roleDescription')}"`);
          expect(region).toMatch(new RegExp(`role="group" aria-roledescription="${message(locale, 'carousel.slide')}" aria-label="1 ${site === 'br' ? 'de' : 'of'} \\d+"`));
        }
        // Newest series: 2 per view, 1 up to 1200, 2 up to 768, 1 up to 576 px (no-JS CSS variables).
        expect(found.get(message(locale, 'home.newest'))).toContain('--pv-base:2;--pv-1200:1;--pv-1024:1;--pv-768:2;--pv-576:1;--pv-420:1');
        // The hero's first image is the LCP element; the others wait.
        const heroImgs = [...found.get(message(locale, 'home.heroLabel'))!.matchAll(/<img class="hero-img"[^>]*>/g)].map((m) => m[0]);
        expect(heroImgs.length).toBeGreaterThan(1);
        expect(heroImgs[0]).toContain('fetchpriority="high"');
        expect(heroImgs[0]).toContain('loading="eager"');
        expect(heroImgs.slice(1).every((i) => i.includes('loading="lazy"'))).toBe(true);
        // Every series link leads to a real series page of this site.
        const links = seriesLinks(res.text);
        expect(links.length).toBeGreaterThan(20);
        for (const link of links.slice(0, 6)) expect((await server.request(link, { site })).status, link).toBe(200);
        // Embedded JSON: recommended comics (3, up to 2 tags each) and the simulpub strip (<= 12).
        // The spec's JSON embeds stay in the first document.
        const data = homeData(first.text);
        expect(data.recommended).toHaveLength(3);
        for (const r of data.recommended) {
          expect(r.tags.length).toBeGreaterThan(0);
          expect(r.tags.length).toBeLessThanOrEqual(2);
          expect(r.link).toBe(`${server.origin(site)}/comics/${r.uslug}/`);
        }
        expect(data.simulpub.length).toBeGreaterThan(0);
        expect(data.simulpub.length).toBeLessThanOrEqual(12);
        const now = Date.now() / 1000;
        for (const s of data.simulpub) expect(s.next.saleAt).toBeGreaterThan(now - 60);
        // Latest updates too: the same series as the list shows, newest first, each chapter released and linked on this host.
        expect(data.latest.length).toBeGreaterThan(0);
        // The first carousel page (12, fewer with the reader's shelves, 10 in Portuguese).
        expect(data.latest.length).toBeLessThanOrEqual(12);
        const shownLatest = [...res.text.matchAll(/class="latest-name"[^>]*><a href="\/comics\/([a-z0-9-]+)\/"/g)].map((m) => m[1]);
        expect(shownLatest.length).toBeGreaterThan(0);
        expect(data.latest.map((l: { uslug: string }) => l.uslug)).toEqual(shownLatest.slice(0, data.latest.length));
        const times = data.latest.map((l: { latestAt: number }) => l.latestAt);
        expect([...times].sort((a, b) => b - a)).toEqual(times);
        for (const l of data.latest) {
          expect(l.link).toBe(`${server.origin(site)}/comics/${l.uslug}/`);
          expect(l.chapters.length).toBeGreaterThan(0);
          for (const c of l.chapters) {
            expect(c.saleAt).toBeLessThanOrEqual(now + 60);
            expect(c.link.startsWith(`${server.origin(site)}/`)).toBe(true);
          }
        }
        expect((await server.request(new URL(data.latest[0].chapters[0].link).pathname, { site })).status).toBe(200);
        // Category strip: links into the listing's category filter.
        expect(found.get(message(locale, 'home.categories'))).toMatch(/href="\/comics\/\?filter=[a-z-]+"/);
      });
    }

    it('never shows blocked series, and promotes no adult or removed series', async () => {
      for (const site of ['en', 'br'] as SiteName[]) {
        const html = await assembledHome(server, site);
        expect(html).not.toContain(`/comics/${DEMO.blocked}/`);
        // Latest updates is the catalogue's news, not a promotion: like the listing it shows adult series with their badge.
        const latestLabel = message(site === 'br' ? 'pt-BR' : 'en', 'home.latest');
        const all = regions(html);
        expect(all.has(latestLabel), `${site}: the latest-updates carousel`).toBe(true);
        expect(all.get(latestLabel)!, `${site}: latest updates link chapters`).toMatch(/href="\/read\/[a-z0-9-]+\/[^"]+\/"/);
        const promo = [...all].filter(([label]) => label !== latestLabel).map(([, body]) => body).join('\n');
        expect(promo).not.toContain(`/comics/${DEMO.adult}/`);
        expect(promo).not.toContain(`/comics/${DEMO.removed}/`);
      }
    });

    it('serves anonymous visitors the same public, shared-cacheable page with no private data', async () => {
      const a = await server.request('/', { headers: { 'accept-encoding': 'gzip' }, decompress: false });
      const b = await server.request('/');
      expect(a.headers['cache-control']).toMatch(/public/);
      expect(a.headers['cache-control']).toMatch(/s-maxage=\d+/);
      expect(a.headers['content-encoding']).toBe('gzip');
      // The spec budget for this page: under 60 KB gzipped.
      expect(a.raw.length).toBeLessThan(60_000);
      const html = zlib.gunzipSync(a.raw).toString('utf8');
      expect(stable(html)).toBe(stable(b.text));
      expect(html).toContain('<script type="application/json" id="page-user-data">null</script>');
      expect(html).not.toContain(message('en', 'home.continueReading'));
      expect(html).not.toContain(message('en', 'home.favorites'));
      expect(await assembledHome(server)).toMatch(/data-recommended="series"/);
    });

    it('keeps the first document within budget and each later block a link to a page that shows it', async () => {
      for (const site of ['en', 'br'] as SiteName[]) {
        const res = await server.request('/', { site });
        // Issue 30's budget for a slow phone: 60 KB of HTML and 40 images in the first document.
        expect(Buffer.byteLength(res.text), site).toBeLessThanOrEqual(60 * 1024);
        expect(res.text.match(/<img\b/g)?.length ?? 0, site).toBeLessThanOrEqual(40);
        const blocks = deferredBlocks(res.text);
        expect(blocks.map((b) => b.block), site).toEqual(expect.arrayContaining(['latest', 'schedule', 'newest', 'popular', 'genres']));
        // Without JavaScript each placeholder is a link to a page that answers.
        const links = [...res.text.matchAll(/<div class="home-deferred"[^>]*>\s*<a href="([^"]+)">([^<]+)<\/a>/g)];
        expect(links).toHaveLength(blocks.length);
        expect(links.map((m) => decode(m[2]!))).toContain(message(site === 'br' ? 'pt-BR' : 'en', 'home.latest'));
        for (const href of new Set(links.map((m) => decode(m[1]!)))) expect((await server.request(href, { site })).status, href).toBe(200);
      }
    });

    it('answers each later block as a fragment on both sites: cacheable like the home page, never indexed', async () => {
      const marks: Record<string, RegExp> = {
        latest: /id="home-latest-updates"[\s\S]*data-latest-refresh/, schedule: /id="home-schedule"/, simulpub: /id="home-simulpub"/, newest: /id="home-newest"/,
        showcase: /class="home-section home-showcase"/, recommended: /data-recommended="series"/, featured: /id="home-featured"/, popular: /id="home-popular"/,
        collection: /id="home-collection"/, genres: /id="home-genres"/,
      };
      for (const site of ['en', 'br'] as SiteName[]) {
        const blocks = deferredBlocks((await server.request('/', { site })).text);
        expect(blocks.map((b) => b.block).sort(), site).toEqual(Object.keys(marks).sort());
        for (const { block, src } of blocks) {
          expect(src).toBe(`/fragments/home/${block}/`);
          const res = await server.request(src, { site });
          expect(res.status, `${site} ${block}`).toBe(200);
          expect(res.headers['x-robots-tag'], block).toBe('noindex');
          expect(res.headers['cache-control'], block).toMatch(/public/);
          expect(res.headers['cache-control'], block).toMatch(/s-maxage=\d+/);
          expect(res.text, `${site} ${block}`).toMatch(marks[block]!);
          expect(res.text, block).not.toContain('<header');
          expect(leakIn(res.text), block).toBeNull();
        }
        // The fragment speaks the site's language.
        expect((await server.request('/fragments/home/popular/', { site })).text).toContain(message(site === 'br' ? 'pt-BR' : 'en', 'home.popular'));
      }
      const unknown = await server.request('/fragments/home/nope/');
      expect(unknown.status).toBe(404);
      expect(unknown.headers['x-robots-tag']).toBe('noindex');
      for (const bad of ['/fragments/home/%E0%A4%A/', `/fragments/home/${'x'.repeat(3000)}/`, "/fragments/home/latest'%20or%201=1/"]) {
        const res = await server.request(bad);
        expect(res.status, bad).toBeGreaterThanOrEqual(400);
        expect(res.status, bad).toBeLessThan(500);
        expect(leakIn(res.text), bad).toBeNull();
      }
    });

    describe('signed in', () => {
      let reader: { id: number; cookie: string };
      let read: { id: number; slug: string; name: string };
      let fav: { id: number; slug: string; name: string };

      beforeAll(async () => {
        const user = await createReader(server, { name: 'Home Reader' });
        ({ reader, read, fav } = await withDb(server, async (db) => {
          const now = Math.floor(Date.now() / 1000);
          const pick = (slug: string) => db.selectFrom('series').select(['id', 'slug', 'name']).where('slug', '=', slug).executeTakeFirstOrThrow();
          const readSeries = await pick(DEMO.readerManga);
          const favSeries = await pick(DEMO.readerWebtoon);
          const chapter = await db.selectFrom('chapters').select('id').where('series_id', '=', readSeries.id).where('language', '=', 'en').orderBy('number').limit(1).executeTakeFirstOrThrow();
          await db.insertInto('reading_progress').values({ user_id: user.id, chapter_id: chapter.id, series_id: readSeries.id, completion: 40, completed: 0, first_read: now - 600, last_read: now - 60, token_issued_at: now - 600, seq: 1 }).execute();
          await db.insertInto('favorites').values({ user_id: user.id, series_id: favSeries.id, created_at: now - 30 }).execute();
          return {
            reader: { id: user.id, cookie: user.cookie },
            read: { id: Number(readSeries.id), slug: readSeries.slug, name: readSeries.name },
            fav: { id: Number(favSeries.id), slug: favSeries.slug, name: favSeries.name },
          };
        }));
      });

      it('gets a private page with the continue-reading shelf, favorites and recommendations of their own', async () => {
        const res = await server.request('/', { headers: { cookie: reader.cookie } });
        expect(res.status).toBe(200);
        expect(res.headers['cache-control']).toMatch(/private/);
        const html = res.text;
        const shelf = /<section[^>]*data-continue-shelf[\s\S]*?<\/section>/.exec(html)?.[0] ?? '';
        expect(shelf).toContain(message('en', 'home.continueReading'));
        expect(shelf).toContain(`/comics/${read.slug}/`);
        expect(shelf).toMatch(/href="\/read\//);
        const favorites = regions(html).get(message('en', 'home.favorites'));
        expect(favorites).toBeDefined();
        expect(favorites).toContain(`/comics/${fav.slug}/`);
        // Recommendations come from the reader's own tags and leave out what they already read or favorited.
        expect(await assembledHome(server, 'en', { cookie: reader.cookie })).toMatch(/data-recommended="reader"/);
        // A later block asked with the session is as private as the page.
        const fragment = await server.request('/fragments/home/recommended/', { headers: { cookie: reader.cookie } });
        expect(fragment.headers['cache-control']).toMatch(/private/);
        expect(fragment.text).not.toContain('data-recommended="series"');
        const data = homeData(html);
        expect(data.recommended.length).toBeGreaterThan(0);
        const recommended = data.recommended.map((r: { uslug: string }) => r.uslug);
        expect(recommended).not.toContain(read.slug);
        expect(recommended).not.toContain(fav.slug);
        // Nothing of this reader reaches the anonymous page.
        const anon = await server.request('/');
        expect(anon.headers['cache-control']).toMatch(/public/);
        expect(anon.text).not.toContain('data-continue-shelf');
        expect(anon.text).not.toContain('Home Reader');
      });
    });

    describe('hover reel endpoint', () => {
      it('answers the first free chapter, thumbnails and the series page as public JSON', async () => {
        const { e4pid } = await withDb(server, (db) => db.selectFrom('series').select('e4pid').where('slug', '=', DEMO.readerComic).executeTakeFirstOrThrow());
        for (const site of ['en', 'br'] as SiteName[]) {
          const res = await server.request(`/home/reel/${e4pid}/`, { site });
          expect(res.status).toBe(200);
          expect(res.headers['content-type']).toMatch(/application\/json/);
          expect(res.headers['cache-control']).toMatch(/public/);
          const body = res.json();
          expect(body.link).toBe(`/comics/${DEMO.readerComic}/`);
          expect(body.start).toMatch(site === 'br' ? /^\/read\/harbor-lights\/[a-z0-9]+\/capitulo-portugues-1\/$/ : /^\/read\/harbor-lights\/[a-z0-9]+\/chapter-1\/$/);
          expect(body.thumbnails.length).toBeGreaterThan(0);
          expect(body.thumbnails.length).toBeLessThanOrEqual(8);
          for (const t of body.thumbnails) expect(t).toMatch(/^\/media\/pool\/thumbs\/[a-z0-9-]+\.webp$/);
          expect((await server.request(body.start, { site })).status).toBe(200);
        }
      });

      it('answers 404 {detail} for unknown, malformed and blocked series, never a 5xx', async () => {
        const blocked = await withDb(server, (db) => db.selectFrom('series').select('e4pid').where('slug', '=', DEMO.blocked).executeTakeFirstOrThrow());
        for (const path of [`/home/reel/${blocked.e4pid}/`, '/home/reel/SER-doesnotexist/', '/home/reel/%E0%A4%A/', `/home/reel/${'x'.repeat(3000)}/`, "/home/reel/SER-a'%20or%201=1/"]) {
          const res = await server.request(path, { site: 'br' });
          expect(res.status, path).toBeGreaterThanOrEqual(400);
          expect(res.status, path).toBeLessThan(500);
          expect(leakIn(res.text), path).toBeNull();
          if (res.status === 404 && res.headers['content-type']?.includes('json')) expect(res.json().detail).toBe(message('pt-BR', 'error.api.notFound'));
        }
        const res = await server.request(`/home/reel/${blocked.e4pid}/`);
        expect(res.status).toBe(404);
        expect(res.json()).toEqual({ detail: message('en', 'error.api.notFound') });
      });
    });
  });
}
