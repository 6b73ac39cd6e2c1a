/**
 * The deterministic demo catalogue (and a large variant for benchmarks).
 *
 * seedDemo builds every row in memory from the definitions in catalog.ts and
 * the clock value `now`, makes sure the generated images exist under
 * mediaDir, then inserts everything through Kysely in multi-row batches inside
 * transactions. It writes no dialect-specific SQL, so it runs on SQLite and
 * PostgreSQL alike. See docs/content.md.
 */
import type { Transaction } from 'kysely';
import type { Database } from '../schema';
import type { DB } from '~/server/db';
import { ensureArt, type SeriesArtSpec } from './art';
import { ensurePromoMedia } from './promo';
import { DiskMediaStore } from '~/server/media-store';
import type { MediaStore } from '~/server/media-store';
import { type BuildContext, type BuiltSeries, IdBook, SlugBook, buildBulkSeries, buildDemoSeries, chapterPages, slugify } from './build';
import { KEYWORDS, PEOPLE_ALT, PUBLISHERS, SERIES, TAGS } from './catalog';
import { reindexSeries } from '~/server/search-index';
import { seedCollections } from './collections';

/** Slugs of the demo series with special properties, for tests and demos. */
export const DEMO = {
  /** adult = 1 */
  adult: 'velvet-hours',
  /** No chapters at all (COMING_SOON). */
  empty: 'the-unwritten-atlas',
  /** Only scheduled (future) chapters, in both languages. */
  futureOnly: 'penny-the-paper-moon',
  /** state = 'REMOVED' */
  removed: 'glass-crown',
  /** state = 'BLOCKED' */
  blocked: 'hollow-signal',
  /** Publisher and series geoblocked in JP. */
  geoblockedJp: 'tides-of-hoshizora',
  /** Licensing-blocked in US, CA and GB. */
  licensingBlocked: 'wolves-of-the-copper-coast',
  /** MANGA (right to left), 5 free English chapters; en + pt-br. */
  readerManga: 'the-lantern-road',
  /** COMIC, 4 free English chapters; en + pt-br + es. */
  readerComic: 'harbor-lights',
  /** WEBTOON, 6 free English chapters; en + pt-br. */
  readerWebtoon: 'second-chance-florist',
  /** Gaps of 3 between chapters 20 and 23, and 36 and 39. */
  gap: 'ninth-floor-exorcist',
  /** Has chapters 12.5 and 40.25. */
  decimal: 'blade-of-the-quiet-moon',
  /** 184 English chapters (daily). */
  longList: 'the-villainess-retires-early',
  /** chapter_name_format '{ord} Chapter'. */
  ordinalFormat: 'crimson-tide-ronin',
  /** Portuguese only, accented name "Coração de Aço". */
  portugueseOnly: 'coracao-de-aco',
  /** Has Spanish ('es', site 0) chapters as well; so does level-zero-hunter. */
  spanish: 'harbor-lights',
  /** The next English chapter is released 6 hours after `now`. */
  releaseSoon: 'level-zero-hunter',
  /** Active 50% campaign on chapters 10-40, and premium (10-15 key) newest chapters. */
  campaign: 'return-of-the-sword-saint',
  /** Only an expired campaign. */
  expiredCampaign: 'saltwater-saints',
  /** all_free = 1 */
  allFree: 'kaiju-weather-report',
  /** Newest chapters cost 10-15 keys. */
  premium: 'heir-of-the-frozen-throne',
} as const;

export interface SeedOptions {
  /** Where the images go: a folder (the disk store there), or the configured media store. */
  mediaDir: string;
  store?: MediaStore;
  /** About 10,000 series and 600,000 chapters for benchmarks (includes the demo catalogue). */
  large?: boolean;
  /** Set to false to skip generating image files (the rows still reference them); for tests. */
  images?: boolean;
  /** Unix seconds the schedule is relative to; defaults to the current time. */
  now?: number;
  log?: (msg: string) => void;
}

type Db = DB | Transaction<Database>;

const LARGE_SERIES = 10_000;
const BULK_CHUNK = 250;
const SERIES_BATCH = 200; // 36 columns: 7,200 parameters
const CHAPTER_BATCH = 500; // 20 columns: 10,000 parameters
const PAGE_BATCH = 2000; // 5 columns: 10,000 parameters
const LINK_BATCH = 2000; // at most 5 columns

