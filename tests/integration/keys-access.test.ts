/**
 * What keys open, as readers and attackers see it over real HTTP on both databases: the series
 * rows and the reader page priced by the one pricing rule for the signed-in reader, unlocking
 * without JavaScript, page images only for the reader who may read them, rentals that end, the
 * episodes API, and a removed series. The ledger audit passes after every test.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEMO } from '@db/seed/index';
import { readerPath } from '~/lib/paths';
import { appCheckHeader, createReader, htmlText, listOnPortugueseSite, markup, message, selectedDialects, useServer, withDb, type Reader } from './harness';

const now = () => Math.floor(Date.now() / 1000);
let seq = 0;

interface Paid {
  id: number;
  e4pid: string;
  price: number;
  seriesId: number;
  slug: string;
  path: string;
}

const mediaUrls = (html: string) => [...new Set([...html.matchAll(/\/media\/p\/[^"'\s<>]+/g)].map((m) => m[0].replace(/&amp;|&#38;/g, '&')))];

/** A wallet message in the series' unit: webtoons hear "episode" (src/features/catalog/wording.ts). */
const unitMessage = (locale: 'en' | 'pt-BR', key: string, format: string) => message(locale, format === 'WEBTOON' ? `${key}Episode` : key);

for (const dialect of selectedDialects()) {
  describe(`what keys open (${dialect})`, () => {
    const server = useServer(dialect);
    /** Paid, unlockable chapters of active series without geoblocks, the cheapest first. */
    let paid: Paid[];

    const grant = (reader: Reader, keys: number, xtra = 0) =>
      withDb(server, async (db) => {
        const { grantKeys } = await import('~/features/wallet/index.server');
        return grantKeys(db, { userId: reader.id, keys, xtra, reason: 'test', key: `access:${reader.id}:${++seq}`, now: now() });
      });
    const balances = (reader: Reader) => withDb(server, async (db) => (await import('~/features/wallet/index.server')).balancesOf(db, reader.id));
    const get = (path: string, reader: Reader | null, site: 'en' | 'br' = 'en') => server.request(path, { site, headers: reader ? { cookie: reader.cookie } : {} });
    /** A form post; the redeem call carries a bot-check token, as the unlock dialog's does (the no-JavaScript form needs none). */
    const postForm = async (path: string, reader: Reader | null, fields: Record<string, string>) =>
      server.request(path, {
        method: 'POST',
        body: new URLSearchParams(fields).toString(),
        headers: {
          'content-type': 'application/x-www-form-urlencoded', origin: server.origin(),
          ...(reader ? { cookie: reader.cookie, ...(path === '/api/redeem/' ? await appCheckHeader(server, reader) : {}) } : {}),
        },
      });
    /** A chapter a reader owns, bought through the redeem call. */
    const own = async (reader: Reader, chapter: Paid) => {
      await grant(reader, chapter.price);
      const res = await postForm('/api/redeem/', reader, { content: chapter.e4pid });
      expect(res.status).toBe(200);
    };

    beforeAll(async () => {
      paid = await withDb(server, async (db) => {
        const { pricingContext, accessIn } = await import('~/features/catalog/index.server');
        const t = now();
        const rows = await db
          .selectFrom('chapters').innerJoin('series', 'series.id', 'chapters.series_id')
          .select(['chapters.id', 'chapters.e4pid', 'chapters.series_id', 'chapters.number', 'chapters.language', 'series.slug', 'series.format'])
          .where('series.state', '=', 'ACTIVE').where('series.geoblocks', 'in', ['[]', '']).where('chapters.language', '=', 'en')
          .where('chapters.original_price', '>', 0).where('chapters.released_at', '<=', t - 86400).where('chapters.sale_at', '<=', t - 86400)
          .orderBy('chapters.id').limit(600).execute();
        const rich = { owned: false, rentals: [], balances: { keys: 1e6, xtra: 0 }, dailyPassUsedAt: null, adsWatched: 0, subscription: null };
        const out: Paid[] = [];
        for (const r of rows) {
          const ctx = await pricingContext(db, r.e4pid, t);
          if (!ctx) continue;
          const anon = accessIn(ctx, null, null, t);
          const access = accessIn(ctx, rich, null, t);
          // Paid for a few more days (no free week ending mid-test) and sold now.
          if (anon.readable || !access.unlockMethods.keys.open || access.finalPrice <= 0 || access.readableUntil !== null) continue;
          out.push({ id: Number(r.id), e4pid: r.e4pid, price: access.finalPrice, seriesId: Number(r.series_id), slug: r.slug, path: readerPath({ slug: r.slug, format: r.format }, { e4pid: r.e4pid, number: Number(r.number), language: r.language }) });
        }
        return out.sort((a, b) => a.price - b.price);
      });
      expect(paid.length).toBeGreaterThan(20);
    }, 120_000);

    afterEach(async () => {
      expect(await withDb(server, async (db) => (await import('~/features/wallet/index.server')).auditLedger(db))).toEqual([]);
    });

    it('shows "Log in to read" to anonymous visitors only; a signed-in reader gets unlock buttons on paid rows', async () => {
      const chapter = paid[0]!;
      const seriesPath = `/comics/${chapter.slug}/`;
      const anon = await get(seriesPath, null);
      expect(htmlText(anon.text)).toContain(message('en', 'chapter.loginToRead'));
      expect(markup(anon.text)).not.toContain('btn-unlock');
      const reader = await createReader(server);
      await listOnPortugueseSite(server, chapter.slug);
      for (const site of ['en', 'br'] as const) {
        const page = await get(seriesPath, reader, site);
        const text = htmlText(page.text);
        expect(text).not.toContain(message('en', 'chapter.loginToRead'));
        expect(text).not.toContain(message('pt-BR', 'chapter.loginToRead'));
        expect(page.text).toContain(`name="content" value="${chapter.e4pid}"`);
        expect(page.text).toContain('id="unlock-dialog-config"');
        // Without JavaScript each button submits the form around the lists (posting to /unlock/),
        // and says which chapter it unlocks.
        const html = markup(page.text);
        const open = html.search(/<form [^>]*id="unlock-form"/);
        const tag = html.slice(open, html.indexOf('>', open));
        const buttons = [...html.matchAll(/<button class="btn-unlock"[^>]*>/g)];
        expect(open).toBeGreaterThan(-1);
        expect(tag).toContain('method="post"');
        expect(tag).toContain('action="/unlock/"');
        expect(tag).not.toContain('hidden');
        expect(buttons.length).toBeGreaterThan(0);
        expect(buttons[0]!.index).toBeGreaterThan(open);
        expect(html.indexOf('</form>', open)).toBeGreaterThan(buttons.at(-1)!.index!);
        expect(buttons.every((b) => /aria-label="[^"]+: [^"]+"/.test(b[0]))).toBe(true);
      }
      const locked = await get(chapter.path, reader);
      expect(htmlText(locked.text)).not.toContain(message('en', 'chapter.loginToRead'));
      expect(htmlText(locked.text)).toContain(message('en', 'wallet.balances', { keys: 0, xtra: 0 }));
      expect(locked.text).toContain(`href="/my/purchase/?next=${encodeURIComponent(`${chapter.path}?intent=${encodeURIComponent(`unlock:${chapter.e4pid}`)}`)}#chapters"`);
      expect(mediaUrls(locked.text)).toEqual([]);
    });

    it('unlocks without JavaScript: the form charges once, opens the chapter, and the row says owned', async () => {
      const chapter = paid[1]!;
      const reader = await createReader(server);
      await grant(reader, chapter.price + 2);
      const res = await postForm('/unlock/', reader, { content: chapter.e4pid });
      expect(res.status).toBe(303);
      expect(res.headers.location).toBe(chapter.path);
      expect(await balances(reader)).toEqual({ keys: 2, xtra: chapter.price > 9 ? Math.floor(chapter.price / 10) : 0 });
      // A second submit (a double click, a back button) charges nothing.
      expect((await postForm('/unlock/', reader, { content: chapter.e4pid })).headers.location).toBe(chapter.path);
      expect((await balances(reader)).keys).toBe(2);
      const page = await get(chapter.path, reader);
      expect(mediaUrls(page.text).length).toBeGreaterThan(0);
      const series = await get(`/comics/${chapter.slug}/`, reader);
      const row = new RegExp(`value="${chapter.e4pid}"`);
      expect(series.text).not.toMatch(row);
      expect(series.text).toContain(message('en', 'chapter.owned'));
    });

    it('sends a reader who cannot pay back to the chapter with the reason and a buy-keys link', async () => {
      const chapter = paid.at(-1)!;
      const reader = await createReader(server, { site: 'br' });
      await grant(reader, chapter.price - 1);
      const res = await postForm('/unlock/', reader, { content: chapter.e4pid });
      expect(res.status).toBe(303);
      expect(res.headers.location).toBe(`${chapter.path}?unlock=insufficient`);
      const page = await get(res.headers.location!, reader, 'br');
      expect(htmlText(page.text)).toContain(message('pt-BR', 'wallet.error.insufficient', { price: chapter.price, keys: chapter.price - 1, xtra: 0 }));
      expect(page.text).toContain(`href="/my/purchase/?next=${encodeURIComponent(`${chapter.path}?intent=${encodeURIComponent(`unlock:${chapter.e4pid}`)}`)}#chapters"`);
      expect(mediaUrls(page.text)).toEqual([]);
      expect(await balances(reader)).toEqual({ keys: chapter.price - 1, xtra: 0 });
      // Signed out, or an unknown chapter: nothing is charged anywhere.
      expect((await postForm('/unlock/', null, { content: chapter.e4pid })).headers.location).toMatch(/^\/auth\/login\//);
      expect((await postForm('/unlock/', reader, { content: 'EPI-nope' })).status).toBe(404);
    });

    it('counts read right on both sites: "0 chaves e 0 chaves Xtra", "Falta 1 chave", "1 KEY" but "3 KEYS" (issue 24)', async () => {
      const chapter = paid.find((c) => c.price >= 2)!;
      const reader = await createReader(server, { site: 'br' });
      // Nothing held: the header and the refusal say 0 in the plural, as Brazilians write it.
      const series = await get(`/comics/${chapter.slug}/`, reader, 'br');
      expect(series.text).toContain('title="Suas chaves: 0 chaves e 0 chaves Xtra"');
      const refused = await postForm('/unlock/', reader, { content: chapter.e4pid });
      expect(refused.headers.location).toBe(`${chapter.path}?unlock=insufficient`);
      const page = htmlText((await get(refused.headers.location!, reader, 'br')).text);
      expect(page).toContain(`Você precisa de ${chapter.price} chaves para desbloquear este`);
      expect(page).toContain('você tem 0 chaves e 0 chaves Xtra.');
      await grant(reader, 1);
      expect(htmlText((await get(refused.headers.location!, reader, 'br')).text)).toContain('você tem 1 chave e 0 chaves Xtra.');

      // The unlock dialog formats in the browser what the page hands it: the sources say
      // "Falta 1 chave." and "Faltam 2 chaves.", on the English site "1 more key".
      const { IntlMessageFormat } = await import('intl-messageformat');
      for (const [site, locale, one, two] of [['br', 'pt-BR', 'Falta 1 chave.', 'Faltam 2 chaves.'], ['en', 'en', 'You need 1 more key.', 'You need 2 more keys.']] as const) {
        const html = (await get(`/comics/${chapter.slug}/`, reader, site)).text;
        const json = /<script type="application\/json" id="unlock-dialog-config"[^>]*>([\s\S]*?)<\/script>/.exec(html)?.[1];
        const config = JSON.parse(json ?? 'null') as { locale: string; messages: Record<string, string> };
        expect(config.locale).toBe(locale);
        const short = new IntlMessageFormat(config.messages['unlock.short']!, locale);
        expect([short.format({ missing: 1 }), short.format({ missing: 2 })]).toEqual([one, two]);
        const balances = new IntlMessageFormat(config.messages['wallet.balances']!, locale).format({ keys: 0, xtra: 1 });
        expect(balances).toBe(site === 'br' ? 'Você tem 0 chaves e 1 chave Xtra.' : 'You have 0 keys and 1 Xtra key.');
      }

      // Price labels on the series pages: the singular at 1 only, in both languages.
      const labels: string[] = [];
      for (const c of [paid[0]!, chapter, paid.at(-1)!]) {
        for (const [site, unit] of [['en', 'KEY'], ['br', 'CHAVE']] as const) {
          const text = htmlText((await get(`/comics/${c.slug}/`, null, site)).text);
          for (const m of text.matchAll(new RegExp(`\\b(\\d+) (${unit}S?)\\b`, 'g'))) labels.push(`${m[1]} ${m[2]}`);
        }
      }
      expect(labels.some((l) => /^([2-9]|\d\d+) (KEYS|CHAVES)$/.test(l))).toBe(true);
      expect(labels.filter((l) => !/^(1 (KEY|CHAVE)|([02-9]|\d\d+) (KEYS|CHAVES))$/.test(l))).toEqual([]);
    });

    it('serves a paid page only to the reader it was signed for, while they may read it', async () => {
      const chapter = paid[2]!;
      const owner = await createReader(server);
      const other = await createReader(server);
      await own(owner, chapter);
      const urls = mediaUrls((await get(chapter.path, owner)).text);
      expect(urls.length).toBeGreaterThan(0);
      const url = urls[0]!;
      expect(url).toContain(`u=${owner.id}`);
      const mine = await get(url, owner);
      expect(mine.status).toBe(200);
      expect(mine.headers['cache-control']).toMatch(/private/);
      expect(mine.body.subarray(8, 12).toString('latin1')).toBe('WEBP');
      const refused = async (path: string, who: Reader | null) => {
        const res = await get(path, who);
        expect(res.status, path).toBe(403);
        expect(res.body.includes(Buffer.from('WEBP')), path).toBe(false);
      };
      await refused(url, null);
      await refused(url, other);
      // Its narrower copy (for phones) likewise: the owner's, and no one else's.
      expect((await get(`${url}&w=720`, owner)).status).toBe(200);
      await refused(`${url}&w=720`, null);
      await refused(`${url}&w=720`, other);
      // Rebound to the other reader, tampered, unbound, or with an expiry moved: all refused.
      await refused(url.replace(`u=${owner.id}`, `u=${other.id}`), other);
      await refused(url.replace(/sig=([0-9a-f])/, (_m, c: string) => `sig=${c === 'a' ? 'b' : 'a'}`), owner);
      await refused(url.replace(`&u=${owner.id}`, ''), null);
      await refused(url.replace(/exp=(\d+)/, (_m, e: string) => `exp=${Number(e) + 600}`), owner);
      // The other reader's own page has no URLs at all.
      expect(mediaUrls((await get(chapter.path, other)).text)).toEqual([]);
    });

    it('locks a rented chapter again when its rental ends, pages included', async () => {
      const chapter = paid[3]!;
      const reader = await createReader(server);
      const t = now();
      // A daily-pass rental that ends in a few seconds, written the way the wallet writes one.
      await withDb(server, async (db) => {
        await db.insertInto('ledger_transactions').values({ idempotency_key: `test-rental:${reader.id}:${chapter.id}`, kind: 'daily_pass', user_id: reader.id, chapter_id: chapter.id, reason: null, created_at: t }).execute();
        const tx = await db.selectFrom('ledger_transactions').select('id').where('idempotency_key', '=', `test-rental:${reader.id}:${chapter.id}`).executeTakeFirstOrThrow();
        await db.insertInto('rentals').values({ user_id: reader.id, chapter_id: chapter.id, series_id: chapter.seriesId, kind: 'daily_pass', transaction_id: Number(tx.id), created_at: t, expires_at: t + 6 }).execute();
      });
      const during = await get(chapter.path, reader);
      const urls = mediaUrls(during.text);
      expect(urls.length).toBeGreaterThan(0);
      // A daily-pass read is a free read, not a paid rental (issue 26).
      expect(htmlText(during.text)).toContain(message('en', 'chapter.freeRead'));
      expect(htmlText(during.text)).not.toContain(message('en', 'chapter.rented'));
      expect((await get(urls[0]!, reader)).status).toBe(200);
      const episodes = await get(`/api/comic/${chapter.seriesId}/episodes?language=en`, reader);
      const ep = (episodes.json() as { episodes: { id: string; rental: { expires_at: string } | null; owned: boolean }[] }).episodes.find((e) => e.id === chapter.e4pid)!;
      expect(ep.owned).toBe(false);
      expect(Date.parse(ep.rental!.expires_at) / 1000).toBe(t + 6);
      // Until half a second past the end (t is a whole second that had begun: six leave a loaded
      // machine at least five for the reads above).
      await new Promise((r) => setTimeout(r, Math.max(0, (t + 6.5) * 1000 - Date.now())));
      const after = await get(chapter.path, reader);
      expect(mediaUrls(after.text)).toEqual([]);
      expect((await get(urls[0]!, reader)).status).toBe(403);
    });

    it('reports owned chapters and their price in the signed-in episodes API, and not to anyone else', async () => {
      const chapter = paid[4]!;
      const reader = await createReader(server);
      await own(reader, chapter);
      type Episodes = { episodes: { id: string; owned: boolean; final_price: number; state: string }[]; free_availability: Record<string, unknown> };
      const mine = (await get(`/api/comic/${chapter.seriesId}/episodes?language=en`, reader)).json() as Episodes;
      const e = mine.episodes.find((x) => x.id === chapter.e4pid)!;
      expect(e).toMatchObject({ owned: true, final_price: chapter.price, state: 'unlocked' });
      expect(mine.free_availability).toHaveProperty('available_ads');
      const other = await createReader(server);
      const theirs = (await get(`/api/comic/${chapter.seriesId}/episodes?language=en`, other)).json() as Episodes;
      expect(theirs.episodes.find((x) => x.id === chapter.e4pid)).toMatchObject({ owned: false, state: 'paid' });
      const pub = (await get(`/api/comic.public/${chapter.seriesId}/episodes?language=en`, null)).json() as Episodes;
      expect(pub.episodes.find((x) => x.id === chapter.e4pid)).toMatchObject({ owned: false, state: 'paid' });
    });

    it('keeps a removed series readable where it promised and sells nothing new in it', async () => {
      const reader = await createReader(server);
      const removed = await withDb(server, async (db) => {
        const s = await db.selectFrom('series').select(['id', 'slug', 'format']).where('slug', '=', DEMO.removed).executeTakeFirstOrThrow();
        const c = await db.selectFrom('chapters').select(['id', 'e4pid', 'number', 'language', 'original_price']).where('series_id', '=', s.id).where('language', '=', 'en')
          .where('original_price', '>', 0).where('released_at', '<=', now() - 86400).orderBy('number', 'desc').limit(2).execute();
        return { series: s, chapters: c };
      });
      const [ownedOne, other] = removed.chapters;
      const path = (c: typeof ownedOne) => readerPath(removed.series, { e4pid: c!.e4pid, number: Number(c!.number), language: c!.language });
      // Bought while the series was still on sale (the tests run one file at a time: nothing else sees the flip).
      const setState = (state: string) => withDb(server, (db) => db.updateTable('series').set({ state }).where('id', '=', removed.series.id).execute());
      await grant(reader, 100);
      await setState('ACTIVE');
      try {
        expect((await postForm('/api/redeem/', reader, { content: ownedOne!.e4pid })).status).toBe(200);
      } finally {
        await setState('REMOVED');
      }
      const mine = await get(path(ownedOne), reader);
      expect(mediaUrls(mine.text).length).toBeGreaterThan(0);
      expect((await get(mediaUrls(mine.text)[0]!, reader)).status).toBe(200);
      expect(mediaUrls((await get(path(ownedOne), null)).text)).toEqual([]);
      const xtraBefore = (await balances(reader)).xtra;
      const keysBefore = (await balances(reader)).keys;
      const refused = await postForm('/api/redeem/', reader, { content: other!.e4pid });
      expect(refused.status).toBe(409);
      expect(refused.json().detail).toBe(unitMessage('en', 'wallet.error.unavailable', removed.series.format));
      expect(await balances(reader)).toEqual({ keys: keysBefore, xtra: xtraBefore });
      const page = await get(path(other), reader);
      expect(htmlText(page.text)).toContain(message('en', 'series.removed'));
      expect(markup(page.text)).not.toContain('btn-unlock');
      expect(mediaUrls(page.text)).toEqual([]);
      const list = await get(`/comics/${DEMO.removed}/`, reader);
      expect(htmlText(list.text)).toContain(message('en', 'series.removed'));
      expect(list.text).toContain(message('en', 'chapter.unavailable'));
      expect(markup(list.text)).not.toContain('btn-unlock');
      expect(list.text).toContain(message('en', 'chapter.owned'));
    });

    it('serves the free chapters of a removed series to everyone, pages included, and sells none of them', async () => {
      const free = await withDb(server, async (db) => {
        const { pricingContext, accessIn } = await import('~/features/catalog/index.server');
        const s = await db.selectFrom('series').select(['id', 'slug', 'format', 'state']).where('slug', '=', DEMO.removed).executeTakeFirstOrThrow();
        expect(s.state).toBe('REMOVED');
        const t = now();
        const rows = await db.selectFrom('chapters').select(['e4pid', 'number', 'language']).where('series_id', '=', s.id).where('language', '=', 'en')
          .where('original_price', '=', 0).where('released_at', '<=', t).orderBy('number').limit(1).execute();
        expect(rows).toHaveLength(1);
        const c = rows[0]!;
        expect(accessIn((await pricingContext(db, c.e4pid, t))!, null, null, t)).toMatchObject({ readable: true, reason: 'free' });
        return { e4pid: c.e4pid, format: s.format, path: readerPath(s, { e4pid: c.e4pid, number: Number(c.number), language: c.language }) };
      });
      const reader = await createReader(server);
      await grant(reader, 50, 50);
      for (const who of [null, reader]) {
        const page = await get(free.path, who);
        expect(page.status).toBe(200);
        const urls = mediaUrls(page.text);
        expect(urls.length, who ? 'signed in' : 'anonymous').toBeGreaterThan(0);
        for (const url of urls.slice(0, 2)) {
          const image = await get(url, who);
          expect(image.status, url).toBe(200);
          expect(image.body.subarray(8, 12).toString('latin1')).toBe('WEBP');
        }
        expect(markup(page.text)).not.toContain('btn-unlock');
      }
      // Nothing to buy: the redeem call refuses it and charges nothing, on both sites.
      const refused = await postForm('/api/redeem/', reader, { content: free.e4pid });
      expect(refused.status).toBe(409);
      expect(refused.json().detail).toBe(unitMessage('en', 'wallet.error.unavailable', free.format));
      const refusedBr = await server.request('/api/redeem/', {
        site: 'br', method: 'POST', body: `content=${free.e4pid}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.origin('br'), cookie: reader.cookie, ...(await appCheckHeader(server, reader, 'br')) },
      });
      expect(refusedBr.status).toBe(409);
      expect(refusedBr.json().detail).toBe(unitMessage('pt-BR', 'wallet.error.unavailable', free.format));
      expect(await balances(reader)).toEqual({ keys: 50, xtra: 50 });
      expect(await withDb(server, (db) => db.selectFrom('chapter_unlocks').select('chapter_id').where('user_id', '=', reader.id).execute())).toEqual([]);
    });
  });
}
