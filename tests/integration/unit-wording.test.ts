/**
 * Webtoons are read in episodes, everything else in chapters, on both sites: the reader page of a
 * locked chapter (its notice and chapter navigation) and the unlock call's refusal, which the
 * unlock dialog shows, use the series' unit.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { appCheckHeader, createReader, htmlText, message, selectedDialects, useServer, withDb, type Reader } from './harness';

for (const dialect of selectedDialects()) {
  describe(`chapter and episode wording (${dialect})`, () => {
    const server = useServer(dialect);
    let reader: Reader;
    const paid: Record<'webtoon' | 'manga', { e4pid: string; path: string }> = {} as never;

    beforeAll(async () => {
      reader = await createReader(server, { name: 'Ines' });
      for (const kind of ['webtoon', 'manga'] as const) {
        const candidates = await withDb(server, (db) => db.selectFrom('series').select(['e4pid', 'slug', 'format'])
          .where('format', '=', kind === 'webtoon' ? 'WEBTOON' : 'MANGA').where('adult', '=', 0).where('state', '=', 'ACTIVE')
          .where('geoblocks', 'in', ['[]', '']).orderBy('id').execute());
        // A chapter the pricing rule sells to an anonymous visitor (the public episodes API says which).
        for (const c of candidates) {
          const body = (await server.request(`/api/comic.public/${c.e4pid}/episodes?language=en`)).json<{ episodes: { id: string; state: string; link: string }[] }>();
          const ep = body.episodes.find((e) => e.state === 'paid');
          if (ep) { paid[kind] = { e4pid: ep.id, path: new URL(ep.link).pathname }; break; }
        }
        expect(paid[kind], `a ${kind} with a paid chapter`).toBeDefined();
      }
    });

    for (const [site, locale] of [['en', 'en'], ['br', 'pt-BR']] as const) {
      it(`a webtoon's reader says episode, a manga's chapter (${site})`, async () => {
        const webtoon = htmlText((await server.request(paid.webtoon.path, { site })).text);
        const manga = htmlText((await server.request(paid.manga.path, { site })).text);
        expect(webtoon).toContain(message(locale, 'reader.locked.episodeTitle'));
        expect(webtoon).toContain(message(locale, 'reader.episodeList'));
        expect(webtoon).not.toContain(message(locale, 'reader.locked.title'));
        expect(manga).toContain(message(locale, 'reader.locked.title'));
        expect(manga).toContain(message(locale, 'reader.chapterList'));
        expect(manga).not.toContain(message(locale, 'reader.locked.episodeTitle'));
      });

      it(`the unlock dialog's refusal names the unit (${site})`, async () => {
        const redeem = async (e4pid: string) => server.request('/api/redeem/', {
          site, method: 'POST', body: `content=${e4pid}`,
          headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.origin(site), 'sec-fetch-site': 'same-origin', cookie: reader.cookie, ...(await appCheckHeader(server, reader, site)) },
        });
        const webtoon = await redeem(paid.webtoon.e4pid);
        expect(webtoon.status).toBe(402);
        expect(webtoon.json<{ detail: string }>().detail).toMatch(locale === 'en' ? /this episode/ : /este episódio/);
        const manga = await redeem(paid.manga.e4pid);
        expect(manga.status).toBe(402);
        expect(manga.json<{ detail: string }>().detail).toMatch(locale === 'en' ? /this chapter/ : /este capítulo/);
        // The no-JavaScript unlock's notice on the reader page says the same.
        const notice = htmlText((await server.request(`${paid.webtoon.path}?unlock=unavailable`, { site, headers: { cookie: reader.cookie } })).text);
        expect(notice).toContain(message(locale, 'wallet.error.unavailableEpisode'));
      });
    }
  });
}
