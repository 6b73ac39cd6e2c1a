/**
 * The reader over real HTTP on both dialects: canonical URLs and redirects, what a free, a paid
 * and an unavailable chapter show, the manifest, signed page images and public media.
 * Chapters are picked from the demo catalogue (db/seed DEMO) through the app's own modules.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { createReader, htmlText, markup, message, selectedDialects, useServer, type ServerClient } from './harness';
import { DEMO } from '@db/seed/index';
import { readerPath, loginPath, manifestPath, chapterPagePath } from '~/lib/paths';
import { withIntent } from '~/lib/intent';
import { signPage } from '~/features/reader/index.server';

interface Chapter {
  id: number;
  e4pid: string;
  number: number;
  language: string;
  pages: { position: number; width: number; height: number }[];
}
interface Series {
  slug: string;
  format: 'COMIC' | 'MANGA' | 'WEBTOON';
  images: Record<string, string>;
  free: Chapter[];
  paid: Chapter[];
  scheduled: Chapter[];
  pt: Chapter[];
}

/** Chapters of a demo series by access, read from the server's database with the app's own modules. */
async function loadSeries(server: ServerClient, slug: string): Promise<Series> {
  const { createDb } = await import('~/server/db');
  const { db } = await createDb(server.databaseUrl);
  try {
    const now = Math.floor(Date.now() / 1000);
    const s = await db.selectFrom('series').selectAll().where('slug', '=', slug).executeTakeFirst();
    if (!s) throw new Error(`demo series ${slug} is missing from the ${server.dialect} database`);
    const { pricingContext, accessIn } = await import('~/features/catalog/index.server');
    const rows = await db.selectFrom('chapters').selectAll().where('series_id', '=', s.id).orderBy('number').execute();
    const out: Series = { slug: s.slug, format: s.format, images: JSON.parse(s.images), free: [], paid: [], scheduled: [], pt: [] };
    for (const r of rows) {
      const pages = await db.selectFrom('chapter_pages').select(['position', 'width', 'height']).where('chapter_id', '=', r.id).orderBy('position').execute();
      const c: Chapter = { id: Number(r.id), e4pid: r.e4pid, number: Number(r.number), language: r.language, pages: pages.map((p) => ({ position: Number(p.position), width: Number(p.width), height: Number(p.height) })) };
      // Free for everyone by the one pricing rule (base price, strategy, campaigns), a few minutes from now.
      const ctx = await pricingContext(db, r.e4pid, now + 300);
      const price = ctx && accessIn(ctx, null, null, now + 300).readable ? 0 : 1;
      // Stay clear of chapters whose state could change while the tests run.
      if (Number(r.released_at) > now + 3600) out.scheduled.push(c);
      else if (Number(r.released_at) > now - 60) continue;
      else if (r.language === 'pt-br' && price === 0) out.pt.push(c);
      else if (r.language !== 'en') continue;
      else if (price === 0) out.free.push(c);
      else out.paid.push(c);
    }
    return out;
  } finally {
    await db.destroy();
  }
}

