/**
 * A series on the other language's site (docs/decisions.md): an English-only series answers 404
 * on br. (and a Portuguese-only one on the English host), so the language switch, which asks
 * the other host with HEAD, falls back to that host's home page. A series in both languages
 * answers 200 on both, and the other host may read the answer (CORS for the sibling origin).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { message, selectedDialects, useServer, withDb } from './harness';
import { DEMO } from '@db/seed/index';

for (const dialect of selectedDialects()) {
  describe(`series on the other language's site (${dialect})`, () => {
    const server = useServer(dialect);
    let englishOnly: string;

    beforeAll(async () => {
      englishOnly = await withDb(server, async (db) => {
        const row = await db
          .selectFrom('series')
          .select('slug')
          .where('state', '=', 'ACTIVE')
          .where((eb) => eb.exists(eb.selectFrom('series_languages').select('series_id').whereRef('series_languages.series_id', '=', 'series.id').where('site_id', '=', 1)))
          .where((eb) => eb.not(eb.exists(eb.selectFrom('series_languages').select('series_id').whereRef('series_languages.series_id', '=', 'series.id').where('site_id', '=', 3))))
          .orderBy('id')
          .executeTakeFirstOrThrow();
        return row.slug;
      });
    });

    it('answers an English-only series 404 on br. and 200 on the English host', async () => {
      const en = await server.request(`/comics/${englishOnly}/`);
      expect(en.status).toBe(200);
      const br = await server.request(`/comics/${englishOnly}/`, { site: 'br' });
      expect(br.status).toBe(404);
      expect(br.text).toContain('lang="pt-BR"');
      expect(br.text).not.toContain(`/read/${englishOnly}/`);
      // What the switch on the English page asks: a HEAD from the English origin, readable there.
      const head = await server.request(`/comics/${englishOnly}/`, { site: 'br', method: 'HEAD', headers: { origin: server.origin('en') } });
      expect(head.status).toBe(404);
      expect(head.headers['access-control-allow-origin']).toBe(server.origin('en'));
    });

    it('answers a Portuguese-only series 404 on the English host, and a series in both languages 200 on both', async () => {
      expect((await server.request(`/comics/${DEMO.portugueseOnly}/`, { site: 'br' })).status).toBe(200);
      const en = await server.request(`/comics/${DEMO.portugueseOnly}/`);
      expect(en.status).toBe(404);
      expect(en.text).toContain(message('en', 'error.notFound.title'));
      for (const site of ['en', 'br'] as const) {
        const other = site === 'en' ? 'br' : 'en';
        const head = await server.request(`/comics/${DEMO.readerManga}/`, { site, method: 'HEAD', headers: { origin: server.origin(other) } });
        expect(head.status).toBe(200);
        expect(head.headers['access-control-allow-origin']).toBe(server.origin(other));
      }
    });
  });
}
