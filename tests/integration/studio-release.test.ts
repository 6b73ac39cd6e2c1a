/**
 * The release pipeline (issue 27), over real HTTP on both databases: a chapter staff schedule in
 * the studio shows at once in the schedule and the home page's simulpub strip (anonymous
 * visitors, no restart), is refused as not out yet until its time, and at its time, on the same
 * running server, is out as the pricing rule says (sold at its price, or free by its series'
 * rule), and is in the site feed, the series feed and the sitemap. The chapter is the test's own (a
 * number no other test uses); its series keeps all its other chapters.
 */
import { describe, expect, it } from 'vitest';
import { appCheckHeader, createReader, createStaff, message, selectedDialects, useServer, withDb } from './harness';
import { makeImage, multipart } from '../support/uploads';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

for (const dialect of selectedDialects()) {
  describe(`release pipeline (${dialect})`, () => {
    const server = useServer(dialect);

    it('a chapter scheduled in the studio is in the schedule and the simulpub strip at once, then out as the pricing rule says and in the feeds and the sitemap at its time, without a restart', { timeout: 90_000 }, async () => {
      const editor = await createStaff(server, 'content', 'pricing');
      // A simulpub series of the English site: the home page's simulpub strip lists its next chapter.
      // One with a chapter out already: the demo's series of scheduled chapters only stays so for
      // the tests of that case (series.test.ts), whatever order the files run in.
      const series = await withDb(server, async (db) => {
        const t = Math.floor(Date.now() / 1000);
        const row = await db.selectFrom('series').innerJoin('series_languages', 'series_languages.series_id', 'series.id').select(['series.id', 'series.slug'])
          .where('series_languages.site_id', '=', 1).where('series.state', '=', 'ACTIVE').where('series.availability_strategy', 'like', '%"simulpub":true%')
          .where((eb) => eb.exists(eb.selectFrom('chapters').select('chapters.id').whereRef('chapters.series_id', '=', 'series.id').where('chapters.language', '=', 'en').where('chapters.released_at', '<=', t)))
          .orderBy('series.id', 'desc').executeTakeFirstOrThrow();
        return { id: Number(row.id), slug: row.slug };
      });
      const number = `${7000 + Math.floor(Math.random() * 900)}.25`;
      const page = await makeImage('png', 1, 200, 300);
      const { body, type } = multipart([
        { name: 'series', value: String(series.id) }, { name: 'number', value: number }, { name: 'language', value: 'en' }, { name: 'title', value: 'Release pipeline' },
        { name: 'pages', file: { name: '1.png', data: page } }, { name: 'pages', file: { name: '2.png', data: page } },
      ]);
      const created = await server.request(`/studio/chapters/new/?series=${series.id}`, { method: 'POST', body, headers: { 'content-type': type, origin: server.origin(), 'sec-fetch-site': 'same-origin', cookie: editor.cookie } });
      expect(created.status, created.text.slice(0, 300)).toBe(303);
      const draftPath = created.headers.location!.split('?')[0]!;
      // Out in a few seconds: a datetime-local value with seconds, in UTC.
      const releaseAt = Math.floor(Date.now() / 1000) + 6;
      const published = await server.request(draftPath, {
        method: 'POST',
        body: new URLSearchParams({ action: 'publish', price: '2', purchase: '1', zone: 'UTC', release: 'at', release_at: new Date(releaseAt * 1000).toISOString().slice(0, 19) }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.origin(), 'sec-fetch-site': 'same-origin', cookie: editor.cookie },
      });
      expect(published.status, published.text.slice(0, 300)).toBe(303);
      const chapter = await withDb(server, (db) => db.selectFrom('chapters').select(['e4pid', 'released_at']).where('series_id', '=', series.id).where('language', '=', 'en').where('number', '=', Number(number)).executeTakeFirstOrThrow());
      expect(Number(chapter.released_at)).toBe(releaseAt);
      const readerPathPart = chapter.e4pid.slice(4);

      // At once: the schedule lists it for anonymous visitors; it is not out yet.
      const schedule = await server.request('/schedule/');
      expect(schedule.status).toBe(200);
      // Before its time an entry links to the series (the chapter cannot be read yet).
      const entries = [...schedule.text.matchAll(/<li class="rel-item" data-at="(\d+)"[^>]*>([\s\S]*?)<\/li>/g)];
      expect(entries.some(([, at, html]) => Number(at) === releaseAt && html!.includes(`href="/comics/${series.slug}/"`))).toBe(true);
      // The strip is one of the home page's later blocks: the page names its fragment.
      const home = await server.request('/');
      const src = /data-home-block="simulpub" data-src="([^"]+)"/.exec(home.text)?.[1] ?? '';
      expect(src).not.toBe('');
      const strip = /<[^>]+id="home-simulpub"[\s\S]*?<\/section>/.exec((await server.request(src)).text)?.[0] ?? '';
      expect(strip).toContain(`/comics/${series.slug}/`);
      const reader = await createReader(server);
      await withDb(server, async (db) => {
        const { grantKeys } = await import('~/features/wallet/index.server');
        await grantKeys(db, { userId: reader.id, keys: 5, xtra: 0, reason: 'test', key: `release:${reader.id}`, now: Math.floor(Date.now() / 1000) });
      });
      const redeem = async () => server.request('/api/redeem/', {
        method: 'POST', body: new URLSearchParams({ content: chapter.e4pid }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.origin(), cookie: reader.cookie, ...(await appCheckHeader(server, reader)) },
      });
      const early = await redeem();
      expect(early.status).toBe(409);
      const siteFeed = () => server.request('/feeds/latest.xml');
      expect((await siteFeed()).text).not.toContain(readerPathPart);

      // Its time comes on the same running server.
      await sleep(Math.max(0, releaseAt * 1000 - Date.now()) + 1200);
      // Out: as the pricing rule says for this series now (a simulpub series may give its newest
      // chapter free for a while), and if it sells, at the price set.
      const access = await withDb(server, async (db) => {
        const { accessIn, pricingContext } = await import('~/features/catalog/index.server');
        const at = Math.floor(Date.now() / 1000);
        return accessIn((await pricingContext(db, chapter.e4pid, at))!, null, null, at);
      });
      expect(access.state).not.toBe('scheduled');
      const sold = await redeem();
      if (access.readable) {
        expect(sold.status, sold.text).toBe(409);
        expect([message('en', 'wallet.error.free'), message('en', 'wallet.error.freeEpisode')]).toContain(JSON.parse(sold.text).detail);
      } else {
        expect(sold.status, sold.text).toBe(200);
        expect(JSON.parse(sold.text).charged).toEqual({ price: access.finalPrice, currency: 'keys' });
        expect(access.originalPrice).toBe(2);
      }
      expect((await siteFeed()).text).toContain(readerPathPart);
      expect((await server.request(`/feeds/comics/${series.slug}.xml`)).text).toContain(readerPathPart);
      // The sitemap lists chapters by id: the newest is in the last file.
      const index = await server.request('/sitemap.xml');
      const files = [...index.text.matchAll(/<loc>[^<]*?(\/sitemaps\/[^<]+)<\/loc>/g)].map((m) => m[1]!).filter((f) => /chapter/.test(f));
      expect(files.length).toBeGreaterThan(0);
      expect((await server.request(files[files.length - 1]!)).text).toContain(readerPathPart);
    });
  });
}
