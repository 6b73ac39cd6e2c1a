/**
 * The release schedule page, the Brazilian daily calendar and the schedule / latest-updates
 * loaders, over real HTTP (and in-process on the run's database) on both dialects: days in
 * each site's zone with TODAY / HOJE on the second day, RELEASED and relative times, embedded
 * JSON, BLOCKED/REMOVED series left out, the calendar's collapsible days and campaign slides,
 * the English /calendario/ redirect, and hostile input.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leakIn, message, selectedDialects, useServer, withDb } from './harness';
import { DEMO } from '@db/seed/index';
import { SITES } from '~/lib/site';
import { dayKey } from '~/lib/dates';

const now = () => Math.floor(Date.now() / 1000);
const count = (html: string, re: RegExp) => (html.match(re) ?? []).length;
function scheduleJson(html: string) {
  const m = /<script type="application\/json" data-schedule-json>([\s\S]*?)<\/script>/.exec(html);
  expect(m, 'embedded schedule JSON').toBeTruthy();
  return JSON.parse(m![1]!);
}
/** The text of the n-th day tab (0-based), tags stripped. */
function tabText(html: string, n: number): string {
  const tabs = [...html.matchAll(/<a [^>]*data-tab="(\d+)"[^>]*>([\s\S]*?)<\/a>/g)];
  return (tabs[n]?.[2] ?? '').replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').trim();
}

