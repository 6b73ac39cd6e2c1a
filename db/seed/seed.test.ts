import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type DB } from '~/server/db';
import { migrateToLatest } from '../migrate';
import { plannedKeys, poolPages, svgSources } from './art';
import { ensurePromoMedia, promoKeys } from './promo';
import { DiskMediaStore } from '~/server/media-store';
import { slugify } from './build';
import { PUBLISHERS, SERIES } from './catalog';
import { DEMO, clearCatalog, isCatalogEmpty, seedDemo, seedDemoPromotions, seedDemoTexts } from './index';

// A fixed clock: 2026-03-04 10:20:00 UTC (a Wednesday).
const NOW = 1772619600;
const DAY = 86400;

let db: DB;
let mediaDir: string;

async function freshDb(): Promise<DB> {
  const { db } = await createDb(':memory:');
  await migrateToLatest(db);
  return db;
}

beforeAll(async () => {
  mediaDir = fs.mkdtempSync(path.join(os.tmpdir(), 'inkpass-seed-'));
  db = await freshDb();
  expect(await isCatalogEmpty(db)).toBe(true);
  // Rows only: rendering the images is covered by the art tests below and by `npm run seed`.
  await seedDemo(db, { mediaDir, now: NOW, images: false });
}, 60_000);

afterAll(async () => {
  await db?.destroy();
  fs.rmSync(mediaDir, { recursive: true, force: true });
});

const series = () => db.selectFrom('series').selectAll().orderBy('id').execute();
const chapters = () => db.selectFrom('chapters').selectAll().orderBy('id').execute();
const bySlug = async (slug: string) => db.selectFrom('series').selectAll().where('slug', '=', slug).executeTakeFirstOrThrow();
const chaptersOf = async (seriesId: number, language?: string) => {
  let q = db.selectFrom('chapters').selectAll().where('series_id', '=', seriesId);
  if (language) q = q.where('language', '=', language);
  return q.orderBy('language').orderBy('number').execute();
};

function groupBy<T, K>(items: T[], key: (t: T) => K): Map<K, T[]> {
  const m = new Map<K, T[]>();
  for (const it of items) {
    const k = key(it);
    const list = m.get(k);
    if (list) list.push(it);
    else m.set(k, [it]);
  }
  return m;
}

