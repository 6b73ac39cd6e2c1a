/**
 * The age gate of adult series (docs/adult.md) over HTTP, on both sites: without the
 * confirmation cookie the series page and the reader show the gate (and no chapter list, cover or
 * page image), while the title, description, Open Graph tags and JSON-LD stay for crawlers; the
 * no-JavaScript form sets the cookie and returns to `next`; with it, everything opens, privately.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { clearAddressLimits, createReader, listOnPortugueseSite, message, selectedDialects, useServer, withDb } from './harness';
import { readerPath, CHAPTER_PAGES_PREFIX } from '~/lib/paths';

for (const dialect of selectedDialects()) {
  describe(`age gate (${dialect})`, () => {
    const server = useServer(dialect);
    let adult: { e4pid: string; slug: string; name: string; chapterE4pid: string; reader: string };
    let plain: { slug: string; reader: string };

    const sample = async (isAdult: boolean) => {
      const now = Math.floor(Date.now() / 1000);
      const r = await withDb(server, (db) => db.selectFrom('series').innerJoin('chapters', 'chapters.series_id', 'series.id')
        .select(['series.e4pid', 'series.slug', 'series.name', 'series.format', 'chapters.e4pid as chapter', 'chapters.number', 'chapters.language'])
        .where('series.adult', '=', isAdult ? 1 : 0).where('series.state', '=', 'ACTIVE').where('series.geoblocks', 'in', ['[]', ''])
        .where('chapters.released_at', '<=', now).where('chapters.original_price', '=', 0).where('chapters.language', '=', 'en')
        .orderBy('series.id').orderBy('chapters.number').executeTakeFirstOrThrow());
      return { e4pid: r.e4pid, slug: r.slug, name: r.name, chapterE4pid: r.chapter, reader: readerPath(r, { e4pid: r.chapter, number: Number(r.number), language: r.language }) };
    };
    const confirm = (next: string, site: 'en' | 'br' = 'en') => server.request('/prefs/adult/', {
      site, method: 'POST', body: new URLSearchParams({ next }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.origin(site) },
    });

    beforeAll(async () => {
      // Anonymous age confirmations are preference posts, 30 a minute per address.
      await clearAddressLimits(server);
      adult = await sample(true);
      plain = await sample(false);
      // The demo's adult series are English only, and a series a site does not list is a 404
      // there: the Portuguese site lists this one from now on (its translation is under way).
      for (const slug of [adult.slug, plain.slug]) await listOnPortugueseSite(server, slug);
    });

    for (const [site, locale] of [['en', 'en'], ['br', 'pt-BR']] as const) {
      it(`gates the series page without the cookie, metadata kept (${site})`, async () => {
        const res = await server.request(`/comics/${adult.slug}/`, { site });
        expect(res.status).toBe(200);
        const html = res.text;
        expect(html).toContain('data-age-gate');
        expect(html).toContain(message(locale, 'adult.gate.title'));
        expect(html).toContain(message(locale, 'adult.gate.confirm'));
        expect(html).toMatch(/<form[^>]*method="post"[^>]*action="\/prefs\/adult\/"/);
        expect(html).toContain(`name="next" value="/comics/${adult.slug}/"`);
        // For crawlers: the title, description, Open Graph tags and structured data are all there.
        expect(html).toMatch(new RegExp(`<title>[^<]*${adult.name}`));
        expect(html).toMatch(/<meta name="description" content="[^"]+"/);
        expect(html).toMatch(/<meta property="og:title" content="[^"]+"/);
        expect(html).toContain('application/ld+json');
        // No way in behind it: no chapter list, no reading button, no cover image.
        expect(html).not.toContain('data-chapter-list');
        expect(html).not.toContain('data-reading-button');
        expect(html).not.toContain('class="cover" src=');
        expect(html).not.toContain(CHAPTER_PAGES_PREFIX);
        expect(String(res.headers.vary)).toMatch(/cookie/i);
      });

      it(`gates the reader without the cookie: no page image (${site})`, async () => {
        const res = await server.request(adult.reader, { site });
        expect(res.status).toBe(200);
        expect(res.text).toContain('data-age-gate');
        expect(res.text).toContain(message(locale, 'adult.gate.title'));
        expect(res.text).not.toContain(CHAPTER_PAGES_PREFIX);
        expect(res.text).not.toContain('data-progress-token');
        const manifest = await server.request(`/api/reader/${adult.chapterE4pid}/manifest/`, { site });
        expect(manifest.status).toBe(403);
        expect(manifest.text).not.toContain(CHAPTER_PAGES_PREFIX);
      });

      it(`confirming sets the cookie and returns to next; then everything opens, privately (${site})`, async () => {
        const res = await confirm(adult.reader, site);
        expect(res.status).toBe(303);
        expect(res.headers.location).toBe(adult.reader);
        const setCookie = String(res.headers['set-cookie']);
        expect(setCookie).toMatch(/adult=1/);
        expect(setCookie).toMatch(/Max-Age=31536000/);
        expect(setCookie).toMatch(/HttpOnly/i);
        const cookie = 'adult=1';
        const seriesPage = await server.request(`/comics/${adult.slug}/`, { site, headers: { cookie } });
        expect(seriesPage.text).not.toContain('data-age-gate');
        expect(seriesPage.text).toContain('data-chapter-list');
        expect(seriesPage.text).toContain('class="cover" src=');
        expect(seriesPage.headers['cache-control']).toMatch(/private/);
        const reader = await server.request(adult.reader, { site, headers: { cookie } });
        expect(reader.text).not.toContain('data-age-gate');
        expect(reader.text).toContain(CHAPTER_PAGES_PREFIX);
        expect(reader.headers['cache-control']).toMatch(/private/);
      });
    }

    it('a signed-in reader is gated the same way until the cookie is set', async () => {
      const r = await createReader(server, { name: 'Vera' });
      expect((await server.request(`/comics/${adult.slug}/`, { headers: { cookie: r.cookie } })).text).toContain('data-age-gate');
      expect((await server.request(`/comics/${adult.slug}/`, { headers: { cookie: `${r.cookie}; adult=1` } })).text).not.toContain('data-age-gate');
    });

    it('other series have no gate', async () => {
      const page = await server.request(`/comics/${plain.slug}/`);
      expect(page.text).not.toContain('data-age-gate');
      expect(page.text).toContain('data-chapter-list');
      expect((await server.request(plain.reader)).text).not.toContain('data-age-gate');
    });

    it('an off-site next and a cross-site post are refused', async () => {
      const off = await confirm('https://evil.example/');
      expect(off.status).toBe(303);
      expect(off.headers.location).toBe('/');
      const cross = await server.request('/prefs/adult/', { method: 'POST', body: 'next=/', headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example' } });
      expect(cross.status).toBe(403);
      expect(String(cross.headers['set-cookie'] ?? '')).not.toContain('adult=');
    });
  });
}
