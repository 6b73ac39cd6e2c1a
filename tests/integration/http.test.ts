/**
 * What a browser, a crawler or a shared cache sees over real HTTP, on both sites and on both
 * database dialects: languages, 404 pages, compression, caching, static assets, robots and
 * sitemap, and the public JSON endpoints.
 */
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  ROOT, anySeries, createReader, htmlText, message, selectedDialects, startExtraServer, useServer, withDb,
  type SeriesSample, type TestResponse,
} from './harness';

const UNKNOWN_PATH = '/this-page-does-not-exist-4b1d/';

function expectHtml(res: TestResponse, what: string) {
  expect(res.headers['content-type'] ?? '', `${what}: content-type`).toMatch(/^text\/html/);
}
function expectJson(res: TestResponse, what: string) {
  expect(res.headers['content-type'] ?? '', `${what}: content-type`).toMatch(/^application\/(?:[\w.+-]+\+)?json/);
}
function cacheControl(res: TestResponse): string {
  return (res.headers['cache-control'] ?? '').toLowerCase();
}

// Only the selected dialects (INKPASS_IT_DIALECTS); both by default.
describe.each(selectedDialects())('%s', (dialect) => {
  const server = useServer(dialect);
  let series: SeriesSample[] = [];
  /** An active series with English chapters: it belongs on the English site. */
  let english: SeriesSample;

  beforeAll(async () => {
    series = await anySeries(server, 20);
    const found = series.find((s) => s.languages.includes('en') && s.chapter) ?? series.find((s) => s.languages.includes('en'));
    if (!found) throw new Error(`the seeded ${dialect} database has no active series with English chapters`);
    english = found;
  });

  describe('module preloads', () => {
    it('announces every chunk the page scripts import, in the head, each a script the server serves', async () => {
      for (const path of ['/', `/comics/${english.slug}/`]) {
        const res = await server.request(path, { site: 'en', headers: { 'accept-encoding': 'br' } });
        const head = res.text.slice(0, res.text.indexOf('</head>'));
        const preloaded = [...head.matchAll(/<link rel="modulepreload" href="([^"]+)">/g)].map((m) => m[1]!);
        const scripts = [...res.text.matchAll(/<script type="module" src="([^"]+)"/g)].map((m) => m[1]!);
        expect(scripts.length, path).toBeGreaterThan(0);
        expect(preloaded.length, path).toBeGreaterThan(0);
        expect(new Set(preloaded).size).toBe(preloaded.length);
        // Every static import of every script and of every preloaded chunk is on the page already.
        const known = new Set([...preloaded, ...scripts]);
        for (const url of [...scripts, ...preloaded]) {
          const js = await server.request(url);
          expect(js.status, url).toBe(200);
          expect(js.headers['content-type'], url).toMatch(/javascript/);
          for (const m of js.text.matchAll(/(?:\bfrom|\bimport)\s*["']\.\/([^"']+\.js)["']/g)) expect(known.has(`/_astro/${m[1]}`), `${url} imports ${m[1]}`).toBe(true);
        }
      }
    });

    it('sends a signed-in reader no React with the series page: the unlock dialog and the checkout bring it when opened', async () => {
      const reader = await createReader(server);
      // A series with the subscribe form too (subscriptions on): its script must not bring the checkout.
      let res: TestResponse | null = null;
      for (const s of series.filter((x) => x.languages.includes('en'))) {
        const page = await server.request(`/comics/${s.slug}/`, { site: 'en', headers: { cookie: reader.cookie } });
        if (page.text.includes('data-subscribe ') && page.text.includes('id="unlock-dialog-config"')) {
          res = page;
          break;
        }
      }
      if (!res) throw new Error('no English series page with both the subscribe form and unlock buttons among the sample');
      const urls = [...res.text.matchAll(/<script type="module" src="([^"]+)"|<link rel="modulepreload" href="([^"]+)"/g)].map((m) => (m[1] ?? m[2])!);
      expect(urls.length).toBeGreaterThan(0);
      for (const url of urls) expect((await server.request(url)).text.includes('react.transitional.element'), `${url} holds React`).toBe(false);
    });

    it('keeps a page whose length changed with the links whole when it goes out uncompressed', async () => {
      const res = await server.request('/', { site: 'en', headers: { 'accept-encoding': 'identity' }, });
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(Number(res.headers['content-length'])).toBe(res.body.length);
      expect(res.text).toMatch(/<link rel="modulepreload" href="\/_astro\/[^"]+\.js">/);
      expect(res.text.trimEnd().endsWith('</html>')).toBe(true);
    });
  });

  describe('sites and languages', () => {
    it('serves the English home page on localhost with lang="en"', async () => {
      const res = await server.request('/', { site: 'en' });
      expect(res.status).toBe(200);
      expectHtml(res, 'GET /');
      expect(res.text).toMatch(/<html[^>]*\slang="en"/);
    });

    it('serves the Portuguese home page on br.localhost with lang="pt-BR"', async () => {
      const res = await server.request('/', { site: 'br' });
      expect(res.status).toBe(200);
      expectHtml(res, 'GET / (br)');
      expect(res.text).toMatch(/<html[^>]*\slang="pt-BR"/);
    });

    it('answers an unknown path with a 404 page in English on the English site', async () => {
      const res = await server.request(UNKNOWN_PATH, { site: 'en' });
      expect(res.status).toBe(404);
      expectHtml(res, UNKNOWN_PATH);
      expect(res.text).toMatch(/<html[^>]*\slang="en"/);
      expect(htmlText(res.text)).toContain(message('en', 'error.notFound.title'));
    });

    it('answers an unknown path with a 404 page in Portuguese on the Portuguese site', async () => {
      const res = await server.request(UNKNOWN_PATH, { site: 'br' });
      expect(res.status).toBe(404);
      expectHtml(res, `${UNKNOWN_PATH} (br)`);
      expect(res.text).toMatch(/<html[^>]*\slang="pt-BR"/);
      expect(htmlText(res.text)).toContain(message('pt-BR', 'error.notFound.title'));
    });

    it('lets each site be installed as an app in its own language: the app box, the manifest and its icons', async () => {
      for (const [site, locale] of [['en', 'en'], ['br', 'pt-BR']] as const) {
        const home = await server.request('/', { site });
        expect(home.text).toContain('<link rel="manifest" href="/manifest.webmanifest"');
        // Reached from every page's footer.
        expect(home.text).toContain(`<a href="/app/">${message(locale, 'footer.app')}</a>`);
        const box = await server.request('/app/', { site });
        expect(box.status).toBe(200);
        const text = htmlText(box.text);
        for (const key of ['app.title', 'app.android.steps', 'app.ios.steps', 'app.desktop.steps'] as const) expect(text).toContain(message(locale, key));
        const res = await server.request('/manifest.webmanifest', { site });
        expect(res.status).toBe(200);
        expect(res.headers['content-type']).toMatch(/^application\/manifest\+json/);
        const manifest = JSON.parse(res.text) as { lang: string; name: string; description: string; start_url: string; display: string; icons: { src: string; sizes: string; type: string; purpose: string }[] };
        expect(manifest).toMatchObject({ lang: locale, name: message(locale, 'site.name'), description: message(locale, 'site.tagline'), start_url: '/', display: 'standalone' });
        // What Chromium needs to offer the install: a 192 and a 512 PNG, and a maskable icon for Android.
        for (const size of [192, 512]) expect(manifest.icons.some((i) => i.sizes === `${size}x${size}` && i.type === 'image/png' && i.purpose === 'any')).toBe(true);
        expect(manifest.icons.some((i) => i.purpose === 'maskable')).toBe(true);
        for (const icon of manifest.icons) {
          const image = await server.request(icon.src, { site });
          expect(image.status, icon.src).toBe(200);
          expect(image.headers['content-type'], icon.src).toBe(icon.type);
          if (icon.type === 'image/png') {
            // The PNG header's width and height are what the manifest says.
            const [w, h] = icon.sizes.split('x').map(Number);
            expect([image.body.readUInt32BE(16), image.body.readUInt32BE(20)], icon.src).toEqual([w, h]);
          }
        }
      }
    });
  });

  it('ends every page with </html>: page scripts are inside the document, not after it', async () => {
    const series = (await server.request('/comics/')).text.match(/href="(\/comics\/[a-z0-9-]+\/)"/)![1]!;
    const pages: [string, 'en' | 'br'][] = [['/', 'en'], [series, 'en'], ['/comics/', 'en'], ['/schedule/', 'en'], ['/auth/signup/', 'en'], ['/calendario/', 'br'], ['/', 'br']];
    for (const [p, site] of pages) {
      const res = await server.request(p, { site });
      expect(res.status, `GET ${site} ${p}`).toBe(200);
      expect(res.text.trimEnd().slice(-7), `GET ${site} ${p}: what follows </html>`).toBe('</html>');
    }
  });

  describe('compression', () => {
    it('compresses HTML pages for a browser that accepts br and gzip, and says it varies', async () => {
      for (const p of ['/', '/comics/']) {
        const res = await server.request(p, { headers: { 'accept-encoding': 'br, gzip' } });
        expect(res.status, `GET ${p}`).toBe(200);
        expect(res.headers['content-encoding'], `GET ${p}: content-encoding`).toMatch(/^(br|gzip)$/);
        expect(res.headers.vary ?? '', `GET ${p}: vary`).toMatch(/accept-encoding/i);
        expect(res.raw.length, `GET ${p}: compressed body is smaller`).toBeLessThan(res.body.length);
        expect(res.text).toMatch(/<html[\s>]/);
      }
    });

    it('uses gzip for a client that accepts only gzip', async () => {
      const res = await server.request('/', { headers: { 'accept-encoding': 'gzip' } });
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toBe('gzip');
      expect(res.text).toMatch(/<html[\s>]/);
    });

    it('sends the same page compressed as plain, with its exact length and no internal header', async () => {
      const series = (await server.request('/comics/')).text.match(/href="(\/comics\/[a-z0-9-]+\/)"/)![1]!;
      for (const p of ['/', series, '/about/']) {
        const plain = await server.request(p, { decompress: false });
        for (const encoding of ['br', 'gzip']) {
          const res = await server.request(p, { headers: { 'accept-encoding': encoding } });
          expect(res.headers['content-encoding'], `GET ${p} (${encoding})`).toBe(encoding);
          expect(Number(res.headers['content-length']), `GET ${p} (${encoding}): content-length`).toBe(res.raw.length);
          expect(Object.keys(res.headers).filter((h) => h.startsWith('x-inkpass')), `GET ${p}: internal headers`).toEqual([]);
          // Astro 7 keeps one space between the closing tags.
          expect([res.text.startsWith('<!DOCTYPE html>'), /<\/body>\s*<\/html>\s*$/.test(res.text)], `GET ${p} (${encoding}): the whole page`).toEqual([true, true]);
          // /about/ has no times on it that could tick over between the two requests.
          if (p === '/about/') expect(res.text, `GET ${p} (${encoding}): same page`).toBe(plain.raw.toString('utf8'));
        }
        const head = await server.request(p, { method: 'HEAD', headers: { 'accept-encoding': 'br' } });
        expect(head.status, `HEAD ${p}`).toBe(200);
        expect(head.raw.length, `HEAD ${p}: no body`).toBe(0);
      }
    });

    it('hands every compressed page to the server through the body sink, or says so loudly', { timeout: 120_000 }, async () => {
      // scripts/serve.mjs complains on stderr the first time a compressed page goes out without
      // the sink (an adapter or Astro change): the fast path must never fall back silently.
      const own = await startExtraServer(server, { PAGE_CACHE_MB: '0' });
      try {
        const series = (await own.request('/comics/')).text.match(/href="(\/comics\/[a-z0-9-]+\/)"/)![1]!;
        for (const p of ['/', series, '/about/', '/comics/', '/schedule/']) {
          for (const encoding of ['br', 'gzip']) {
            const res = await own.request(p, { headers: { 'accept-encoding': encoding } });
            expect(res.headers['content-encoding'], p).toBe(encoding);
            expect(res.text, p).toMatch(/<\/html>\s*$/);
          }
        }
        expect(own.output()).not.toContain('body sink not working');
      } finally {
        await own.stop();
      }
    });

    it('sends plain HTML to a client that accepts no encoding', async () => {
      const res = await server.request('/', { decompress: false });
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding'] ?? 'identity').toBe('identity');
      expect(res.raw.toString('utf8')).toMatch(/<html[\s>]/);
    });
  });

  describe('many clients at once', () => {
    // Pages start one per event-loop turn in arrival order (scripts/serve.mjs). Requests whose
    // clients hung up while queued are skipped, and must not stall the readers queued behind them.
    it('answers the readers queued behind requests whose clients hung up', async () => {
      const seriesPath = `/comics/${english.slug}/`;
      // Keep the server busy so that what follows waits in the queue.
      const busy = Array.from({ length: 60 }, () => server.request('/', { site: 'en' }));
      await new Promise((r) => setTimeout(r, 20));
      const abandoned = Array.from({ length: 30 }, () => new Promise<void>((resolve) => {
        const socket = net.connect(server.port, '127.0.0.1', () => {
          socket.write(`GET ${seriesPath} HTTP/1.1\r\nHost: localhost:${server.port}\r\n\r\n`);
          setTimeout(() => socket.destroy(), 30);
        });
        socket.on('close', () => resolve());
        socket.on('error', () => resolve());
      }));
      await Promise.all(abandoned);
      const readers = Array.from({ length: 20 }, () => server.request(seriesPath, { site: 'en' }));
      const answers = await Promise.all([...busy, ...readers]);
      expect(answers.map((r) => r.status)).toEqual(answers.map(() => 200));
      for (const r of answers.slice(busy.length)) expect(htmlText(r.text)).toContain(english.name);
    });
  });

  describe('caching', () => {
    it('lets shared caches keep anonymous pages (s-maxage with stale-while-revalidate)', async () => {
      const pages = ['/', '/comics/', `/comics/${english.slug}/`];
      for (const p of pages) {
        for (const site of ['en', 'br'] as const) {
          if (site === 'br' && p !== '/' && p !== '/comics/') continue;
          const res = await server.request(p, { site });
          expect(res.status, `GET ${p} (${site})`).toBe(200);
          const cc = cacheControl(res);
          expect(cc, `GET ${p} (${site}): cache-control`).toMatch(/\bs-maxage=\d+/);
          expect(cc, `GET ${p} (${site}): cache-control`).toMatch(/\bstale-while-revalidate=\d+/);
          expect(cc, `GET ${p} (${site}): cache-control`).not.toMatch(/\b(private|no-store)\b/);
        }
      }
    });

    it('never lets a shared cache keep a page requested with a session cookie', async () => {
      for (const p of ['/', '/comics/', `/comics/${english.slug}/`]) {
        const res = await server.request(p, { headers: { cookie: 'inkpass_session=x' } });
        expect(res.status, `GET ${p} with a session cookie`).toBeLessThan(500);
        const cc = cacheControl(res);
        expect(cc, `GET ${p} with a session cookie: cache-control`).toMatch(/\bprivate\b/);
        expect(cc, `GET ${p} with a session cookie: cache-control`).not.toMatch(/\b(public|s-maxage=)/);
      }
    });

    it('serves built assets under /_astro/ as immutable and precompressed', async () => {
      const asset = await findAsset(server.request, ['js', 'css']);
      const original = fs.readFileSync(path.join(ROOT, 'dist/client', asset));

      const br = await server.request(asset, { headers: { 'accept-encoding': 'br, gzip' } });
      expect(br.status).toBe(200);
      expect(cacheControl(br)).toMatch(/\bimmutable\b/);
      expect(cacheControl(br)).toMatch(/\bmax-age=31536000\b/);
      expect(br.headers['content-encoding']).toBe('br');
      expect(br.headers.vary ?? '').toMatch(/accept-encoding/i);
      // Precompressed means the bytes are the .br file written at build time.
      expect(br.raw.equals(fs.readFileSync(path.join(ROOT, 'dist/client', asset + '.br')))).toBe(true);
      expect(br.body.equals(original)).toBe(true);

      const gz = await server.request(asset, { headers: { 'accept-encoding': 'gzip' } });
      expect(gz.headers['content-encoding']).toBe('gzip');
      expect(gz.body.equals(original)).toBe(true);

      const plain = await server.request(asset, { decompress: false });
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.raw.equals(original)).toBe(true);
    });
  });

  describe('robots and sitemap', () => {
    it('has a robots.txt that points crawlers to the sitemap', async () => {
      for (const site of ['en', 'br'] as const) {
        const res = await server.request('/robots.txt', { site });
        expect(res.status, `robots.txt (${site})`).toBe(200);
        expect(res.headers['content-type'] ?? '').toMatch(/^text\/plain/);
        const line = /^sitemap:\s*(\S+)\s*$/im.exec(res.text);
        expect(line, `robots.txt (${site}) has a Sitemap: line`).not.toBeNull();
        const url = new URL(line![1]!, server.origin(site));
        expect(url.pathname).toMatch(/\.xml$/);
        const map = await server.request(url.pathname + url.search, { site });
        expect(map.status, `the sitemap named by robots.txt (${url.pathname})`).toBe(200);
      }
    });

    it('lets crawlers index the login and sign-up pages, and nothing else of /auth/ or /my/', async () => {
      const res = await server.request('/robots.txt');
      const rules = [...res.text.matchAll(/^(allow|disallow):\s*(\S+)\s*$/gim)].map((m) => ({ allow: m[1]!.toLowerCase() === 'allow', prefix: m[2]! }));
      // As crawlers read it: the longest matching rule decides, Allow on a tie.
      const allowed = (p: string) => {
        const match = rules.filter((r) => p.startsWith(r.prefix)).sort((a, b) => b.prefix.length - a.prefix.length || Number(b.allow) - Number(a.allow))[0];
        return match ? match.allow : true;
      };
      for (const p of ['/auth/login/', '/auth/signup/', '/auth/login/?next=%2Fcomics%2F', '/', '/comics/']) expect(allowed(p), p).toBe(true);
      for (const p of ['/auth/logout/', '/auth/logout/confirm/', '/my/keys/', '/my/favorites/']) expect(allowed(p), p).toBe(false);
      for (const site of ['en', 'br'] as const) {
        for (const p of ['/auth/login/?next=%2Fcomics%2F', '/auth/signup/?next=%2Fcomics%2F']) {
          const page = await server.request(p, { site });
          expect(page.status, p).toBe(200);
          expect(page.text, p).not.toMatch(/<meta name="robots" content="[^"]*noindex/);
          expect(/<link rel="canonical" href="([^"]+)"/.exec(page.text)?.[1], p).toBe(`${server.origin(site)}${p.split('?')[0]}`);
        }
      }
    });

    it('has a sitemap.xml that lists series pages', async () => {
      const urls = await sitemapUrls(server.request, '/sitemap.xml');
      expect(urls.length).toBeGreaterThan(0);
      const paths = urls.map((u) => new URL(u).pathname);
      expect(paths).toContain(`/comics/${english.slug}/`);
    });
  });

  describe('routes a reader uses', () => {
    it('lists series on /comics/ with links to their pages', async () => {
      const res = await server.request('/comics/');
      expect(res.status).toBe(200);
      expectHtml(res, '/comics/');
      expect(res.text).toMatch(/href="(?:https?:\/\/[^"/]+)?\/comics\/[a-z0-9-]+\/"/);
    });

    it('returns the listing as an HTML fragment for in-place updates', async () => {
      const res = await server.request('/comics/fragment/');
      expect(res.status).toBe(200);
      expectHtml(res, '/comics/fragment/');
      expect(res.text).not.toMatch(/<html[\s>]/i);
      expect(res.text).toMatch(/\/comics\/[a-z0-9-]+\//);
    });

    it('shows a series page with the series name', async () => {
      const res = await server.request(`/comics/${english.slug}/`);
      expect(res.status).toBe(200);
      expectHtml(res, 'series page');
      expect(htmlText(res.text)).toContain(english.name);
    });

    it('opens the reader for a released English chapter', async () => {
      const withChapter = series.find((s) => s.languages.includes('en') && s.chapter);
      expect(withChapter, 'a series with a released English chapter').toBeDefined();
      const p = withChapter!.chapter!.readerPath;
      const res = await server.request(p);
      expect(res.status, `GET ${p}`).toBe(200);
      expectHtml(res, p);
    });
  });

  describe('public JSON endpoints', () => {
    it('lists comics by last update on /sapi/comics', async () => {
      const res = await server.request('/sapi/comics?ordering=-last_updated&page=1');
      expect(res.status).toBe(200);
      expectJson(res, '/sapi/comics');
      const body = res.json();
      expect(Array.isArray(body.results)).toBe(true);
      expect(body.results.length).toBeGreaterThan(0);
      expect(body).toHaveProperty('next');
      for (const key of ['e4pid', 'last_updated', 'name', 'uslug', 'link', 'format']) {
        expect(body.results[0], `result has ${key}`).toHaveProperty(key);
      }
      const updated = body.results.map((r: { last_updated: number | string }) => Number(new Date(r.last_updated)) || Number(r.last_updated));
      expect(updated, 'newest first').toEqual([...updated].sort((a: number, b: number) => b - a));
    });

    it('returns the spec\'s comic (section 3, every field) by e4pid on /sapi/comics/{e4pid}', async () => {
      const res = await server.request(`/sapi/comics/${english.e4pid}`);
      expect(res.status).toBe(200);
      expectJson(res, '/sapi/comics/{e4pid}');
      const comic = res.json();
      expect(comic.e4pid).toBe(english.e4pid);
      const SECTION_3 = ['id', 'name', 'e4pid', 'slug', 'uslug', 'alt', 'link', 'author', 'artist', 'tags', 'keywords', 'description', 'excerpt', 'adult', 'modified_at',
        'publisher', 'color', 'in_exclusive', 'in_hype', 'all_free', 'availability_strategy', 'geoblocks', 'campaigns', 'last_updated', 'largest_chapter', 'chapter_count',
        'created_at', 'update_status', 'update_text', 'format', 'chapter_title', 'chapterNameFormat', 'images', 'copyright', 'cover_copyright', 'chapter_copyright', 'hints'];
      for (const key of SECTION_3) expect(comic, `comic has ${key}`).toHaveProperty(key);
      expect(comic).not.toHaveProperty('authors');
      expect(comic).not.toHaveProperty('artists');
      expect(Object.keys(comic.images).sort()).toEqual(expect.arrayContaining(['banner', 'cover', 'full_cover', 'logo', 'preview', 'showcase', 'thumbnail', 'wallpaper', 'zoom_cover']));
      expect(comic.author.length + comic.artist.length).toBeGreaterThan(0);
      for (const p of [...comic.author, ...comic.artist]) expect(Object.keys(p).sort()).toEqual(['alt', 'id', 'name']);
      for (const t of comic.tags) expect(Object.keys(t).sort()).toEqual(['color', 'description', 'icon', 'id', 'is_primary', 'name', 'slug']);
      expect(Object.keys(comic.publisher).sort()).toEqual(['geoblocks', 'homepage', 'id', 'language', 'logo', 'name']);
      expect(comic.chapterNameFormat).toContain('{num}');
      expect(Array.isArray(comic.hints) && Array.isArray(comic.campaigns) && Array.isArray(comic.geoblocks) && Array.isArray(comic.keywords)).toBe(true);
      // The campaign and hint shapes, on the series the demo gives both.
      const withBoth = await withDb(server, (db) => db.selectFrom('series').innerJoin('campaigns', 'campaigns.series_id', 'series.id').select(['series.e4pid', 'series.slug'])
        .where('series.hints', '<>', '[]').where('series.state', '=', 'ACTIVE').executeTakeFirst());
      expect(withBoth, 'the demo has a series with a campaign and hints').toBeDefined();
      const full = (await server.request(`/sapi/comics/${withBoth!.e4pid}`)).json();
      expect(Object.keys(full.campaigns[0]).sort()).toEqual(['discount', 'ends_at', 'name', 'override_all_free', 'override_ending_count', 'override_starting_count', 'starts_at']);
      expect(Object.keys(full.hints[0]).sort()).toEqual(['icon', 'text']);
      // Hint icons are the one enum, and the series page draws each as a decorative inline SVG beside its text.
      const page = (await server.request(`/comics/${withBoth!.slug}/`)).text;
      const shown = [...page.matchAll(/<p class="series-hint"[^>]*>(.*?)<\/p>/gs)].map((m) => m[1]!);
      for (const h of full.hints as { text: string; icon: string }[]) {
        expect(h.icon).toMatch(/^[A-Z_]+$/);
        const hint = shown.find((x) => htmlText(x) === h.text);
        expect(hint, `the page shows the hint ${h.text}`).toBeDefined();
        if (h.icon !== 'NONE') expect(hint).toMatch(new RegExp(`<svg class="hint-icon" data-icon="${h.icon}"[^>]*aria-hidden="true"`));
      }
      // The same comic as the comic response v2 gives, plus the list's fields and the languages.
      const v2 = (await server.request(`/api/comic.public/${english.e4pid}`)).json().comic;
      expect(comic).toMatchObject(v2);
    });

    it('every image URL the comic APIs return answers 200 with an image, for a sample of series on both sites', async () => {
      /** Every string in a JSON answer that is one of this server's /media/ URLs. */
      const mediaUrls = (v: unknown, out: Set<string>): Set<string> => {
        if (typeof v === 'string' && /^https?:\/\/[^/]+\/media\//.test(v)) out.add(v);
        else if (Array.isArray(v)) for (const x of v) mediaUrls(x, out);
        else if (v && typeof v === 'object') for (const x of Object.values(v)) mediaUrls(x, out);
        return out;
      };
      for (const [site, language] of [['en', 'en'], ['br', 'pt-br']] as const) {
        const json = async (p: string) => {
          const res = await server.request(p, { site });
          expect(res.status, p).toBe(200);
          return res.json();
        };
        const list = await json('/sapi/comics/?limit=100');
        const urls = mediaUrls(list, new Set());
        // Four series spread over the catalogue: every image kind of each, its publisher's logo, chapter thumbnails, similar series.
        const results = list.results as { e4pid: string }[];
        // Plus the series with promotional visuals (issue 30): animated images, videos and their posters.
        const promoted = await withDb(server, (db) => db.selectFrom('series_promotions').innerJoin('series', 'series.id', 'series_promotions.series_id').select('series.e4pid').execute());
        const onSite = new Set(results.map((r) => r.e4pid));
        for (const c of [...[0, 1, Math.floor(results.length / 2), results.length - 1].map((i) => results[i]!), ...promoted.filter((p) => onSite.has(p.e4pid))]) {
          mediaUrls(await json(`/sapi/comics/${c.e4pid}/`), urls);
          mediaUrls(await json(`/api/comic.public/${c.e4pid}`), urls);
          mediaUrls(await json(`/api/comic.public/${c.e4pid}/episodes?language=${language}`), urls);
        }
        expect([...urls].some((u) => u.endsWith('/preview.webp')), 'the sample has previews').toBe(true);
        expect([...urls].some((u) => u.endsWith('.webm')), 'the sample has promotional videos').toBe(true);
        for (const u of urls) {
          const url = new URL(u);
          const res = await server.request(url.pathname + url.search, { site });
          expect(res.status, u).toBe(200);
          expect(res.headers['content-type'], u).toMatch(u.endsWith('.webm') ? /^video\/webm$/ : /^image\//);
        }
      }
    });

    it('returns the public comic by id and by e4pid on /api/comic.public/', async () => {
      for (const ref of [String(english.id), english.e4pid]) {
        const res = await server.request(`/api/comic.public/${ref}`);
        expect(res.status, `/api/comic.public/${ref}`).toBe(200);
        expectJson(res, `/api/comic.public/${ref}`);
        expect(res.json().comic?.e4pid, `/api/comic.public/${ref}`).toBe(english.e4pid);
      }
    });

    it('returns the English episodes of a comic', async () => {
      const res = await server.request(`/api/comic.public/${english.id}/episodes?language=en`);
      expect(res.status).toBe(200);
      expectJson(res, 'episodes');
      const body = res.json();
      expect(Array.isArray(body.episodes)).toBe(true);
      expect(body.episodes.length).toBeGreaterThan(0);
      expect(body.language).toBe('en');
    });
  });
});

