/**
 * /my/keys/ over real HTTP on both databases: the reader's two balances and their history,
 * newest first, each line saying what it was for, paged without JavaScript, in both languages,
 * and nobody else's. Every test ends with the ledger audit passing, like the other money files.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { appCheckHeader, createReader, htmlText, message, selectedDialects, useServer, withDb, type Reader } from './harness';

const now = () => Math.floor(Date.now() / 1000);
let seq = 0;

for (const dialect of selectedDialects()) {
  describe(`the keys page (${dialect})`, () => {
    const server = useServer(dialect);
    const grant = (reader: Reader, keys: number, xtra: number, reason: string) =>
      withDb(server, async (db) => {
        const { grantKeys } = await import('~/features/wallet/index.server');
        await grantKeys(db, { userId: reader.id, keys, xtra, reason, key: `my-keys:${reader.id}:${++seq}`, now: now() });
      });
    const page = (reader: Reader | null, query = '', site: 'en' | 'br' = 'en') => server.request(`/my/keys/${query}`, { site, headers: reader ? { cookie: reader.cookie } : {} });

    afterEach(async () => {
      expect(await withDb(server, async (db) => (await import('~/features/wallet/index.server')).auditLedger(db))).toEqual([]);
    });

    /** A chapter costing 10 keys or more, unlockable now, with its reader path. */
    const pricey = () =>
      withDb(server, async (db) => {
        const { pricingContext, accessIn } = await import('~/features/catalog/index.server');
        const { readerPath } = await import('~/lib/paths');
        const t = now();
        const rows = await db.selectFrom('chapters').innerJoin('series', 'series.id', 'chapters.series_id')
          .select(['chapters.e4pid', 'chapters.number', 'chapters.language', 'series.slug', 'series.format', 'series.name'])
          .where('series.state', '=', 'ACTIVE').where('series.geoblocks', 'in', ['[]', '']).where('chapters.original_price', '>=', 10)
          .where('chapters.released_at', '<=', t - 86400).where('chapters.language', '=', 'en').limit(200).execute();
        const rich = { owned: false, rentals: [], balances: { keys: 1e6, xtra: 0 }, dailyPassUsedAt: null, adsWatched: 0, subscription: null };
        for (const r of rows) {
          const ctx = await pricingContext(db, r.e4pid, t);
          const a = ctx && accessIn(ctx, rich, null, t);
          if (a && a.unlockMethods.keys.open && a.finalPrice >= 10 && a.readableUntil === null) {
            return { e4pid: r.e4pid, price: a.finalPrice, series: r.name, path: readerPath({ slug: r.slug, format: r.format }, { e4pid: r.e4pid, number: Number(r.number), language: r.language }) };
          }
        }
        throw new Error('no chapter at 10 keys or more');
      });

    it('shows both balances, the unlock with its link and bonus, and the grant with its reason, newest first', async () => {
      const reader = await createReader(server);
      const chapter = await pricey();
      await grant(reader, chapter.price + 5, 3, 'Welcome gift');
      const res = await server.request('/api/redeem/', { method: 'POST', body: `content=${chapter.e4pid}`, headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: reader.cookie, origin: server.origin(), ...(await appCheckHeader(server, reader)) } });
      expect(res.status).toBe(200);
      const bonus = Math.floor(chapter.price / 10);
      const html = (await page(reader)).text;
      // The tooltips' texts (popovers) sit beside their labels; the figures are read without them.
      const text = htmlText(html.replace(/<span id="tip-[^"]*" class="info-tip-pop"[^>]*>.*?<\/span>/gs, ''));
      expect(text).toMatch(new RegExp(`${message('en', 'keys.balance.keys')}\\s+5\\s+${message('en', 'keys.balance.xtra')}\\s+${3 + bonus}`));
      const unlockAt = text.indexOf(`Unlocked `);
      const grantAt = text.indexOf(message('en', 'keys.what.grant', { reason: 'Welcome gift' }));
      expect(unlockAt).toBeGreaterThan(-1);
      expect(grantAt).toBeGreaterThan(unlockAt);
      expect(html).toContain(`href="${chapter.path}"`);
      expect(text).toContain(`−${message('en', 'keys.amount.keys', { n: chapter.price })}`);
      expect(text).toContain(`+${message('en', 'keys.amount.xtra', { n: bonus })} ${message('en', 'keys.bonus')}`);
      expect(text).toContain(`+${message('en', 'keys.amount.keys', { n: chapter.price + 5 })}`);
      expect(text).toContain(chapter.series);
    });

    it('pages through a long history with plain links', async () => {
      const reader = await createReader(server);
      for (let i = 0; i < 30; i++) await grant(reader, 1, 0, `gift ${i}`);
      const first = await page(reader);
      expect(first.text).toContain('href="/my/keys/?page=2"');
      expect(htmlText(first.text)).toContain('gift 29');
      expect(htmlText(first.text)).not.toContain('gift 4 ');
      const second = await page(reader, '?page=2');
      const text = htmlText(second.text);
      expect(text).toContain('gift 4');
      expect(text).not.toContain('gift 29');
      expect(second.text).toContain('href="/my/keys/"');
      expect((await page(reader, '?page=99')).status).toBe(200);
    });

    it('is where the credits and reading-log addresses lead, for good, page kept', async () => {
      for (const [from, to] of [['/my/credits/', '/my/keys/'], ['/my/credits/?page=3', '/my/keys/?page=3'], ['/my/credits/?page=x', '/my/keys/'], ['/my/log/', '/my/history/']] as [string, string][]) {
        for (const site of ['en', 'br'] as const) {
          const res = await server.request(from, { site });
          expect(res.status, from).toBe(301);
          expect(res.headers.location, from).toBe(to);
        }
      }
    });

    it('belongs to its reader: others see their own, anonymous visitors go to the login page', async () => {
      const a = await createReader(server);
      const b = await createReader(server);
      await grant(a, 7, 0, 'only for A');
      expect(htmlText((await page(b)).text)).not.toContain('only for A');
      expect(htmlText((await page(b)).text)).toContain(message('en', 'keys.empty'));
      const anon = await page(null);
      expect(anon.status).toBe(303);
      expect(anon.headers.location).toBe('/auth/login/?next=%2Fmy%2Fkeys%2F');
      expect((await page(a)).headers['cache-control']).toMatch(/private/);
    });

    it('speaks Portuguese on the Portuguese site, header link included', async () => {
      const reader = await createReader(server, { site: 'br' });
      await grant(reader, 2, 1, 'Presente');
      const res = await page(reader, '', 'br');
      const text = htmlText(res.text);
      expect(text).toContain(message('pt-BR', 'keys.title'));
      expect(text).toContain(message('pt-BR', 'keys.what.grant', { reason: 'Presente' }));
      // The header's keys link is named by its (visually hidden) text.
      expect(text).toContain(message('pt-BR', 'header.keys', { keys: 2, xtra: 1 }));
    });
  });
}