function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** True when there are no series rows. */
export async function isCatalogEmpty(db: DB): Promise<boolean> {
  const row = await db.selectFrom('series').select('id').limit(1).executeTakeFirst();
  return row === undefined;
}

/** Deletes every catalogue row (series, chapters, pages and their reference data). */
export async function clearCatalog(db: DB): Promise<void> {
  await db.transaction().execute(async (trx) => {
    for (const table of ['collection_items', 'collections', 'chapter_pages', 'chapters', 'campaigns', 'series_promotions', 'series_texts', 'series_languages', 'series_keywords', 'series_tags', 'series_people', 'series', 'keywords', 'tags', 'people', 'publishers'] as const) {
      await trx.deleteFrom(table).execute();
    }
  });
}

interface Lookups {
  publishers: Map<string, number>;
  tags: Map<string, number>;
  keywords: Map<string, number>;
  people: Map<string, number>;
}

function demoPeople(): string[] {
  const names = new Set<string>();
  for (const s of SERIES) {
    names.add(s.author);
    if (s.artist) names.add(s.artist);
  }
  return [...names];
}

async function insertReferenceData(trx: Db): Promise<Lookups> {
  const pubs = await trx
    .insertInto('publishers')
    .values(PUBLISHERS.map((p) => ({ name: p.name, language: p.language, homepage: p.homepage, logo: null, geoblocks: JSON.stringify(p.geoblocks) })))
    .returning(['id', 'name'])
    .execute();
  const pubId = new Map(pubs.map((p) => [p.name, p.id]));
  const tags = await trx
    .insertInto('tags')
    .values(TAGS.map((t) => ({ slug: t.slug, name: t.name, name_pt: t.name_pt, description: t.description, color: t.color, is_primary: t.primary ? 1 : 0, icon: 'NONE' })))
    .returning(['id', 'slug'])
    .execute();
  const keywords = await trx.insertInto('keywords').values(KEYWORDS.map((word) => ({ word }))).returning(['id', 'word']).execute();
  const people = await trx
    .insertInto('people')
    .values(demoPeople().map((name) => ({ name, alt: PEOPLE_ALT[name] ?? null, slug: slugify(name) })))
    .returning(['id', 'name'])
    .execute();
  return {
    publishers: new Map(PUBLISHERS.map((p) => [p.key, pubId.get(p.name)!])),
    tags: new Map(tags.map((t) => [t.slug, t.id])),
    keywords: new Map(keywords.map((k) => [k.word, k.id])),
    people: new Map(people.map((p) => [p.name, p.id])),
  };
}

