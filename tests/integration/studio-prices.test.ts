/**
 * The studio's prices (issue 27, capability `pricing`), over real HTTP on both databases: a
 * series' chapters priced by the one pricing rule, a chapter's offer edited by form (checked,
 * audited in the same transaction, seen by readers at once), scheduled releases typed in the
 * staff member's zone, refusals with messages, and the money invariant when a price changes while
 * readers unlock the same chapter: each pays the price their request read, and the ledger audit
 * passes. The chapters it edits are its own (language `es`, which no site lists, released before
 * any release check looks back), so the shared servers' other tests never see them move.
 */
import crypto from 'node:crypto';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { appCheckHeader, createReader, createStaff, htmlText, markup, message, type Reader, selectedDialects, type ServerClient, useServer, withDb } from './harness';

const now = () => Math.floor(Date.now() / 1000);
const DAY = 86_400;
let seq = 0;

interface TestChapter { id: number; e4pid: string; seriesId: number }

/**
 * A chapter of its own, sold with keys for `price` (`releasedAt` in the future: scheduled). It
 * goes after the other `es` chapters of one series with no campaign or geoblock; the series'
 * free start covers its first few chapters in a language, so chapters are added until one is
 * past it (the pricing rule says so, not this test).
 */
async function ownChapter(server: ServerClient, price: number, releasedAt = now() - 30 * DAY): Promise<TestChapter> {
  return withDb(server, async (db) => {
    const { accessIn, pricingContext } = await import('~/features/catalog/index.server');
    const series = await db.selectFrom('series').select('id').where('state', '=', 'ACTIVE').where('all_free', '=', 0).where('geoblocks', 'in', ['[]', '']).where('adult', '=', 0)
      .where((eb) => eb.not(eb.exists(eb.selectFrom('campaigns').select('campaigns.id').whereRef('campaigns.series_id', '=', 'series.id'))))
      .orderBy('id').executeTakeFirstOrThrow();
    for (let tries = 0; tries < 20; tries++) {
      const last = await db.selectFrom('chapters').select((eb) => eb.fn.max('number').as('n')).where('series_id', '=', series.id).where('language', '=', 'es').executeTakeFirst();
      const e4pid = `EPI-prices${crypto.randomBytes(5).toString('hex')}`;
      const row = await db.insertInto('chapters').values({
        e4pid, series_id: series.id, language: 'es', number: Math.max(90_000, Math.floor(Number(last?.n ?? 0)) + 1), title: 'Precio de prueba', subtitle: null,
        released_at: Math.min(releasedAt, now() - 30 * DAY), sale_at: Math.min(releasedAt, now() - 30 * DAY), expired_at: null, original_price: price, thumbnail: null,
        purchase_enabled: 1, purchase_many_enabled: 1, daily_pass_enabled: 0, ads_enabled: 0, rental_enabled: 0, subscription_enabled: 0, page_count: 0, created_at: now(),
      }).returning('id').executeTakeFirstOrThrow();
      const ctx = await pricingContext(db, e4pid, now());
      const access = ctx && accessIn(ctx, { owned: false, rentals: [], balances: { keys: 1e6, xtra: 0 }, dailyPassUsedAt: null, adsWatched: 0, subscription: null }, null, now());
      if (access?.unlockMethods.keys.open && access.finalPrice === price) {
        // Scheduled ones move to their time once priced as sold (the free start counts released chapters).
        if (releasedAt > now()) await db.updateTable('chapters').set({ released_at: releasedAt, sale_at: releasedAt }).where('id', '=', row.id).execute();
        return { id: Number(row.id), e4pid, seriesId: Number(series.id) };
      }
    }
    throw new Error('no chapter past the free start after 20 tries');
  });
}

