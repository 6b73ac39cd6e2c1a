/**
 * The one continue-reading rule as a reader meets it (docs/library-progress.md "Continue
 * reading"): a reader who finished chapter 1 and started nothing else is sent to chapter 2, named,
 * by the series page, the history page, the home shelf, the favorites page and both APIs; on both
 * sites, with episodes for a webtoon.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createReader, htmlText, message, selectedDialects, useServer, withDb, type Reader } from './harness';
import { readerPath } from '~/lib/paths';
import { DEMO } from '@db/seed/index';
import { createT } from '~/lib/i18n';
import { displayChapterName, type Format } from '~/features/catalog';

interface Sample { e4pid: string; slug: string; format: Format; chapter_name_format: string | null; chapters: { e4pid: string; number: number; path: string }[] }

/** The `<a>` carrying `marker` (an attribute), its href and its text; null when absent. */
function link(html: string, marker: string): { href: string; text: string } | null {
  const m = new RegExp(`<a [^>]*${marker}[^>]*>(.*?)</a>`, 's').exec(html);
  if (!m) return null;
  return { href: /href="([^"]*)"/.exec(m[0])![1]!.replace(/&amp;/g, '&'), text: htmlText(m[1]!) };
}

for (const dialect of selectedDialects()) {
  describe(`continue reading (${dialect})`, () => {
    const server = useServer(dialect);

    /** A series with three released English chapters, the first free, not adult, shown everywhere. */
    const sample = async (webtoon: boolean): Promise<Sample> => {
      const now = Math.floor(Date.now() / 1000);
      const rows = await withDb(server, (db) => db.selectFrom('series').innerJoin('chapters', 'chapters.series_id', 'series.id')
        .select(['series.id', 'series.e4pid', 'series.slug', 'series.format', 'series.chapter_name_format', 'chapters.e4pid as chapter', 'chapters.number', 'chapters.original_price'])
        .where('series.state', '=', 'ACTIVE').where('series.adult', '=', 0).where('series.geoblocks', 'in', ['[]', ''])
        .where('series.format', webtoon ? '=' : '<>', 'WEBTOON')
        .where('chapters.language', '=', 'en').where('chapters.released_at', '<=', now)
        .where((eb) => eb.or([eb('chapters.expired_at', 'is', null), eb('chapters.expired_at', '>', now)]))
        .orderBy('series.id').orderBy('chapters.number').execute());
      const by = new Map<number, typeof rows>();
      for (const r of rows) by.set(Number(r.id), [...(by.get(Number(r.id)) ?? []), r]);
      const [, list] = [...by].find(([, l]) => l.length >= 3 && Number(l[0]!.original_price) === 0)!;
      const s = list[0]!;
      return {
        e4pid: s.e4pid, slug: s.slug, format: s.format, chapter_name_format: s.chapter_name_format,
        chapters: list.slice(0, 3).map((c) => ({ e4pid: c.chapter, number: Number(c.number), path: readerPath(s, { e4pid: c.chapter, number: Number(c.number), language: 'en' }) })),
      };
    };

    /** Reads a chapter the way the reader page does: its token, then a report (to its end unless `completion` says less). */
    const finish = async (r: Reader, path: string, e4pid: string, completion = 100) => {
      const page = await server.request(path, { headers: { cookie: r.cookie } });
      expect(page.status).toBe(200);
      const token = /data-progress-token="([^"]+)"/.exec(page.text)![1]!;
      const res = await server.request('/api/progress/', {
        method: 'POST', body: JSON.stringify({ e4pid, completion, completed: completion === 100, progress_token: token, seq: 1 }),
        headers: { 'content-type': 'application/json', origin: server.origin(), 'sec-fetch-site': 'same-origin', cookie: r.cookie },
      });
      expect(res.status, res.text).toBe(200);
    };
    const favorite = async (r: Reader, e4pid: string) => {
      const res = await server.request(`/api/favorites/${e4pid}/`, { method: 'POST', headers: { origin: server.origin(), 'sec-fetch-site': 'same-origin', cookie: r.cookie } });
      expect(res.status).toBe(200);
    };

    for (const webtoon of [false, true]) {
      describe(webtoon ? 'a webtoon' : 'a manga or comic', () => {
        let reader: Reader;
        let s: Sample;
        beforeAll(async () => {
          s = await sample(webtoon);
          reader = await createReader(server, { name: 'Cora' });
          await favorite(reader, s.e4pid);
          await finish(reader, s.chapters[0]!.path, s.chapters[0]!.e4pid);
        });

        for (const [site, locale] of [['en', 'en'], ['br', 'pt-BR']] as const) {
          it(`every surface continues at chapter 2, by name (${site})`, async () => {
            const second = s.chapters[1]!;
            const name = displayChapterName(createT(locale), locale, s, second.number);
            expect(name).toMatch(webtoon ? /Episode|Episódio/ : /Chapter|Capítulo/);
            const label = message(locale, 'series.continueReading', { chapter: name });
            const get = (path: string) => server.request(path, { site, headers: { cookie: reader.cookie } }).then((r) => r.text);

            const seriesPage = link(await get(`/comics/${s.slug}/`), 'data-reading-button');
            const history = link(await get('/my/history/'), `data-continue="${second.e4pid}"`);
            const home = await get('/');
            const shelf = link(home.slice(home.indexOf('data-continue-shelf')), `data-continue="${second.e4pid}"`);
            const favorites = link(await get('/my/favorites/'), `data-continue="${second.e4pid}"`);
            for (const [surface, found] of Object.entries({ seriesPage, favorites })) {
              expect(found, `${surface} links the chapter to continue`).toEqual({ href: second.path, text: label });
            }
            // History entries (the page and the home shelf) are chapter 1, finished: labelled by their state (spec section 4), linking the rule's chapter.
            for (const [surface, found] of Object.entries({ history, shelf })) {
              expect(found, `${surface} links the chapter to continue`).toEqual({ href: second.path, text: `${message(locale, 'chapter.readAgain')} ${name}` });
            }
            // Nothing still offers to reopen the finished chapter 1 as "the" chapter to continue.
            expect(htmlText(home)).not.toContain(message(locale, 'series.continueReading', { chapter: displayChapterName(createT(locale), locale, s, s.chapters[0]!.number) }));
          });
        }

        it('the history, favorites and episodes APIs name the same chapter', async () => {
          const second = s.chapters[1]!;
          const history = (await server.request('/api/house/history/me', { headers: { cookie: reader.cookie } })).json<{ history: { comic: { e4pid: string }; continue_reading: { e4pid: string; text: string } }[] }>();
          const entry = history.history.find((h) => h.comic.e4pid === s.e4pid)!;
          expect(entry.continue_reading.e4pid).toBe(second.e4pid);
          const favorites = (await server.request('/api/favorites/', { headers: { cookie: reader.cookie } })).json<{ comics: { e4pid: string; continue_reading: { e4pid: string } }[] }>();
          expect(favorites.comics.find((c) => c.e4pid === s.e4pid)!.continue_reading.e4pid).toBe(second.e4pid);
          const episodes = (await server.request(`/api/comic/${s.e4pid}/episodes?language=en`, { headers: { cookie: reader.cookie } })).json<{ reading_button: { e4pid: string; text: string } }>();
          expect(episodes.reading_button.e4pid).toBe(second.e4pid);
          expect(episodes.reading_button.text).toBe(entry.continue_reading.text);
        });
      });
    }

    it('history labels: finished Read Again, in progress Continue, caught up Read Again, on both sites and in Load more', async () => {
      const chaptersOf = (slug: string) => withDb(server, (db) => db.selectFrom('series').innerJoin('chapters', 'chapters.series_id', 'series.id')
        .select(['series.id', 'series.slug', 'series.format', 'series.chapter_name_format', 'chapters.e4pid', 'chapters.number'])
        .where('series.slug', '=', slug).where('chapters.language', '=', 'en').where('chapters.released_at', '<=', Math.floor(Date.now() / 1000))
        .orderBy('chapters.number').execute());
      const r = await createReader(server, { name: 'Hana' });
      // In progress: the webtoon's first episode at 40 %. Caught up: the comic's latest chapter finished.
      const [webtoon, comic] = await Promise.all([chaptersOf(DEMO.readerWebtoon), chaptersOf(DEMO.readerComic)]);
      const reading = webtoon[0]!;
      const latest = comic[comic.length - 1]!;
      const pathOf = (c: typeof latest) => readerPath(c, { e4pid: c.e4pid, number: Number(c.number), language: 'en' });
      await finish(r, pathOf(reading), reading.e4pid, 40);
      await finish(r, pathOf(latest), latest.e4pid);
      for (const [site, locale] of [['en', 'en'], ['br', 'pt-BR']] as const) {
        const html = (await server.request('/my/history/', { site, headers: { cookie: r.cookie } })).text;
        const nameOf = (c: typeof latest) => displayChapterName(createT(locale), locale, c, Number(c.number));
        expect(link(html, `data-continue="${reading.e4pid}"`)).toEqual({ href: pathOf(reading), text: `${message(locale, 'chapter.continue')} ${nameOf(reading)}` });
        expect(link(html, `data-continue="${latest.e4pid}"`)).toEqual({ href: pathOf(latest), text: `${message(locale, 'chapter.readAgain')} ${nameOf(latest)}` });
      }
      // "Load more" builds entries from the API: it carries the chapter's name for the label to precede.
      const api = (await server.request('/api/house/history/me', { headers: { cookie: r.cookie } })).json<{ history: { progress: { e4pid: string; completed: boolean }; continue_reading: { e4pid: string; name: string } }[] }>();
      expect(api.history.map((h) => [h.progress.e4pid, h.progress.completed, h.continue_reading.e4pid, h.continue_reading.name]).sort()).toEqual(
        [[reading.e4pid, false, reading.e4pid, displayChapterName(createT('en'), 'en', reading, Number(reading.number))], [latest.e4pid, true, latest.e4pid, displayChapterName(createT('en'), 'en', latest, Number(latest.number))]].sort());
    });

    it('a reader with nothing read is offered the first chapter on favorites, by name', async () => {
      const s = await sample(false);
      const fresh = await createReader(server, { name: 'Dora' });
      await favorite(fresh, s.e4pid);
      const first = s.chapters[0]!;
      const found = link((await server.request('/my/favorites/', { headers: { cookie: fresh.cookie } })).text, `data-continue="${first.e4pid}"`);
      expect(found).toEqual({ href: first.path, text: message('en', 'continue.start', { chapter: displayChapterName(createT('en'), 'en', s, first.number) }) });
    });
  });
}