/** Inserts series with everything hanging off them; returns the series ids and the number of chapter rows. */
async function insertSeries(trx: Db, built: BuiltSeries[], lk: Lookups): Promise<{ seriesIds: number[]; chapters: number }> {
  const seriesId = new Map<string, number>();
  for (const batch of chunks(built, SERIES_BATCH)) {
    const rows = batch.map((b) => ({ ...b.row, publisher_id: lk.publishers.get(b.publisher) ?? null }));
    const ids = await trx.insertInto('series').values(rows).returning(['id', 'e4pid']).execute();
    for (const r of ids) seriesId.set(r.e4pid, r.id);
  }
  const sid = (b: BuiltSeries) => seriesId.get(b.row.e4pid)!;

  const links = {
    people: built.flatMap((b) => b.people.map((p) => ({ series_id: sid(b), person_id: lk.people.get(p.name)!, role: p.role, position: p.position }))),
    tags: built.flatMap((b) => b.tags.map((t, position) => ({ series_id: sid(b), tag_id: lk.tags.get(t)!, position }))),
    keywords: built.flatMap((b) => b.keywords.map((k) => ({ series_id: sid(b), keyword_id: lk.keywords.get(k)! }))),
    languages: built.flatMap((b) => b.languages.map((l) => ({ series_id: sid(b), ...l }))),
    campaigns: built.flatMap((b) => b.campaigns.map((c) => ({ series_id: sid(b), ...c }))),
    texts: built.flatMap((b) => b.texts.map((t) => ({ series_id: sid(b), ...t }))),
    promotions: built.flatMap((b) => (b.promotion ? [{ series_id: sid(b), ...b.promotion }] : [])),
  };
  for (const rows of chunks(links.people, LINK_BATCH)) await trx.insertInto('series_people').values(rows).execute();
  for (const rows of chunks(links.tags, LINK_BATCH)) await trx.insertInto('series_tags').values(rows).execute();
  for (const rows of chunks(links.keywords, LINK_BATCH)) await trx.insertInto('series_keywords').values(rows).execute();
  for (const rows of chunks(links.languages, LINK_BATCH)) await trx.insertInto('series_languages').values(rows).execute();
  for (const rows of chunks(links.campaigns, LINK_BATCH)) await trx.insertInto('campaigns').values(rows).execute();
  // 7 columns: 500 rows stay under SQLite's 32,766 bound parameters.
  for (const rows of chunks(links.texts, 500)) await trx.insertInto('series_texts').values(rows).execute();
  for (const rows of chunks(links.promotions, 500)) await trx.insertInto('series_promotions').values(rows).execute();

  const chapters = built.flatMap((b) => b.chapters.map((c) => ({ ...c, series_id: sid(b) })));
  const formatOf = new Map(built.flatMap((b) => b.chapters.map((c) => [c.e4pid, b.row.format] as const)));
  const chapterId = new Map<string, number>();
  for (const rows of chunks(chapters, CHAPTER_BATCH)) {
    const ids = await trx.insertInto('chapters').values(rows).returning(['id', 'e4pid']).execute();
    for (const r of ids) chapterId.set(r.e4pid, r.id);
  }
  const pages = chapters.flatMap((c) =>
    chapterPages(formatOf.get(c.e4pid)!, c.e4pid, c.page_count ?? 0).map((p, position) => ({
      chapter_id: chapterId.get(c.e4pid)!,
      position,
      media_key: p.key,
      width: p.width,
      height: p.height,
    })),
  );
  for (const rows of chunks(pages, PAGE_BATCH)) await trx.insertInto('chapter_pages').values(rows).execute();
  return { seriesIds: [...seriesId.values()].map(Number), chapters: chapters.length };
}

/**
 * Seeds the demo catalogue (or, with `large`, the benchmark catalogue that
 * contains it) into an empty catalogue and generates the images it needs.
 */