for (const dialect of selectedDialects()) {
  describe(`studio prices (${dialect})`, () => {
    const server = useServer(dialect);
    let pricing: Reader;

    beforeAll(async () => {
      pricing = await createStaff(server, 'pricing');
    });
    afterEach(async () => {
      expect(await withDb(server, async (db) => (await import('~/features/wallet/index.server')).auditLedger(db))).toEqual([]);
    });

    const get = (path: string, who: Reader | null, site: 'en' | 'br' = 'en') => server.request(path, { site, headers: who ? { cookie: who.cookie } : {} });
    const save = (who: Reader | null, chapterId: number, fields: Record<string, string>, opts: { site?: 'en' | 'br'; origin?: string } = {}) => server.request(`/studio/prices/chapter/${chapterId}/`, {
      site: opts.site ?? 'en', method: 'POST', body: new URLSearchParams(fields).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html', origin: opts.origin ?? server.origin(opts.site ?? 'en'), 'sec-fetch-site': opts.origin ? 'cross-site' : 'same-origin', ...(who ? { cookie: who.cookie } : {}) },
    });
    const offer = (id: number) => withDb(server, (db) => db.selectFrom('chapters').selectAll().where('id', '=', id).executeTakeFirstOrThrow());
    const grantKeys = (reader: Reader, keys: number) => withDb(server, async (db) => {
      const { grantKeys: grant } = await import('~/features/wallet/index.server');
      await grant(db, { userId: reader.id, keys, xtra: 0, reason: 'test', key: `prices:${reader.id}:${++seq}`, now: now() });
    });
    const redeem = async (reader: Reader, e4pid: string) => server.request('/api/redeem/', {
      method: 'POST', body: new URLSearchParams({ content: e4pid }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.origin(), cookie: reader.cookie, ...(await appCheckHeader(server, reader)) },
    });

    it('finds a series, lists its chapters with what a reader pays by the one pricing rule, and answers 404 for unknown ids', async () => {
      const found = await get('/studio/prices/?q=', pricing);
      expect(found.status).toBe(200);
      expect(found.headers['cache-control']).toContain('no-store');
      expect(found.text).toContain('<meta name="robots" content="noindex"');
      const first = /href="\/studio\/prices\/(\d+)\/"/.exec(markup(found.text));
      expect(first).toBeTruthy();
      const seriesId = Number(first![1]);
      const page = await get(`/studio/prices/${seriesId}/`, pricing);
      expect(page.status).toBe(200);
      // Each row's "a reader pays" is the rule's answer for an anonymous reader now.
      const expected = await withDb(server, async (db) => {
        const { anonymousPricer } = await import('~/features/catalog/index.server');
        const chapters = await db.selectFrom('chapters').selectAll().where('series_id', '=', seriesId).where('language', '=', 'en').orderBy('number').execute();
        const price = await anonymousPricer(db, [seriesId], 'en', now());
        return chapters.map((c) => ({ e4pid: c.e4pid, access: price(seriesId, c)! }));
      });
      expect(expected.length).toBeGreaterThan(0);
      for (const { e4pid, access } of expected.slice(0, 40)) {
        const row = new RegExp(`<tr class="prices-row" data-chapter="${e4pid}"[^>]*>([\\s\\S]*?)</tr>`).exec(page.text)?.[1] ?? '';
        const cell = htmlText(/<td class="prices-now"[^>]*>([\s\S]*?)<\/td>/.exec(row)?.[1] ?? '');
        const want = access.state === 'free' || access.finalPrice === 0 ? message('en', 'studio.prices.free') : access.state === 'scheduled' ? message('en', 'studio.prices.scheduled') : message('en', 'studio.prices.keys', { n: access.finalPrice });
        expect(cell, e4pid).toBe(want);
      }
      for (const path of ['/studio/prices/999999999/', '/studio/prices/abc/', '/studio/prices/chapter/999999999/', '/studio/prices/chapter/-1/']) {
        expect((await get(path, pricing)).status, path).toBe(404);
      }
      expect((await get(`/studio/prices/${seriesId}/?at=yesterday`, pricing)).status).toBe(400);
    });

    it('saves a price and the ways to read with one audit record; readers are charged the new price at once', async () => {
      const chapter = await ownChapter(server, 5);
      const form = await get(`/studio/prices/chapter/${chapter.id}/`, pricing, 'br');
      expect(form.status).toBe(200);
      expect(htmlText(form.text)).toContain(message('pt-BR', 'studio.prices.listPrice'));
      const saved = await save(pricing, chapter.id, { price: '12', purchase: '1', rental: '1', zone: 'UTC' });
      expect([saved.status, saved.headers.location]).toEqual([303, `/studio/prices/chapter/${chapter.id}/?done=saved`]);
      const row = await offer(chapter.id);
      expect([Number(row.original_price), Number(row.purchase_enabled), Number(row.rental_enabled), Number(row.daily_pass_enabled)]).toEqual([12, 1, 1, 0]);
      const audit = await withDb(server, (db) => db.selectFrom('audit_log').selectAll().where('object_table', '=', 'chapters').where('object_id', '=', String(chapter.id)).execute());
      expect(audit.map((a) => [a.action, Number(a.actor_id), a.capability])).toEqual([['chapter.offer', pricing.id, 'pricing']]);
      expect(JSON.parse(audit[0]!.before_json!)).toMatchObject({ price: 5, rental_enabled: 0 });
      expect(JSON.parse(audit[0]!.after_json!)).toMatchObject({ price: 12, rental_enabled: 1 });
      // The same form again changes nothing and writes no record.
      const again = await save(pricing, chapter.id, { price: '12', purchase: '1', rental: '1', zone: 'UTC' });
      expect(again.headers.location).toBe(`/studio/prices/chapter/${chapter.id}/?done=unchanged`);
      expect(await withDb(server, async (db) => (await db.selectFrom('audit_log').select('id').where('object_table', '=', 'chapters').where('object_id', '=', String(chapter.id)).execute()).length)).toBe(1);

      const reader = await createReader(server);
      await grantKeys(reader, 20);
      const bought = await redeem(reader, chapter.e4pid);
      expect(bought.status).toBe(200);
      expect(JSON.parse(bought.text)).toMatchObject({ charged: { price: 12, currency: 'keys' }, bonus: 1, profile: { keys: 8, free_keys: 1 } });
    });

    it('refuses bad values with messages in the site language and changes nothing', async () => {
      const chapter = await ownChapter(server, 5);
      const cases: [Record<string, string>, string][] = [
        [{ price: '-1', zone: 'UTC' }, 'studio.prices.error.price'],
        [{ price: 'abc', zone: 'UTC' }, 'studio.prices.error.price'],
        [{ price: '100000', zone: 'UTC' }, 'studio.prices.error.price'],
        [{ price: '5', zone: 'Mars/Olympus' }, 'studio.prices.error.zone'],
        [{ price: '5', zone: 'UTC', expiry: '2001-01-01T00:00' }, 'studio.prices.error.expiryOrder'],
        [{ price: '5', zone: 'UTC', sale: 'soon' }, 'studio.prices.error.time'],
        [{ price: '5', zone: 'UTC', release: '2030-01-01T00:00' }, 'studio.prices.error.releaseLocked'],
      ];
      for (const [fields, key] of cases) {
        const res = await save(pricing, chapter.id, fields, { site: 'br' });
        expect(res.status, JSON.stringify(fields)).toBe(422);
        expect(htmlText(res.text), JSON.stringify(fields)).toContain(message('pt-BR', key, { max: 999 }));
      }
      expect(Number((await offer(chapter.id)).original_price)).toBe(5);
      const garbage = await server.request(`/studio/prices/chapter/${chapter.id}/`, { method: 'POST', body: '%zz=%', headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.origin(), cookie: pricing.cookie } });
      expect([400, 422]).toContain(garbage.status);
      // Without the capability, or from another site, nothing changes.
      const content = await createStaff(server, 'content');
      expect((await save(content, chapter.id, { price: '1', zone: 'UTC' })).status).toBe(403);
      expect((await save(pricing, chapter.id, { price: '1', zone: 'UTC' }, { origin: 'https://evil.example' })).status).toBe(403);
      const anon = await save(null, chapter.id, { price: '1', zone: 'UTC' });
      expect([anon.status, anon.headers.location]).toEqual([303, `/auth/login/?next=${encodeURIComponent(`/studio/prices/chapter/${chapter.id}/`)}`]);
      expect(Number((await offer(chapter.id)).original_price)).toBe(5);
    });

    it('schedules in the staff member\'s zone, refuses a past release, and releases now on request', async () => {
      const chapter = await ownChapter(server, 3, now() + 10 * DAY);
      // 2040-01-15 09:30 in São Paulo (UTC-3) is 12:30 UTC.
      const scheduled = await save(pricing, chapter.id, { price: '3', purchase: '1', zone: 'America/Sao_Paulo', release: '2040-01-15T09:30' });
      expect(scheduled.status).toBe(303);
      expect(Number((await offer(chapter.id)).released_at)).toBe(Date.UTC(2040, 0, 15, 12, 30) / 1000);
      expect(Number((await offer(chapter.id)).sale_at)).toBe(Date.UTC(2040, 0, 15, 12, 30) / 1000);
      const form = await get(`/studio/prices/chapter/${chapter.id}/`, pricing);
      expect(form.text).toContain('value="2040-01-15T12:30"');
      const past = await save(pricing, chapter.id, { price: '3', purchase: '1', zone: 'UTC', release: '2020-01-01T00:00' });
      expect(past.status).toBe(422);
      expect(htmlText(past.text)).toContain(message('en', 'studio.prices.error.releasePast'));
      const reader = await createReader(server);
      await grantKeys(reader, 3);
      expect((await redeem(reader, chapter.e4pid)).status).toBe(409);
      const release = await save(pricing, chapter.id, { price: '3', purchase: '1', zone: 'UTC', release_now: '1' });
      expect(release.status).toBe(303);
      expect(Number((await offer(chapter.id)).released_at)).toBeLessThanOrEqual(now());
      const bought = await redeem(reader, chapter.e4pid);
      expect(bought.status).toBe(200);
      expect(JSON.parse(bought.text).charged).toEqual({ price: 3, currency: 'keys' });
    });

    it('a price change while readers unlock the same chapter: each pays the price their request read, and the ledger adds up', async () => {
      const chapter = await ownChapter(server, 5);
      const readers: Reader[] = [];
      for (let i = 0; i < 8; i++) readers.push(await createReader(server));
      for (const r of readers) await grantKeys(r, 40);
      const headers = await Promise.all(readers.map((r) => appCheckHeader(server, r)));
      const unlock = (r: Reader, i: number) => server.request('/api/redeem/', {
        method: 'POST', body: new URLSearchParams({ content: chapter.e4pid }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.origin(), cookie: r.cookie, ...headers[i] },
      });
      const first = readers.slice(0, 4).map((r, i) => unlock(r, i));
      const change = save(pricing, chapter.id, { price: '9', purchase: '1', zone: 'UTC' });
      const rest = readers.slice(4).map((r, i) => unlock(r, i + 4));
      const answers = await Promise.all([...first, ...rest]);
      expect((await change).status).toBe(303);
      const unlocks = await withDb(server, (db) => db.selectFrom('chapter_unlocks').select(['user_id', 'price']).where('chapter_id', '=', chapter.id).execute());
      for (const [i, res] of answers.entries()) {
        expect(res.status, res.text).toBe(200);
        const charged = JSON.parse(res.text).charged.price as number;
        expect([5, 9]).toContain(charged);
        const kept = unlocks.find((u) => Number(u.user_id) === readers[i]!.id);
        expect(Number(kept?.price)).toBe(charged);
        const balance = await withDb(server, async (db) => (await import('~/features/wallet/index.server')).balancesOf(db, readers[i]!.id));
        expect(balance.keys).toBe(40 - charged);
      }
      expect(unlocks).toHaveLength(8);
      // After the change every request reads the new price.
      const late = await createReader(server);
      await grantKeys(late, 40);
      expect(JSON.parse((await redeem(late, chapter.e4pid)).text).charged).toEqual({ price: 9, currency: 'keys' });
    });

    it('previews a campaign by the pricing rule before it is saved, then the saved campaign prices the same; refusals and deletion are audited or harmless', async () => {
      // A window two months ahead, so the campaign never touches what the shared server's other
      // tests see (years ahead, the series' free periods have made everything free).
      const utc = (at: number) => new Date(at * 1000).toISOString().slice(0, 16);
      const [starts, ends, at] = [utc(now() + 60 * DAY), utc(now() + 70 * DAY), utc(now() + 65 * DAY)];
      // A series whose English chapters cost 4 keys or more, so half off shows.
      const seriesId = await withDb(server, async (db) => Number((await db.selectFrom('series').innerJoin('series_languages', 'series_languages.series_id', 'series.id')
        .select('series.id').where('series_languages.site_id', '=', 1).where('series_languages.chapter_count', '>', 20).where('series.state', '=', 'ACTIVE')
        .where((eb) => eb.exists(eb.selectFrom('chapters').select('chapters.id').whereRef('chapters.series_id', '=', 'series.id').where('chapters.language', '=', 'en').where('chapters.original_price', '>=', 4)))
        .orderBy('series.id', 'desc').executeTakeFirstOrThrow()).id));
      const fields = { name: `Promo ${seq++}`, discount: '50', from: '1', to: '400', starts, ends, zone: 'UTC' };
      const cells = (html: string, cls: string) => Object.fromEntries([...html.matchAll(new RegExp(`<tr class="(?:preview|prices)-row" data-chapter="([^"]+)"[^>]*>[\\s\\S]*?<td class="${cls}"[^>]*>([\\s\\S]*?)</td>`, 'g'))].map((m) => [m[1], htmlText(m[2]!)]));
      const preview = await get(`/studio/prices/campaigns/new/?series=${seriesId}&preview=1&at=${at}&${new URLSearchParams(fields)}`, pricing);
      expect(preview.status).toBe(200);
      const previewed = cells(preview.text, 'preview-anonymous');
      expect(Object.keys(previewed).length).toBeGreaterThan(20);
      expect(cells(preview.text, 'preview-subscriber')).toHaveProperty(Object.keys(previewed)[0]!);
      const without = cells((await get(`/studio/prices/${seriesId}/?at=${at}&zone=UTC`, pricing)).text, 'prices-now');
      // Half off: some paid chapter costs less in the preview than without the campaign.
      const keysOf = (text: string | undefined) => Number(/\d+/.exec(text ?? '')?.[0] ?? NaN);
      expect(Object.keys(previewed).some((e) => keysOf(previewed[e]) < keysOf(without[e]))).toBe(true);

      const post = (path: string, body: Record<string, string>, site: 'en' | 'br' = 'en') => server.request(path, {
        site, method: 'POST', body: new URLSearchParams(body).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.origin(site), 'sec-fetch-site': 'same-origin', cookie: pricing.cookie },
      });
      for (const [bad, key] of [[{ discount: '0' }, 'discount'], [{ discount: '150' }, 'discount'], [{ from: '9', to: '3' }, 'range'], [{ ends: utc(now() + 50 * DAY) }, 'window'], [{ starts: 'tomorrow' }, 'time'], [{ name: '' }, 'name']] as const) {
        const res = await post(`/studio/prices/campaigns/new/?series=${seriesId}`, { ...fields, ...bad }, 'br');
        expect(res.status, JSON.stringify(bad)).toBe(422);
        expect(htmlText(res.text)).toContain(message('pt-BR', `studio.campaign.error.${key}`));
      }
      const created = await post(`/studio/prices/campaigns/new/?series=${seriesId}`, { ...fields, action: 'save' });
      expect([created.status, created.headers.location]).toEqual([303, `/studio/prices/${seriesId}/?campaign=saved`]);
      const campaign = await withDb(server, (db) => db.selectFrom('campaigns').selectAll().where('series_id', '=', seriesId).where('name', '=', fields.name).executeTakeFirstOrThrow());
      expect([Number(campaign.discount), Number(campaign.starts_at), Number(campaign.ends_at)]).toEqual([0.5, Date.parse(`${starts}:00Z`) / 1000, Date.parse(`${ends}:00Z`) / 1000]);
      try {
        const stored = cells((await get(`/studio/prices/${seriesId}/?at=${at}&zone=UTC`, pricing)).text, 'prices-now');
        expect(stored).toEqual(previewed);
        const listed = await get(`/studio/prices/${seriesId}/?campaign=saved`, pricing, 'br');
        expect(htmlText(listed.text)).toContain(message('pt-BR', 'studio.campaigns.saved'));
        expect(listed.text).toContain(`href="/studio/prices/campaigns/${campaign.id}/"`);
        // Edited to all free: the preview of the stored campaign's page says free.
        const edited = await post(`/studio/prices/campaigns/${campaign.id}/`, { ...fields, discount: '', all_free: '1', action: 'save' });
        expect(edited.status).toBe(303);
        const page = await get(`/studio/prices/campaigns/${campaign.id}/?at=${at}`, pricing);
        expect(Object.values(cells(page.text, 'preview-anonymous')).every((v) => v === message('en', 'studio.prices.free') || v === '—')).toBe(true);
      } finally {
        const removed = await post(`/studio/prices/campaigns/${campaign.id}/`, { ...fields, action: 'delete' });
        expect(removed.headers.location).toBe(`/studio/prices/${seriesId}/?campaign=deleted`);
      }
      expect(await withDb(server, async (db) => (await db.selectFrom('campaigns').select('id').where('id', '=', campaign.id).execute()).length)).toBe(0);
      const audit = await withDb(server, (db) => db.selectFrom('audit_log').select(['action', 'capability']).where('object_table', '=', 'campaigns').where('object_id', '=', String(campaign.id)).orderBy('id').execute());
      expect(audit.map((a) => a.action)).toEqual(['campaign.create', 'campaign.update', 'campaign.delete']);
      for (const path of ['/studio/prices/campaigns/999999999/', '/studio/prices/campaigns/new/', '/studio/prices/campaigns/new/?series=999999999', '/studio/prices/campaigns/x/']) {
        expect((await get(path, pricing)).status, path).toBe(404);
      }
    });
  });
}
