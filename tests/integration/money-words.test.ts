/**
 * Money words as each site shows them (issue 26), over real HTTP on both databases: a daily-pass
 * read is a "free read" (never "Rented") and a recharging pass is counted down once, in the series
 * header, not on every paid row; a signed-out locked chapter shows its price and both ways in;
 * listing cards count the chapters of the site's languages; /my/subscriptions/ names slot series
 * as the site does; the schedule line is in the site's language. The ledger and order audits pass
 * after every test.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loginPath, readerPath, signupPath } from '~/lib/paths';
import { withIntent } from '~/lib/intent';
import { DEMO } from '@db/seed/index';
import { createReader, htmlText, listOnPortugueseSite, message, selectedDialects, useServer, withDb, type Reader, type SiteName } from './harness';

const now = () => Math.floor(Date.now() / 1000);
const DAY = 86_400;
const localeOf = (site: SiteName) => (site === 'en' ? 'en' as const : 'pt-BR' as const);
const languageOf = (site: SiteName) => (site === 'en' ? 'en' : 'pt-br');
const SITES = ['en', 'br'] as const;
const count = (text: string, part: string) => text.split(part).length - 1;
const attr = (s: string) => s.replace(/&/g, '&amp;');
let seq = 0;

interface Pass { e4pid: string; slug: string; seriesId: number }

for (const dialect of selectedDialects()) {
  describe(`money words (${dialect})`, () => {
    const server = useServer(dialect);
    /** Per site: two chapters of one series the daily pass opens for a fresh reader, listed on that site. */
    let pass: Record<SiteName, Pass[]>;

    const get = (path: string, reader: Reader | null, site: SiteName) => server.request(path, { site, headers: reader ? { cookie: reader.cookie } : {} });
    const post = (path: string, reader: Reader, fields: Record<string, string>, site: SiteName) =>
      server.request(path, {
        method: 'POST', site, timeoutMs: 60_000, body: new URLSearchParams(fields).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.origin(site), cookie: reader.cookie },
      });

    beforeAll(async () => {
      pass = await withDb(server, async (db) => {
        const { pricingContext, accessIn } = await import('~/features/catalog/index.server');
        const t = now();
        const fresh = { owned: false, rentals: [], balances: { keys: 0, xtra: 0 }, dailyPassUsedAt: null, adsWatched: 0, subscription: null };
        const out = { en: [] as Pass[], br: [] as Pass[] };
        for (const site of SITES) {
          const rows = await db.selectFrom('chapters').innerJoin('series', 'series.id', 'chapters.series_id')
            .select(['chapters.e4pid', 'chapters.series_id', 'series.slug']).where('series.state', '=', 'ACTIVE').where('series.adult', '=', 0)
            .where('series.geoblocks', 'in', ['[]', '']).where('chapters.language', '=', languageOf(site))
            .where('chapters.original_price', '>', 0).where('chapters.released_at', '<=', t - DAY)
            .where('series.free_availability', 'like', '%"daily_pass_enabled":true%').orderBy('chapters.id').limit(400).execute();
          const bySeries = new Map<number, Pass[]>();
          for (const r of rows) {
            const ctx = await pricingContext(db, r.e4pid, t);
            if (!ctx || !accessIn(ctx, fresh, null, t).unlockMethods.dailyPass.open) continue;
            const id = Number(r.series_id);
            bySeries.set(id, [...(bySeries.get(id) ?? []), { e4pid: r.e4pid, slug: r.slug, seriesId: id }]);
          }
          out[site] = [...bySeries.values()].find((l) => l.length >= 2) ?? [];
        }
        return out;
      });
      for (const site of SITES) expect(pass[site].length, `a ${site} series with two daily-pass chapters`).toBeGreaterThanOrEqual(2);
    }, 180_000);

    afterEach(async () => {
      expect(await withDb(server, async (db) => (await import('~/features/wallet/index.server')).auditLedger(db))).toEqual([]);
    });

    for (const site of SITES) {
      const locale = localeOf(site);

      it(`a daily-pass read is a free read, and the recharging pass is counted down once, in the header (${site})`, async () => {
        const [opened, other] = pass[site];
        const reader = await createReader(server, { site });
        const before = (await get(`/comics/${opened!.slug}/`, reader, site)).text;
        // Ready: each row the pass opens says so; no countdown yet.
        expect(before).toContain(`<span class="chip chip-pass">${message(locale, 'chapter.passReady')}</span>`);
        expect(before).not.toContain('class="series-pass"');

        expect((await post('/api/daily-pass/', reader, { content: opened!.e4pid }, site)).status).toBe(200);
        const page = await get(`/comics/${opened!.slug}/`, reader, site);
        const html = page.text;
        const text = htmlText(html);
        // The opened row: "Free read", with when it ends; nothing on the page says "Rented".
        expect(html).toMatch(new RegExp(`<span class="chip chip-owned">${message(locale, 'chapter.freeRead')}</span><span class="until">[^<]*<time datetime="[^"]+" data-countdown="\\d+">`));
        expect(html).not.toContain(`<span class="chip chip-owned">${message(locale, 'chapter.rented')}</span>`);
        // The pass recharges: said once, in the header, as a refreshable countdown.
        const [lead] = message(locale, 'series.passCountdown', { when: '\u0000' }).split('\u0000');
        expect(count(text, lead!.trim())).toBe(1);
        expect(count(html, 'class="series-pass"')).toBe(1);
        expect(html).toMatch(/<p class="series-pass"[^>]*>[^<]*<time datetime="[^"]+" data-countdown="\d+">[^<]+<\/time>/);
        expect(html.indexOf('class="series-pass"')).toBeLessThan(html.indexOf('data-chapter-list'));
        // No row repeats it, and the other chapter no longer offers the pass.
        const list = html.slice(html.indexOf('data-chapter-list'));
        expect(list).not.toContain('pass-note');
        expect(list).not.toContain(`<span class="chip chip-pass">`);
        expect(html).toContain(`value="${other!.e4pid}"`);
        // The reader page of the opened chapter says the same.
        const chapterPath = /<a class="chapter-main" href="([^"]+)">/.exec(html.slice(html.indexOf(message(locale, 'chapter.freeRead')) - 4000))?.[1];
        if (chapterPath) {
          const reading = htmlText((await get(chapterPath.replace(/&amp;/g, '&'), reader, site)).text);
          expect(reading).not.toContain(message(locale, 'chapter.rented'));
        }
        // The chapter before it (free for everyone) ends on a card naming the next one a free read too.
        const prev = await withDb(server, (db) => db.selectFrom('chapters as c')
          .innerJoin('chapters as o', (j) => j.onRef('o.series_id', '=', 'c.series_id').onRef('o.language', '=', 'c.language'))
          .innerJoin('series', 'series.id', 'c.series_id')
          .select(['c.e4pid', 'c.number', 'c.language', 'series.slug', 'series.format'])
          .where('o.e4pid', '=', opened!.e4pid).whereRef('c.number', '<', 'o.number').orderBy('c.number', 'desc').executeTakeFirst());
        expect(prev, 'a chapter before the pass-opened one').toBeDefined();
        const prevPage = (await get(readerPath({ slug: prev!.slug, format: prev!.format }, { e4pid: prev!.e4pid, number: Number(prev!.number), language: prev!.language }), reader, site)).text;
        expect(prevPage).not.toContain('data-state="locked"');
        const card = /<a class="reader-end-next[^"]*"[^>]*>([\s\S]*?)<\/a>/.exec(prevPage)?.[1] ?? '';
        expect(htmlText(card)).toContain(message(locale, 'chapter.freeRead'));
        expect(htmlText(card)).not.toContain(message(locale, 'chapter.rented'));
      });

      it(`a signed-out locked chapter shows its price and both ways in: sign up, or log in (${site})`, async () => {
        const chapter = await withDb(server, async (db) => {
          const { pricingContext, accessIn } = await import('~/features/catalog/index.server');
          const t = now();
          const rows = await db.selectFrom('chapters').innerJoin('series', 'series.id', 'chapters.series_id')
            .select(['chapters.e4pid', 'chapters.number', 'chapters.language', 'series.slug', 'series.format', 'series.name', 'series.id as series_id'])
            .where('series.state', '=', 'ACTIVE').where('series.adult', '=', 0).where('series.geoblocks', 'in', ['[]', ''])
            .where('chapters.language', '=', languageOf(site)).where('chapters.original_price', '>', 0).where('chapters.released_at', '<=', t - DAY)
            .orderBy('chapters.id').limit(200).execute();
          for (const r of rows) {
            const ctx = await pricingContext(db, r.e4pid, t);
            const access = ctx && accessIn(ctx, null, null, t);
            if (access && !access.readable && access.finalPrice > 0) return { ...r, price: access.finalPrice };
          }
          return null;
        });
        expect(chapter).not.toBeNull();
        const path = readerPath({ slug: chapter!.slug, format: chapter!.format }, { e4pid: chapter!.e4pid, number: Number(chapter!.number), language: chapter!.language });
        const res = await get(path, null, site);
        expect(res.text).toContain('data-state="locked"');
        const notice = res.text.slice(res.text.indexOf('reader-notice-title'), res.text.indexOf('</section>', res.text.indexOf('reader-notice-title')));
        const text = htmlText(notice);
        // The price, as the row showed it: "3 keys" / "3 chaves".
        expect(text).toContain(message(locale, 'unlock.price', { price: chapter!.price }).replace(/^[^:]+:\s*/, ''));
        // Both ways in, each coming back to the chapter with its unlock dialog to reopen.
        const back = withIntent(path, { kind: 'unlock', e4pid: chapter!.e4pid });
        expect(notice).toContain(`href="${attr(signupPath(back))}"`);
        expect(notice).toContain(`href="${attr(loginPath(back))}"`);
        expect(text).toContain(message(locale, 'reader.locked.signup'));
        expect(text).toContain(message(locale, 'chapter.loginToRead'));
        // Portuguese names the chapter with its article: "Desbloqueie o Capítulo 6".
        if (site === 'br') expect(text).toMatch(/Desbloqueie o (Capítulo|Episódio) /);
      });

      it(`listing cards count the chapters of the site's languages, as the series page does (${site})`, async () => {
        const { name, counts, format, e4pid } = await withDb(server, async (db) => {
          const s = await db.selectFrom('series').select(['id', 'e4pid', 'name', 'format']).where('slug', '=', DEMO.longList).executeTakeFirstOrThrow();
          const rows = await db.selectFrom('series_languages').select(['site_id', 'chapter_count']).where('series_id', '=', s.id).execute();
          const pt = await db.selectFrom('series_texts').select('name').where('series_id', '=', s.id).where('language', '=', 'pt-br').executeTakeFirst();
          const of = (siteId: number) => rows.filter((r) => Number(r.site_id) === siteId).reduce((a, r) => a + Number(r.chapter_count), 0);
          return { e4pid: s.e4pid, name: { en: s.name, br: pt?.name ?? s.name }, counts: { en: of(1), br: of(3), all: rows.reduce((a, r) => a + Number(r.chapter_count), 0) }, format: s.format };
        });
        // The case the issue saw: the series has chapters in more than one language.
        expect(counts.all).toBeGreaterThan(counts[site]);
        const key = format === 'WEBTOON' ? 'series.episodeCount' : 'series.chapterCount';
        const html = (await get(`/comics/?q=${encodeURIComponent(name[site].split(' ').slice(-2).join(' '))}`, null, site)).text;
        const text = htmlText(html);
        expect(text).toContain(name[site]);
        expect(text).toContain(message(locale, key, { count: counts[site] }));
        expect(text).not.toContain(message(locale, key, { count: counts.all }));
        // The series API's info bar (what the apps show under the title) counts the same.
        const api = (await get(`/api/comic.public/${e4pid}`, null, site)).json() as { info_bar: { texts: string[] } };
        expect(api.info_bar.texts).toContain(message(locale, key, { count: counts[site] }));
      });

      it(`the schedule line is in the site's language, generated from the schedule when the series has none in it (${site})`, async () => {
        // English-only series with a line of their own and no Portuguese one.
        const series = await withDb(server, async (db) => {
          const rows = await db.selectFrom('series').select(['id', 'slug', 'update_text', 'update_status', 'format']).where('state', '=', 'ACTIVE').where('adult', '=', 0)
            .where('update_text', 'is not', null).where('geoblocks', 'in', ['[]', '']).orderBy('id').execute();
          for (const r of rows) {
            const langs = (await db.selectFrom('series_languages').select('language').where('series_id', '=', r.id).where('chapter_count', '>', 0).execute()).map((l) => l.language);
            const pt = await db.selectFrom('series_texts').select('update_text').where('series_id', '=', r.id).where('language', '=', 'pt-br').executeTakeFirst();
            if (langs.length === 1 && langs[0] === 'en' && !pt?.update_text && /every|weekly|month|hiatus/i.test(r.update_text ?? '')) return r;
          }
          return null;
        });
        expect(series, 'an English-only series with a schedule line').not.toBeNull();
        await listOnPortugueseSite(server, series!.slug);
        const text = htmlText((await get(`/comics/${series!.slug}/`, null, site)).text);
        const generated = message(locale, 'series.scheduleText', { status: series!.update_status, unit: series!.format === 'WEBTOON' ? 'episode' : 'chapter' });
        if (site === 'en') expect(text).toContain(series!.update_text!);
        else {
          expect(text).not.toContain(series!.update_text!);
          expect(generated).not.toBe('');
          expect(text).toContain(generated);
        }
        // The series' notes, free English text ("New chapters every Friday"), stay on the English site.
        const noted = await withDb(server, async (db) => {
          const rows = await db.selectFrom('series').select(['slug', 'hints']).where('state', '=', 'ACTIVE').where('adult', '=', 0).where('geoblocks', 'in', ['[]', '']).where('hints', 'like', '%every Friday%').execute();
          return rows[0] ?? null;
        });
        expect(noted).not.toBeNull();
        const note = (JSON.parse(String(noted!.hints)) as { text: string }[])[0]!.text;
        const page = htmlText((await get(`/comics/${noted!.slug}/`, null, site)).text);
        if (site === 'en') expect(page).toContain(note);
        else expect(page).not.toContain(note);
      });

      it(`/my/subscriptions/ names slot series as the site does (${site})`, async () => {
        const reader = await createReader(server, { site });
        const { en, pt } = await withDb(server, async (db) => {
          const plan = await db.selectFrom('plans').selectAll().where('site_id', '=', site === 'en' ? 1 : 3).where('code', '=', site === 'en' ? 'reader' : 'leitor').executeTakeFirstOrThrow();
          const s = await db.selectFrom('series').select(['id', 'name']).where('slug', '=', DEMO.longList).executeTakeFirstOrThrow();
          const text = await db.selectFrom('series_texts').select('name').where('series_id', '=', s.id).where('language', '=', 'pt-br').executeTakeFirstOrThrow();
          const t = now();
          const key = `${reader.id}w${++seq}`;
          // A live subscription as the checkout leaves it (subscription, paid charge, event), and the series in a slot.
          const sub = await db.insertInto('subscriptions').values({
            public_id: `sbsmw${key}`, user_id: reader.id, site_id: plan.site_id, plan_id: plan.id, state: 'ACTIVE', anchor_at: t - DAY, paid_until: t + 30 * DAY,
            canceled_at: null, method: 'card', provider: 'sandbox', payment_token: null, payer_name: null, payer_doc: null, created_at: t, updated_at: t,
          }).returning('id').executeTakeFirstOrThrow();
          const charge = await db.insertInto('subscription_charges').values({
            public_id: `submw${key}`, subscription_id: sub.id, user_id: reader.id, period_start: t - DAY, period_end: t + 30 * DAY, currency: plan.currency, amount: plan.price,
            method: 'card', provider: 'sandbox', state: 'PAID', payment_id: `sbx_mw${key}`, paid_at: t, created_at: t, updated_at: t,
          }).returning('id').executeTakeFirstOrThrow();
          await db.insertInto('subscription_events').values({ subscription_id: sub.id, state: 'ACTIVE', source: 'payment', detail: 'paid by the test', charge_id: charge.id, created_at: t }).execute();
          await db.insertInto('subscription_series').values({ subscription_id: sub.id, series_id: s.id, created_at: t }).execute();
          return { en: s.name, pt: text.name! };
        });
        expect(pt).not.toBe(en);
        const res = await get('/my/subscriptions/', reader, site);
        expect(res.status).toBe(200);
        const list = htmlText(/<ul class="subs-series"[^>]*>([\s\S]*?)<\/ul>/.exec(res.text)?.[1] ?? '');
        expect(list).toContain(site === 'en' ? en : pt);
        expect(list).not.toContain(site === 'en' ? pt : en);
      });
    }
  });
}
