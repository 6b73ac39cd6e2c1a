/**
 * Keys over real HTTP on both databases: the redeem call's answers, and what must never happen
 * to money under concurrency, a second process, an injected failure and a killed server.
 * Every test ends with the ledger audit passing (docs/wallet.md lists the invariants).
 */
import { LIMITS } from '~/server/rate-limit-rules';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { DEMO } from '@db/seed/index';
import { appCheckHeader, createReader, message, processAlive, selectedDialects, startExtraServer, until, useServer, withDb, workerPids, type Reader, type ServerClient, type TestResponse } from './harness';

const now = () => Math.floor(Date.now() / 1000);
let grantSeq = 0;

interface PaidChapter {
  id: number;
  e4pid: string;
  price: number;
  seriesId: number;
  format: string;
}

/** A wallet message in the chapter's unit: webtoons hear "episode" (src/features/catalog/wording.ts). */
const unitMessage = (locale: 'en' | 'pt-BR', key: string, c: { format: string }, values?: Record<string, number>) =>
  message(locale, c.format === 'WEBTOON' ? `${key}Episode` : key, values);

for (const dialect of selectedDialects()) {
  describe(`keys (${dialect})`, () => {
    const server = useServer(dialect);
    /** Paid chapters of ACTIVE series, unlockable now, grouped by their price for a reader with enough keys. */
    let byPrice: Map<number, PaidChapter[]>;

    const grant = (reader: Reader, keys: number, xtra = 0) =>
      withDb(server, async (db) => {
        const { grantKeys } = await import('~/features/wallet/index.server');
        return grantKeys(db, { userId: reader.id, keys, xtra, reason: 'test', key: `test:${reader.id}:${++grantSeq}`, now: now() });
      });
    const balances = (reader: Reader) =>
      withDb(server, async (db) => (await import('~/features/wallet/index.server')).balancesOf(db, reader.id));
    /** The redeem call as the unlock dialog makes it: with a bot-check token of its own when signed in. */
    const redeem = async (s: ServerClient, reader: Reader | null, e4pid: string, headers: Record<string, string> = {}) =>
      s.request('/api/redeem/', {
        method: 'POST',
        body: new URLSearchParams({ content: e4pid }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: s.origin(), ...(reader ? { cookie: reader.cookie, ...(await appCheckHeader(s, reader)) } : {}), ...headers },
        timeoutMs: 60_000,
      });
    const audit = () => withDb(server, async (db) => (await import('~/features/wallet/index.server')).auditLedger(db));

    beforeAll(async () => {
      byPrice = await withDb(server, async (db) => {
        const { pricingContext, accessIn } = await import('~/features/catalog/index.server');
        const t = now();
        const rows = await db
          .selectFrom('chapters').innerJoin('series', 'series.id', 'chapters.series_id')
          .select(['chapters.id', 'chapters.e4pid', 'chapters.series_id', 'series.format'])
          .where('series.state', '=', 'ACTIVE').where('series.geoblocks', 'in', ['[]', ''])
          .where('chapters.original_price', '>', 0).where('chapters.released_at', '<=', t - 86400).where('chapters.sale_at', '<=', t - 86400)
          .orderBy('chapters.id').limit(3000).execute();
        const out = new Map<number, PaidChapter[]>();
        const rich = { owned: false, rentals: [], balances: { keys: 1e6, xtra: 0 }, dailyPassUsedAt: null, adsWatched: 0, subscription: null };
        for (const r of rows) {
          const ctx = await pricingContext(db, r.e4pid, t);
          if (!ctx) continue;
          const access = accessIn(ctx, rich, null, t);
          if (!access.unlockMethods.keys.open || access.finalPrice <= 0) continue;
          const list = out.get(access.finalPrice) ?? [];
          list.push({ id: Number(r.id), e4pid: r.e4pid, price: access.finalPrice, seriesId: Number(r.series_id), format: r.format });
          out.set(access.finalPrice, list);
        }
        return out;
      });
    }, 120_000);

    afterEach(async () => {
      expect(await audit()).toEqual([]);
    });

    /** The most common price with at least `n` chapters. */
    const chaptersAt = (n: number, minPrice = 1): PaidChapter[] => {
      const best = [...byPrice.entries()].filter(([p, l]) => p >= minPrice && l.length >= n).sort((a, b) => b[1].length - a[1].length)[0];
      if (!best) throw new Error(`the demo catalogue has no price with ${n} unlockable chapters`);
      return best[1].slice(0, n);
    };

    it('unlocks with paid keys: 200, the charge, the bonus and the new balances, and the chapter is then owned (409, nothing charged)', async () => {
      const reader = await createReader(server);
      const [chapter] = chaptersAt(1, 10);
      await grant(reader, chapter!.price);
      const res = await redeem(server, reader, chapter!.e4pid);
      expect(res.status).toBe(200);
      const body = res.json() as { charged: { price: number; currency: string }; bonus: number; profile: { keys: number; free_keys: number } };
      expect(body.charged).toEqual({ price: chapter!.price, currency: 'keys' });
      expect(body.bonus).toBe(Math.floor(chapter!.price / 10));
      expect(body.profile).toEqual({ keys: 0, free_keys: Math.floor(chapter!.price / 10) });
      expect(await balances(reader)).toEqual({ keys: 0, xtra: Math.floor(chapter!.price / 10) });
      const again = await redeem(server, reader, chapter!.e4pid);
      expect(again.status).toBe(409);
      expect(again.json().detail).toBe(unitMessage('en', 'wallet.error.owned', chapter!));
      // A retried request learns what its first answer charged, and the balances now.
      expect(again.json()).toMatchObject({ owned: true, content: chapter!.e4pid, charged: { price: chapter!.price, currency: 'keys' }, profile: { keys: 0, free_keys: Math.floor(chapter!.price / 10) } });
      expect(await balances(reader)).toEqual({ keys: 0, xtra: Math.floor(chapter!.price / 10) });
    });

    it('pays with Xtra keys only when they cover the whole price, never a mix', async () => {
      const reader = await createReader(server);
      const [a, b] = chaptersAt(2, 2);
      await grant(reader, a!.price, a!.price - 1);
      // Xtra keys one short: paid keys pay the whole price.
      const first = await redeem(server, reader, a!.e4pid);
      expect(first.json().charged).toEqual({ price: a!.price, currency: 'keys' });
      await grant(reader, 0, b!.price);
      const second = await redeem(server, reader, b!.e4pid);
      expect(second.json().charged).toEqual({ price: b!.price, currency: 'xtra' });
    });

    it('answers 402 with the reason when the keys do not cover the price, and charges nothing', async () => {
      const reader = await createReader(server, { site: 'br' });
      const [chapter] = chaptersAt(1, 2);
      await grant(reader, chapter!.price - 1, chapter!.price - 1);
      const res = await server.request('/api/redeem/', {
        site: 'br', method: 'POST', body: `content=${chapter!.e4pid}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.origin('br'), cookie: reader.cookie, ...(await appCheckHeader(server, reader, 'br')) },
      });
      expect(res.status).toBe(402);
      expect(res.json().detail).toBe(unitMessage('pt-BR', 'wallet.error.insufficient', chapter!, { price: chapter!.price, keys: chapter!.price - 1, xtra: chapter!.price - 1 }));
      expect(await balances(reader)).toEqual({ keys: chapter!.price - 1, xtra: chapter!.price - 1 });
    });

    it('answers 401 signed out, 404 for unknown chapters, 409 for free and scheduled ones, 403 from another site', async () => {
      const reader = await createReader(server);
      await grant(reader, 1000);
      const [paid] = chaptersAt(1);
      expect((await redeem(server, null, paid!.e4pid)).status).toBe(401);
      for (const bad of ['EPI-doesnotexist0', 'SER-x', '', 'EPI-' + 'a'.repeat(70), "EPI-x' or '1'='1"]) {
        expect((await redeem(server, reader, bad)).status, bad).toBe(404);
      }
      const { free, scheduled } = await withDb(server, async (db) => {
        const t = now();
        const f = await db.selectFrom('chapters').innerJoin('series', 'series.id', 'chapters.series_id').select('chapters.e4pid').where('series.slug', '=', DEMO.readerManga).where('chapters.original_price', '=', 0).where('chapters.released_at', '<=', t).limit(1).executeTakeFirstOrThrow();
        const s = await db.selectFrom('chapters').innerJoin('series', 'series.id', 'chapters.series_id').select(['chapters.e4pid', 'series.format']).where('series.state', '=', 'ACTIVE').where('chapters.released_at', '>', t + 3600).limit(1).executeTakeFirstOrThrow();
        return { free: f.e4pid, scheduled: s };
      });
      const freeRes = await redeem(server, reader, free);
      expect(freeRes.status).toBe(409);
      expect(freeRes.json().detail).toBe(message('en', 'wallet.error.free'));
      const schedRes = await redeem(server, reader, scheduled.e4pid);
      expect(schedRes.status).toBe(409);
      // In the unit of its series: a webtoon's is an episode.
      expect(schedRes.json().detail).toBe(unitMessage('en', 'wallet.error.scheduled', scheduled));
      for (const headers of [{ origin: 'http://evil.example' }, { 'sec-fetch-site': 'cross-site' }, { origin: server.origin('br') }] as Record<string, string>[]) {
        expect((await redeem(server, reader, paid!.e4pid, headers)).status).toBe(403);
      }
      expect(await balances(reader)).toEqual({ keys: 1000, xtra: 0 });
    });

    // The shared servers already believe a CDN's country header (COUNTRY_HEADER=cf-ipcountry in
    // the harness's SERVER_ENV), so no server of its own is needed here.
    it('answers 403 with the reason in the site\'s language for a series blocked in the reader\'s country, charges nothing, and sells it elsewhere', async () => {
      const blocked = await withDb(server, async (db) => {
        const { pricingContext, accessIn } = await import('~/features/catalog/index.server');
        const t = now();
        const rich = { owned: false, rentals: [], balances: { keys: 1e6, xtra: 0 }, dailyPassUsedAt: null, adsWatched: 0, subscription: null };
        const out: { slug: string; e4pid: string; price: number; country: string }[] = [];
        for (const [slug, country] of [[DEMO.geoblockedJp, 'JP'], [DEMO.licensingBlocked, 'US']] as const) {
          const rows = await db.selectFrom('chapters').innerJoin('series', 'series.id', 'chapters.series_id').select('chapters.e4pid')
            .where('series.slug', '=', slug).where('chapters.original_price', '>', 0).where('chapters.released_at', '<=', t - 86400).orderBy('chapters.number').execute();
          for (const r of rows) {
            const ctx = (await pricingContext(db, r.e4pid, t))!;
            const elsewhere = accessIn(ctx, rich, 'BR', t);
            if (!elsewhere.unlockMethods.keys.open || elsewhere.finalPrice <= 0 || elsewhere.readable) continue;
            expect(accessIn(ctx, rich, country, t).state).toBe('unavailable');
            out.push({ slug, e4pid: r.e4pid, price: elsewhere.finalPrice, country });
            break;
          }
        }
        return out;
      });
      expect(blocked.map((b) => b.slug)).toEqual([DEMO.geoblockedJp, DEMO.licensingBlocked]);
      const reader = await createReader(server);
      const total = blocked.reduce((sum, b) => sum + b.price, 0);
      await grant(reader, total);
      for (const b of blocked) {
        const en = await redeem(server, reader, b.e4pid, { 'cf-ipcountry': b.country });
        expect(en.status, b.slug).toBe(403);
        expect(en.json().detail).toBe(message('en', 'wallet.error.region'));
        const br = await server.request('/api/redeem/', {
          site: 'br', method: 'POST', body: `content=${b.e4pid}`,
          headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.origin('br'), cookie: reader.cookie, 'cf-ipcountry': b.country.toLowerCase(), ...(await appCheckHeader(server, reader, 'br')) },
        });
        expect(br.status, b.slug).toBe(403);
        expect(br.json().detail).toBe(message('pt-BR', 'wallet.error.region'));
      }
      expect(await balances(reader)).toEqual({ keys: total, xtra: 0 });
      expect(await withDb(server, (db) => db.selectFrom('chapter_unlocks').select('chapter_id').where('user_id', '=', reader.id).execute())).toEqual([]);
      // The same chapter from a country it is not blocked in: it is the region that refused.
      const fromBrazil = await redeem(server, reader, blocked[0]!.e4pid, { 'cf-ipcountry': 'BR' });
      expect(fromBrazil.status).toBe(200);
      expect(fromBrazil.json().charged).toEqual({ price: blocked[0]!.price, currency: 'keys' });
    });

    // One reader's burst also meets the route limit (LIMITS.unlocks): the first `max` requests reach the ledger at once, the rest are 429.
    it('200 unlocks fired at once with keys for exactly 3: exactly 3 succeed, the rest are 402 or past the limit, and the paid balance ends at 0', { timeout: 120_000 }, async () => {
      const reader = await createReader(server);
      const chapters = chaptersAt(200);
      const price = chapters[0]!.price;
      await grant(reader, 3 * price);
      const answers = await Promise.all(chapters.map((c) => redeem(server, reader, c.e4pid)));
      expect(statusCounts(answers)).toEqual({ 200: 3, 402: LIMITS.unlocks.max - 3, 429: 200 - LIMITS.unlocks.max });
      expect(await balances(reader)).toEqual({ keys: 0, xtra: 3 * Math.floor(price / 10) });
    });

    it('50 unlocks of the same chapter at once charge once', { timeout: 60_000 }, async () => {
      const reader = await createReader(server);
      const [chapter] = chaptersAt(1);
      await grant(reader, 10 * chapter!.price);
      const answers = await Promise.all(Array.from({ length: 50 }, () => redeem(server, reader, chapter!.e4pid)));
      expect(statusCounts(answers)).toEqual({ 200: 1, 409: LIMITS.unlocks.max - 1, 429: 50 - LIMITS.unlocks.max });
      expect((await balances(reader)).keys).toBe(9 * chapter!.price);
    });

    it('two server processes on one database under the same load: still exactly 3 and one charge per chapter', { timeout: 120_000 }, async () => {
      const second = await startExtraServer(server);
      try {
        const reader = await createReader(server);
        const chapters = chaptersAt(120);
        const price = chapters[0]!.price;
        await grant(reader, 3 * price);
        const answers = await Promise.all(chapters.flatMap((c) => [redeem(server, reader, c.e4pid), redeem(second, reader, c.e4pid)]));
        expect(statusCounts(answers)[200]).toBe(3);
        // Both processes count the reader's requests in one limiter (the database's).
        expect(answers.filter((a) => a.status === 429)).toHaveLength(240 - LIMITS.unlocks.max);
        expect(answers.every((a) => [200, 402, 409, 429].includes(a.status))).toBe(true);
        expect((await balances(reader)).keys).toBe(0);
        const owned = await withDb(server, (db) => db.selectFrom('chapter_unlocks').select('chapter_id').where('user_id', '=', reader.id).execute());
        expect(owned).toHaveLength(3);
      } finally {
        await second.stop();
      }
    });

    it('50 unlocks of the same chapter at once, split over two server processes on one database, charge once', { timeout: 120_000 }, async () => {
      const second = await startExtraServer(server);
      try {
        const reader = await createReader(server);
        const [chapter] = chaptersAt(1, 10);
        await grant(reader, 10 * chapter!.price);
        const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => redeem(i % 2 ? second : server, reader, chapter!.e4pid)));
        expect(statusCounts(answers)).toEqual({ 200: 1, 409: LIMITS.unlocks.max - 1, 429: 50 - LIMITS.unlocks.max });
        for (const a of answers.filter((x) => x.status === 409)) expect(a.json().detail).toBe(unitMessage('en', 'wallet.error.owned', chapter!));
        expect(await balances(reader)).toEqual({ keys: 9 * chapter!.price, xtra: Math.floor(chapter!.price / 10) });
        const unlocks = await withDb(server, (db) => db.selectFrom('ledger_transactions').select('id').where('user_id', '=', reader.id).where('kind', '=', 'unlock').execute());
        expect(unlocks).toHaveLength(1);
      } finally {
        await second.stop();
      }
    });

    // A balance that moves between pricing and charging cannot happen while the reader's accounts
    // are locked, so the refusal of the guarded update is forced here: a trigger makes every update
    // of this reader's balance touch no row, which is what the guarded update reports when the
    // balance no longer covers the charge.
    it('when the guarded update refuses the charge, the 402 says the real price and nothing is charged', async () => {
      const reader = await createReader(server);
      const [chapter] = chaptersAt(1, 2);
      await grant(reader, chapter!.price);
      await withDb(server, (db) => refuseBalanceUpdatesOf(db, dialect, reader.id, true));
      const res = await redeem(server, reader, chapter!.e4pid).finally(() => withDb(server, (db) => refuseBalanceUpdatesOf(db, dialect, reader.id, false)));
      expect(res.status).toBe(402);
      expect(res.json().detail).toBe(unitMessage('en', 'wallet.error.insufficient', chapter!, { price: chapter!.price, keys: chapter!.price, xtra: 0 }));
      expect(await balances(reader)).toEqual({ keys: chapter!.price, xtra: 0 });
      const unlocks = await withDb(server, (db) => db.selectFrom('ledger_transactions').select('id').where('user_id', '=', reader.id).where('kind', '=', 'unlock').execute());
      expect(unlocks).toEqual([]);
      // With the refusal gone, the same unlock goes through.
      expect((await redeem(server, reader, chapter!.e4pid)).status).toBe(200);
    });

    it('a failure between the debit and the ownership leaves nothing behind', async () => {
      const reader = await createReader(server);
      const [chapter] = chaptersAt(1);
      await grant(reader, chapter!.price);
      const before = await withDb(server, (db) => db.selectFrom('ledger_transactions').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow());
      await withDb(server, (db) => failOwnershipOf(db, dialect, chapter!.id, true));
      try {
        const res = await redeem(server, reader, chapter!.e4pid);
        expect(res.status).toBeGreaterThanOrEqual(500);
      } finally {
        await withDb(server, (db) => failOwnershipOf(db, dialect, chapter!.id, false));
      }
      expect(await balances(reader)).toEqual({ keys: chapter!.price, xtra: 0 });
      const after = await withDb(server, (db) => db.selectFrom('ledger_transactions').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow());
      expect(Number(after.n)).toBe(Number(before.n));
      // And the same unlock works once the failure is gone.
      expect((await redeem(server, reader, chapter!.e4pid)).status).toBe(200);
    });

    it('a server killed with SIGKILL in the middle of a burst of unlocks loses no keys', { timeout: 120_000 }, async () => {
      const victim = await startExtraServer(server);
      const reader = await createReader(server);
      const chapters = chaptersAt(150);
      const price = chapters[0]!.price;
      const granted = 60 * price;
      await grant(reader, granted);
      const burst = Promise.allSettled(chapters.map((c) => redeem(victim, reader, c.e4pid)));
      await new Promise((r) => setTimeout(r, 150));
      await victim.kill('SIGKILL');
      const results = await burst;
      // The kill landed in the middle: some requests were answered, some never were.
      expect(results.some((r) => r.status === 'rejected')).toBe(true);
      // After a restart the data is whole: every invariant holds (afterEach) and keys are conserved.
      const restarted = await startExtraServer(server);
      try {
        expect((await restarted.request('/robots.txt')).status).toBe(200);
        const { keys, xtra } = await balances(reader);
        const charges = await withDb(server, (db) => db.selectFrom('chapter_unlocks').select(['price', 'currency']).where('user_id', '=', reader.id).execute());
        const spent = charges.filter((c) => c.currency === 'keys').reduce((s, c) => s + Number(c.price), 0);
        const bonuses = charges.length * Math.floor(price / 10);
        expect(keys + spent).toBe(granted);
        expect(xtra).toBe(bonuses);
      } finally {
        await restarted.stop();
      }
    });

    // The same guarantees from one machine's every core (WORKERS=2, scripts/cluster.mjs): one
    // primary, two worker processes taking the connections in turn, on this database.
    describe('with WORKERS=2', () => {
      let cluster: Awaited<ReturnType<typeof startExtraServer>>;
      beforeAll(async () => {
        cluster = await startExtraServer(server, { WORKERS: '2' });
      }, 120_000);
      afterAll(async () => {
        await cluster?.stop();
      });
      /** Keys in the wallet plus keys spent on chapters: what was granted, whatever was cut off. */
      const conserved = async (reader: Reader, granted: number, price: number) => {
        const { keys, xtra } = await balances(reader);
        const charges = await withDb(server, (db) => db.selectFrom('chapter_unlocks').select(['price', 'currency']).where('user_id', '=', reader.id).execute());
        expect(keys + charges.filter((c) => c.currency === 'keys').reduce((s, c) => s + Number(c.price), 0)).toBe(granted);
        expect(xtra).toBe(charges.length * Math.floor(price / 10));
      };

      it('200 unlocks at once over both workers with keys for exactly 3: exactly 3 succeed, one limiter counts them all', { timeout: 120_000 }, async () => {
        const reader = await createReader(server);
        const chapters = chaptersAt(200);
        const price = chapters[0]!.price;
        await grant(reader, 3 * price);
        const answers = await Promise.all(chapters.map((c) => redeem(cluster, reader, c.e4pid)));
        expect(statusCounts(answers)).toEqual({ 200: 3, 402: LIMITS.unlocks.max - 3, 429: 200 - LIMITS.unlocks.max });
        expect(await balances(reader)).toEqual({ keys: 0, xtra: 3 * Math.floor(price / 10) });
      });

      it('a worker killed with SIGKILL mid-burst loses no keys and is replaced; the primary killed mid-burst loses none and leaves no worker behind', { timeout: 120_000 }, async () => {
        const workers = workerPids(cluster.pid);
        expect(workers).toHaveLength(2);
        const chapters = chaptersAt(150);
        const price = chapters[0]!.price;
        const granted = 60 * price;

        const first = await createReader(server);
        await grant(first, granted);
        const burst = Promise.allSettled(chapters.map((c) => redeem(cluster, first, c.e4pid)));
        await new Promise((r) => setTimeout(r, 150));
        process.kill(workers[0]!, 'SIGKILL');
        expect((await burst).some((r) => r.status === 'rejected')).toBe(true);
        await conserved(first, granted, price);
        // The primary starts another worker; the site answers throughout.
        await until('the killed worker is replaced', () => { const now = workerPids(cluster.pid); return now.length === 2 && !now.includes(workers[0]!); });
        expect(cluster.output()).toMatch(new RegExp(`worker ${workers[0]} died \\(SIGKILL\\); starting another`));
        expect((await cluster.request('/robots.txt')).status).toBe(200);

        // Now the primary itself, with no chance to clean up: its workers must not go on serving.
        const survivors = workerPids(cluster.pid);
        const second = await createReader(server);
        await grant(second, granted);
        const burst2 = Promise.allSettled(chapters.map((c) => redeem(cluster, second, c.e4pid)));
        await new Promise((r) => setTimeout(r, 150));
        await cluster.kill('SIGKILL');
        expect((await burst2).some((r) => r.status === 'rejected')).toBe(true);
        await until('the orphaned workers exit', () => survivors.every((pid) => !processAlive(pid)), 10_000);
        await expect(cluster.request('/robots.txt', { timeoutMs: 2_000 })).rejects.toThrow();
        await conserved(second, granted, price);
      });
    });
  });
}

function statusCounts(answers: TestResponse[]): Record<number, number> {
  const out: Record<number, number> = {};
  for (const a of answers) out[a.status] = (out[a.status] ?? 0) + 1;
  return out;
}

/** Makes inserting the ownership of one chapter fail inside the unlock's transaction (a database trigger), or removes that. */
async function failOwnershipOf(db: import('~/server/db').DB, dialect: string, chapterId: number, on: boolean): Promise<void> {
  if (dialect === 'postgres') {
    if (on) {
      await sql.raw(`create or replace function inkpass_test_fail() returns trigger as $$ begin if new.chapter_id = ${chapterId} then raise exception 'injected failure'; end if; return new; end $$ language plpgsql`).execute(db);
      await sql.raw('create trigger inkpass_test_fail before insert on chapter_unlocks for each row execute function inkpass_test_fail()').execute(db);
    } else {
      await sql.raw('drop trigger if exists inkpass_test_fail on chapter_unlocks').execute(db);
    }
    return;
  }
  if (on) await sql.raw(`create trigger inkpass_test_fail before insert on chapter_unlocks when new.chapter_id = ${chapterId} begin select raise(abort, 'injected failure'); end`).execute(db);
  else await sql.raw('drop trigger if exists inkpass_test_fail').execute(db);
}

/** Makes every balance update of one reader's accounts touch no row (a database trigger), or removes that. */
async function refuseBalanceUpdatesOf(db: import('~/server/db').DB, dialect: string, userId: number, on: boolean): Promise<void> {
  if (dialect === 'postgres') {
    if (on) {
      await sql.raw(`create or replace function inkpass_test_refuse() returns trigger as $$ begin if old.user_id = ${userId} then return null; end if; return new; end $$ language plpgsql`).execute(db);
      await sql.raw('create trigger inkpass_test_refuse before update on wallet_accounts for each row execute function inkpass_test_refuse()').execute(db);
    } else {
      await sql.raw('drop trigger if exists inkpass_test_refuse on wallet_accounts').execute(db);
    }
    return;
  }
  if (on) await sql.raw(`create trigger inkpass_test_refuse before update on wallet_accounts when old.user_id = ${userId} begin select raise(ignore); end`).execute(db);
  else await sql.raw('drop trigger if exists inkpass_test_refuse').execute(db);
}