type Request = ReturnType<typeof useServer>['request'];

/** A built JS/CSS file that has a .br sibling: one the home page references if possible. */
async function findAsset(request: Request, exts: string[]): Promise<string> {
  const dir = path.join(ROOT, 'dist/client/_astro');
  const precompressed = (rel: string) => fs.existsSync(path.join(ROOT, 'dist/client', rel + '.br'));
  const home = await request('/');
  const re = new RegExp(`/_astro/[\\w.@-]+\\.(?:${exts.join('|')})`, 'g');
  for (const m of home.text.matchAll(re)) if (precompressed(m[0])) return m[0];
  const files = fs.existsSync(dir) ? fs.readdirSync(dir) : [];
  const any = files.find((f) => exts.some((e) => f.endsWith(`.${e}`)) && precompressed(`/_astro/${f}`));
  if (!any) throw new Error(`dist/client/_astro has no precompressed ${exts.join('/')} file (files: ${files.join(', ') || 'none'})`);
  return `/_astro/${any}`;
}

/** The <loc> URLs of a sitemap, following one level of sitemap index. */
async function sitemapUrls(request: Request, p: string): Promise<string[]> {
  const res = await request(p);
  expect(res.status, `GET ${p}`).toBe(200);
  expect(res.headers['content-type'] ?? '', `GET ${p}: content-type`).toMatch(/xml/);
  expect(res.text).toMatch(/^(\uFEFF)?<\?xml/);
  const locs = [...res.text.matchAll(/<loc>\s*([^<\s]+)\s*<\/loc>/g)].map((m) => m[1]!.replace(/&amp;/g, '&'));
  if (/<sitemapindex[\s>]/.test(res.text)) {
    const nested: string[] = [];
    for (const loc of locs) {
      const u = new URL(loc);
      nested.push(...(await sitemapUrls(request, u.pathname + u.search)));
    }
    return nested;
  }
  expect(res.text).toMatch(/<urlset[\s>]/);
  return locs;
}