export async function seedDemo(db: DB, opts: SeedOptions): Promise<{ series: number; chapters: number }> {
  const now = opts.now ?? Math.floor(Date.now() / 1000);
  const log = opts.log ?? (() => {});
  const ctx: BuildContext = { now, ids: new IdBook(), slugs: new SlugBook() };

  const demo = SERIES.map((def) => buildDemoSeries(def, ctx));
  if (opts.images !== false) {
    const t0 = Date.now();
    const written = await ensureArt(opts.store ?? opts.mediaDir, demo.map((d) => d.art))
      + (await ensurePromoMedia(storeOf(opts.store ?? opts.mediaDir), demoPromos(demo)));
    log(`images: ${written} written under ${opts.store?.location ?? opts.mediaDir} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
  }

  let series = demo.length;
  let chapters = 0;
  let lookups: Lookups | undefined;
  await db.transaction().execute(async (trx) => {
    lookups = await insertReferenceData(trx);
    chapters += (await insertSeries(trx, demo.map((d) => d.series), lookups)).chapters;
    // Curated collections of the demo series (per site).
    await seedCollections(trx, now);
  });
  // The search index (series_search) is derived from the rows above; see docs/content.md.
  await reindexSeries(db);
  log(`demo catalogue: ${series} series, ${chapters} chapters`);

  if (opts.large) {
    const artSets = demo.map((d) => ({ slug: d.art.slug, format: d.art.format, color: d.art.color }));
    const people = demoPeople();
    const total = LARGE_SERIES - demo.length;
    for (let start = 0; start < total; start += BULK_CHUNK) {
      const built: BuiltSeries[] = [];
      for (let i = start; i < Math.min(total, start + BULK_CHUNK); i++) built.push(buildBulkSeries(i, artSets, people, ctx));
      let ids: number[] = [];
      await db.transaction().execute(async (trx) => {
        const inserted = await insertSeries(trx, built, lookups!);
        chapters += inserted.chapters;
        ids = inserted.seriesIds;
      });
      series += built.length;
      await reindexSeries(db, ids);
      if ((start / BULK_CHUNK) % 8 === 7 || start + BULK_CHUNK >= total) log(`large catalogue: ${series} series, ${chapters} chapters`);
    }
  }
  return { series, chapters };
}

const storeOf = (media: string | MediaStore): MediaStore => (typeof media === 'string' ? new DiskMediaStore(media) : media);

/** The demo series (as built) that have a promotional visual, with the art spec their media are drawn from. */
function demoPromos(demo: { art: SeriesArtSpec }[]) {
  return SERIES.flatMap((def, i) => (def.promo ? [{ spec: demo[i]!.art, promo: def.promo }] : []));
}

/**
 * Adds the demo series' promotional visuals and chapter-preview settings to an already seeded
 * catalogue that has no promotional visual (a database seeded before issue 30), and makes their
 * media. Matches series by slug; never overwrites. Returns how many promotions it added.
 */
export async function seedDemoPromotions(db: DB, media: string | MediaStore, now = Math.floor(Date.now() / 1000)): Promise<number> {
  if (await db.selectFrom('series_promotions').select('series_id').limit(1).executeTakeFirst()) return 0;
  const wanted = SERIES.filter((d) => d.promo || d.preview);
  if (!wanted.length) return 0;
  const ctx: BuildContext = { now, ids: new IdBook(), slugs: new SlugBook() };
  const built = wanted.map((def) => ({ def, b: buildDemoSeries(def, ctx) }));
  const series = await db.selectFrom('series').select(['id', 'slug']).where('slug', 'in', built.map(({ b }) => b.series.row.slug)).execute();
  const idOf = new Map(series.map((s) => [s.slug, Number(s.id)]));
  const rows = built.flatMap(({ b }) => {
    const id = idOf.get(b.series.row.slug);
    return id !== undefined && b.series.promotion ? [{ series_id: id, ...b.series.promotion }] : [];
  });
  await ensurePromoMedia(storeOf(media), built.flatMap(({ def, b }) => (def.promo ? [{ spec: b.art, promo: def.promo }] : [])));
  await db.transaction().execute(async (trx) => {
    if (rows.length) await trx.insertInto('series_promotions').values(rows).execute();
    for (const { def, b } of built) {
      const id = idOf.get(b.series.row.slug);
      if (id !== undefined && def.preview) await trx.updateTable('series').set({ preview_pages: def.preview }).where('id', '=', id).where('preview_pages', '=', 0).execute();
    }
  });
  return rows.length;
}

/**
 * Adds the demo series' translations (series_texts) to an already seeded catalogue that has none:
 * a database seeded before series texts existed gets them without a reseed. Matches series by
 * slug (the demo's slugs are stable); never overwrites a translation that is there. Returns how
 * many rows it added.
 */
export async function seedDemoTexts(db: DB, now = Math.floor(Date.now() / 1000)): Promise<number> {
  // Runs on every start: a catalogue that has any translation is past this, and building the
  // demo series (every chapter row) just to find nothing missing is start-up work for nothing.
  if (await db.selectFrom('series_texts').select('series_id').limit(1).executeTakeFirst()) return 0;
  const ctx: BuildContext = { now, ids: new IdBook(), slugs: new SlugBook() };
  const built = SERIES.map((def) => buildDemoSeries(def, ctx).series).filter((b) => b.texts.length);
  if (!built.length) return 0;
  const slugs = built.map((b) => b.row.slug);
  const [series, existing] = await Promise.all([
    db.selectFrom('series').select(['id', 'slug']).where('slug', 'in', slugs).execute(),
    db.selectFrom('series_texts').innerJoin('series', 'series.id', 'series_texts.series_id').select(['series.slug', 'series_texts.language']).where('series.slug', 'in', slugs).execute(),
  ]);
  const idOf = new Map(series.map((s) => [s.slug, Number(s.id)]));
  const have = new Set(existing.map((e) => `${e.slug}|${e.language}`));
  const rows = built.flatMap((b) => {
    const id = idOf.get(b.row.slug);
    return id === undefined ? [] : b.texts.filter((t) => !have.has(`${b.row.slug}|${t.language}`)).map((t) => ({ series_id: id, ...t }));
  });
  if (!rows.length) return 0;
  await db.insertInto('series_texts').values(rows).execute();
  // Translated names are searchable (series_search); rebuild those documents.
  await reindexSeries(db, rows.map((r) => r.series_id));
  return rows.length;
}
