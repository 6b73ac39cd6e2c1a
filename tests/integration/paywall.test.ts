/**
 * The paywall page (issue 30): /read/{…}/paywall/, linked from the locked reader view, on both
 * databases. A locked chapter shows its price and the ways in, as forms to the one /unlock/
 * endpoint, to strangers (with sign-up and log-in carrying the unlock) and to readers (privately
 * cached); a chapter that is not locked sends the visitor to the reader.
 */
import { describe, expect, it } from 'vitest';
import { readerPath } from '~/lib/paths';
import { createReader, htmlText, message, selectedDialects, useServer, withDb } from './harness';

const day = 86_400;

for (const dialect of selectedDialects()) {
  describe(`paywall page (${dialect})`, () => {
    const server = useServer(dialect);

    /** A released English chapter of an active, unblocked series: paid (sold for keys) or free. */
    const chapterPath = (paid: boolean) => withDb(server, async (db) => {
      const t = Math.floor(Date.now() / 1000);
      const row = await db.selectFrom('chapters').innerJoin('series', 'series.id', 'chapters.series_id')
        .select(['chapters.e4pid', 'chapters.number', 'chapters.language', 'chapters.original_price', 'series.slug', 'series.format'])
        .where('series.state', '=', 'ACTIVE').where('series.geoblocks', 'in', ['[]', '']).where('series.adult', '=', 0)
        .where('chapters.language', '=', 'en').where('chapters.released_at', '<=', t - day).where('chapters.sale_at', '<=', t - day)
        .where('chapters.original_price', paid ? '>' : '=', 0).where('chapters.purchase_enabled', 'in', paid ? [1] : [0, 1])
        .orderBy('chapters.id').limit(1).executeTakeFirstOrThrow();
      return { path: readerPath({ slug: row.slug, format: row.format }, { e4pid: row.e4pid, number: Number(row.number), language: row.language }), price: Number(row.original_price) };
    });

    it('a locked chapter links to its paywall, which shows the ways in to strangers and readers alike', async () => {
      const { path } = await chapterPath(true);
      const locked = await server.request(path);
      expect(locked.status).toBe(200);
      expect(locked.text).toContain(`href="${path}paywall/"`);

      const stranger = await server.request(`${path}paywall/`);
      expect(stranger.status).toBe(200);
      expect(stranger.text).toContain('<meta name="robots" content="noindex"');
      expect(htmlText(stranger.text)).toContain(message('en', 'paywall.ways'));
      expect(stranger.text).toMatch(/href="\/auth\/signup\/\?next=[^"]+"/);

      const reader = await createReader(server);
      const page = await server.request(`${path}paywall/`, { headers: { cookie: reader.cookie } });
      expect(page.status).toBe(200);
      expect(page.headers['cache-control']).toContain('private');
      expect(htmlText(page.text)).toContain(message('en', 'paywall.ways'));
      // A new reader has no keys: the way in is buying some, never a free unlock.
      expect(page.text).toContain('href="/my/purchase/');
    });

    it('a free chapter sends the visitor to the reader; an unknown one is a 404; only GET is served', async () => {
      const { path } = await chapterPath(false);
      const free = await server.request(`${path}paywall/`);
      expect([free.status, free.headers.location]).toEqual([302, path]);
      expect((await server.request('/read/no-such-series/00000000/chapter-1/paywall/')).status).toBe(404);
      const { path: paid } = await chapterPath(true);
      const post = await server.request(`${paid}paywall/`, { method: 'POST', body: '', headers: { origin: server.origin('en'), 'content-type': 'application/x-www-form-urlencoded' } });
      expect(post.status).toBe(405);
    });
  });
}
