/**
 * Full-text search suggestions over real HTTP (GET /search/suggest/), both dialects:
 * accent folding, credits / tags / keywords, prefix matching, ranking, site filters, BLOCKED
 * series, and hostile input that must never give a 5xx.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { selectedDialects, useServer, type ServerClient } from './harness';
import { DEMO } from '@db/seed/index';

type Tuple = [string, string[], string[], string[], string[], number[][]];

interface Known {
  portuguese: { slug: string; name: string };
  blade: { slug: string; name: string; id: number };
  blocked: { slug: string; name: string };
  /** An author of Blade of the Quiet Moon. */
  author: string;
  /** A tag (English name) and the slugs tagged with it on site 1. */
  tag: { name: string; slugs: string[] };
}

async function knownFrom(server: ServerClient): Promise<Known> {
  const { createDb } = await import('~/server/db');
  const { db } = await createDb(server.databaseUrl);
  try {
    const one = (slug: string) => db.selectFrom('series').select(['id', 'slug', 'name']).where('slug', '=', slug).executeTakeFirstOrThrow();
    const blade = await one(DEMO.decimal);
    const author = await db.selectFrom('series_people').innerJoin('people', 'people.id', 'series_people.person_id')
      .select('people.name').where('series_people.series_id', '=', blade.id).where('series_people.role', '=', 'author').executeTakeFirstOrThrow();
    const tag = await db.selectFrom('tags').select(['id', 'name']).where('slug', '=', 'horror').executeTakeFirstOrThrow();
    const tagged = await db.selectFrom('series_tags').innerJoin('series', 'series.id', 'series_tags.series_id')
      .select('series.slug').where('series_tags.tag_id', '=', tag.id).where('series.state', 'not in', ['BLOCKED', 'DRAFT'])
      .where((eb) => eb.exists(eb.selectFrom('series_languages').select('series_id').whereRef('series_languages.series_id', '=', 'series.id').where('site_id', '=', 1)))
      .execute();
    return {
      portuguese: await one(DEMO.portugueseOnly),
      blade: { ...blade, id: Number(blade.id) },
      blocked: await one(DEMO.blocked),
      author: author.name,
      tag: { name: tag.name, slugs: tagged.map((t) => t.slug) },
    };
  } finally {
    await db.destroy();
  }
}

const slugOf = (link: string) => /\/comics\/([^/]+)\/$/.exec(new URL(link).pathname)?.[1] ?? '';

