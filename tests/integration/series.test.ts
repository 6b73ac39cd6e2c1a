/**
 * The series page and its JSON APIs over real HTTP on both dialects: what an anonymous reader
 * (or someone poking at the URL) sees. Expected rows come from the run's database (read with
 * the app's own createDb) and expected words from the catalogues in i18n/*.json.
 */
import zlib from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { htmlText, leakIn, message, selectedDialects, useServer, type ServerClient, type SiteName, type TestResponse } from './harness';
import { DEMO } from '@db/seed/index';
import { readerPath } from '~/lib/paths';
import { finalPrice } from '~/features/catalog';

const PER_PAGE = 100;
const COMIC_V2_KEYS = ['comic', 'similar_comics', 'info_bar', 'blocked', 'favorited', 'notifications', 'languages', 'default_language', 'sortbar_text', 'share_text', 'hints'];
const EPISODES_KEYS = ['episodes', 'region_blocked', 'language', 'languages', 'free_availability', 'continue_text', 'reading_button', 'highlighted_e4pid', 'sortbar_text', 'rent_availability'];

// ---------------------------------------------------------------------------------------------
// What the database says

interface DbChapter {
  e4pid: string;
  number: number;
  language: string;
  releasedAt: number;
  originalPrice: number;
  finalPrice: number;
}
interface DbSeries {
  id: number;
  e4pid: string;
  slug: string;
  name: string;
  /** The name the Portuguese site shows (its translation, else the original). */
  namePt: string;
  format: 'COMIC' | 'MANGA' | 'WEBTOON';
  /** Series and publisher geoblocks, sorted. */
  countries: string[];
  chapters: DbChapter[];
}

async function loadCatalogue(server: ServerClient): Promise<Map<string, DbSeries>> {
  const { createDb } = await import('~/server/db');
  const { db } = await createDb(server.databaseUrl);
  try {
    const now = Math.floor(Date.now() / 1000);
    const series = await db.selectFrom('series').selectAll().execute();
    const publishers = new Map((await db.selectFrom('publishers').select(['id', 'geoblocks']).execute()).map((p) => [Number(p.id), p.geoblocks]));
    const campaigns = await db.selectFrom('campaigns').selectAll().execute();
    const ptNames = new Map((await db.selectFrom('series_texts').select(['series_id', 'name']).where('language', '=', 'pt-br').execute()).map((t) => [Number(t.series_id), t.name]));
    const chapters = await db
      .selectFrom('chapters')
      .select(['series_id', 'e4pid', 'number', 'language', 'released_at', 'original_price'])
      .orderBy('number')
      .execute();
    const out = new Map<string, DbSeries>();
    const byId = new Map<number, DbSeries>();
    for (const s of series) {
      const geo = [...JSON.parse(s.geoblocks || '[]'), ...JSON.parse(publishers.get(Number(s.publisher_id)) || '[]')] as string[];
      const row: DbSeries = {
        id: Number(s.id), e4pid: s.e4pid, slug: s.slug, name: s.name, namePt: ptNames.get(Number(s.id)) ?? s.name, format: s.format,
        countries: [...new Set(geo)].sort(), chapters: [],
      };
      out.set(s.slug, row);
      byId.set(row.id, row);
    }
    for (const c of chapters) {
      const s = byId.get(Number(c.series_id))!;
      const raw = series.find((x) => Number(x.id) === s.id)!;
      const mine = campaigns.filter((k) => Number(k.series_id) === s.id);
      const original = Number(c.original_price);
      s.chapters.push({
        e4pid: c.e4pid,
        number: Number(c.number),
        language: c.language,
        releasedAt: Number(c.released_at),
        originalPrice: original,
        finalPrice: raw.all_free ? 0 : finalPrice({ number: Number(c.number), original_price: original }, mine, now),
      });
    }
    return out;
  } finally {
    await db.destroy();
  }
}

// ---------------------------------------------------------------------------------------------
// Reading the page

const ENT: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const decodeAttr = (v: string) =>
  v.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, e: string) =>
    e[0] === '#' ? String.fromCodePoint(e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10)) : ENT[e.toLowerCase()] ?? m);

