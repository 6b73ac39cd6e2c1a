/**
 * Series slots and plan rentals over real HTTP on both databases and both sites: the subscribe
 * button's call and its page states (with and without JavaScript), what a subscription opens
 * (rows, the reader page, page images, the episodes API) and what it stops opening when it ends,
 * renting with the plan (the dialog's call and the no-JavaScript form), and what concurrency must
 * never do: take more slots than the plan has, or more rentals than its monthly capacity. Readers
 * get a live subscription by a row written directly (plan from the seeded `plans`). The ledger
 * audit passes after every test.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ADD_COMIC_ENDPOINT, plansPath, readerPath, RENT_ENDPOINT, SUBSCRIBE_SERIES_FORM_PATH } from '~/lib/paths';
import { LIMITS } from '~/server/rate-limit-rules';
import { createReader, forgetLimits, htmlText, message, selectedDialects, useServer, withDb, type Reader, type SiteName } from './harness';

const now = () => Math.floor(Date.now() / 1000);
const DAY = 86_400;
const FORM = 'application/x-www-form-urlencoded';
let seq = 0;

interface Chapter {
  e4pid: string;
  seriesId: number;
  seriesE4pid: string;
  slug: string;
  path: string;
}

// Reading URLs only: a locked chapter of a series with a free preview shows its first pages
// under their own preview signature (`pv=1`, docs/reader.md), which is not reading the chapter.
const mediaUrls = (html: string) => [...new Set([...html.matchAll(/\/media\/p\/[^"'\s<>]+/g)].map((m) => m[0].replace(/&amp;|&#38;/g, '&')))].filter((u) => !/[?&]pv=1(&|$)/.test(u));
const localeOf = (site: SiteName) => (site === 'en' ? 'en' : 'pt-BR');

for (const dialect of selectedDialects()) {
  describe(`series slots and plan rentals (${dialect})`, () => {
    const server = useServer(dialect);
    /** Paid chapters a subscription to their series opens (subscription-enabled), by series. */
    let subscribable: Map<number, Chapter[]>;
    /** Paid chapters a plan rental opens (rental-enabled), all series. */
    let rentable: Chapter[];
    /** Active series, for filling slots. */
    let active: { id: number; e4pid: string }[];

    const get = (path: string, reader: Reader | null, site: SiteName = 'en') => server.request(path, { site, headers: reader ? { cookie: reader.cookie } : {} });
    const postForm = (path: string, reader: Reader | null, fields: Record<string, string>, site: SiteName = 'en') =>
      server.request(path, {
        method: 'POST', site, timeoutMs: 60_000,
        body: new URLSearchParams(fields).toString(),
        headers: { 'content-type': FORM, origin: server.origin(site), ...(reader ? { cookie: reader.cookie } : {}) },
      });
    const addComic = (reader: Reader | null, comicId: unknown, site: SiteName = 'en', endpoint = ADD_COMIC_ENDPOINT) =>
      server.request(endpoint, {
        method: 'POST', site, timeoutMs: 60_000,
        body: JSON.stringify({ comic_id: comicId }),
        headers: { 'content-type': 'application/json', origin: server.origin(site), ...(reader ? { cookie: reader.cookie } : {}) },
      });
    /** A live subscription to the site's 3-slot, 5-rental plan, written as the checkout would leave it. */
    const subscribe = (reader: Reader, site: SiteName = 'en') =>
      withDb(server, async (db) => {
        const plan = await db.selectFrom('plans').selectAll().where('site_id', '=', site === 'en' ? 1 : 3).where('code', '=', site === 'en' ? 'reader' : 'leitor').executeTakeFirstOrThrow();
        const t = now();
        // A paid subscription as its owner leaves one: the row, the paid charge of its period, and
        // the period's event naming that charge (the audit checks all three agree).
        const key = `${reader.id}x${++seq}`;
        const sub = await db.insertInto('subscriptions').values({
          public_id: `sbsit${key}`, user_id: reader.id, site_id: plan.site_id, plan_id: plan.id, state: 'ACTIVE', anchor_at: t - DAY, paid_until: t + 30 * DAY,
          canceled_at: null, method: 'card', provider: 'sandbox', payment_token: null, payer_name: null, payer_doc: null, created_at: t, updated_at: t,
        }).returning('id').executeTakeFirstOrThrow();
        const charge = await db.insertInto('subscription_charges').values({
          public_id: `subit${key}`, subscription_id: sub.id, user_id: reader.id, period_start: t - DAY, period_end: t + 30 * DAY, currency: plan.currency, amount: plan.price,
          method: 'card', provider: 'sandbox', state: 'PAID', payment_id: `sbx_it${key}`, paid_at: t, created_at: t, updated_at: t,
        }).returning('id').executeTakeFirstOrThrow();
        await db.insertInto('subscription_events').values({ subscription_id: sub.id, state: 'ACTIVE', source: 'payment', detail: 'paid by the test', charge_id: charge.id, created_at: t }).execute();
        return { slots: Number(plan.series_slots), rent: Number(plan.rent_capacity) };
      });
    /** Ends the reader's subscription: paid period and grace both over (its paid charge's period with it). */
    const lapse = (reader: Reader) =>
      withDb(server, async (db) => {
        const t = now();
        await db.updateTable('subscriptions').set({ paid_until: t - 30 * DAY }).where('user_id', '=', reader.id).execute();
        await db.updateTable('subscription_charges').set({ period_start: t - 60 * DAY, period_end: t - 30 * DAY }).where('user_id', '=', reader.id).where('state', '=', 'PAID').execute();
      });
    const slotsOf = (reader: Reader) =>
      withDb(server, async (db) => (await db.selectFrom('subscription_series').innerJoin('subscriptions', 'subscriptions.id', 'subscription_series.subscription_id').select('series_id').where('subscriptions.user_id', '=', reader.id).execute()).length);
    const rentalsOf = (reader: Reader) =>
      withDb(server, (db) => db.selectFrom('rentals').select(['chapter_id', 'kind', 'expires_at']).where('user_id', '=', reader.id).execute());
    const seriesWith = (n: number) => {
      const list = [...subscribable.values()].find((l) => l.length >= n);
      if (!list) throw new Error(`no demo series has ${n} subscription chapters`);
      return list;
    };

    beforeAll(async () => {
      ({ subscribable, rentable, active } = await withDb(server, async (db) => {
        const { pricingContext, accessIn } = await import('~/features/catalog/index.server');
        const t = now();
        const rows = await db.selectFrom('chapters').innerJoin('series', 'series.id', 'chapters.series_id')
          .select(['chapters.e4pid', 'chapters.series_id', 'chapters.number', 'chapters.language', 'chapters.subscription_enabled', 'chapters.rental_enabled', 'series.slug', 'series.format', 'series.e4pid as series_e4pid'])
          .where('series.state', '=', 'ACTIVE').where('series.geoblocks', 'in', ['[]', '']).where('chapters.language', '=', 'en')
          .where('chapters.original_price', '>', 0).where('chapters.released_at', '<=', t - DAY)
          .where((eb) => eb.or([eb('chapters.subscription_enabled', '=', 1), eb('chapters.rental_enabled', '=', 1)]))
          .orderBy('chapters.id').limit(1500).execute();
        const fresh = { owned: false, rentals: [], balances: { keys: 0, xtra: 0 }, dailyPassUsedAt: null, adsWatched: 0 };
        const plan = { rentCapacity: 5, rented: 0, resetsAt: t + 30 * DAY, rentTtl: 3 * DAY };
        const subs = new Map<number, Chapter[]>();
        const rent: Chapter[] = [];
        for (const r of rows) {
          const ctx = await pricingContext(db, r.e4pid, t);
          if (!ctx) continue;
          // Locked for a reader without a plan, for a few days yet (no free week ending mid-test).
          const before = accessIn(ctx, { ...fresh, subscription: null }, null, t);
          if (before.readable || before.readableUntil !== null) continue;
          const c: Chapter = { e4pid: r.e4pid, seriesId: Number(r.series_id), seriesE4pid: r.series_e4pid, slug: r.slug, path: readerPath({ slug: r.slug, format: r.format }, { e4pid: r.e4pid, number: Number(r.number), language: r.language }) };
          if (accessIn(ctx, { ...fresh, subscription: { series: true, plan: null } }, null, t).reason === 'subscription') subs.set(c.seriesId, [...(subs.get(c.seriesId) ?? []), c]);
          if (accessIn(ctx, { ...fresh, subscription: { series: false, plan } }, null, t).unlockMethods.rent.open) rent.push(c);
        }
        const series = await db.selectFrom('series').select(['id', 'e4pid']).where('state', '=', 'ACTIVE').orderBy('id').limit(60).execute();
        return { subscribable: subs, rentable: rent, active: series.map((s) => ({ id: Number(s.id), e4pid: s.e4pid })) };
      }));
      expect(subscribable.size).toBeGreaterThan(1);
      expect(rentable.length).toBeGreaterThan(5);
      expect(active.length).toBeGreaterThanOrEqual(50);
    }, 180_000);

    afterEach(async () => {
      expect(await withDb(server, async (db) => (await import('~/features/wallet/index.server')).auditLedger(db))).toEqual([]);
    });

    for (const site of ['en', 'br'] as const) {
      const locale = localeOf(site);
      it(`the series page offers the subscribe button, then shows the series subscribed after add-comic (${site})`, async () => {
        const [chapter] = seriesWith(1);
        const seriesPath = `/comics/${chapter!.slug}/`;
        // Anonymous visitors: a link to the plans page.
        const anon = await get(seriesPath, null, site);
        expect(anon.text).toContain(`<a class="btn" href="${plansPath()}" id="subscribe">${message(locale, 'subscribe.button.label')}</a>`);
        // The button's script comes only with its form.
        const script = /data-subscribe\]|SubscribeForm/;
        expect(anon.text).not.toMatch(script);
        const reader = await createReader(server, { site });
        const { slots } = await subscribe(reader, site);
        const before = await get(seriesPath, reader, site);
        expect(before.text).toContain(`action="${SUBSCRIBE_SERIES_FORM_PATH}"`);
        expect(before.text).toContain(`name="comic_id" value="${chapter!.seriesE4pid}"`);
        expect(before.text).toContain(`data-endpoint="${ADD_COMIC_ENDPOINT}"`);
        expect(before.text).not.toContain('data-subscribed');
        expect(before.text).toMatch(script);
        expect(htmlText(before.text)).not.toContain(message(locale, 'chapter.subscribed'));

        const res = await addComic(reader, chapter!.seriesE4pid, site);
        expect(res.status).toBe(200);
        expect(res.headers['cache-control']).toContain('no-store');
        expect(res.json()).toEqual({ success: true, error: null, slots_left: slots - 1 });
        // The same series again takes no second slot.
        expect((await addComic(reader, chapter!.seriesE4pid, site)).json()).toEqual({ success: true, error: null, slots_left: slots - 1 });
        expect(await slotsOf(reader)).toBe(1);

        const after = await get(seriesPath, reader, site);
        expect(after.text).toContain('data-subscribed');
        expect(after.text).not.toMatch(script);
        expect(after.text).not.toContain(`action="${SUBSCRIBE_SERIES_FORM_PATH}"`);
        expect(htmlText(after.text)).toContain(message(locale, 'subscribe.button.done'));
        // The rows the subscription opens say so, and sell nothing.
        expect(after.text).toContain(`<span class="chip chip-owned">${message(locale, 'chapter.subscribed')}</span>`);
        expect(after.text).not.toContain(`name="content" value="${chapter!.e4pid}"`);
        // The episodes API says the same.
        const episodes = (await get(`/api/comic/${chapter!.seriesId}/episodes?language=en`, reader, site)).json() as { episodes: { id: string; subscribed: boolean; state: string; readable: boolean }[]; free_availability: { subscribed: boolean } };
        expect(episodes.free_availability.subscribed).toBe(true);
        expect(episodes.episodes.find((e) => e.id === chapter!.e4pid)).toMatchObject({ subscribed: true, state: 'unlocked', readable: true });
      });
    }

    it('answers 401 signed out, 402 without a plan (with the message), 409 with no slot left, 404 for an unknown series, on /api and /sapi', async () => {
      expect((await addComic(null, active[0]!.e4pid)).status).toBe(401);
      const reader = await createReader(server);
      for (const site of ['en', 'br'] as const) {
        const res = await addComic(reader, active[0]!.e4pid, site, '/sapi/subscription/add-comic');
        expect(res.status).toBe(402);
        expect(res.json()).toEqual({ success: false, error: message(localeOf(site), 'subscribe.error.noPlan'), slots_left: 0 });
      }
      const { slots } = await subscribe(reader);
      expect((await addComic(reader, 'SER-doesnotexist')).status).toBe(404);
      expect((await addComic(reader, '')).json()).toEqual({ success: false, error: message('en', 'subscribe.error.missing'), slots_left: 0 });
      for (let i = 0; i < slots; i++) expect((await addComic(reader, active[i]!.id, 'en', i % 2 ? '/sapi/subscription/add-comic/' : ADD_COMIC_ENDPOINT)).json().slots_left).toBe(slots - i - 1);
      const full = await addComic(reader, active[slots]!.e4pid, 'br');
      expect(full.status).toBe(409);
      expect(full.json()).toEqual({ success: false, error: message('pt-BR', 'subscribe.error.noSlots', { slots }), slots_left: 0 });
      expect(await slotsOf(reader)).toBe(slots);
    });

    it('subscribes without JavaScript: the form puts the series in a slot and comes back; without a plan it says why, with the plans link', async () => {
      const [chapter] = seriesWith(1);
      const seriesPath = `/comics/${chapter!.slug}/`;
      const reader = await createReader(server);
      const signedOut = await postForm(SUBSCRIBE_SERIES_FORM_PATH, null, { comic_id: chapter!.seriesE4pid, next: seriesPath });
      expect(signedOut.status).toBe(303);
      expect(signedOut.headers.location).toMatch(/^\/auth\/login\//);
      for (const site of ['en', 'br'] as const) {
        const refused = await postForm(SUBSCRIBE_SERIES_FORM_PATH, reader, { comic_id: chapter!.seriesE4pid, next: `${seriesPath}?order=asc` }, site);
        expect(refused.status).toBe(303);
        expect(refused.headers.location).toBe(`${seriesPath}?order=asc&subscribe=noPlan#subscribe`);
        const page = await get(refused.headers.location!.replace(/#.*/, ''), reader, site);
        expect(htmlText(page.text)).toContain(message(localeOf(site), 'subscribe.error.noPlan'));
        expect(page.text).toMatch(new RegExp(`<a href="${plansPath()}" data-plans>${message(localeOf(site), 'subscribe.button.plans')}</a>`));
      }
      // An off-site `next` comes back home, never elsewhere.
      expect((await postForm(SUBSCRIBE_SERIES_FORM_PATH, reader, { comic_id: chapter!.seriesE4pid, next: '//evil.example/' })).headers.location).toBe('/?subscribe=noPlan#subscribe');
      await subscribe(reader);
      const done = await postForm(SUBSCRIBE_SERIES_FORM_PATH, reader, { comic_id: chapter!.seriesE4pid, next: `${seriesPath}?subscribe=noPlan` });
      expect(done.headers.location).toBe(`${seriesPath}#subscribe`);
      expect((await get(seriesPath, reader)).text).toContain('data-subscribed');
      expect(await slotsOf(reader)).toBe(1);
    });

    it('a subscription-enabled chapter is readable once its series is subscribed (pages and images), not before, and not after the plan ends', async () => {
      const [chapter] = seriesWith(1);
      const reader = await createReader(server);
      await subscribe(reader);
      // A plan alone opens nothing: the series must be in a slot.
      const locked = await get(chapter!.path, reader);
      expect(locked.status).toBe(200);
      expect(mediaUrls(locked.text)).toEqual([]);
      expect(locked.text).toContain('data-state="locked"');
      expect((await addComic(reader, chapter!.seriesId)).status).toBe(200);
      for (const site of ['en', 'br'] as const) {
        const open = await get(chapter!.path, reader, site);
        expect(open.text).toContain('data-state="readable"');
        expect(htmlText(open.text)).toContain(message(localeOf(site), 'chapter.subscribed'));
        const urls = mediaUrls(open.text);
        expect(urls.length).toBeGreaterThan(0);
        const image = await get(urls[0]!, reader, site);
        expect(image.status).toBe(200);
        expect(image.headers['content-type']).toBe('image/webp');
        expect(image.headers['cache-control']).toContain('private');
        // Another reader cannot use this reader's page URLs.
        const other = await createReader(server);
        expect((await get(urls[0]!, other, site)).status).toBe(403);
      }
      const urls = mediaUrls((await get(chapter!.path, reader)).text);
      await lapse(reader);
      expect((await get(chapter!.path, reader)).text).toContain('data-state="locked"');
      expect((await get(urls[0]!, reader)).status).toBe(403);
    });

    it('rents with the plan: the dialog\'s call, the form without JavaScript (way=rent), the rented row and its end, the rentals left; no plan says why', async () => {
      const [a, b] = rentable;
      const reader = await createReader(server);
      // No plan: the form goes back to the chapter saying why, in the reader's language; the API promotes plans.
      const refused = await postForm('/unlock/', reader, { content: a!.e4pid, way: 'rent' });
      expect(refused.status).toBe(303);
      expect(refused.headers.location).toBe(`${a!.path}?unlock=rentUnavailable`);
      for (const site of ['en', 'br'] as const) {
        expect(htmlText((await get(refused.headers.location!, reader, site)).text)).toContain(message(localeOf(site), 'wallet.error.rentUnavailable'));
        const promo = (await get(`/api/comic/${a!.seriesId}/episodes?language=en`, reader, site)).json() as { rent_availability: { rent_promo_text: string | null; no_access_plan_available: boolean } };
        expect(promo.rent_availability).toMatchObject({ no_access_plan_available: true, rent_promo_text: message(localeOf(site), 'series.rentPromo') });
      }
      const api = await postForm(RENT_ENDPOINT, reader, { content: a!.e4pid });
      expect(api.status).toBe(409);
      expect(api.json().detail).toBe(message('en', 'wallet.rent.noPlan'));

      const { rent } = await subscribe(reader);
      const seriesPath = `/comics/${a!.slug}/`;
      const offered = await get(seriesPath, reader);
      expect(offered.text).toMatch(new RegExp(`value="${a!.e4pid}" data-price="\\d+"(?: data-was="\\d+")?(?: data-pass)?(?: data-ad)? data-rent="${rent}"`));
      const lockedPage = await get(a!.path, reader);
      expect(htmlText(lockedPage.text)).toContain(message('en', 'unlock.rent', { n: rent }));
      expect(lockedPage.text).toContain('name="way" value="rent"');

      // Without JavaScript.
      const form = await postForm('/unlock/', reader, { content: a!.e4pid, way: 'rent' });
      expect(form.status).toBe(303);
      expect(form.headers.location).toBe(a!.path);
      const page = await get(a!.path, reader);
      expect(page.text).toContain('data-state="readable"');
      expect(mediaUrls(page.text).length).toBeGreaterThan(0);
      expect(htmlText(page.text)).toContain(message('en', 'chapter.rented'));
      // The dialog's call, on the Portuguese site.
      const call = await postForm(RENT_ENDPOINT, reader, { content: b!.e4pid }, 'br');
      expect(call.status).toBe(200);
      const body = call.json() as { content: string; rental: { created_at: string; expires_at: string } };
      expect(body.content).toBe(b!.e4pid);
      expect(Date.parse(body.rental.expires_at)).toBeGreaterThan(Date.now());
      const rentals = await rentalsOf(reader);
      expect(rentals.map((r) => r.kind)).toEqual(['plan', 'plan']);

      // The row: rented, with its end, refreshable; the others offer one rental fewer each time.
      const series = await get(seriesPath, reader);
      expect(series.text).toMatch(new RegExp(`<span class="chip chip-owned">${message('en', 'chapter.rented')}</span><span class="until">[^<]*<time datetime="[^"]+" data-countdown="\\d+">`));
      expect(series.text).not.toContain(`value="${a!.e4pid}"`);
      const episodes = (await get(`/api/comic/${a!.seriesId}/episodes?language=en`, reader)).json() as { episodes: { id: string; rental: unknown }[]; rent_availability: Record<string, unknown> };
      expect(episodes.rent_availability).toMatchObject({ no_access_plan_available: false, rented: true, rent_capacity: rent, rent_promo_text: null });
      expect(episodes.episodes.find((e) => e.id === a!.e4pid)?.rental).not.toBeNull();
      if (rentable.some((c) => c.seriesId === a!.seriesId && c !== a && c !== b)) expect(series.text).toContain(`data-rent="${rent - 2}"`);
    });

    it('50 add-comic calls at once for 50 series, with a 3-slot plan, give exactly 3 slots and never a negative count', { timeout: 120_000 }, async () => {
      const reader = await createReader(server);
      const { slots } = await subscribe(reader);
      expect(slots).toBe(3);
      const answers = await Promise.all(active.slice(0, 50).map((s, i) => addComic(reader, s.e4pid, i % 2 ? 'br' : 'en', i % 3 ? ADD_COMIC_ENDPOINT : '/sapi/subscription/add-comic')));
      const bodies = answers.map((r) => r.json() as { success: boolean; slots_left: number });
      expect(answers.filter((r) => r.status === 200)).toHaveLength(3);
      // The burst also meets the route limit (LIMITS.subscriptionChanges).
      expect(answers.filter((r) => r.status === 429)).toHaveLength(50 - LIMITS.subscriptionChanges.max);
      expect(answers.filter((r) => r.status !== 200 && r.status !== 409 && r.status !== 429)).toEqual([]);
      expect(bodies.filter((b) => b.success).map((b) => b.slots_left).sort()).toEqual([0, 1, 2]);
      expect(bodies.filter((_b, i) => answers[i]!.status !== 429).every((b) => b.slots_left >= 0)).toBe(true);
      expect(await slotsOf(reader)).toBe(3);
    });

    it('30 rentals at once with a capacity of 5 give exactly 5', { timeout: 120_000 }, async () => {
      const reader = await createReader(server);
      const { rent } = await subscribe(reader);
      expect(rent).toBe(5);
      const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => postForm(RENT_ENDPOINT, reader, { content: rentable[i % rentable.length]!.e4pid }, i % 2 ? 'br' : 'en')));
      expect(answers.filter((r) => r.status === 200)).toHaveLength(5);
      expect(answers.filter((r) => r.status !== 200 && r.status !== 409 && r.status !== 429)).toEqual([]);
      const rentals = await rentalsOf(reader);
      expect(rentals).toHaveLength(5);
      expect(new Set(rentals.map((r) => r.chapter_id)).size).toBe(5);
      // The sixth is refused, saying so.
      const sixth = rentable.find((c) => !answers.some((r, i) => r.status === 200 && rentable[i % rentable.length] === c));
      if (sixth) {
        await forgetLimits(server, reader);
        const res = await postForm(RENT_ENDPOINT, reader, { content: sixth.e4pid });
        expect(res.status).toBe(409);
        expect(res.json().detail).toMatch(new RegExp(message('en', 'wallet.rent.limit', { when: 'X' }).split('X')[0]!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
      }
    });
  });
}