for (const dialect of selectedDialects()) {
  describe(`schedule (${dialect})`, () => {
    const server = useServer(dialect);
    const inserted: string[] = [];
    let names: { blocked: string; removed: string; removedPt: string; soon: string; soonPt: string; campaigns: string[] };

    beforeAll(async () => {
      names = await withDb(server, async (db) => {
        const one = (slug: string) => db.selectFrom('series').select(['id', 'name']).where('slug', '=', slug).executeTakeFirstOrThrow();
        const [blocked, removed, soon] = await Promise.all([one(DEMO.blocked), one(DEMO.removed), one(DEMO.releaseSoon)]);
        const t = now();
        // Fresh and coming chapters for the BLOCKED and REMOVED series: they must still not show.
        for (const s of [blocked, removed]) {
          for (const [k, at] of [[1, t - 1800], [2, t + 1800]] as const) {
            for (const language of ['en', 'pt-br']) {
              const e4pid = `EPI-itsched${s.id}${k}${language === 'en' ? 'e' : 'p'}`;
              inserted.push(e4pid);
              await db.insertInto('chapters').values({
                e4pid, series_id: s.id, language, number: 9100 + k, title: null, subtitle: null, released_at: at, sale_at: at, expired_at: null,
                original_price: 0, thumbnail: null, purchase_enabled: 1, purchase_many_enabled: 1, daily_pass_enabled: 0, ads_enabled: 0,
                rental_enabled: 0, subscription_enabled: 0, page_count: 0, created_at: t,
              }).execute();
            }
          }
        }
        const campaigns = await db.selectFrom('campaigns').innerJoin('series', 'series.id', 'campaigns.series_id').select('campaigns.name')
          .where('campaigns.starts_at', '<=', t).where('campaigns.ends_at', '>', t).where('series.state', '=', 'ACTIVE')
          .where((eb) => eb.exists(eb.selectFrom('series_languages').select('series_id').whereRef('series_languages.series_id', '=', 'series.id').where('site_id', '=', 3)))
          .execute();
        // The Portuguese site shows the series' Portuguese names (series_texts).
        const ptName = async (s: { id: number; name: string }) => (await db.selectFrom('series_texts').select('name').where('series_id', '=', s.id).where('language', '=', 'pt-br').executeTakeFirst())?.name ?? s.name;
        return { blocked: blocked.name, removed: removed.name, removedPt: await ptName(removed), soon: soon.name, soonPt: await ptName(soon), campaigns: campaigns.map((c) => c.name) };
      });
    });
    afterAll(async () => {
      if (inserted.length) await withDb(server, (db) => db.deleteFrom('chapters').where('e4pid', 'in', inserted).execute());
    });

    for (const site of ['en', 'br'] as const) {
      const locale = site === 'br' ? 'pt-BR' : 'en';
      const zone = site === 'br' ? SITES[3].timeZone : SITES[1].timeZone;

      it(`${site}: /schedule/ shows 7 days from yesterday with ${site === 'br' ? 'HOJE' : 'TODAY'} on the second`, async () => {
        const res = await server.request('/schedule/', { site });
        expect(res.status).toBe(200);
        expect(res.headers['cache-control']).toMatch(/public.*s-maxage/);
        const html = res.text;
        expect(html).toContain(`<html lang="${locale}"`);
        expect(html).toContain(`<title>${message(locale, 'schedule.title')}`);
        expect(html).toContain('<link rel="canonical"');
        expect(count(html, /data-tab="\d+"/g)).toBe(7);
        const today = message(locale, 'schedule.today');
        expect(tabText(html, 1)).toContain(today);
        for (const n of [0, 2, 3, 4, 5, 6]) expect(tabText(html, n)).not.toContain(today);
        const json = scheduleJson(html);
        const todayKey = dayKey(now(), zone);
        expect(json.zone).toBe(zone);
        expect(json.days).toHaveLength(7);
        // Seconds before a zone's midnight the page may have been rendered on the day before.
        expect([todayKey, dayKey(now() - 120, zone)]).toContain(json.days[1]);
        expect(json.months).toHaveLength(3);
        expect(html).toContain(message(locale, 'schedule.months'));
      });

      it(`${site}: past entries say RELEASED and the next chapter of ${DEMO.releaseSoon} says in about 6 hours`, async () => {
        const html = (await server.request('/schedule/', { site })).text;
        expect(html).toContain(`>${message(locale, 'schedule.released')}<`);
        expect(html).toContain(site === 'br' ? names.soonPt : names.soon);
        expect(html).toMatch(site === 'br' ? /em [56] horas/ : /in [56] hours/);
        const json = scheduleJson(html);
        expect(json.items.length).toBeGreaterThan(0);
        for (const i of json.items) {
          expect(i.href).toMatch(/^\/(read|comics)\//);
          if (site === 'br' && i.href.startsWith('/read/')) expect(i.href).toContain('/capitulo-portugues-');
        }
      });

      it(`${site}: BLOCKED and REMOVED series never appear, even with fresh chapters`, async () => {
        const html = (await server.request('/schedule/', { site })).text;
        expect(html).not.toContain(names.blocked);
        expect(html).not.toContain(names.removed);
        expect(html).not.toContain(names.removedPt);
        expect(html).not.toContain('EPI-itsched');
      });
    }

    it('br: /calendario/ groups the days in collapsible sections, today open, with the running promotions', async () => {
      const res = await server.request('/calendario/', { site: 'br' });
      expect(res.status).toBe(200);
      const html = res.text;
      expect(html).toContain(`<title>${message('pt-BR', 'calendar.title')}`);
      expect(count(html, /<details /g)).toBe(7);
      expect(count(html, /<summary/g)).toBe(7);
      const open = [...html.matchAll(/<details [^>]*>/g)].map((m) => / open/.test(m[0]));
      expect(open).toEqual([false, true, false, false, false, false, false]);
      expect(html).toContain('>HOJE<');
      expect(html).not.toContain(names.blocked);
      expect(names.campaigns.length, 'the demo has a promotion running on the Portuguese site').toBeGreaterThan(0);
      expect(html).toContain('aria-roledescription="carousel"');
      for (const name of names.campaigns) expect(html).toContain(name);
      expect(html).toContain(message('pt-BR', 'calendar.next'));
      // A Portuguese-only page: canonical to itself, no hreflang pointing at the English redirect.
      expect(html).toContain(`<link rel="canonical" href="${server.origin('br')}/calendario/"`);
      expect(html).not.toMatch(/<link rel="alternate" hreflang=/);
    });

    it('/schedule/ names its counterpart on the other site', async () => {
      const html = (await server.request('/schedule/', { site: 'br' })).text;
      expect(html).toContain(`<link rel="alternate" hreflang="en" href="${server.origin('en')}/schedule/"`);
      expect(html).toContain(`<link rel="alternate" hreflang="pt-BR" href="${server.origin('br')}/schedule/"`);
    });

    it('en: /calendario/ redirects to /schedule/ on the same host', async () => {
      const res = await server.request('/calendario/');
      expect(res.status).toBe(302);
      expect(res.headers.location).toBe('/schedule/');
    });

    it('survives hostile input without a 5xx, a leak or reflected markup', async () => {
      const problems: string[] = [];
      for (const site of ['en', 'br'] as const) {
        for (const path of ['/schedule/?day=%3Cscript%3Ealert(1)%3C/script%3E', `/schedule/?q=${'a'.repeat(10_000)}`, '/schedule/?%E0%A4%A', '/calendario/?x=%', `/calendario/${'x'.repeat(5000)}/`, '/schedule/%2e%2e/%2e%2e/package.json', '/schedule']) {
          const res = await server.request(path, { site });
          if (res.status >= 500) problems.push(`${site} ${path.slice(0, 60)} -> ${res.status}`);
          if (leakIn(res.text)) problems.push(`${site} ${path.slice(0, 60)} leaks`);
          if (res.text.includes('<script>alert(1)')) problems.push(`${site} ${path.slice(0, 60)} reflects markup`);
        }
        for (const method of ['POST', 'DELETE']) {
          const res = await server.request('/schedule/', { site, method, body: '{}', headers: { 'content-type': 'application/json' } });
          if (res.status !== 405) problems.push(`${site} ${method} /schedule/ -> ${res.status}`);
        }
      }
      expect(problems).toEqual([]);
    });

    it('loads the home variant (two weeks from Sunday) and latest updates from this database', async () => {
      const { loadSchedule } = await import('~/features/schedule/index.server');
      const { loadLatestUpdates } = await import('~/features/schedule/index.server');
      await withDb(server, async (db) => {
        for (const site of [SITES[1], SITES[3]]) {
          const t = now();
          const home = await loadSchedule(db, { site, now: t, variant: 'home' });
          expect(home.days).toHaveLength(14);
          expect(home.days[0]!.weekday).toBe(0);
          expect(home.days.filter((d) => d.today)).toHaveLength(1);
          expect(home.months).toHaveLength(3);
          // Whole counts for the week rows and the months (the items are capped): never fewer than the items shown.
          expect(home.counts.days).toHaveLength(14);
          expect(home.counts.months).toHaveLength(3);
          home.days.forEach((d, i) => expect(home.counts.days[i]).toBeGreaterThanOrEqual(home.items.filter((x) => x.at >= d.start && x.at < d.end).length));
          expect(home.counts.days.reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
          expect(home.items.every((i) => i.language === site.language)).toBe(true);
          expect(home.items.map((i) => i.series.name)).not.toContain(names.blocked);

          const latest = await loadLatestUpdates(db, { site, now: t });
          expect(latest.length).toBeGreaterThan(0);
          expect(latest.length).toBeLessThanOrEqual(50);
          const times = latest.map((e) => e.latestAt);
          expect(times).toEqual([...times].sort((a, b) => b - a));
          expect(new Set(latest.map((e) => e.series.id)).size).toBe(latest.length);
          for (const e of latest) {
            expect(e.latestAt).toBeLessThanOrEqual(t);
            expect(e.latestAt).toBeGreaterThan(t - 30 * 86_400);
            expect(e.chapters.length).toBeGreaterThan(0);
            expect(e.chapters.length).toBeLessThanOrEqual(3);
            expect(e.series.href).toBe(`/comics/${e.series.slug}/`);
            expect(e.chapters[0]!.href.startsWith(`/read/${e.series.slug}/`)).toBe(true);
          }
          expect(latest.map((e) => e.series.name)).not.toContain(names.blocked);
          expect(latest.map((e) => e.series.name)).not.toContain(names.removed);
          expect((await loadLatestUpdates(db, { site, now: t, limit: 5 })).length).toBeLessThanOrEqual(5);
        }
      });
    });
  });
}
