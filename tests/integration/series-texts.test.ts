/**
 * Series texts per language over real HTTP, both dialects: the Portuguese site shows a series'
 * Portuguese name, description, excerpt, update text and chapter name format (series page, its
 * meta tags, listing, schedule, suggestions), the English site the English ones, and a series
 * whose translation lacks a field falls back to the original. Suggestions tolerate typos in both
 * languages.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { htmlText, selectedDialects, startExtraServer, useServer, withDb } from './harness';
import { DEMO } from '@db/seed/index';

type Tuple = [string, string[], string[], string[], string[], number[][]];

const VILLAINESS = { en: 'The Villainess Retires Early', pt: 'A Vilã se Aposenta Cedo' };
const ROUND_SERIES = 'midnight-volleyball-club';

interface Texts { name: string; description: string; excerpt: string; update_text: string | null; pt: { name: string; description: string; excerpt: string; update_text: string | null } }

const metaContent = (html: string, attr: string, key: string) => new RegExp(`<meta ${attr}="${key}" content="([^"]*)"`).exec(html)?.[1] ?? null;
const decode = (s: string) => s.replace(/&#39;/g, "'").replace(/&quot;/g, '"').replace(/&amp;/g, '&');

for (const dialect of selectedDialects()) {
  describe(`series texts per language (${dialect})`, () => {
    const server = useServer(dialect);
    let villainess: Texts;

    beforeAll(async () => {
      villainess = await withDb(server, async (db) => {
        const s = await db.selectFrom('series').select(['id', 'name', 'description', 'excerpt', 'update_text']).where('slug', '=', DEMO.longList).executeTakeFirstOrThrow();
        const t = await db.selectFrom('series_texts').select(['name', 'description', 'excerpt', 'update_text']).where('series_id', '=', s.id).where('language', '=', 'pt-br').executeTakeFirstOrThrow();
        return { ...s, pt: { name: t.name!, description: t.description!, excerpt: t.excerpt!, update_text: t.update_text } };
      });
      expect(villainess.name).toBe(VILLAINESS.en);
      expect(villainess.pt.name).toBe(VILLAINESS.pt);
    });

    it('the series page shows the Portuguese texts on the Portuguese site and the English ones on the English site', async () => {
      const br = await server.request(`/comics/${DEMO.longList}/`, { site: 'br' });
      expect(br.status).toBe(200);
      const brText = htmlText(br.text);
      expect(brText).toContain(VILLAINESS.pt);
      expect(brText).toContain(villainess.pt.description);
      expect(brText).not.toContain(villainess.description);
      if (villainess.pt.update_text) expect(brText).toContain(villainess.pt.update_text);
      expect(decode(/<title>([^<]*)<\/title>/.exec(br.text)![1]!)).toContain(VILLAINESS.pt);
      expect(decode(metaContent(br.text, 'property', 'og:title') ?? '')).toContain(VILLAINESS.pt);
      expect(decode(metaContent(br.text, 'name', 'description') ?? '')).toContain(villainess.pt.description.slice(0, 60));

      const en = await server.request(`/comics/${DEMO.longList}/`, { site: 'en' });
      const enText = htmlText(en.text);
      expect(enText).toContain(VILLAINESS.en);
      expect(enText).toContain(villainess.description);
      expect(enText).not.toContain(villainess.pt.description);
      expect(decode(/<title>([^<]*)<\/title>/.exec(en.text)![1]!)).toContain(VILLAINESS.en);
    });

    it('names chapters with the translated format ("Round 5" / "Rodada 5")', async () => {
      const br = htmlText((await server.request(`/comics/${ROUND_SERIES}/`, { site: 'br' })).text);
      expect(br).toMatch(/Rodada \d+/);
      expect(br).not.toMatch(/Round \d+/);
      expect(br).toContain('Clube de Vôlei da Meia-Noite');
      const en = htmlText((await server.request(`/comics/${ROUND_SERIES}/`, { site: 'en' })).text);
      expect(en).toMatch(/Round \d+/);
      expect(en).toContain('Midnight Volleyball Club');
    });

    it('the listing shows the name of the site\'s language', async () => {
      const br = htmlText((await server.request('/comics/?q=aposenta', { site: 'br' })).text);
      expect(br).toContain(VILLAINESS.pt);
      expect(br).not.toContain(VILLAINESS.en);
      const en = htmlText((await server.request('/comics/?q=villainess', { site: 'en' })).text);
      expect(en).toContain(VILLAINESS.en);
      expect(en).not.toContain(VILLAINESS.pt);
    });

    it('the schedule shows Portuguese names on the Portuguese site', async () => {
      // The villainess is a daily series: it is on every day of the schedule.
      const br = htmlText((await server.request('/schedule/', { site: 'br' })).text);
      expect(br).toContain(VILLAINESS.pt);
      expect(br).not.toContain(VILLAINESS.en);
      const en = htmlText((await server.request('/schedule/', { site: 'en' })).text);
      expect(en).toContain(VILLAINESS.en);
    });

    async function suggest(query: string, site: 'en' | 'br', headers: Record<string, string> = {}): Promise<Tuple> {
      const res = await server.request(`/search/suggest/?${query}`, { site, headers });
      expect(res.status, query).toBeLessThan(500);
      return res.json<Tuple>();
    }

    it('suggestions on the Portuguese site show the Portuguese name and excerpt, found by either name', async () => {
      for (const q of ['vila%20se%20aposenta', 'villainess%20retires']) {
        const body = await suggest(`q=${q}`, 'br');
        expect(body[1][0], q).toBe(VILLAINESS.pt);
        expect(body[2][0], q).toBe(villainess.pt.excerpt);
      }
      const en = await suggest('q=villainess%20retires', 'en');
      expect(en[1][0]).toBe(VILLAINESS.en);
      expect(en[2][0]).toBe(villainess.excerpt);
    });

    it('suggestions tolerate typos in both languages', async () => {
      expect((await suggest('q=villanes', 'en'))[1]).toContain(VILLAINESS.en);
      expect((await suggest('q=the%20villanes%20retires', 'en'))[1][0]).toBe(VILLAINESS.en);
      expect((await suggest('q=aposnta', 'br'))[1][0]).toBe(VILLAINESS.pt);
      expect((await suggest('q=corasao%20de%20aco', 'br'))[1][0]).toBe('Coração de Aço');
    });

    it('suggestions rank the exact name first and never show removed, blocked or region-blocked series', async () => {
      const exact = await suggest(`q=${encodeURIComponent('Harbor Lights')}&show_all_sites=true`, 'en');
      expect(exact[1][0]).toBe('Harbor Lights');
      const names = await withDb(server, (db) => db.selectFrom('series').select(['slug', 'name']).where('slug', 'in', [DEMO.removed, DEMO.blocked, DEMO.geoblockedJp]).execute());
      const nameOf = (slug: string) => names.find((n) => n.slug === slug)!.name;
      for (const slug of [DEMO.removed, DEMO.blocked]) {
        const body = await suggest(`q=${encodeURIComponent(nameOf(slug))}&show_all_sites=true`, 'en');
        expect(body[3].some((l) => l.includes(`/comics/${slug}/`)), slug).toBe(false);
      }
      const jp = nameOf(DEMO.geoblockedJp);
      const fromJp = await suggest(`q=${encodeURIComponent(jp)}&site_id=1`, 'en', { 'cf-ipcountry': 'JP' });
      expect(fromJp[1]).not.toContain(jp);
      const fromBr = await suggest(`q=${encodeURIComponent(jp)}&site_id=1`, 'en', { 'cf-ipcountry': 'BR' });
      expect(fromBr[1]).toContain(jp);
    });

    it('a field without a translation falls back to the original', async () => {
      const slug = 'the-paper-crane-pact';
      const saved = await withDb(server, async (db) => {
        const s = await db.selectFrom('series').select(['id', 'description']).where('slug', '=', slug).executeTakeFirstOrThrow();
        const t = await db.selectFrom('series_texts').selectAll().where('series_id', '=', s.id).where('language', '=', 'pt-br').executeTakeFirstOrThrow();
        await db.updateTable('series_texts').set({ description: null }).where('series_id', '=', s.id).where('language', '=', 'pt-br').execute();
        return { ...t, original: s.description };
      });
      // A fresh process: the running server keeps its translations for a minute.
      const extra = await startExtraServer({ dialect, databaseUrl: server.databaseUrl });
      try {
        const br = htmlText((await extra.request(`/comics/${slug}/`, { site: 'br' })).text);
        expect(br).toContain(saved.name!);
        expect(br).toContain(saved.original);
        expect(br).not.toContain(saved.description!);
      } finally {
        await extra.stop();
        await withDb(server, (db) => db.updateTable('series_texts').set({ description: saved.description }).where('series_id', '=', saved.series_id).where('language', '=', 'pt-br').execute());
      }
    }, 90_000);
  });
}