describe('demo catalogue', () => {
  it('is no longer empty', async () => {
    expect(await isCatalogEmpty(db)).toBe(false);
  });

  it('has enough series in every format and chapters in total', async () => {
    const s = await series();
    expect(s.length).toBeGreaterThanOrEqual(60);
    expect(new Set(s.map((x) => x.format))).toEqual(new Set(['COMIC', 'MANGA', 'WEBTOON']));
    expect((await chapters()).length).toBeGreaterThanOrEqual(3000);
  });

  it('splits languages about 40% both, 35% English, 25% Portuguese', async () => {
    const langs = await db.selectFrom('series_languages').selectAll().execute();
    const per = groupBy(langs, (l) => l.series_id);
    let both = 0;
    let en = 0;
    let pt = 0;
    for (const rows of per.values()) {
      const set = new Set(rows.map((r) => r.language));
      expect(set.has('en') || set.has('pt-br')).toBe(true);
      if (set.has('en') && set.has('pt-br')) both++;
      else if (set.has('en')) en++;
      else pt++;
    }
    const total = both + en + pt;
    expect(both / total).toBeGreaterThan(0.35);
    expect(both / total).toBeLessThan(0.45);
    expect(en / total).toBeGreaterThan(0.3);
    expect(pt / total).toBeGreaterThan(0.2);
    for (const l of langs) expect(l.site_id).toBe({ en: 1, 'pt-br': 3, es: 0 }[l.language]);
    expect(new Set(langs.filter((l) => l.language === 'es').map((l) => l.series_id)).size).toBe(2);
  });

  it('has tags, keywords, people and publishers', async () => {
    const tags = await db.selectFrom('tags').selectAll().execute();
    expect(tags.length).toBeGreaterThanOrEqual(12);
    expect(tags.filter((t) => t.is_primary === 1).length).toBe(6);
    for (const t of tags) {
      expect(t.icon).toBe('NONE');
      expect(t.color).toMatch(/^#[0-9a-f]{6}$/);
      expect(t.name_pt.length).toBeGreaterThan(0);
    }
    expect((await db.selectFrom('keywords').select('id').execute()).length).toBeGreaterThan(10);
    const roles = await db.selectFrom('series_people').select(['series_id', 'role']).execute();
    const s = await series();
    for (const x of s) {
      expect(roles.some((r) => r.series_id === x.id && r.role === 'author')).toBe(true);
      expect(roles.some((r) => r.series_id === x.id && r.role === 'artist')).toBe(true);
    }
    const pubs = await db.selectFrom('publishers').selectAll().execute();
    expect(pubs.length).toBeGreaterThanOrEqual(4);
    const jp = pubs.find((p) => p.geoblocks === '["JP"]');
    expect(jp).toBeDefined();
    const jpSeries = s.filter((x) => x.publisher_id === jp!.id);
    expect(jpSeries.length).toBeGreaterThan(0);
    for (const x of jpSeries) expect(x.geoblocks).toBe('["JP"]');
    expect(s.some((x) => x.geoblocks === '["US","CA","GB"]')).toBe(true);
  });

  it('has well-formed series fields', async () => {
    const s = await series();
    const e4pids = new Set<string>();
    for (const x of s) {
      expect(x.e4pid).toMatch(/^SER-[0-9a-z]{6}$/);
      e4pids.add(x.e4pid);
      expect(x.slug).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(x.slug).toBe(slugify(x.name));
      expect(x.color).toMatch(/^#[0-9a-f]{6}$/);
      const sentences = x.description.split(/(?<=[.!?])\s+/);
      expect(sentences.length).toBeGreaterThanOrEqual(2);
      expect(sentences.length).toBeLessThanOrEqual(4);
      expect(x.excerpt).toBe(sentences[0]);
      const expected = [x.name, ...x.alt.split('\n').filter(Boolean)]
        .join(' ')
        .normalize('NFD')
        .replace(/[\u0300-\u036f]/g, '')
        .toLowerCase();
      expect(x.search_text).toBe(expected);
      expect(x.search_text).not.toMatch(/[\u0300-\u036f]/);
      expect(x.copyright).toMatch(/^© \d{4} .+ \/ .+$/);
      const fa = JSON.parse(x.free_availability);
      expect(Object.keys(fa).sort()).toEqual(['ads_enabled', 'ads_hint', 'ads_ttl', 'available_ads', 'daily_pass_enabled', 'daily_pass_recharge', 'daily_pass_ttl', 'subscribed', 'total_ads']);
      expect(Array.isArray(JSON.parse(x.hints))).toBe(true);
      expect(Array.isArray(JSON.parse(x.geoblocks))).toBe(true);
      expect(x.popularity).toBeGreaterThanOrEqual(0);
      expect(x.popularity).toBeLessThanOrEqual(100000);
      expect(x.created_at).toBeGreaterThan(NOW - 3.3 * 365 * DAY);
      expect(x.modified_at).toBeGreaterThanOrEqual(x.created_at);
      expect(x.modified_at).toBeLessThanOrEqual(NOW);
    }
    expect(e4pids.size).toBe(s.length);
    const statuses = new Set(s.map((x) => x.update_status));
    for (const st of ['COMPLETED', 'HIATUS', 'WEEKLY', 'DAILY', 'MONDAYS', 'FRIDAYS', 'SUNDAYS', 'COMING_SOON', 'BI_WEEKLY', 'MONTHLY']) expect(statuses).toContain(st);
    expect(s.filter((x) => x.update_text).length).toBeGreaterThan(10);
    expect(s.filter((x) => x.hints !== '[]').length).toBeGreaterThanOrEqual(2);
    expect(s.filter((x) => x.chapter_name_format !== null).map((x) => x.chapter_name_format).sort()).toEqual(['Ch. {num}', 'Round {num}', '{ord} Chapter']);
    // Portuguese-only series have Portuguese names with accents somewhere in the list.
    const ptOnly = SERIES.filter((d) => d.lang === 'pt');
    expect(ptOnly.some((d) => /[ãçéêáíóú]/i.test(d.name))).toBe(true);
    // Both-language series carry their Portuguese name in alt.
    for (const d of SERIES.filter((d) => d.lang === 'both')) expect((await bySlug(slugify(d.name))).alt.split('\n')).toContain(d.pt);
  });

  it('has well-formed, unique chapter ids, titles and subtitles', async () => {
    const ch = await chapters();
    const ids = new Set(ch.map((c) => c.e4pid));
    expect(ids.size).toBe(ch.length);
    for (const c of ch) {
      expect(c.e4pid).toMatch(/^EPI-[0-9a-z]{8}$/);
      expect(c.sale_at).toBe(c.released_at);
      expect(c.original_price).toBeGreaterThanOrEqual(0);
      expect(c.page_count).toBeGreaterThanOrEqual(4);
      expect(c.page_count).toBeLessThanOrEqual(12);
      expect(c.thumbnail).toMatch(/^pool\/thumbs\/thumb-\d\d\.webp$/);
    }
    expect(ch.filter((c) => c.title).length / ch.length).toBeGreaterThan(0.7);
    expect(ch.some((c) => c.subtitle)).toBe(true);
  });

  it('has decimal chapter numbers and gaps', async () => {
    const ch = await chapters();
    expect(ch.some((c) => c.number === 12.5)).toBe(true);
    expect(ch.some((c) => c.number === 40.25)).toBe(true);
    const decimal = await bySlug(DEMO.decimal);
    expect((await chaptersOf(decimal.id, 'en')).map((c) => c.number)).toContain(12.5);
    const gapSeries = new Set<number>();
    for (const [key, list] of groupBy(ch, (c) => `${c.series_id}:${c.language}`)) {
      const nums = list.map((c) => c.number).sort((a, b) => a - b);
      for (let i = 1; i < nums.length; i++) if (nums[i]! - nums[i - 1]! > 1.5) gapSeries.add(Number(key.split(':')[0]));
    }
    expect(gapSeries.size).toBeGreaterThanOrEqual(3);
    const gap = await bySlug(DEMO.gap);
    expect(gapSeries.has(gap.id)).toBe(true);
    const nums = (await chaptersOf(gap.id, 'en')).map((c) => c.number);
    expect(nums).toContain(20);
    expect(nums).not.toContain(21);
    expect(nums).toContain(23);
  });

  it('has past and scheduled chapters', async () => {
    const ch = await chapters();
    const future = ch.filter((c) => c.released_at > NOW);
    expect(new Set(future.map((c) => c.series_id)).size).toBeGreaterThanOrEqual(15);
    for (const c of future) expect(c.released_at).toBeLessThanOrEqual(NOW + 92 * DAY);
    expect(future.some((c) => c.released_at <= NOW + DAY)).toBe(true);
    const soon = await bySlug(DEMO.releaseSoon);
    expect((await chaptersOf(soon.id, 'en')).some((c) => c.released_at > NOW && c.released_at <= NOW + DAY)).toBe(true);
    const past = ch.filter((c) => c.released_at <= NOW);
    expect(Math.min(...past.map((c) => c.released_at))).toBeGreaterThan(NOW - 3 * 365 * DAY);
    // Weekly series released something in the last three days.
    for (const x of (await series()).filter((s) => s.update_status === 'WEEKLY' && s.chapter_count > 0)) {
      expect(x.last_updated).toBeGreaterThan(NOW - 3 * DAY);
    }
  });

  it('prices chapters by the availability strategy', async () => {
    const s = await series();
    const ch = await chapters();
    const perSeries = groupBy(ch, (c) => c.series_id);
    for (const x of s) {
      const strategy = JSON.parse(x.availability_strategy);
      expect(Object.keys(strategy).sort()).toEqual(['backlog_becomes_backlog', 'catchup_count', 'fpf_becomes_backlog', 'fpf_becomes_free', 'fpf_becomes_paid', 'latest_episode_double', 'latest_only_free', 'simulpub', 'starting_count']);
      const mine = perSeries.get(x.id) ?? [];
      if (x.all_free) {
        for (const c of mine) expect(c.original_price).toBe(0);
        continue;
      }
      for (const list of groupBy(mine, (c) => c.language).values()) {
        list.sort((a, b) => a.number - b.number);
        const n = strategy.starting_count as number;
        list.slice(0, n).forEach((c) => expect(c.original_price).toBe(0));
        list.slice(n).forEach((c) => {
          expect(c.original_price).toBeGreaterThanOrEqual(1);
          expect(c.original_price).toBeLessThanOrEqual(15);
        });
      }
    }
    expect(s.filter((x) => x.all_free === 1).length).toBeGreaterThanOrEqual(3);
    expect(ch.some((c) => c.original_price >= 10)).toBe(true);
    expect(ch.filter((c) => c.original_price > 0).every((c) => c.original_price <= 3 || c.original_price >= 10)).toBe(true);
  });

  it('has active and expired campaigns', async () => {
    const campaigns = await db.selectFrom('campaigns').selectAll().execute();
    const active = campaigns.filter((c) => c.starts_at <= NOW && c.ends_at > NOW);
    expect(new Set(active.map((c) => c.series_id)).size).toBeGreaterThanOrEqual(4);
    expect(campaigns.some((c) => c.ends_at < NOW)).toBe(true);
    for (const c of campaigns) {
      expect(c.discount).toBeGreaterThan(0);
      expect(c.discount).toBeLessThan(1);
      expect(c.override_all_free).toBe(0);
      expect(c.override_starting_count!).toBeLessThan(c.override_ending_count!);
    }
    const campaign = await bySlug(DEMO.campaign);
    expect(active.some((c) => c.series_id === campaign.id)).toBe(true);
    const expired = await bySlug(DEMO.expiredCampaign);
    expect(campaigns.filter((c) => c.series_id === expired.id).every((c) => c.ends_at < NOW)).toBe(true);
  });

  it('has every special series', async () => {
    for (const slug of Object.values(DEMO)) await bySlug(slug);
    expect((await bySlug(DEMO.adult)).adult).toBe(1);
    const empty = await bySlug(DEMO.empty);
    expect(await chaptersOf(empty.id)).toHaveLength(0);
    expect(empty.chapter_count).toBe(0);
    const futureOnly = await bySlug(DEMO.futureOnly);
    const fo = await chaptersOf(futureOnly.id);
    expect(fo.length).toBeGreaterThan(0);
    expect(fo.every((c) => c.released_at > NOW)).toBe(true);
    expect((await bySlug(DEMO.removed)).state).toBe('REMOVED');
    expect((await bySlug(DEMO.blocked)).state).toBe('BLOCKED');
    expect((await bySlug(DEMO.geoblockedJp)).geoblocks).toBe('["JP"]');
    expect(JSON.parse((await bySlug(DEMO.licensingBlocked)).geoblocks).length).toBeGreaterThan(1);
    for (const [slug, format] of [
      [DEMO.readerManga, 'MANGA'],
      [DEMO.readerComic, 'COMIC'],
      [DEMO.readerWebtoon, 'WEBTOON'],
    ] as const) {
      const x = await bySlug(slug);
      expect(x.format).toBe(format);
      expect(x.state).toBe('ACTIVE');
      expect(x.adult).toBe(0);
      expect(x.geoblocks).toBe('[]');
      const free = (await chaptersOf(x.id, 'en')).filter((c) => c.original_price === 0 && c.released_at <= NOW);
      expect(free.length).toBeGreaterThanOrEqual(2);
    }
    expect((await chaptersOf((await bySlug(DEMO.longList)).id, 'en')).length).toBeGreaterThanOrEqual(150);
    expect((await bySlug(DEMO.ordinalFormat)).chapter_name_format).toContain('{ord}');
    const pt = await bySlug(DEMO.portugueseOnly);
    expect(pt.name).toContain('Coração');
    const ptLangs = await db.selectFrom('series_languages').select('language').where('series_id', '=', pt.id).execute();
    expect(ptLangs.map((l) => l.language)).toEqual(['pt-br']);
    const es = await chaptersOf((await bySlug(DEMO.spanish)).id, 'es');
    expect(es.length).toBeGreaterThan(0);
    expect((await bySlug(DEMO.allFree)).all_free).toBe(1);
    expect((await chaptersOf((await bySlug(DEMO.premium)).id)).some((c) => c.original_price >= 10)).toBe(true);
  });

  it('keeps the denormalised columns equal to recomputed values', async () => {
    const s = await series();
    const released = (await chapters()).filter((c) => c.released_at <= NOW);
    const perSeries = groupBy(released, (c) => c.series_id);
    for (const x of s) {
      const mine = perSeries.get(x.id) ?? [];
      expect(x.chapter_count).toBe(mine.length);
      expect(x.last_updated).toBe(mine.length ? Math.max(...mine.map((c) => c.released_at)) : x.created_at);
      expect(x.largest_chapter).toBe(mine.length ? Math.max(...mine.map((c) => c.number)) : 0);
    }
    const langs = await db.selectFrom('series_languages').selectAll().execute();
    const created = new Map(s.map((x) => [x.id, x.created_at]));
    for (const l of langs) {
      const mine = (perSeries.get(l.series_id) ?? []).filter((c) => c.language === l.language);
      expect(l.chapter_count).toBe(mine.length);
      expect(l.last_updated).toBe(mine.length ? Math.max(...mine.map((c) => c.released_at)) : created.get(l.series_id));
    }
    // Every chapter language is listed in series_languages.
    const listed = new Set(langs.map((l) => `${l.series_id}:${l.language}`));
    for (const c of await chapters()) expect(listed.has(`${c.series_id}:${c.language}`)).toBe(true);
  });

  it('gives every chapter its pages from the format pool', async () => {
    const pages = await db.selectFrom('chapter_pages').selectAll().execute();
    const perChapter = groupBy(pages, (p) => p.chapter_id);
    const formatOf = new Map((await series()).map((x) => [x.id, x.format]));
    const pools = new Map((['COMIC', 'MANGA', 'WEBTOON'] as const).map((f) => [f, new Map(poolPages(f).map((p) => [p.key, p]))]));
    // Collect problems in plain code (35,000 expect() calls would be slow) and compare once.
    const problems: string[] = [];
    for (const c of await chapters()) {
      const list = (perChapter.get(c.id) ?? []).sort((a, b) => a.position - b.position);
      if (list.map((p) => p.position).join() !== [...Array(c.page_count).keys()].join()) problems.push(`${c.e4pid}: positions`);
      const format = formatOf.get(c.series_id)!;
      for (const p of list) {
        const img = pools.get(format)!.get(p.media_key);
        if (!img || img.width !== p.width || img.height !== p.height) problems.push(`${c.e4pid}: ${p.media_key} ${p.width}x${p.height}`);
        const ok = format === 'WEBTOON' ? p.height > p.width * 2 : p.height === 1350 && (p.width === 900 || p.width === 1800);
        if (!ok) problems.push(`${c.e4pid}: ${format} page ${p.width}x${p.height}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('references only media keys the art generator writes', async () => {
    const planned = new Set(
      plannedKeys(
        SERIES.map((d) => ({ slug: slugify(d.name), name: d.name, format: d.format, color: d.color, publisher: '', author: '' })),
      ),
    );
    const keys: string[] = [];
    for (const x of await series()) {
      const images = JSON.parse(x.images) as Record<string, string>;
      expect(Object.keys(images).sort()).toEqual(['banner', 'cover', 'full_cover', 'logo', 'preview', 'showcase', 'thumbnail', 'thumbnail_140', 'thumbnail_70', 'wallpaper', 'zoom_cover']);
      keys.push(...Object.values(images));
    }
    for (const c of await chapters()) keys.push(c.thumbnail!);
    for (const p of await db.selectFrom('chapter_pages').select('media_key').distinct().execute()) keys.push(p.media_key);
    for (const k of keys) {
      expect(k).toMatch(/^[a-z0-9][a-z0-9/_.-]*\.webp$/);
      expect(k).not.toContain('..');
      expect(planned.has(k)).toBe(true);
    }
  });

  it('is deterministic for the same clock', async () => {
    const other = await freshDb();
    try {
      await seedDemo(other, { mediaDir, now: NOW, images: false });
      const a = await db.selectFrom('series').select(['slug', 'e4pid', 'last_updated', 'chapter_count']).orderBy('slug').execute();
      const b = await other.selectFrom('series').select(['slug', 'e4pid', 'last_updated', 'chapter_count']).orderBy('slug').execute();
      expect(b).toEqual(a);
      const ca = await db.selectFrom('chapters').select(['e4pid', 'number', 'language', 'released_at', 'original_price', 'title']).orderBy('e4pid').execute();
      const cb = await other.selectFrom('chapters').select(['e4pid', 'number', 'language', 'released_at', 'original_price', 'title']).orderBy('e4pid').execute();
      expect(cb).toEqual(ca);
      await clearCatalog(other);
      expect(await isCatalogEmpty(other)).toBe(true);
    } finally {
      await other.destroy();
    }
  }, 60_000);

  it('gives every series shown on the Portuguese site Portuguese texts', async () => {
    const rows = await db.selectFrom('series').innerJoin('series_languages', 'series_languages.series_id', 'series.id')
      .leftJoin('series_texts', (j) => j.onRef('series_texts.series_id', '=', 'series.id').on('series_texts.language', '=', 'pt-br'))
      .select(['series.slug', 'series.name', 'series.description', 'series.update_text', 'series.chapter_name_format', 'series.alt',
        'series_texts.name as pt_name', 'series_texts.description as pt_description', 'series_texts.excerpt as pt_excerpt',
        'series_texts.update_text as pt_update', 'series_texts.chapter_name_format as pt_format'])
      .where('series_languages.site_id', '=', 3).execute();
    const both = SERIES.filter((d) => d.lang === 'both');
    expect(rows.filter((r) => r.pt_description != null)).toHaveLength(both.length);
    for (const r of rows) {
      const def = SERIES.find((d) => slugify(d.name) === r.slug)!;
      if (def.lang === 'pt') {
        // The original is Portuguese already.
        expect(r.pt_description).toBeNull();
        continue;
      }
      expect(r.pt_name).toBe(def.pt);
      expect(r.pt_description).not.toBe(r.description);
      expect(r.pt_description).toMatch(/[ãçéêíóõú]| (de|que|o|a) /);
      expect(r.description.startsWith(r.pt_excerpt!)).toBe(false);
      expect(r.pt_description!.startsWith(r.pt_excerpt!)).toBe(true);
      if (r.update_text) expect(r.pt_update).toMatch(/^(Novos (capítulos|episódios) (todo|toda|todos os) |Atualizado |Novo capítulo|Em hiato)/);
      else expect(r.pt_update).toBeNull();
    }
    expect(rows.find((r) => r.chapter_name_format === 'Round {num}')?.pt_format).toBe('Rodada {num}');
    expect(rows.some((r) => r.pt_update === 'Novos capítulos todo domingo' || r.pt_update === 'Novos episódios todo domingo' || r.pt_update === 'Atualizado semanalmente')).toBe(true);
  });

  it('adds missing translations to an already seeded catalogue, once', async () => {
    const other = await freshDb();
    try {
      await seedDemo(other, { mediaDir, now: NOW, images: false });
      const before = await other.selectFrom('series_texts').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      await other.deleteFrom('series_texts').execute();
      expect(await seedDemoTexts(other, NOW)).toBe(Number(before.n));
      expect(await seedDemoTexts(other, NOW)).toBe(0);
    } finally {
      await other.destroy();
    }
  }, 60_000);

  it('defines the publishers the series use', () => {
    const keys = new Set(PUBLISHERS.map((p) => p.key));
    for (const d of SERIES) expect(keys.has(d.pub)).toBe(true);
  });
});

describe('demo art', () => {
  const spec = { slug: 'coracao-de-aco', name: 'Coração de Aço', format: 'WEBTOON' as const, color: '#2e86de', publisher: 'Editora Aurora', author: 'Lucas Andrade' };

  it('renders covers, wide art, logos, pages and thumbnails at their sizes', async () => {
    const cases: [string, number, number][] = [
      [svgSources.coverSvg(spec), 700, 1000],
      [svgSources.wideSvg(spec, 800, 450, 'showcase'), 800, 450],
      [svgSources.logoSvg(spec), 400, 120],
      [svgSources.comicPageSvg('MANGA', 0, 900, 1350), 900, 1350],
      [svgSources.webtoonSvg(0), 800, 1800],
      [svgSources.thumbSvg(0), 320, 180],
    ];
    for (const [svg, w, h] of cases) {
      expect(svg).not.toMatch(/NaN|undefined/);
      const meta = await sharp(await sharp(Buffer.from(svg)).webp({ quality: 80 }).toBuffer()).metadata();
      expect([meta.width, meta.height]).toEqual([w, h]);
    }
  }, 60_000);

  it('produces the same SVG for the same input', () => {
    expect(svgSources.coverSvg(spec)).toBe(svgSources.coverSvg(spec));
    expect(svgSources.comicPageSvg('COMIC', 3, 900, 1350)).toBe(svgSources.comicPageSvg('COMIC', 3, 900, 1350));
  });
});

describe('demo promotional visuals and previews (issue 30)', () => {
  it('gives each visual type to at least one demo series, and a chapter preview to some', async () => {
    const promos = await db.selectFrom('series_promotions').innerJoin('series', 'series.id', 'series_promotions.series_id').select(['series.slug', 'visual_type', 'media_key', 'poster_key']).execute();
    expect(new Set(promos.map((p) => p.visual_type))).toEqual(new Set(['IMAGE', 'ANIMATED_IMAGE', 'ANIMATION', 'VIDEO']));
    for (const p of promos) expect(p.media_key.startsWith(`series/${p.slug}/`), p.slug).toBe(true);
    expect(promos.filter((p) => p.visual_type === 'VIDEO' || p.visual_type === 'ANIMATION').every((p) => p.poster_key)).toBe(true);
    const previews = await db.selectFrom('series').select(['slug', 'preview_pages']).where('preview_pages', '>', 0).execute();
    expect(previews.length).toBeGreaterThanOrEqual(2);
  });

  it('makes a small animated WebP, and WebM videos with posters, without downloading anything', async () => {
    const store = new DiskMediaStore(mediaDir);
    const spec = { slug: 'promo-test', name: 'Promo Test', format: 'COMIC' as const, color: '#2e86de', publisher: 'Editora Aurora', author: 'Lucas Andrade' };
    const written = await ensurePromoMedia(store, [{ spec, promo: { type: 'ANIMATED_IMAGE' } }, { spec, promo: { type: 'VIDEO' } }]);
    expect(written).toBe(3);
    const anim = fs.readFileSync(path.join(mediaDir, promoKeys('promo-test', 'ANIMATED_IMAGE').media));
    const meta = await sharp(anim, { animated: true }).metadata();
    expect(meta.pages).toBeGreaterThan(1);
    const video = promoKeys('promo-test', 'VIDEO');
    const webm = fs.readFileSync(path.join(mediaDir, video.media));
    // EBML header, DocType webm, the VP8 codec.
    expect(webm.subarray(0, 4).toString('hex')).toBe('1a45dfa3');
    expect(webm.includes(Buffer.from('webm'))).toBe(true);
    expect(webm.includes(Buffer.from('V_VP8'))).toBe(true);
    expect(webm.length).toBeLessThan(400_000);
    expect((await sharp(fs.readFileSync(path.join(mediaDir, video.poster!))).metadata()).width).toBe(640);
    // Made once: a second run writes nothing.
    expect(await ensurePromoMedia(store, [{ spec, promo: { type: 'VIDEO' } }])).toBe(0);
  }, 60_000);

  it('backfills a catalogue seeded before issue 30: the visuals, their media and the preview settings, once', async () => {
    const other = await freshDb();
    try {
      await seedDemo(other, { mediaDir, now: NOW, images: false });
      await other.deleteFrom('series_promotions').execute();
      await other.updateTable('series').set({ preview_pages: 0 }).execute();
      expect(await seedDemoPromotions(other, mediaDir, NOW)).toBe(4);
      expect((await other.selectFrom('series_promotions').select('series_id').execute()).length).toBe(4);
      expect((await other.selectFrom('series').select('slug').where('preview_pages', '>', 0).execute()).map((r) => r.slug).sort()).toEqual(['blade-of-the-quiet-moon', 'the-last-cartographer']);
      expect(fs.existsSync(path.join(mediaDir, promoKeys('level-zero-hunter', 'VIDEO').media))).toBe(true);
      expect(await seedDemoPromotions(other, mediaDir, NOW)).toBe(0);
    } finally {
      await other.destroy();
    }
  }, 60_000);
});