for (const dialect of selectedDialects()) {
  describe(`search suggestions (${dialect})`, () => {
    const server = useServer(dialect);
    let known: Known;
    beforeAll(async () => {
      known = await knownFrom(server);
    });

    async function suggest(query: string, site: 'en' | 'br' = 'en'): Promise<{ status: number; body: Tuple; headers: Record<string, string> }> {
      const res = await server.request(`/search/suggest/?cover=true&${query}`, { site });
      expect(res.status, `${query}: ${res.text.slice(0, 200)}`).toBeLessThan(500);
      expect(res.headers['content-type']).toMatch(/application\/json/);
      return { status: res.status, body: res.json<Tuple>(), headers: res.headers };
    }

    it('answers the tuple with absolute links, thumbnails and site ids', async () => {
      const { status, body, headers } = await suggest(`q=blad&site_id=1`);
      expect(status).toBe(200);
      expect(headers['cache-control']).toBe('public, max-age=60, s-maxage=300');
      const [term, names, excerpts, links, thumbs, sites] = body;
      expect(term).toBe('blad');
      expect(names[0]).toBe(known.blade.name);
      expect(excerpts).toHaveLength(names.length);
      expect(links[0]).toBe(`${server.origin('en')}/comics/${known.blade.slug}/`);
      expect(thumbs[0]).toMatch(new RegExp(`^${server.origin('en')}/media/.+`));
      expect(sites[0]).toEqual(expect.arrayContaining([1]));
      expect(names.length).toBeLessThanOrEqual(8);
    });

    it('gives empty thumbnails without cover=true', async () => {
      const res = await server.request('/search/suggest/?q=blad&site_id=1');
      expect(res.status).toBe(200);
      expect(res.json<Tuple>()[4].every((t) => t === '')).toBe(true);
    });

    it('also answers without the trailing slash', async () => {
      const res = await server.request('/search/suggest?cover=true&q=blad&site_id=1');
      expect(res.status).toBe(200);
      expect(res.json<Tuple>()[1]).toContain(known.blade.name);
    });

    it('"coracao" finds the Portuguese series on site 3 only', async () => {
      const br = await suggest('q=coracao&site_id=3', 'br');
      expect(br.status).toBe(200);
      expect(br.body[1]).toContain(known.portuguese.name);
      expect(br.body[5][br.body[1].indexOf(known.portuguese.name)]).toEqual([3]);
      const upper = await suggest(`q=${encodeURIComponent('CORAÇÃO')}&site_id=3`, 'br');
      expect(upper.body[1]).toContain(known.portuguese.name);
      const en = await suggest('q=coracao&site_id=1');
      expect(en.body[1]).not.toContain(known.portuguese.name);
      const all = await suggest('q=coracao&show_all_sites=true');
      expect(all.body[1]).toContain(known.portuguese.name);
    });

    it("an author's name finds their series", async () => {
      const { status, body } = await suggest(`q=${encodeURIComponent(known.author)}&show_all_sites=true`);
      expect(status).toBe(200);
      expect(body[1]).toContain(known.blade.name);
    });

    it('a tag name finds tagged series', async () => {
      const { status, body } = await suggest(`q=${encodeURIComponent(known.tag.name)}&site_id=1`);
      expect(status).toBe(200);
      expect(known.tag.slugs.length).toBeGreaterThan(0);
      for (const link of body[3]) expect(known.tag.slugs).toContain(slugOf(link));
      const pt = await suggest('q=terror&site_id=1');
      expect(pt.status).toBe(200);
    });

    it('ranks the exact name first', async () => {
      const { body } = await suggest(`q=${encodeURIComponent(known.blade.name.toUpperCase())}&show_all_sites=true`);
      expect(body[1][0]).toBe(known.blade.name);
    });

    it('filters by site', async () => {
      const en = await suggest('q=the&site_id=1');
      const br = await suggest('q=the&site_id=3', 'br');
      expect(en.body[5].every((s) => s.includes(1))).toBe(true);
      expect(br.body[5].every((s) => s.includes(3))).toBe(true);
    });

    it('never shows blocked series', async () => {
      const { body } = await suggest(`q=${encodeURIComponent(known.blocked.name)}&show_all_sites=true`);
      expect(body[1]).not.toContain(known.blocked.name);
      expect(body[3].map(slugOf)).not.toContain(known.blocked.slug);
    });

    it('404s with empty arrays for short, empty and unmatched queries', async () => {
      for (const q of ['q=', 'q=a', `q=${encodeURIComponent(' é ')}`, '', 'q=qqzzxx', 'q=%22%2A']) {
        const { status, body } = await suggest(`${q}&site_id=1`);
        expect(status, q).toBe(404);
        expect(body.slice(1), q).toEqual([[], [], [], [], []]);
      }
    });

    it('survives hostile input without a 5xx', async () => {
      const hostile = [
        'x'.repeat(10_240), 'blad '.repeat(2048), '"', '*', '(', ':', 'NEAR', 'NEAR(blade moon)', '-blade', "'", '\\', '"blade"*',
        "blade' OR 1=1 --", "'; drop table series; --", 'blade:*', 'a & b | !c', '{}[]^~', 'AND OR NOT', '\u0000', '%', '_', '😀😀',
      ];
      for (const q of hostile) await suggest(`q=${encodeURIComponent(q)}&site_id=1`);
      for (const extra of ['site_id=7', 'site_id=-1', 'site_id=abc', `site_id=${'9'.repeat(400)}`, 'show_all_sites=maybe', 'site_id=1&site_id=3', 'cover=yes']) {
        await suggest(`q=blad&${extra}`);
      }
      const long = await suggest(`q=${'blade'.repeat(3000)}`);
      expect(long.body[0].length).toBeLessThanOrEqual(100);
      await suggest('q=%ED%A0%80blade');
    });

    it('answers the same again for a repeated query (served from the suggestions cache) and keeps the term as sent', async () => {
      const a = await suggest('q=Blad&site_id=1');
      const b = await suggest(`q=${encodeURIComponent('  BLAD ')}&site_id=1`);
      expect(a.status).toBe(200);
      expect(b.body.slice(1)).toEqual(a.body.slice(1));
      expect(a.body[0]).toBe('Blad');
      expect(b.body[0]).toBe('BLAD');
      // The cache never mixes sites or hosts.
      const br = await suggest('q=Blad&site_id=1', 'br');
      expect(br.body[3][0]).toBe(`${server.origin('br')}/comics/${known.blade.slug}/`);
      expect(br.body[4][0]).toMatch(new RegExp(`^${server.origin('br')}/media/`));
      const pt = await suggest('q=coracao&site_id=3', 'br');
      const en = await suggest('q=coracao&site_id=1');
      expect(pt.status).toBe(200);
      expect(en.body[1]).not.toContain(known.portuguese.name);
    });
  });

  describe(`search overlay wiring (${dialect})`, () => {
    const server = useServer(dialect);

    async function headerConfig(site: 'en' | 'br') {
      const page = await server.request('/', { site });
      expect(page.status).toBe(200);
      const m = /<script type="application\/json" id="search-overlay-config">([\s\S]*?)<\/script>/.exec(page.text);
      expect(m, 'the header carries the overlay config').not.toBeNull();
      return { html: page.text, config: JSON.parse(m![1]!) as { site: number; locale: string; messages: Record<string, string> } };
    }

    it('keeps the plain GET form and hands the island translated strings for each site', async () => {
      const en = await headerConfig('en');
      expect(en.html).toMatch(/<form class="header-search" role="search" action="\/comics\/" method="get">/);
      expect(en.config.site).toBe(1);
      expect(en.config.locale).toBe('en');
      expect(en.config.messages.languageEn).toBe('English');
      expect(en.config.messages.resultsOther).toBe('{count} suggestions');
      const br = await headerConfig('br');
      expect(br.config.site).toBe(3);
      expect(br.config.locale).toBe('pt-BR');
      expect(br.config.messages.languagePt).toBe('Português do Brasil');
      expect(br.config.messages.noResults).toMatch(/^Nenhuma série encontrada/);
    });

    it('ships no React with the page: the header script only imports the island on demand', async () => {
      const { html } = await headerConfig('en');
      // Nothing the page loads or announces for preloading holds React.
      const srcs = [...html.matchAll(/<script[^>]+src="([^"]+)"|<link rel="modulepreload" href="([^"]+)"/g)].map((m) => (m[1] ?? m[2])!);
      expect(srcs.length).toBeGreaterThan(0);
      let island: string | null = null;
      for (const src of srcs) {
        const js = (await server.request(src)).text;
        expect(js, src).not.toContain('react.transitional.element');
        // The bundler may quote the path with backticks (Vite 8) or double quotes.
        island ??= /import\([`"']\.\/(overlay-entry\.[\w-]+\.js)[`"']\)/.exec(js)?.[1] ?? null;
      }
      expect(island, 'a dynamic import of the overlay').not.toBeNull();
      const chunk = await server.request(`/_astro/${island}`);
      expect(chunk.status).toBe(200);
      // React itself arrives with the island (directly or through a chunk it imports).
      const imports = [...chunk.text.matchAll(/from"\.\/([\w.-]+\.js)"/g)].map((m) => m[1]!);
      const bodies = [chunk.text, ...(await Promise.all(imports.map(async (f) => (await server.request(`/_astro/${f}`)).text)))];
      expect(bodies.some((b) => b.includes('react.transitional.element'))).toBe(true);
    });

    it('has no header search on the listing, which has its own search box', async () => {
      const page = await server.request('/comics/');
      expect(page.text).not.toContain('id="search-overlay-config"');
    });
  });
}