function attrs(tag: string): Record<string, string> {
  const out: Record<string, string> = {};
  const inner = tag.replace(/^<\s*[\w-]+/, '').replace(/\/?>$/, '');
  for (const m of inner.matchAll(/([^\s"'<>\/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g)) {
    out[m[1]!.toLowerCase()] = decodeAttr(m[2] ?? m[3] ?? m[4] ?? '');
  }
  return out;
}
const tags = (html: string, name: string) => [...html.matchAll(new RegExp(`<${name}\\b[^>]*>`, 'gi'))].map((m) => attrs(m[0]));
type Anchor = Record<string, string | undefined> & { text: string };
const anchors = (html: string): Anchor[] => [...html.matchAll(/<a\b([^>]*)>([\s\S]*?)<\/a>/gi)].map((m) => ({ ...attrs(`<a ${m[1]}>`), text: htmlText(m[2]!) }));

interface Row {
  number: number;
  html: string;
  text: string;
  /** The chapter's own link (its reader URL), null when the row is not a link. */
  href: string | null;
  name: string;
}

/** The language panels of a series page: code -> panel HTML. */
function panels(html: string): Map<string, string> {
  const out = new Map<string, string>();
  const starts = [...html.matchAll(/<div\b[^>]*\bid="language-panel-([a-z-]+)"[^>]*>/g)];
  starts.forEach((m, i) => {
    const end = i + 1 < starts.length ? starts[i + 1]!.index : html.indexOf('</section>', m.index);
    out.set(m[1]!, html.slice(m.index, end < 0 ? undefined : end));
  });
  return out;
}

/** Chapter rows (and coming-soon rows as `null`) in document order. */
function items(html: string): (Row | null)[] {
  return [...html.matchAll(/<li\b([^>]*)>([\s\S]*?)<\/li>/g)]
    .filter((m) => /\bdata-number=|\bdata-gap\b/.test(m[1]!))
    .map((m) => {
      const a = attrs(`<li ${m[1]}>`);
      if (!('data-number' in a)) return null;
      const main = anchors(m[2]!).find((x) => x.href?.startsWith('/read/'));
      const nameMatch = /<span\b[^>]*class="chapter-name"[^>]*>([\s\S]*?)<\/span>/.exec(m[2]!);
      return { number: Number(a['data-number']), html: m[0], text: htmlText(m[2]!), href: main?.href ?? null, name: nameMatch ? htmlText(nameMatch[1]!) : '' };
    });
}
const rows = (html: string) => items(html).filter((r): r is Row => r !== null);

function panel(html: string, code: string): string {
  const p = panels(html).get(code);
  if (!p) throw new Error(`no language-panel-${code} on the page (panels: ${[...panels(html).keys()].join(', ') || 'none'})`);
  return p;
}

const now = () => Math.floor(Date.now() / 1000);
/** Chapters whose state cannot flip while a test runs. */
const settled = (c: DbChapter) => Math.abs(c.releasedAt - now()) > 300;
const released = (c: DbChapter) => c.releasedAt <= now();
const numSeg = (n: number) => String(Number(n.toFixed(2))).replace('.', '-');
const gz = (s: string | Buffer) => zlib.gzipSync(s).length;

function expectPage(res: TestResponse, what: string) {
  expect(res.status, `${what}: status`).toBe(200);
  expect(res.headers['content-type'], `${what}: content-type`).toMatch(/^text\/html/);
}

// ---------------------------------------------------------------------------------------------

// Only the selected dialects (INKPASS_IT_DIALECTS); both by default.
describe.each(selectedDialects())('series page (%s)', (dialect) => {
  const server = useServer(dialect);
  let cat: Map<string, DbSeries>;
  const S = (slug: string) => {
    const s = cat.get(slug);
    if (!s) throw new Error(`demo series ${slug} is missing from the ${dialect} database`);
    return s;
  };
  const get = (path: string, site: SiteName = 'en', headers?: Record<string, string>) => server.request(path, { site, headers });
  const pathOf = (s: DbSeries) => `/comics/${s.slug}/`;

  beforeAll(async () => {
    cat = await loadCatalogue(server);
  });

  describe('document', () => {
    it('is 200 HTML with the series name as <h1>, canonical, hreflang alternates and Open Graph tags', async () => {
      const s = S(DEMO.readerManga);
      for (const site of ['en', 'br'] as const) {
        const res = await get(pathOf(s), site);
        expectPage(res, site);
        const h1 = [...res.text.matchAll(/<h1\b[^>]*>([\s\S]*?)<\/h1>/g)].map((m) => htmlText(m[1]!));
        const name = site === 'br' ? s.namePt : s.name;
        expect(name).not.toBe(site === 'br' ? s.name : s.namePt);
        expect(h1, site).toEqual([name]);
        const links = tags(res.text, 'link');
        const canonical = links.filter((l) => l.rel === 'canonical').map((l) => l.href);
        const self = `${server.origin(site)}${pathOf(s)}`;
        expect(canonical, `${site}: canonical`).toEqual([self]);
        const alt = (lang: string) => links.filter((l) => l.rel === 'alternate' && l.hreflang?.toLowerCase() === lang.toLowerCase()).map((l) => l.href);
        expect(alt('en'), `${site}: hreflang en`).toEqual([`${server.origin('en')}${pathOf(s)}`]);
        expect(alt('pt-BR'), `${site}: hreflang pt-BR`).toEqual([`${server.origin('br')}${pathOf(s)}`]);
        const og = Object.fromEntries(tags(res.text, 'meta').filter((m) => m.property?.startsWith('og:')).map((m) => [m.property, m.content]));
        expect(og['og:title'], site).toBe(name);
        expect(og['og:url'], site).toBe(self);
        expect(og['og:type'], site).toBeTruthy();
        expect(og['og:description'], site).toBeTruthy();
        expect(og['og:image'], site).toMatch(/^https?:\/\//);
        expect(og['og:locale'], site).toBe(site === 'br' ? 'pt_BR' : 'en_US');
      }
    });

    it('carries JSON-LD ComicSeries describing the series', async () => {
      const s = S(DEMO.readerManga);
      const res = await get(pathOf(s));
      const blocks = [...res.text.matchAll(/<script\b[^>]*type="application\/ld\+json"[^>]*>([\s\S]*?)<\/script>/g)].map((m) => JSON.parse(m[1]!));
      const series = blocks.filter((b) => b['@type'] === 'ComicSeries');
      expect(series).toHaveLength(1);
      expect(series[0].name).toBe(s.name);
      expect(series[0].url).toBe(`${server.origin('en')}${pathOf(s)}`);
      expect(series[0]['@context']).toMatch(/schema\.org/);
    });

    it('ships no React runtime and under 15 KB of gzipped JavaScript', async () => {
      const s = S(DEMO.readerManga);
      const res = await get(pathOf(s));
      expect(res.text).not.toMatch(/<astro-island\b/i);
      expect(res.text).not.toMatch(/\bastro-island\b|renderer-url|component-url/);
      const scripts = [...res.text.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)].map((m) => ({ a: attrs(`<script ${m[1]}>`), body: m[2]! }));
      const js: { what: string; body: string }[] = [];
      for (const sc of scripts) {
        const type = (sc.a.type ?? '').toLowerCase();
        if (type && !['module', 'text/javascript', 'application/javascript'].includes(type)) continue; // JSON-LD, data
        if (sc.body.trim()) js.push({ what: 'inline', body: sc.body });
        if (sc.a.src) js.push({ what: sc.a.src, body: '' });
      }
      for (const l of tags(res.text, 'link')) if (l.rel === 'modulepreload' && l.href) js.push({ what: l.href, body: '' });
      // Fetch external modules and whatever they import, once each.
      const seen = new Set<string>();
      const queue = js.filter((j) => j.what !== 'inline').map((j) => j.what);
      const fetched: { what: string; body: string }[] = [];
      // Static imports only: what loads with the page. Dynamic `import()` runs on a reader's action
      // (the search overlay's island on first open; see tests/integration/search.test.ts).
      const importsOf = (body: string, base: string) =>
        [...body.matchAll(/\bimport\s*(?:[\w*{}\s,$]+from\s*)?["']([^"']+\.m?js)["']/g)].map((m) => new URL(m[1]!, new URL(base, server.origin())).pathname);
      for (const inline of js.filter((j) => j.what === 'inline')) queue.push(...importsOf(inline.body, pathOf(s)));
      while (queue.length) {
        const src = queue.shift()!;
        const p = new URL(src, server.origin()).pathname;
        if (seen.has(p)) continue;
        seen.add(p);
        const r = await server.request(p);
        expect(r.status, p).toBe(200);
        fetched.push({ what: p, body: r.text });
        queue.push(...importsOf(r.text, p));
      }
      const all = [...js.filter((j) => j.what === 'inline'), ...fetched];
      for (const j of all) expect(j.body, `${j.what} looks like React`).not.toMatch(/react-dom|__SECRET_INTERNALS_DO_NOT_USE|react\.production|__reactFiber/);
      const total = all.reduce((n, j) => n + gz(j.body), 0);
      expect(total, `gzipped JS: ${all.map((j) => `${j.what} ${gz(j.body)} B`).join(', ')}`).toBeLessThan(15 * 1024);
    });

    it(`paginates a 184-chapter series at ${PER_PAGE} per language with a pager, under 30 KB gzipped`, async () => {
      const s = S(DEMO.longList);
      const en = s.chapters.filter((c) => c.language === 'en');
      expect(en.length).toBeGreaterThan(PER_PAGE);
      const pages = Math.ceil(en.length / PER_PAGE);
      for (const site of ['en', 'br'] as const) {
        const res = await get(pathOf(s), site);
        expectPage(res, site);
        const size = gz(res.text);
        expect(size, `${site}: gzipped HTML is ${size} B`).toBeLessThan(30 * 1024);
      }
      const res = await get(pathOf(s));
      const p = panel(res.text, 'en');
      const first = rows(p);
      expect(first).toHaveLength(PER_PAGE);
      expect(htmlText(p)).toContain(message('en', 'pagination.current', { page: 1, pages }));
      const pager = new RegExp(`<nav\\b[^>]*aria-label="${message('en', 'series.pagination.label')}"`);
      expect(p).toMatch(pager);
      const next = anchors(p).find((a) => a.rel === 'next');
      expect(next?.text).toBe(message('en', 'pagination.next'));
      const nextUrl = new URL(next!.href!, server.origin());
      expect(nextUrl.pathname).toBe(pathOf(s));
      expect(nextUrl.searchParams.get('page')).toBe('2');
      expect(nextUrl.searchParams.get('language')).toBe('en');

      const res2 = await get(nextUrl.pathname + nextUrl.search);
      expectPage(res2, 'page 2');
      const p2 = panel(res2.text, 'en');
      const second = rows(p2);
      expect(second).toHaveLength(Math.min(PER_PAGE, en.length - PER_PAGE));
      expect(htmlText(p2)).toContain(message('en', 'pagination.current', { page: 2, pages }));
      expect(anchors(p2).find((a) => a.rel === 'prev')).toBeTruthy();
      // Page 1 then page 2 list every chapter once, newest first.
      const listed = [...first, ...second].map((r) => r.number);
      expect(listed).toEqual(en.map((c) => c.number).sort((a, b) => b - a).slice(0, listed.length));
      // The other language's panel stays on its first page.
      expect(htmlText(panel(res2.text, 'pt-br'))).toContain(message('en', 'pagination.current', { page: 1, pages: Math.ceil(s.chapters.filter((c) => c.language === 'pt-br').length / PER_PAGE) }));
    });
  });

  describe('chapter rows', () => {
    it('marks free rows FREE / Grátis and links them to the reader', async () => {
      const s = S(DEMO.readerManga);
      for (const [site, locale] of [['en', 'en'], ['br', 'pt-BR']] as const) {
        const res = await get(pathOf(s), site);
        const list = rows(panel(res.text, 'en'));
        const free = s.chapters.filter((c) => c.language === 'en' && released(c) && settled(c) && c.finalPrice === 0);
        expect(free.length).toBeGreaterThan(0);
        const label = message(locale, 'chapter.price.free');
        for (const c of free) {
          const r = list.find((x) => x.number === c.number);
          expect(r, `${site}: row ${c.number}`).toBeTruthy();
          expect(r!.text, `${site}: row ${c.number}`).toContain(label);
          expect(r!.href, `${site}: row ${c.number}`).toBe(readerPath(s, { e4pid: c.e4pid, number: c.number, language: 'en' }));
          expect(r!.text).not.toContain(message(locale, 'chapter.loginToRead'));
        }
      }
    });

    it('shows "{n} KEY" and a login link back to the page on paid rows', async () => {
      const s = S(DEMO.readerManga);
      const path = pathOf(s);
      const res = await get(path);
      const list = rows(panel(res.text, 'en'));
      const paid = s.chapters.filter((c) => c.language === 'en' && released(c) && settled(c) && c.finalPrice > 0);
      expect(paid.length).toBeGreaterThan(0);
      const login = message('en', 'chapter.loginToRead');
      for (const c of paid) {
        const r = list.find((x) => x.number === c.number);
        expect(r, `row ${c.number}`).toBeTruthy();
        expect(r!.text).toContain(message('en', 'chapter.price.keys', { n: c.finalPrice }));
        expect(r!.text).not.toContain(message('en', 'chapter.price.free'));
        const link = anchors(r!.html).find((a) => a.text === login);
        // Back on this page after logging in, with the row's unlock dialog to reopen (src/lib/intent.ts).
        expect(link?.href, `row ${c.number}: login link`).toBe(`/auth/login/?next=${encodeURIComponent(`${path}?intent=${encodeURIComponent(`unlock:${c.e4pid}`)}`)}`);
        // The row still links to the chapter (the reader explains the lock).
        expect(r!.href).toBe(readerPath(s, { e4pid: c.e4pid, number: c.number, language: 'en' }));
      }
      // With a query string, `next` still brings the reader back to this series page.
      const asc = await get(`${path}?order=asc`);
      const again = anchors(asc.text).find((a) => a.text === login)!;
      const next = new URL(again.href!, server.origin()).searchParams.get('next')!;
      expect(next.startsWith(path), next).toBe(true);
    });

    it('strikes through the original price of a campaign-priced chapter', async () => {
      const s = S(DEMO.campaign);
      const onSale = s.chapters.filter((c) => c.language === 'en' && released(c) && settled(c) && c.finalPrice > 0 && c.finalPrice < c.originalPrice);
      expect(onSale.length, 'campaign chapters on sale').toBeGreaterThan(0);
      const res = await get(`${pathOf(s)}?order=asc`);
      const list = rows(panel(res.text, 'en'));
      for (const c of onSale.slice(0, 5)) {
        const r = list.find((x) => x.number === c.number)!;
        expect(r, `row ${c.number}`).toBeTruthy();
        const struck = [...r.html.matchAll(/<s\b[^>]*>([\s\S]*?)<\/s>/g)].map((m) => htmlText(m[1]!));
        expect(struck, `row ${c.number}: one struck-through price`).toHaveLength(1);
        expect(struck[0], `row ${c.number}`).toContain(message('en', 'chapter.price.keys', { n: c.originalPrice }));
        expect(htmlText(r.html.replace(/<s\b[\s\S]*?<\/s>/g, ''))).toContain(message('en', 'chapter.price.keys', { n: c.finalPrice }));
      }
      // Full-price chapters have nothing struck through.
      const full = s.chapters.find((c) => c.language === 'en' && released(c) && settled(c) && c.finalPrice > 0 && c.finalPrice === c.originalPrice);
      if (full) expect(list.find((x) => x.number === full.number)!.html).not.toMatch(/<s\b/);
    });

    it('shows scheduled rows without a link and with a relative time', async () => {
      const s = S(DEMO.releaseSoon);
      const t0 = now();
      const res = await get(pathOf(s));
      const t1 = now();
      const list = rows(panel(res.text, 'en'));
      const future = s.chapters.filter((c) => c.language === 'en' && !released(c) && settled(c));
      expect(future.length).toBeGreaterThan(0);
      const units: [Intl.RelativeTimeFormatUnit, number][] = [['year', 31536000], ['month', 2592000], ['week', 604800], ['day', 86400], ['hour', 3600], ['minute', 60], ['second', 1]];
      const rtf = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });
      for (const c of future) {
        const r = list.find((x) => x.number === c.number);
        expect(r, `row ${c.number}`).toBeTruthy();
        expect(r!.href, `row ${c.number} is not a link`).toBeNull();
        expect(r!.html, `row ${c.number} has no link at all`).not.toMatch(/<a\b/);
        const time = /<time\b[^>]*>([\s\S]*?)<\/time>/.exec(r!.html);
        expect(time, `row ${c.number}: <time>`).toBeTruthy();
        const candidates = new Set(units.flatMap(([u, sec]) => [c.releasedAt - t1 - 2, c.releasedAt - t0 + 2].map((d) => rtf.format(Math.round(d / sec), u))));
        expect([...candidates], `row ${c.number}: "${htmlText(time![1]!)}" is a relative time`).toContain(htmlText(time![1]!));
      }
    });

    it('dates released rows relatively within 3 days and as formatted dates before that', async () => {
      const s = S(DEMO.longList);
      const en = s.chapters.filter((c) => c.language === 'en' && released(c));
      const t0 = now();
      const recent = en.filter((c) => c.releasedAt > t0 - 3 * 86400 + 600 && c.releasedAt < t0 - 600);
      const old = en.filter((c) => c.releasedAt < t0 - 3 * 86400 - 600).slice(-5);
      expect(recent.length, 'chapters released in the last 3 days').toBeGreaterThan(0);
      expect(old.length).toBeGreaterThan(0);
      const units: [Intl.RelativeTimeFormatUnit, number][] = [['day', 86400], ['hour', 3600], ['minute', 60]];
      for (const [site, locale, zones] of [['en', 'en', ['UTC']], ['br', 'pt-BR', ['America/Sao_Paulo', 'UTC']]] as const) {
        const res = await get(pathOf(s), site);
        const t1 = now();
        const list = rows(panel(res.text, 'en'));
        const rtf = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
        const timeText = (r: Row) => htmlText(/<time\b[^>]*>([\s\S]*?)<\/time>/.exec(r.html)?.[1] ?? '');
        for (const c of recent) {
          const r = list.find((x) => x.number === c.number)!;
          const candidates = units.flatMap(([u, sec]) => [c.releasedAt - t0 + 2, c.releasedAt - t1 - 2].map((d) => rtf.format(Math.round(d / sec), u)));
          expect(candidates, `${site}: chapter ${c.number}`).toContain(timeText(r));
        }
        for (const c of old) {
          const r = list.find((x) => x.number === c.number)!;
          const dates = zones.map((timeZone) => new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone }).format(new Date(c.releasedAt * 1000)));
          expect(dates, `${site}: chapter ${c.number}`).toContain(timeText(r));
        }
      }
    });

    it('inserts a coming-soon row between chapters 20 and 23', async () => {
      const s = S(DEMO.gap);
      for (const [order, query] of [['desc', ''], ['asc', '?order=asc']] as const) {
        const res = await get(`${pathOf(s)}${query}`);
        const list = items(panel(res.text, 'en'));
        const i20 = list.findIndex((r) => r?.number === 20);
        const i23 = list.findIndex((r) => r?.number === 23);
        expect(i20, order).toBeGreaterThanOrEqual(0);
        expect(i23, order).toBeGreaterThanOrEqual(0);
        expect(Math.abs(i23 - i20), order).toBe(2);
        expect(list[Math.min(i20, i23) + 1], `${order}: the row between 20 and 23`).toBeNull();
        const gapRow = [...res.text.matchAll(/<li\b[^>]*\bdata-gap\b[^>]*>([\s\S]*?)<\/li>/g)][0];
        expect(htmlText(gapRow![1]!)).toBe(message('en', 'chapter.comingSoon'));
        // Consecutive chapters get no coming-soon row.
        const i21 = list.findIndex((r) => r?.number === 19);
        if (i21 >= 0) expect(list[order === 'desc' ? i21 - 1 : i21 + 1]?.number, order).toBe(20);
      }
    });

    it('names decimal chapters "Chapter 12.5" in English and "Capítulo 12,5" in Portuguese', async () => {
      const s = S(DEMO.decimal);
      const ch = s.chapters.find((c) => c.language === 'en' && c.number === 12.5)!;
      expect(ch, 'chapter 12.5').toBeTruthy();
      const en = rows(panel((await get(`${pathOf(s)}?order=asc`)).text, 'en')).find((r) => r.number === 12.5);
      expect(en?.name).toBe(message('en', 'chapter.name.chapter', { num: '12.5' }));
      const br = rows(panel((await get(`${pathOf(s)}?order=asc`, 'br')).text, 'en')).find((r) => r.number === 12.5);
      expect(br?.name).toBe(message('pt-BR', 'chapter.name.chapter', { num: '12,5' }));
      if (released(ch)) expect(en?.href).toBe(`/read/${s.slug}/${ch.e4pid.replace(/^EPI-/, '')}/chapter-12-5/`);
      const other = s.chapters.find((c) => c.language === 'en' && c.number === 40.25);
      if (other) {
        const r = rows(panel((await get(`${pathOf(s)}?order=asc`)).text, 'en')).find((x) => x.number === 40.25);
        expect(r?.name).toBe(message('en', 'chapter.name.chapter', { num: '40.25' }));
      }
    });

    it('uses the series\' "{ord} Chapter" format: 1st, 2nd, 3rd, 11th, 21st…', async () => {
      const s = S(DEMO.ordinalFormat);
      const res = await get(`${pathOf(s)}?order=asc`);
      const byNumber = new Map(rows(panel(res.text, 'en')).map((r) => [r.number, r.name]));
      const want: Record<number, string> = { 1: '1st Chapter', 2: '2nd Chapter', 3: '3rd Chapter', 4: '4th Chapter', 11: '11th Chapter', 12: '12th Chapter', 13: '13th Chapter', 21: '21st Chapter', 22: '22nd Chapter', 23: '23rd Chapter' };
      for (const [n, name] of Object.entries(want)) {
        if (!s.chapters.some((c) => c.language === 'en' && c.number === Number(n))) continue;
        expect(byNumber.get(Number(n)), `chapter ${n}`).toBe(name);
      }
      expect(byNumber.get(2)).toBe('2nd Chapter');
    });

    it('says "Episode" for a WEBTOON, in the heading, the rows and the reader links', async () => {
      const s = S(DEMO.readerWebtoon);
      expect(s.format).toBe('WEBTOON');
      for (const [site, locale] of [['en', 'en'], ['br', 'pt-BR']] as const) {
        const res = await get(`${pathOf(s)}?order=asc`, site);
        const h2 = [...res.text.matchAll(/<h2\b[^>]*>([\s\S]*?)<\/h2>/g)].map((m) => htmlText(m[1]!));
        expect(h2, site).toContain(message(locale, 'series.episodes'));
        expect(h2, site).not.toContain(message(locale, 'series.chapters'));
        const list = rows(panel(res.text, 'en'));
        const first = list.find((r) => r.number === 1)!;
        expect(first.name, site).toBe(message(locale, 'chapter.name.episode', { num: '1' }));
        expect(first.href, site).toMatch(/\/episode-1\/$/);
      }
    });

    it('on the Portuguese site lists at most 5 upcoming chapters when released ones exist; all on the English site', async () => {
      // A Portuguese tab with released chapters and more than 5 scheduled ones (and a single page).
      const pick = [...cat.values()].find((s) => {
        const pt = s.chapters.filter((c) => c.language === 'pt-br');
        const future = pt.filter((c) => !released(c));
        return pt.length <= PER_PAGE && future.length > 5 && pt.some(released) && pt.every(settled);
      });
      expect(pick, 'a series with more than 5 scheduled Portuguese chapters').toBeTruthy();
      const s = pick!;
      const future = s.chapters.filter((c) => c.language === 'pt-br' && !released(c)).sort((a, b) => a.releasedAt - b.releasedAt);
      // The API agrees with the database on how many are scheduled.
      const api = (await get(`/api/comic.public/${s.id}/episodes?language=pt-br`, 'br')).json<{ episodes: { releasedAt: string }[] }>();
      expect(api.episodes.filter((e) => Date.parse(e.releasedAt) > Date.now()).length).toBe(future.length);

      const scheduledRows = (html: string) => rows(panel(html, 'pt-br')).filter((r) => r.href === null);
      const br = scheduledRows((await get(pathOf(s), 'br')).text);
      expect(br.map((r) => r.number).sort((a, b) => a - b), 'br: the 5 soonest').toEqual(future.slice(0, 5).map((c) => c.number).sort((a, b) => a - b));
      // A Portuguese-only series does not exist on the English site (docs/decisions.md, "A series on the other language's site").
      if (s.chapters.some((c) => c.language === 'en')) {
        const en = scheduledRows((await get(pathOf(s), 'en')).text);
        expect(en, 'en: every scheduled chapter').toHaveLength(future.length);
      } else {
        expect((await get(pathOf(s), 'en')).status).toBe(404);
      }
      // Released chapters are all there on both sites.
      const rel = s.chapters.filter((c) => c.language === 'pt-br' && released(c)).length;
      expect(rows(panel((await get(pathOf(s), 'br')).text, 'pt-br')).filter((r) => r.href !== null)).toHaveLength(rel);
    });

    it('a series with only scheduled chapters lists all of them, on both sites', async () => {
      const s = S(DEMO.futureOnly);
      for (const site of ['en', 'br'] as const) {
        const res = await get(pathOf(s), site);
        expectPage(res, site);
        for (const lang of ['en', 'pt-br']) {
          const want = s.chapters.filter((c) => c.language === lang);
          if (!want.length) continue;
          const list = rows(panel(res.text, lang));
          expect(list, `${site} ${lang}`).toHaveLength(want.length);
          expect(list.every((r) => r.href === null), `${site} ${lang}: none is a link`).toBe(true);
        }
      }
    });
  });

  describe('blocked, removed and empty series', () => {
    const readerLinks = (html: string) => anchors(html).filter((a) => a.href?.startsWith('/read/'));

    // These demo series are English-only: on br. they answer 404 (docs/decisions.md, "A series on the other language's site").
    it('a blocked series shows the unavailable message and no chapter links', async () => {
      const s = S(DEMO.blocked);
      expect((await get(pathOf(s), 'br')).status).toBe(404);
      for (const [site, locale] of [['en', 'en']] as const) {
        const res = await get(pathOf(s), site);
        expectPage(res, site);
        expect(htmlText(res.text), site).toContain(message(locale, 'series.blocked.unavailable'));
        expect(readerLinks(res.text), site).toEqual([]);
        expect(rows(res.text), site).toEqual([]);
      }
    });

    it('a series geoblocked in JP shows the region message to CF-IPCountry: JP and chapters to others', async () => {
      const s = S(DEMO.geoblockedJp);
      expect(s.countries).toContain('JP');
      const jp = await get(pathOf(s), 'en', { 'CF-IPCountry': 'JP' });
      expectPage(jp, 'JP');
      expect(htmlText(jp.text)).toContain(message('en', 'series.blocked.region', { countries: s.countries.join(', ') }));
      expect(readerLinks(jp.text)).toEqual([]);
      const jpBr = await get(pathOf(s), 'br', { 'cf-ipcountry': 'jp' });
      expect(jpBr.status).toBe(404);
      expect(readerLinks(jpBr.text)).toEqual([]);

      for (const headers of [undefined, { 'CF-IPCountry': 'BR' }, { 'CF-IPCountry': 'XX' }]) {
        const res = await get(pathOf(s), 'en', headers);
        expectPage(res, JSON.stringify(headers));
        expect(htmlText(res.text)).not.toContain(message('en', 'series.blocked.region', { countries: s.countries.join(', ') }));
        expect(readerLinks(res.text).length, JSON.stringify(headers)).toBeGreaterThan(0);
        expect(rows(res.text).length).toBe(s.chapters.filter((c) => c.language === 'en').length);
      }
    });

    it('the JP-only answer cannot be served to other countries from a shared cache (and the reverse)', async () => {
      // The page differs by CF-IPCountry; a publicly cacheable answer must say so in Vary,
      // or a CDN hands the "unavailable in your region" page to everyone (or chapters to JP).
      const s = S(DEMO.geoblockedJp);
      const problems: string[] = [];
      for (const headers of [{ 'CF-IPCountry': 'JP' }, {}] as Record<string, string>[]) {
        const res = await get(pathOf(s), 'en', headers);
        const cc = res.headers['cache-control'] ?? '';
        const vary = (res.headers.vary ?? '').toLowerCase().split(',').map((v) => v.trim());
        const shared = /\bpublic\b|s-maxage/.test(cc) && !/\bprivate\b|no-store/.test(cc);
        if (shared && !vary.includes('cf-ipcountry') && !vary.includes('*')) {
          problems.push(`${JSON.stringify(headers)}: Cache-Control "${cc}", Vary "${res.headers.vary ?? ''}"`);
        }
      }
      expect(problems, 'shared-cacheable answers that do not vary on CF-IPCountry').toEqual([]);
    });

    it('the episodes API lists no episodes to a country the series is blocked in, and varies on it', async () => {
      const s = S(DEMO.geoblockedJp);
      const path = `/api/comic.public/${s.id}/episodes?language=en`;
      const jp = await server.request(path, { headers: { 'CF-IPCountry': 'JP' } });
      expect(jp.status).toBe(200);
      expect(jp.json()).toMatchObject({ episodes: [], region_blocked: true, reading_button: null });
      const elsewhere = await server.request(path, { headers: { 'CF-IPCountry': 'BR' } });
      expect(elsewhere.json().region_blocked).toBe(false);
      expect(elsewhere.json().episodes.length).toBe(s.chapters.filter((c) => c.language === 'en').length);
      for (const res of [jp, elsewhere]) {
        expect((res.headers.vary ?? '').toLowerCase()).toContain('cf-ipcountry');
      }
    });

    it('a licensing-blocked series lists the countries on the English site only', async () => {
      const s = S(DEMO.licensingBlocked);
      expect(s.countries.length).toBeGreaterThan(0);
      const countries = s.countries.join(', ');
      const en = await get(pathOf(s));
      expectPage(en, 'en');
      expect(htmlText(en.text)).toContain(message('en', 'series.blocked.licensing', { countries }));
      for (const c of s.countries) expect(htmlText(en.text)).toContain(c);
      expect(readerLinks(en.text).length, 'chapters are still listed').toBeGreaterThan(0);
      const br = await get(pathOf(s), 'br');
      expect(br.status).toBe(404);
      expect(htmlText(br.text)).not.toContain(message('pt-BR', 'series.blocked.licensing', { countries }));
      expect(htmlText(br.text)).not.toContain(message('en', 'series.blocked.licensing', { countries }));
    });

    it('a removed series shows the removed message', async () => {
      const s = S(DEMO.removed);
      for (const [site, locale] of [['en', 'en'], ['br', 'pt-BR']] as const) {
        const res = await get(pathOf(s), site);
        expectPage(res, site);
        expect(htmlText(res.text), site).toContain(message(locale, 'series.removed'));
      }
    });

    it('an empty series says no chapters yet (English); English-only, it is not on br.', async () => {
      const s = S(DEMO.empty);
      expect(s.chapters).toEqual([]);
      const en = await get(pathOf(s));
      expectPage(en, 'en');
      expect(htmlText(en.text)).toContain('No chapters have been added yet');
      expect(htmlText(en.text)).toContain(message('en', 'series.empty'));
      expect((await get(pathOf(s), 'br')).status).toBe(404);
      // Nothing to sort.
      expect(en.text).not.toContain(`>${message('en', 'series.sort.oldest')}<`);
    });
  });

  describe('URLs and parameters', () => {
    it('answers an unknown slug with the localized 404 page', async () => {
      for (const [site, locale, lang] of [['en', 'en', 'en'], ['br', 'pt-BR', 'pt-BR']] as const) {
        const res = await get('/comics/no-such-series-anywhere/', site);
        expect(res.status, site).toBe(404);
        expect(res.headers['content-type']).toMatch(/^text\/html/);
        expect(res.text).toMatch(new RegExp(`<html[^>]*\\slang="${lang}"`));
        expect(htmlText(res.text)).toContain(message(locale, 'error.notFound.title'));
      }
    });

    it('answers slugs with uppercase or odd characters with 404, and undecodable ones with 400', async () => {
      const slug = S(DEMO.readerManga).slug;
      const bad = [
        slug.toUpperCase(), slug[0]!.toUpperCase() + slug.slice(1), slug.replace(/-/g, '_'), `${slug}%20`, `%20${slug}`, `${slug}.`,
        `${slug}%2F..`, '%E2%9C%93', `${slug}'`, `${slug}%22%3E%3Cb%3E`, 'a'.repeat(300), `${slug}%C3%A9`,
      ];
      const wrong: string[] = [];
      for (const b of bad) {
        const res = await get(`/comics/${b}/`);
        if (res.status !== 404) wrong.push(`/comics/${b}/ -> ${res.status}`);
        const leak = leakIn(res.text);
        if (leak) wrong.push(`/comics/${b}/ leaks: ${leak}`);
      }
      // Paths that cannot be decoded, or decode to a NUL, are malformed rather than unknown.
      for (const b of [`${slug}%00`, `${slug}%`, `${slug}%E0%A4%A`, `%C0%AF${slug}`.replace('%C0%AF', '%FF')]) {
        const res = await get(`/comics/${b}/`);
        if (res.status !== 400) wrong.push(`/comics/${b}/ -> ${res.status}, expected 400`);
      }
      expect(wrong).toEqual([]);
    });

    it('tolerates junk query parameters with 200', async () => {
      const s = S(DEMO.longList);
      const queries = ['?page=abc', '?page=99999', '?page=-1', '?page=0', '?page=1e9', '?page=2.5', '?language=xx', '?language=%00', '?language=en&page=99999',
        '?order=bogus', '?order=', '?order=asc&order=desc', '?page[]=1', '?language=pt-br&page=2&order=asc', `?language=${'x'.repeat(2000)}`];
      const wrong: string[] = [];
      for (const q of queries) {
        const res = await get(`${pathOf(s)}${q}`);
        if (res.status !== 200) wrong.push(`${q} -> ${res.status}`);
        else if (![...res.text.matchAll(/<h1\b[^>]*>([\s\S]*?)<\/h1>/g)].some((m) => htmlText(m[1]!) === s.name)) wrong.push(`${q}: no <h1> with the name`);
        else if (rows(panel(res.text, 'en')).length === 0) wrong.push(`${q}: no English rows`);
        const leak = leakIn(res.text);
        if (leak) wrong.push(`${q} leaks: ${leak}`);
      }
      expect(wrong).toEqual([]);
      // A page past the end shows the last page.
      const last = await get(`${pathOf(s)}?language=en&page=99999`);
      const en = s.chapters.filter((c) => c.language === 'en').length;
      expect(rows(panel(last.text, 'en'))).toHaveLength(en - PER_PAGE * (Math.ceil(en / PER_PAGE) - 1));
    });

    it('lists newest first by default and chapter 1 first with ?order=asc', async () => {
      const s = S(DEMO.readerManga);
      const en = s.chapters.filter((c) => c.language === 'en').map((c) => c.number);
      const desc = rows(panel((await get(pathOf(s))).text, 'en')).map((r) => r.number);
      expect(desc[0]).toBe(Math.max(...en));
      expect(desc).toEqual([...en].sort((a, b) => b - a));
      const asc = rows(panel((await get(`${pathOf(s)}?order=asc`)).text, 'en')).map((r) => r.number);
      expect(asc[0]).toBe(1);
      expect(asc).toEqual([...en].sort((a, b) => a - b));
      const bogus = rows(panel((await get(`${pathOf(s)}?order=bogus`)).text, 'en')).map((r) => r.number);
      expect(bogus).toEqual(desc);
    });
  });

  describe('caching and theme', () => {
    it('is publicly cacheable for anonymous readers', async () => {
      const res = await get(pathOf(S(DEMO.readerManga)));
      expect(res.headers['cache-control']).toMatch(/s-maxage=\d+/);
      expect(res.headers['cache-control']).not.toMatch(/private|no-store/);
      expect(res.headers['set-cookie']).toBeUndefined();
    });

    it('is private and dark with a dark=1 cookie', async () => {
      const res = await get(pathOf(S(DEMO.readerManga)), 'en', { Cookie: 'dark=1' });
      expectPage(res, 'dark');
      expect(res.headers['cache-control']).toMatch(/^private\b/);
      expect(res.headers['cache-control']).not.toMatch(/s-maxage|public/);
      expect(res.text).toMatch(/<html\b[^>]*\sdata-theme="dark"/);
      const lite = await get(pathOf(S(DEMO.readerManga)), 'br', { Cookie: 'lite=1' });
      expect(lite.headers['cache-control']).toMatch(/^private\b/);
      expect(lite.text).toMatch(/<html\b[^>]*\sdata-theme="light"/);
    });
  });

  describe('JSON API', () => {
    it('/api/comic.public/{e4pid} and /{id} give the comic response v2', async () => {
      const s = S(DEMO.readerManga);
      for (const ref of [s.e4pid, String(s.id)]) {
        for (const site of ['en', 'br'] as const) {
          const res = await get(`/api/comic.public/${ref}`, site);
          expect(res.status, `${ref} ${site}`).toBe(200);
          expect(res.headers['content-type']).toMatch(/^application\/json/);
          const body = res.json();
          expect(Object.keys(body).sort(), `${ref} ${site}`).toEqual([...COMIC_V2_KEYS].sort());
          expect(body.comic.e4pid).toBe(s.e4pid);
          expect(body.comic.name).toBe(site === 'br' ? s.namePt : s.name);
          expect(body.languages).toEqual(expect.arrayContaining(['en', 'pt-br']));
          expect(body.default_language).toBe(site === 'br' ? 'pt-br' : 'en');
        }
      }
      const missing = await get('/api/comic.public/SER-doesnotexist');
      expect(missing.status).toBe(404);
      expect(Object.keys(missing.json())).toEqual(['detail']);
    });

    it('/api/comic.public/{id}/episodes?language=pt-br gives the episodes response with Portuguese reader links', async () => {
      for (const slug of [DEMO.readerManga, DEMO.readerWebtoon, DEMO.decimal]) {
        const s = S(slug);
        const res = await get(`/api/comic.public/${s.id}/episodes?language=pt-br`, 'br');
        expect(res.status, slug).toBe(200);
        const body = res.json();
        expect(Object.keys(body).sort(), slug).toEqual([...EPISODES_KEYS].sort());
        expect(body.language).toBe('pt-br');
        const pt = s.chapters.filter((c) => c.language === 'pt-br');
        expect(body.episodes).toHaveLength(pt.length);
        const bad: string[] = [];
        for (const e of body.episodes as { id: string; number: number; link: string; finalPrice: number; originalPrice: number }[]) {
          const want = `/read/${s.slug}/${e.id.replace(/^EPI-/, '')}/capitulo-portugues-${numSeg(Number(e.number))}/`;
          const url = new URL(e.link, server.origin('br'));
          if (url.pathname !== want || url.search || url.hash) bad.push(`${e.id} #${e.number}: ${e.link} (want ${want})`);
          if (!/^https?:/.test(e.link) && !e.link.startsWith('/')) bad.push(`${e.id}: odd link ${e.link}`);
          const db = pt.find((c) => c.e4pid === e.id);
          if (!db) bad.push(`${e.id} is not a Portuguese chapter of ${slug}`);
          else if (db.number !== Number(e.number) || db.originalPrice !== e.originalPrice || db.finalPrice !== e.finalPrice) bad.push(`${e.id}: ${JSON.stringify(e)} vs ${JSON.stringify(db)}`);
        }
        expect(bad, slug).toEqual([]);
      }
    });
  });
});