const pathOf = (s: Series, c: Chapter) => readerPath(s, c);
const mediaUrls = (html: string) => [...html.matchAll(/\/media\/p\/[^"'\s<>]+/g)].map((m) => m[0].replace(/&amp;|&#38;/g, '&'));
const locationPath = (server: ServerClient, location: string | undefined) => (location ? new URL(location, server.origin()).pathname : null);

// Only the selected dialects (INKPASS_IT_DIALECTS); both by default.
describe.each(selectedDialects())('%s', (dialect) => {
  const server = useServer(dialect);
  let manga: Series;
  let comic: Series;
  let webtoon: Series;

  beforeAll(async () => {
    [manga, comic, webtoon] = await Promise.all([loadSeries(server, DEMO.readerManga), loadSeries(server, DEMO.readerComic), loadSeries(server, DEMO.readerWebtoon)]);
    for (const s of [manga, comic, webtoon]) {
      if (s.free.length < 2) throw new Error(`${s.slug} should have at least 2 free English chapters`);
    }
    if (!manga.paid.length) throw new Error(`${manga.slug} should have a paid English chapter`);
  });

  describe('URLs', () => {
    it('serves the canonical URL of a free chapter with 200', async () => {
      const c = manga.free[0]!;
      const res = await server.request(pathOf(manga, c));
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.text).toMatch(/<html[^>]*\slang="en"/);
    });

    it('uses episode- for webtoons and chapter- for comics and manga', () => {
      expect(pathOf(webtoon, webtoon.free[0]!)).toMatch(/\/episode-\d+(-\d+)?\/$/);
      expect(pathOf(comic, comic.free[0]!)).toMatch(/\/chapter-\d+(-\d+)?\/$/);
      expect(pathOf(manga, manga.free[0]!)).toMatch(/\/chapter-\d+(-\d+)?\/$/);
    });

    it('redirects an outdated slug to the canonical URL with 301', async () => {
      const c = manga.free[0]!;
      const canonical = pathOf(manga, c);
      const res = await server.request(canonical.replace(`/read/${manga.slug}/`, '/read/an-old-name-of-the-series/'));
      expect(res.status).toBe(301);
      expect(locationPath(server, res.headers.location)).toBe(canonical);
    });

    it('redirects a wrong prefix to the canonical URL with 301', async () => {
      const c = manga.free[0]!;
      const canonical = pathOf(manga, c);
      for (const wrong of ['episode-', 'capitulo-portugues-', 'chapitre-francais-']) {
        const res = await server.request(canonical.replace(/\/chapter-/, `/${wrong}`));
        expect(res.status, wrong).toBe(301);
        expect(locationPath(server, res.headers.location), wrong).toBe(canonical);
      }
      const w = webtoon.free[0]!;
      const res = await server.request(pathOf(webtoon, w).replace('/episode-', '/chapter-'));
      expect(res.status).toBe(301);
      expect(locationPath(server, res.headers.location)).toBe(pathOf(webtoon, w));
    });

    it('redirects a wrong chapter number to the canonical URL with 301', async () => {
      const c = manga.free[0]!;
      const canonical = pathOf(manga, c);
      for (const wrong of ['chapter-999', 'chapter-1-5', 'chapter-', 'whatever']) {
        const res = await server.request(canonical.replace(/\/[^/]+\/$/, `/${wrong}/`));
        expect(res.status, wrong).toBe(301);
        expect(locationPath(server, res.headers.location), wrong).toBe(canonical);
      }
    });

    it('answers an unknown chapter id with the localized 404 page', async () => {
      const res = await server.request(`/read/${manga.slug}/zz00unknown/chapter-1/`);
      expect(res.status).toBe(404);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      const br = await server.request(`/read/${manga.slug}/zz00unknown/chapter-1/`, { site: 'br' });
      expect(br.status).toBe(404);
      expect(br.text).toMatch(/<html[^>]*\slang="pt-BR"/);
    });

    it('answers malformed ids with 404, never 500', async () => {
      for (const id of ['%00', 'a'.repeat(200), '..', 'EPI-x%2Fy']) {
        const res = await server.request(`/read/${manga.slug}/${id}/chapter-1/`);
        expect([404, 400], id).toContain(res.status);
      }
    });

    it('serves a Portuguese chapter under capitulo-portugues on the Portuguese site', async () => {
      const c = manga.pt[0];
      if (!c) return;
      const p = pathOf(manga, c);
      expect(p).toContain('/capitulo-portugues-');
      const res = await server.request(p, { site: 'br' });
      expect(res.status).toBe(200);
      expect(htmlText(res.text)).toContain(message('pt-BR', 'reader.pageCounter', { page: 1, total: c.pages.length }));
    });
  });

  describe('chapter or episode, as the series counts them', () => {
    const enText = (key: Parameters<typeof message>[1], values?: Record<string, string | number>) => message('en', key, values);

    it('a webtoon episode says episode in the end card, the bar and the list link (English)', async () => {
      const c = webtoon.free[0]!;
      const text = htmlText((await server.request(pathOf(webtoon, c))).text);
      const name = enText('chapter.name.episode', { num: c.number });
      expect(text).toContain(enText('reader.endOfChapter', { chapter: name }));
      expect(text).toContain(enText('reader.nextEpisode'));
      expect(text).toContain(enText('reader.episodeList'));
      expect(text).not.toContain(enText('reader.nextChapter'));
      expect(text).not.toContain(enText('reader.chapterList'));
    });

    it('a webtoon episode says "Próximo episódio" and "Fim do Episódio N" (Portuguese)', async () => {
      const c = webtoon.pt[0];
      if (!c) throw new Error(`${webtoon.slug} should have a free Portuguese episode`);
      const text = htmlText((await server.request(pathOf(webtoon, c), { site: 'br' })).text);
      expect(text).toContain(`Fim do Episódio ${c.number}`);
      expect(text).not.toContain('Fim de ');
      if (webtoon.pt.some((x) => x.number > c.number)) expect(text).toContain('Próximo episódio');
      expect(text).not.toContain('Próximo capítulo');
      expect(text).toContain(message('pt-BR', 'reader.episodeList'));
    });

    it('a locked episode says so, on the page and in its manifest', async () => {
      const c = webtoon.paid[0];
      if (!c) throw new Error(`${webtoon.slug} should have a paid English episode`);
      const text = htmlText((await server.request(pathOf(webtoon, c))).text);
      expect(text).toContain('This episode is locked');
      expect(text).not.toContain(enText('reader.locked.title'));
      expect((await server.request(manifestPath(c.e4pid))).json()).toEqual({ detail: 'This episode is locked' });
    });

    it('a comic chapter says chapter', async () => {
      const c = comic.free[0]!;
      const text = htmlText((await server.request(pathOf(comic, c))).text);
      expect(text).toContain('Next chapter');
      expect(text).toContain(enText('reader.chapterList'));
      expect(text).not.toContain(enText('reader.nextEpisode'));
    });
  });

  describe('free chapter', () => {
    it('has every page as an <img> with width, height and the page alt text', async () => {
      const c = manga.free[0]!;
      const res = await server.request(pathOf(manga, c));
      const imgs = [...res.text.matchAll(/<img\b[^>]*\bsrc="\/media\/p\/[^"]+"[^>]*>/g)].map((m) => m[0]);
      expect(imgs).toHaveLength(c.pages.length);
      imgs.forEach((img, i) => {
        expect(img).toMatch(new RegExp(`\\swidth="${c.pages[i]!.width}"`));
        expect(img).toMatch(new RegExp(`\\sheight="${c.pages[i]!.height}"`));
        expect(img).toMatch(/\salt="[^"]+"/);
      });
      // The first loads at once (the page's largest paint), the rest lazily: the reader's script
      // fetches the next ones once the first has arrived, so they do not share its bandwidth.
      expect(imgs[0]).toMatch(/loading="eager"/);
      expect(imgs[0]).toMatch(/fetchpriority="high"/);
      for (const img of imgs.slice(1)) expect(img).toMatch(/loading="lazy"/);
    });

    it('offers phones the narrower copies of each page, and preloads the first page the same way', async () => {
      const c = manga.free[0]!;
      const res = await server.request(pathOf(manga, c));
      const imgs = [...res.text.matchAll(/<img\b[^>]*\bsrc="\/media\/p\/[^"]+"[^>]*>/g)].map((m) => m[0].replace(/&amp;/g, '&'));
      imgs.forEach((img, i) => {
        const src = /\ssrc="([^"]+)"/.exec(img)![1]!;
        const width = c.pages[i]!.width;
        // Every copy narrower than the page, then the page itself, all under its one signed URL.
        expect(/\ssrcset="([^"]+)"/.exec(img)?.[1]).toBe(`${src}&w=480 480w, ${src}&w=720 720w, ${src} ${width}w`);
        expect(img).toMatch(/\ssizes="[^"]+"/);
      });
      const preload = /<link[^>]*rel="preload"[^>]*as="image"[^>]*>/.exec(res.text)?.[0].replace(/&amp;/g, '&') ?? '';
      expect(/\simagesrcset="([^"]+)"/.exec(preload)?.[1]).toBe(/\ssrcset="([^"]+)"/.exec(imgs[0]!)?.[1]);
      expect(/\simagesizes="([^"]+)"/.exec(preload)?.[1]).toBe(/\ssizes="([^"]+)"/.exec(imgs[0]!)?.[1]);
    });

    it('shows the page counter and links back to the series', async () => {
      const c = manga.free[0]!;
      const res = await server.request(pathOf(manga, c));
      expect(htmlText(res.text)).toContain(message('en', 'reader.pageCounter', { page: 1, total: c.pages.length }));
      expect(res.text).toMatch(/aria-live="polite"/);
      expect(res.text).toContain(`href="/comics/${manga.slug}/"`);
    });

    it('links the next released chapter', async () => {
      const c = manga.free[0]!;
      const next = manga.free[1]!;
      const res = await server.request(pathOf(manga, c));
      expect(res.text).toContain(`href="${pathOf(manga, next)}"`);
    });

    it('has no site header or footer, and links home and to the series from its own bar', async () => {
      const res = await server.request(pathOf(manga, manga.free[0]!));
      expect(res.text).not.toContain('class="site-header"');
      expect(res.text).not.toContain('class="site-footer"');
      expect(res.text).toMatch(new RegExp(`<a class="reader-logo" href="/" aria-label="${message('en', 'reader.home')}"`));
    });

    it('prices the next chapter on the end card with the rule its own page uses', async () => {
      // A free chapter whose next one sells (not simply the last free one: the studio's tests
      // publish free chapters after the paid ones on this server).
      const en = [...manga.free, ...manga.paid].sort((a, b) => a.number - b.number);
      const at = en.findIndex((c, i) => manga.free.includes(c) && manga.paid.includes(en[i + 1]!));
      expect(at, 'a free chapter followed by a paid one').toBeGreaterThanOrEqual(0);
      const [last, next] = [en[at]!, en[at + 1]!];
      const { cookie } = await createReader(server, { site: 'en' });
      const [end, own] = await Promise.all([server.request(pathOf(manga, last), { headers: { cookie } }), server.request(pathOf(manga, next), { headers: { cookie } })]);
      // The next chapter's own locked page offers the unlock at its price.
      const price = Number(/<button class="btn btn-primary btn-unlock"[^>]* data-price="(\d+)"/.exec(own.text)?.[1]);
      expect(price).toBeGreaterThan(0);
      const card = /<a class="reader-end-next is-locked" href="([^"]+)"[^>]*>([\s\S]*?)<\/a>/.exec(end.text);
      expect(card?.[1]).toBe(pathOf(manga, next));
      expect(htmlText(card![2]!)).toContain(message('en', 'reader.end.price', { price }));
    });

    it('the last chapter out announces the next one: its date and its price', async () => {
      const { createDb } = await import('~/server/db');
      const { db } = await createDb(server.databaseUrl);
      const now = Math.floor(Date.now() / 1000);
      // A free-for-all series (so its last chapter out is readable by anyone) with a chapter still to come in each language.
      const found: { site: 'en' | 'br'; path: string; next: number; at: number }[] = [];
      try {
        // The demo has such a series in English only.
        for (const [site, language] of [['en', 'en']] as const) {
          const series = await db.selectFrom('series').select(['id', 'slug', 'format']).where('all_free', '=', 1).where('state', '=', 'ACTIVE').where('adult', '=', 0).execute();
          for (const s of series) {
            const chapters = await db.selectFrom('chapters').select(['e4pid', 'number', 'released_at', 'language']).where('series_id', '=', s.id).where('language', '=', language).orderBy('number').execute();
            const out = chapters.filter((c) => Number(c.released_at) <= now - 60);
            const last = out[out.length - 1];
            const next = chapters.find((c) => last && Number(c.number) > Number(last.number));
            if (!last || !next || Number(next.released_at) < now + 3600) continue;
            found.push({ site, path: readerPath({ slug: s.slug, format: s.format }, { e4pid: last.e4pid, number: Number(last.number), language }), next: Number(next.number), at: Number(next.released_at) });
            break;
          }
        }
      } finally {
        await db.destroy();
      }
      expect(found.map((f) => f.site)).toEqual(['en']);
      for (const f of found) {
        const locale = f.site === 'en' ? 'en' : 'pt-BR';
        const res = await server.request(f.path, { site: f.site });
        expect(res.status).toBe(200);
        const card = /<div class="reader-end-upcoming[^"]*"[^>]*>([\s\S]*?)<\/div>/.exec(res.text);
        expect(card, `${f.site} ${f.path}: the end card's upcoming chapter`).not.toBeNull();
        const text = htmlText(card![1]!);
        expect(text).toContain(message(locale, 'reader.end.caughtUp'));
        expect(card![1]).toContain(`datetime="${new Date(f.at * 1000).toISOString()}"`);
        expect(text).toMatch(new RegExp(`${f.next}\\b`));
        expect(text).toContain(message(locale, 'chapter.price.free'));
        // The vaguer line is gone once the date is known.
        expect(htmlText(res.text)).not.toContain(message(locale, 'reader.upToDate'));
      }
    });

    it('ships no React on the reader', async () => {
      const res = await server.request(pathOf(manga, manga.free[0]!));
      expect(res.text).not.toMatch(/<astro-island/);
    });
  });

  describe('paid chapter for an anonymous reader', () => {
    it('shows the locked state with a login link and no page URLs', async () => {
      const c = manga.paid[0]!;
      const p = pathOf(manga, c);
      const res = await server.request(p);
      expect(res.status).toBe(200);
      const text = htmlText(res.text);
      expect(text).toContain(message('en', 'reader.locked.title'));
      expect(text).toContain(message('en', 'chapter.loginToRead'));
      // Back on this chapter after logging in, with its unlock dialog to reopen (src/lib/intent.ts).
      expect(res.text).toContain(`href="${loginPath(withIntent(p, { kind: 'unlock', e4pid: c.e4pid })).replace(/&/g, '&amp;')}"`);
      expect(res.text).not.toContain('/media/p/');
      expect(res.text).not.toContain('/api/reader/');
    });

    it('has a manifest that answers 403 with a detail and no pages', async () => {
      const c = manga.paid[0]!;
      const res = await server.request(manifestPath(c.e4pid));
      expect(res.status).toBe(403);
      expect(res.json()).toEqual({ detail: message('en', 'reader.locked.title') });
      expect(res.text).not.toContain('/media/p/');
    });

    it('does not serve its pages even with a signature for another chapter', async () => {
      const free = manga.free[0]!;
      const paid = manga.paid[0]!;
      const exp = Math.floor(Date.now() / 1000) + 3600;
      const sig = signPage(free.e4pid, 0, exp);
      const res = await server.request(`${chapterPagePath(paid.e4pid, paid.pages[0]!.position)}?exp=${exp}&sig=${sig}`);
      expect(res.status).toBe(403);
    });
  });

  describe('manifest', () => {
    it('describes a free manga chapter right to left with signed pages and sizes', async () => {
      const c = manga.free[0]!;
      const res = await server.request(manifestPath(c.e4pid));
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/json/);
      expect(res.headers['cache-control']).toMatch(/private/);
      const m = res.json();
      expect(m['@context']).toBe('https://readium.org/webpub-manifest/context.jsonld');
      expect(m.metadata).toMatchObject({ identifier: c.e4pid, language: 'en', readingProgression: 'rtl', number: c.number });
      expect(m.links.find((l: { rel: string }) => l.rel === 'self').href).toBe(manifestPath(c.e4pid));
      expect(m.readingOrder).toHaveLength(c.pages.length);
      m.readingOrder.forEach((p: { href: string; type: string; width: number; height: number }, i: number) => {
        expect(p.href).toMatch(new RegExp(`^/media/p/${c.e4pid}/${c.pages[i]!.position}\\.webp\\?exp=\\d+&sig=[0-9a-f]{32}$`));
        expect(p).toMatchObject({ type: 'image/webp', width: c.pages[i]!.width, height: c.pages[i]!.height });
      });
    });

    it('reads comics left to right and webtoons top to bottom', async () => {
      const a = (await server.request(manifestPath(comic.free[0]!.e4pid))).json();
      const b = (await server.request(manifestPath(webtoon.free[0]!.e4pid))).json();
      expect(a.metadata.readingProgression).toBe('ltr');
      expect(b.metadata.readingProgression).toBe('ttb');
    });

    it('answers 404 with a JSON detail for an unknown or malformed chapter id', async () => {
      for (const id of ['EPI-zz00unknown', 'zz00unknown', 'EPI-%2e%2e']) {
        const res = await server.request(`/api/reader/${id}/manifest/`);
        expect(res.status, id).toBe(404);
        expect(res.json(), id).toHaveProperty('detail');
      }
    });

    it('is linked from the reader page', async () => {
      const c = manga.free[0]!;
      const res = await server.request(pathOf(manga, c));
      expect(res.text).toContain(`data-manifest="${manifestPath(c.e4pid)}"`);
    });

    it('answers 404 for a scheduled chapter', async () => {
      const c = manga.scheduled[0] ?? comic.scheduled[0];
      if (!c) return;
      const res = await server.request(manifestPath(c.e4pid));
      expect(res.status).toBe(404);
      expect(res.text).not.toContain('/media/p/');
    });
  });

  describe('signed page images', () => {
    let url: string;
    beforeAll(async () => {
      const res = await server.request(pathOf(manga, manga.free[0]!));
      url = mediaUrls(res.text)[0]!;
    });

    it('serves a page of a chapter free for everyone as publicly cacheable WebP', async () => {
      const res = await server.request(url);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('image/webp');
      expect(res.headers['cache-control']).toBe('public, max-age=600');
      expect(res.body.subarray(0, 4).toString('latin1')).toBe('RIFF');
      expect(res.body.subarray(8, 12).toString('latin1')).toBe('WEBP');
    });

    it('serves the narrower copies of a page under the same signature, each smaller and as wide as asked', async () => {
      const original = await server.request(url);
      const originalWidth = (await sharp(original.body).metadata()).width!;
      let previous = original.body.length;
      for (const w of [720, 480]) {
        const res = await server.request(`${url}&w=${w}`);
        expect(res.status).toBe(200);
        expect(res.headers['content-type']).toBe('image/webp');
        expect(res.headers['cache-control']).toBe('public, max-age=600');
        const meta = await sharp(res.body).metadata();
        expect(meta.format).toBe('webp');
        expect(meta.width).toBe(Math.min(w, originalWidth));
        expect(res.body.length).toBeLessThan(previous);
        previous = res.body.length;
      }
    });

    it('answers 404 for a width it does not make, and 403 for a copy with a tampered signature', async () => {
      for (const w of ['500', '0', '7200', 'abc', '720.0', '']) {
        const res = await server.request(`${url}&w=${encodeURIComponent(w)}`);
        expect(res.status, `w=${w}`).toBe(404);
        expect(res.body.includes(Buffer.from('WEBP'))).toBe(false);
      }
      const tampered = url.replace(/sig=([0-9a-f])/, (_m, ch: string) => `sig=${ch === 'a' ? 'b' : 'a'}`);
      const res = await server.request(`${tampered}&w=720`);
      expect(res.status).toBe(403);
      expect(res.body.includes(Buffer.from('WEBP'))).toBe(false);
    });

    it('expires about two hours ahead, on a 10-minute boundary', () => {
      const exp = Number(new URL(url, 'http://x').searchParams.get('exp'));
      const now = Math.floor(Date.now() / 1000);
      expect(exp % 600).toBe(0);
      expect(exp).toBeGreaterThan(now + 7000);
      expect(exp).toBeLessThanOrEqual(now + 7200 + 600 + 60);
    });

    it('refuses a tampered signature with 403', async () => {
      const u = new URL(url, 'http://x');
      const sig = u.searchParams.get('sig')!;
      u.searchParams.set('sig', (sig[0] === '0' ? '1' : '0') + sig.slice(1));
      expect((await server.request(u.pathname + u.search)).status).toBe(403);
      u.searchParams.delete('sig');
      expect((await server.request(u.pathname + u.search)).status).toBe(403);
    });

    it('refuses an extended expiry and another page with the same signature', async () => {
      const u = new URL(url, 'http://x');
      const later = new URL(u);
      later.searchParams.set('exp', String(Number(u.searchParams.get('exp')) + 86400));
      expect((await server.request(later.pathname + later.search)).status).toBe(403);
      const other = u.pathname.replace(/\/(\d+)\.webp$/, (_m, n) => `/${Number(n) + 1}.webp`);
      expect((await server.request(other + u.search)).status).toBe(403);
    });

    it('refuses an expired URL with 403', async () => {
      const c = manga.free[0]!;
      const exp = Math.floor(Date.now() / 1000) - 60;
      const res = await server.request(`${chapterPagePath(c.e4pid, c.pages[0]!.position)}?exp=${exp}&sig=${signPage(c.e4pid, c.pages[0]!.position, exp)}`);
      expect(res.status).toBe(403);
    });

    it('answers 404 for a page that does not exist, even when signed', async () => {
      const c = manga.free[0]!;
      const exp = Math.floor(Date.now() / 1000) + 3600;
      const res = await server.request(`${chapterPagePath(c.e4pid, 999)}?exp=${exp}&sig=${signPage(c.e4pid, 999, exp)}`);
      expect(res.status).toBe(404);
      const unknown = await server.request(`${chapterPagePath('EPI-zz00unknown', 0)}?exp=${exp}&sig=${signPage('EPI-zz00unknown', 0, exp)}`);
      expect(unknown.status).toBe(404);
    });
  });

  describe('public media', () => {
    it('serves a series cover with long public caching and an ETag honoured with 304', async () => {
      const key = manga.images.cover!;
      const res = await server.request(`/media/${key}`);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('image/webp');
      expect(res.headers['cache-control']).toBe('public, max-age=86400, stale-while-revalidate=604800');
      const etag = res.headers.etag!;
      expect(etag).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/);
      const again = await server.request(`/media/${key}`, { headers: { 'if-none-match': etag } });
      expect(again.status).toBe(304);
      expect(again.body.length).toBe(0);
      const other = await server.request(`/media/${key}`, { headers: { 'if-none-match': '"nope"' } });
      expect(other.status).toBe(200);
    });

    it('never serves chapter page images publicly', async () => {
      for (const key of ['pool/manga/page-00.webp', 'pool/comic/page-01.webp', 'pool/webtoon/page-02.webp']) {
        expect((await server.request(`/media/${key}`)).status, key).toBe(404);
      }
      // The series "preview" image is its own public file, not a pool page (issue 30: it answered 404).
      expect(manga.images.preview).toMatch(/^series\/[a-z0-9-]+\/preview\.webp$/);
      expect((await server.request(`/media/${manga.images.preview}`)).status).toBe(200);
    });

    it('refuses path traversal in every spelling with 404 (400 for a NUL)', async () => {
      const cover = manga.images.cover!;
      const attempts = [
        '/media/series/../pool/manga/page-00.webp',
        '/media/series/%2e%2e/pool/manga/page-00.webp',
        '/media/series/%2E%2E%2Fpool%2Fmanga%2Fpage-00.webp',
        '/media/series/..%2fpool/manga/page-00.webp',
        '/media/series/..%5cpool%5cmanga%5cpage-00.webp',
        '/media/series\\..\\pool\\manga\\page-00.webp',
        '/media/%2fetc%2fpasswd',
        '/media//etc/passwd',
        '/media/series/../../../../etc/passwd',
        '/media/series/%252e%252e/pool/manga/page-00.webp',
        `/media/${cover}%00.png`,
        '/media/series/',
        '/media/package.json',
      ];
      for (const p of attempts) {
        // Astro may first add the trailing slash to an extension-less path: follow it.
        let res = await server.request(p);
        for (let hops = 0; hops < 3 && (res.status === 301 || res.status === 308) && res.headers.location; hops++) {
          const next = new URL(res.headers.location, server.origin());
          res = await server.request(next.pathname + next.search);
        }
        // A NUL in the path cannot name any file: the server refuses it as malformed (400).
        expect(res.status, p).toBe(p.includes('%00') ? 400 : 404);
        expect(res.headers['content-type'] ?? '', p).not.toMatch(/^image\//);
      }
    });
  });

  describe('unavailable series', () => {
    async function firstReleasedPath(slug: string): Promise<string> {
      const s = await loadSeries(server, slug);
      const c = s.free[0] ?? s.paid[0];
      if (!c) throw new Error(`${slug} has no released English chapter`);
      return pathOf(s, c);
    }

    it('shows the unavailable message and no pages for a blocked series', async () => {
      const res = await server.request(await firstReleasedPath(DEMO.blocked));
      expect(res.status).toBe(200);
      expect(htmlText(res.text)).toContain(message('en', 'series.blocked.unavailable'));
      expect(res.text).not.toContain('/media/p/');
    });

    it('keeps the free chapters of a removed series readable; a paid one shows the removed message, no pages and nothing to buy', async () => {
      const s = await loadSeries(server, DEMO.removed);
      expect(s.free.length).toBeGreaterThan(0);
      expect(s.paid.length).toBeGreaterThan(0);
      const free = await server.request(pathOf(s, s.free[0]!));
      // One page image each (its narrower copies share its path).
      expect(new Set(mediaUrls(free.text).map((u) => u.split('?')[0])).size).toBe(s.free[0]!.pages.length);
      const paid = await server.request(pathOf(s, s.paid[0]!));
      expect(htmlText(paid.text)).toContain(message('en', 'series.removed'));
      expect(paid.text).not.toContain('/media/p/');
      expect(markup(paid.text)).not.toContain('btn-unlock');
    });

    it('shows the region message and no pages in a blocked country, and pages elsewhere', async () => {
      const p = await firstReleasedPath(DEMO.geoblockedJp);
      const jp = await server.request(p, { headers: { 'cf-ipcountry': 'JP' } });
      expect(htmlText(jp.text)).toContain(message('en', 'series.blocked.region', { countries: 'JP' }));
      expect(jp.text).not.toContain('/media/p/');
      expect(jp.headers['cache-control']).toMatch(/private/);
      const manifest = await server.request(manifestPath(`EPI-${p.split('/')[3]}`), { headers: { 'cf-ipcountry': 'JP' } });
      expect(manifest.status).toBe(403);
      const br = await server.request(p, { headers: { 'cf-ipcountry': 'BR' } });
      expect(htmlText(br.text)).not.toContain(message('en', 'series.blocked.region', { countries: 'BR' }));
    });
  });
});
