/**
 * RSS feeds over real HTTP on both dialects and both sites: /feeds/latest.xml and
 * /feeds/comics/{slug}.xml. Well-formed, escaped XML; absolute links on the requesting host;
 * atom:link rel=self; localized channel text; at most 50 items, newest first; the site's
 * language only; unknown, BLOCKED and REMOVED series 404; and the <link rel=alternate> tags.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { leakIn, message, selectedDialects, useServer, withDb } from './harness';
import { DEMO } from '@db/seed/index';

/**
 * A small well-formedness check (no XML library in the project): every tag closes in order,
 * text has no raw '<' and every '&' starts a predefined or numeric entity.
 */
function wellFormed(xml: string): string | null {
  const body = xml.replace(/^<\?xml [^?]*\?>\s*/, '');
  const stack: string[] = [];
  const re = /<(\/?)([A-Za-z_][\w:.-]*)((?:\s+[\w:.-]+="[^"<]*")*)\s*(\/?)>|([^<]+)|(<)/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(body))) {
    if (m[6]) return `stray '<' at ${m.index}`;
    const text = m[5] ?? m[3] ?? '';
    const badAmp = /&(?!(amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);)/.exec(text);
    if (badAmp) return `bare '&' near ${text.slice(Math.max(0, badAmp.index - 20), badAmp.index + 20)}`;
    if (m[5] !== undefined) {
      if (stack.length === 0 && m[5].trim()) return 'text outside the root element';
      continue;
    }
    if (m[4]) continue;
    if (m[1]) {
      if (stack.pop() !== m[2]) return `</${m[2]}> closes the wrong element`;
    } else stack.push(m[2]!);
  }
  return stack.length ? `unclosed <${stack.join('>, <')}>` : null;
}

const tags = (xml: string, name: string) => [...xml.matchAll(new RegExp(`<${name}>([\\s\\S]*?)</${name}>`, 'g'))].map((m) => m[1]!);
const items = (xml: string) => [...xml.matchAll(/<item>([\s\S]*?)<\/item>/g)].map((m) => m[1]!);

for (const dialect of selectedDialects()) {
  describe(`RSS feeds (${dialect})`, () => {
    const server = useServer(dialect);
    let ampersand: { slug: string; name: string };

    beforeAll(async () => {
      ampersand = await withDb(server, (db) => db.selectFrom('series').select(['slug', 'name']).where('name', 'like', '%&%').where('state', '=', 'ACTIVE').orderBy('id').executeTakeFirstOrThrow());
    });

    for (const site of ['en', 'br'] as const) {
      const locale = site === 'br' ? 'pt-BR' : 'en';

      it(`${site}: the site feed is valid RSS 2.0 with the newest 50 chapters of the site's language`, async () => {
        const res = await server.request('/feeds/latest.xml', { site });
        expect(res.status).toBe(200);
        expect(res.headers['content-type']).toBe('application/rss+xml; charset=utf-8');
        expect(res.headers['cache-control']).toBe('public, max-age=300, s-maxage=600');
        const xml = res.text;
        expect(wellFormed(xml)).toBeNull();
        expect(xml).toContain('<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom">');
        expect(xml).toContain(`<atom:link href="${server.origin(site)}/feeds/latest.xml" rel="self" type="application/rss+xml"/>`);
        expect(tags(xml, 'title')[0]).toBe((message(locale, 'feed.site.title', { site: 'Inkpass' })).replace(/&/g, '&amp;'));
        expect(tags(xml, 'language')[0]).toBe(locale);
        const list = items(xml);
        expect(list.length).toBeGreaterThan(10);
        expect(list.length).toBeLessThanOrEqual(50);
        const dates = list.map((i) => Date.parse(tags(i, 'pubDate')[0]!));
        expect(dates.every((d) => Number.isFinite(d) && d <= Date.now())).toBe(true);
        expect(dates).toEqual([...dates].sort((a, b) => b - a));
        for (const i of list) {
          const link = tags(i, 'link')[0]!;
          expect(link.startsWith(`${server.origin(site)}/read/`)).toBe(true);
          if (site === 'br') expect(link).toContain('/capitulo-portugues-');
          else expect(link).toMatch(/\/(chapter|episode)-[\d-]+\/$/);
          expect(/<guid isPermaLink="false">(EPI-[^<]+)<\/guid>/.exec(i)?.[1]).toMatch(/^EPI-/);
        }
      });

      it(`${site}: a series feed lists that series only, and names with '&' are escaped`, async () => {
        const res = await server.request(`/feeds/comics/${DEMO.readerManga}.xml`, { site });
        expect(res.status).toBe(200);
        const xml = res.text;
        expect(wellFormed(xml)).toBeNull();
        expect(xml).toContain(`<atom:link href="${server.origin(site)}/feeds/comics/${DEMO.readerManga}.xml" rel="self"`);
        expect(tags(xml, 'link')[0]).toBe(`${server.origin(site)}/comics/${DEMO.readerManga}/`);
        const list = items(xml);
        expect(list.length).toBeGreaterThan(0);
        for (const i of list) expect(tags(i, 'link')[0]!.startsWith(`${server.origin(site)}/read/${DEMO.readerManga}/`)).toBe(true);

        const amp = await server.request(`/feeds/comics/${ampersand.slug}.xml`, { site });
        expect(amp.status).toBe(200);
        expect(wellFormed(amp.text)).toBeNull();
        expect(amp.text).toContain(`<title>${ampersand.name.replace(/&/g, '&amp;')} · Inkpass</title>`);
        expect(amp.text).not.toContain(ampersand.name);
      });

      it(`${site}: unknown, BLOCKED, REMOVED and malformed series feeds are 404 without a leak`, async () => {
        for (const path of ['/feeds/comics/no-such-series.xml', `/feeds/comics/${DEMO.blocked}.xml`, `/feeds/comics/${DEMO.removed}.xml`, '/feeds/comics/..%2f..%2fpackage.json', `/feeds/comics/${'x'.repeat(5000)}.xml`, '/feeds/comics/%3Cscript%3E.xml', '/feeds/other.xml', '/feeds/latest.rss', '/feeds/']) {
          const res = await server.request(path, { site });
          expect(res.status, path.slice(0, 80)).toBe(404);
          expect(leakIn(res.text), path.slice(0, 80)).toBeNull();
        }
      });
    }

    it('answers the slashed form too', async () => {
      const res = await server.request('/feeds/latest.xml/');
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/rss/);
    });

    it('is linked from the home page, the series page and the footer', async () => {
      for (const site of ['en', 'br'] as const) {
        const home = (await server.request('/', { site })).text;
        expect(home).toMatch(/<link rel="alternate" type="application\/rss\+xml" title="[^"]+" href="\/feeds\/latest\.xml">/);
        expect(home).toContain(`<a href="/feeds/latest.xml" type="application/rss+xml">${message(site === 'br' ? 'pt-BR' : 'en', 'feed.link')}</a>`);
        const series = (await server.request(`/comics/${DEMO.readerManga}/`, { site })).text;
        expect(series).toContain(`type="application/rss+xml"`);
        expect(series).toContain(`href="/feeds/comics/${DEMO.readerManga}.xml"`);
      }
    });
  });
}
