/**
 * The relay endpoints over real HTTP on both dialects and both sites:
 *   GET /relay/consumer/{publisher}/series/{ids}/updates?clientid=&after=
 *   GET /relay/consumer/{publisher}/series/{ids}/futures?clientid=&before=
 * Shape, windows, the site's language, BLOCKED/REMOVED series left out, publishers, caching, and
 * every kind of bad input answered 400/404/422 with a localized JSON {detail}, never a 5xx.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leakIn, message, selectedDialects, useServer, withDb, type SiteName } from './harness';
import { DEMO } from '@db/seed/index';

const DAY = 86_400;
const now = () => Math.floor(Date.now() / 1000);

interface Known {
  manga: { id: number; e4pid: string; publisherId: number };
  soon: { id: number; e4pid: string };
  portuguese: { id: number };
  blocked: { id: number };
  removed: { id: number };
  otherPublisher: number;
}

const relay = (publisher: string, ids: string, kind: 'updates' | 'futures', query: string) => `/relay/consumer/${publisher}/series/${ids}/${kind}?${query}`;

for (const dialect of selectedDialects()) {
  describe(`relay (${dialect})`, () => {
    const server = useServer(dialect);
    let known: Known;
    const inserted: string[] = [];

    beforeAll(async () => {
      known = await withDb(server, async (db) => {
        const one = (slug: string) => db.selectFrom('series').select(['id', 'e4pid', 'publisher_id']).where('slug', '=', slug).executeTakeFirstOrThrow();
        const [manga, soon, portuguese, blocked, removed] = await Promise.all([one(DEMO.readerManga), one(DEMO.releaseSoon), one(DEMO.portugueseOnly), one(DEMO.blocked), one(DEMO.removed)]);
        const other = await db.selectFrom('publishers').select('id').where('id', '<>', manga.publisher_id!).orderBy('id').executeTakeFirstOrThrow();
        // BLOCKED and REMOVED series have nothing recent in the demo: give them a fresh and a coming chapter.
        const t = now();
        for (const s of [blocked, removed]) {
          for (const [k, at] of [[1, t - 3600], [2, t + 3600]] as const) {
            for (const language of ['en', 'pt-br']) {
              const e4pid = `EPI-itrelay${s.id}${k}${language === 'en' ? 'e' : 'p'}`;
              inserted.push(e4pid);
              await db.insertInto('chapters').values({
                e4pid, series_id: s.id, language, number: 9000 + k, title: null, subtitle: null, released_at: at, sale_at: at, expired_at: null,
                original_price: 0, thumbnail: null, purchase_enabled: 1, purchase_many_enabled: 1, daily_pass_enabled: 0, ads_enabled: 0,
                rental_enabled: 0, subscription_enabled: 0, page_count: 0, created_at: t,
              }).execute();
            }
          }
        }
        return {
          manga: { id: Number(manga.id), e4pid: manga.e4pid, publisherId: Number(manga.publisher_id) },
          soon: { id: Number(soon.id), e4pid: soon.e4pid },
          portuguese: { id: Number(portuguese.id) },
          blocked: { id: Number(blocked.id) },
          removed: { id: Number(removed.id) },
          otherPublisher: Number(other.id),
        };
      });
    });
    afterAll(async () => {
      if (inserted.length) await withDb(server, (db) => db.deleteFrom('chapters').where('e4pid', 'in', inserted).execute());
    });

    async function ok(path: string, site: SiteName = 'en') {
      const res = await server.request(path, { site });
      expect(res.status, `${path}: ${res.text.slice(0, 300)}`).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      const body = res.json();
      expect(body.status).toBe('ok');
      return { res, entries: body.data.episodes as any[] };
    }

    it('answers updates per series, newest first, released in (after, now], on the requesting host', async () => {
      const after = now() - 30 * DAY;
      const { res, entries } = await ok(relay('inkpass', `${known.manga.id},${known.soon.id}`, 'updates', `clientid=it-tests&after=${after}`));
      expect(res.headers['cache-control']).toBe('public, max-age=60, s-maxage=300');
      expect(res.headers['access-control-allow-origin']).toBe('*');
      expect(entries.length).toBeGreaterThan(0);
      for (const e of entries) {
        expect(Object.keys(e).sort()).toEqual(['items', 'latest', 'serie']);
        expect(e.serie.link).toBe(`${server.origin('en')}/comics/${e.serie.uslug}/`);
        expect(e.items.length).toBeGreaterThan(0);
        expect(e.items.length).toBeLessThanOrEqual(50);
        const times = e.items.map((i: any) => Date.parse(i.released_at) / 1000);
        expect(times).toEqual([...times].sort((a, b) => b - a));
        for (const i of e.items) {
          expect(i.language).toBe('en');
          expect(i.e4pid).toMatch(/^EPI-/);
          expect(i.link.startsWith(`${server.origin('en')}/read/${e.serie.uslug}/`)).toBe(true);
          expect(typeof i.saleAt).toBe('number');
          expect(typeof i.free).toBe('boolean');
          expect(i.scheduled).toBe(false);
          expect(Date.parse(i.released_at) / 1000).toBeGreaterThan(after);
          expect(Date.parse(i.released_at) / 1000).toBeLessThanOrEqual(now());
        }
        expect(e.latest).toEqual(e.items[0]);
      }
    });

    it('answers the series in the order asked, as docs/api.md promises, not by id', async () => {
      const q = `clientid=it&after=${now() - 30 * DAY}`;
      const [low, high] = known.manga.id < known.soon.id ? [known.manga, known.soon] : [known.soon, known.manga];
      const highFirst = await ok(relay('inkpass', `${high.e4pid},${low.id},${high.id}`, 'updates', q));
      expect(highFirst.entries.map((e) => e.serie.id)).toEqual([high.id, low.id]);
      const lowFirst = await ok(relay('inkpass', `${low.id},${high.id}`, 'updates', q));
      expect(lowFirst.entries.map((e) => e.serie.id)).toEqual([low.id, high.id]);
    });

    it('takes e4pids as well as ids, with or without the trailing slash', async () => {
      const q = `clientid=it&after=${now() - 30 * DAY}`;
      const byId = await ok(relay('inkpass', String(known.manga.id), 'updates', q));
      const byE4pid = await ok(relay('inkpass', known.manga.e4pid, 'updates', q));
      const slashed = await ok(`/relay/consumer/inkpass/series/${known.manga.e4pid}/updates/?${q}`);
      expect(byE4pid.entries.map((e) => e.serie.id)).toEqual([known.manga.id]);
      expect(byE4pid.entries[0].items.map((i: any) => i.e4pid)).toEqual(byId.entries[0].items.map((i: any) => i.e4pid));
      expect(slashed.entries[0].serie.e4pid).toBe(known.manga.e4pid);
    });

    it('answers futures soonest first, scheduled up to the deadline, with the newest released episode as latest', async () => {
      const before = now() + 14 * DAY;
      const { entries } = await ok(relay('inkpass', `${known.soon.e4pid},${known.manga.id}`, 'futures', `clientid=it&before=${before}`));
      const soon = entries.find((e) => e.serie.id === known.soon.id);
      expect(soon, 'the series whose next chapter comes out in 6 hours').toBeTruthy();
      const times = soon.items.map((i: any) => Date.parse(i.released_at) / 1000);
      expect(times).toEqual([...times].sort((a, b) => a - b));
      expect(times[0]! - now()).toBeLessThanOrEqual(6 * 3600);
      for (const i of soon.items) {
        expect(i.scheduled).toBe(true);
        expect(Date.parse(i.released_at) / 1000).toBeGreaterThan(now() - 60);
        expect(Date.parse(i.released_at) / 1000).toBeLessThanOrEqual(before);
      }
      expect(soon.latest.scheduled).toBe(false);
      expect(Date.parse(soon.latest.released_at) / 1000).toBeLessThanOrEqual(now());
    });

    it('gives every series its own 50 newest items, even next to a very busy one', async () => {
      const counts = await withDb(server, async (db) => {
        const ids = await db.selectFrom('series').select(['id', 'slug']).where('slug', 'in', [DEMO.longList, DEMO.readerManga]).execute();
        const out: Record<string, { id: number; released: number }> = {};
        for (const r of ids) {
          const c = await db.selectFrom('chapters').select((eb) => eb.fn.countAll<number>().as('n')).where('series_id', '=', r.id).where('language', '=', 'en').where('released_at', '<=', now()).executeTakeFirstOrThrow();
          out[r.slug] = { id: Number(r.id), released: Number(c.n) };
        }
        return out;
      });
      const busy = counts[DEMO.longList]!;
      const quiet = counts[DEMO.readerManga]!;
      expect(busy.released, 'the long list has more than two series worth of items').toBeGreaterThan(100);
      const { entries } = await ok(relay('inkpass', `${busy.id},${quiet.id}`, 'updates', 'clientid=it&after=0'));
      const by = new Map(entries.map((e) => [e.serie.id, e.items.length]));
      expect(by.get(busy.id)).toBe(50);
      expect(by.get(quiet.id)).toBe(Math.min(50, quiet.released));
    });

    it('caps before at three months ahead', async () => {
      const { entries } = await ok(relay('inkpass', known.soon.id + ',' + known.manga.id, 'futures', 'clientid=it&before=9999999999'));
      for (const e of entries) for (const i of e.items) expect(Date.parse(i.released_at) / 1000).toBeLessThanOrEqual(now() + 92 * DAY);
    });

    it("lists the Portuguese site's language on the Portuguese host", async () => {
      const { entries } = await ok(relay('inkpass', `${known.manga.id},${known.portuguese.id}`, 'updates', `clientid=it&after=${now() - 30 * DAY}`), 'br');
      expect(entries.length).toBeGreaterThan(0);
      for (const e of entries) {
        expect(e.serie.link.startsWith(server.origin('br'))).toBe(true);
        for (const i of e.items) {
          expect(i.language).toBe('pt-br');
          expect(i.link).toContain('/capitulo-portugues-');
          expect(i.name).toMatch(/^(Capítulo|Episódio) /);
        }
      }
    });

    it('leaves out BLOCKED and REMOVED series even with fresh chapters', async () => {
      for (const kind of ['updates', 'futures'] as const) {
        const q = kind === 'updates' ? `clientid=it&after=${now() - DAY}` : `clientid=it&before=${now() + DAY}`;
        for (const site of ['en', 'br'] as const) {
          const only = await server.request(relay('inkpass', `${known.blocked.id},${known.removed.id}`, kind, q), { site });
          expect(only.status, only.text).toBe(404);
          const mixed = await server.request(relay('inkpass', `${known.blocked.id},${known.removed.id},${known.soon.id}`, kind, q), { site });
          expect(mixed.status).toBe(200);
          const ids = mixed.json().data.episodes.map((e: any) => e.serie.id);
          expect(ids).not.toContain(known.blocked.id);
          expect(ids).not.toContain(known.removed.id);
        }
      }
    });

    it('filters by publisher id; unknown publishers and series of another publisher are 404', async () => {
      const q = `clientid=it&after=${now() - 30 * DAY}`;
      const own = await ok(relay(String(known.manga.publisherId), String(known.manga.id), 'updates', q));
      expect(own.entries.map((e) => e.serie.id)).toEqual([known.manga.id]);
      const other = await server.request(relay(String(known.otherPublisher), String(known.manga.id), 'updates', q));
      expect(other.status).toBe(404);
      expect(other.json().detail).toBe(message('en', 'relay.error.unknownSeries'));
      const unknown = await server.request(relay('999999', String(known.manga.id), 'updates', q));
      expect(unknown.status).toBe(404);
      expect(unknown.json().detail).toBe(message('en', 'relay.error.publisher'));
    });

    it('answers a series not shown on this site with 404 there and 200 on its own site', async () => {
      const q = `clientid=it&after=${now() - 60 * DAY}`;
      expect((await server.request(relay('inkpass', String(known.portuguese.id), 'updates', q))).status).toBe(404);
      expect((await server.request(relay('inkpass', String(known.portuguese.id), 'updates', q), { site: 'br' })).status).toBe(200);
    });

    it('answers bad input with 400/404/422 and a localized JSON detail, never a 5xx or a stack trace', async () => {
      const t = now();
      const id = () => String(known.manga.id);
      const sixtyOne = Array.from({ length: 61 }, (_, i) => i + 1).join(',');
      const cases: [string, number, string][] = [
        [relay('inkpass', id(), 'updates', `after=${t - DAY}`), 400, 'relay.error.clientidMissing'],
        [relay('inkpass', id(), 'updates', `clientid=&after=${t - DAY}`), 400, 'relay.error.clientidMissing'],
        [relay('inkpass', id(), 'updates', `clientid=${encodeURIComponent('<script>')}&after=${t - DAY}`), 400, 'relay.error.clientid'],
        [relay('inkpass', id(), 'updates', `clientid=${'c'.repeat(200)}&after=${t - DAY}`), 400, 'relay.error.clientid'],
        [relay('inkpass', id(), 'updates', 'clientid=it'), 400, 'relay.error.afterMissing'],
        [relay('inkpass', id(), 'updates', 'clientid=it&after=-5'), 400, 'relay.error.after'],
        [relay('inkpass', id(), 'updates', 'clientid=it&after=abc'), 400, 'relay.error.after'],
        [relay('inkpass', id(), 'updates', 'clientid=it&after=1e9'), 400, 'relay.error.after'],
        [relay('inkpass', id(), 'updates', 'clientid=it&after=99999999999999999999'), 400, 'relay.error.after'],
        [relay('inkpass', id(), 'updates', 'clientid=it&after=9999999999'), 422, 'relay.error.afterFuture'],
        [relay('inkpass', id(), 'updates', `clientid=it&after=${t + 3600}`), 422, 'relay.error.afterFuture'],
        [relay('inkpass', id(), 'futures', 'clientid=it'), 400, 'relay.error.beforeMissing'],
        [relay('inkpass', id(), 'futures', 'clientid=it&before=soon'), 400, 'relay.error.before'],
        [relay('inkpass', id(), 'futures', 'clientid=it&before=-1'), 400, 'relay.error.before'],
        [relay('inkpass', 'abc', 'updates', `clientid=it&after=${t - DAY}`), 400, 'relay.error.ids'],
        [relay('inkpass', '1,,2', 'updates', `clientid=it&after=${t - DAY}`), 400, 'relay.error.ids'],
        [relay('inkpass', '0', 'updates', `clientid=it&after=${t - DAY}`), 400, 'relay.error.ids'],
        [relay('inkpass', '-3', 'updates', `clientid=it&after=${t - DAY}`), 400, 'relay.error.ids'],
                [relay('inkpass', 'x'.repeat(10_240), 'updates', `clientid=it&after=${t - DAY}`), 400, 'relay.error.ids'],
        [relay('inkpass', sixtyOne, 'updates', `clientid=it&after=${t - DAY}`), 422, 'relay.error.tooMany'],
        [relay('inkpass', '2147483000,2147483001', 'updates', `clientid=it&after=${t - DAY}`), 404, 'relay.error.unknownSeries'],
        [relay('inkpass', 'SER-doesnotexist', 'futures', `clientid=it&before=${t + DAY}`), 404, 'relay.error.unknownSeries'],
        [relay('bogus', id(), 'updates', `clientid=it&after=${t - DAY}`), 404, 'relay.error.publisher'],
        [relay('p'.repeat(10_240), id(), 'updates', `clientid=it&after=${t - DAY}`), 404, 'relay.error.publisher'],
      ];
      const problems: string[] = [];
      for (const site of ['en', 'br'] as const) {
        const locale = site === 'br' ? 'pt-BR' : 'en';
        for (const [path, status, key] of cases) {
          const res = await server.request(path, { site });
          const label = `${site} ${path.slice(0, 120)} -> ${res.status}`;
          if (res.status !== status) problems.push(`${label} (expected ${status}): ${res.text.slice(0, 200)}`);
          if (!/^application\/json/.test(res.headers['content-type'] ?? '')) problems.push(`${label}: not JSON`);
          else if (res.json().detail !== message(locale, key, key === 'relay.error.tooMany' ? { max: 60 } : undefined)) problems.push(`${label}: detail ${res.text.slice(0, 200)}`);
          if (res.headers['cache-control'] !== 'no-store') problems.push(`${label}: cache ${res.headers['cache-control']}`);
          const leak = leakIn(res.text);
          if (leak) problems.push(`${label}: leak ${leak}`);
        }
      }
      // SQL in the path: Astro's router may not match the decoded segment at all (a JSON 404 then).
      for (const raw of ["1' or 1=1 --", '1;DROP TABLE series', '1) union select * from users --']) {
        for (const site of ['en', 'br'] as const) {
          const res = await server.request(relay('inkpass', encodeURIComponent(raw), 'updates', `clientid=it&after=${t - DAY}`), { site });
          if (![400, 404].includes(res.status) || typeof res.json().detail !== 'string' || leakIn(res.text)) problems.push(`${site} ${raw} -> ${res.status} ${res.text.slice(0, 200)}`);
        }
      }
      expect(problems).toEqual([]);
    });

    it('refuses other methods and unknown relay paths with JSON errors', async () => {
      for (const method of ['POST', 'DELETE', 'PUT']) {
        const res = await server.request(relay('inkpass', String(known.manga.id), 'updates', `clientid=it&after=${now() - DAY}`), { method, body: '{}', headers: { 'content-type': 'application/json' } });
        expect(res.status, method).toBe(405);
        expect(res.json().detail).toBe(message('en', 'error.api.methodNotAllowed'));
      }
      for (const path of ['/relay/', '/relay/consumer/inkpass/series/1/nope?clientid=it', '/relay/consumer/inkpass/series/1']) {
        const res = await server.request(path);
        expect(res.status, path).toBe(404);
        expect(res.json().detail, path).toBe(message('en', 'error.api.notFound'));
      }
      // A path that cannot be decoded is refused before routing, still as JSON for API clients.
      const broken = await server.request('/relay/%E0%A4%A/x');
      expect(broken.status).toBe(400);
      expect(broken.json().detail).toBe(message('en', 'error.url.malformed'));
    });
  });
}

