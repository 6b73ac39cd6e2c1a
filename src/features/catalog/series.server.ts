import type { DB } from '~/server/db';
import type { Site } from '~/lib/site';
import type { T } from '~/lib/i18n';
import type { SeriesRow } from '@db/schema';
import type { ChapterListRow } from './repository.server';
import * as repo from './repository.server';
import { accessState, chapterName, finalPrice, isOnSale, limitUpcoming, readState, withGaps, type AccessState, type Format, type ListItem, type ReadState, regionBlocks } from './rules';
import { parseImages, type SeriesImages } from './images';
import { readerPath, seriesPath } from '~/lib/paths';
import { defaultNameFormat } from './naming';
import { chapterDate, dateDisplay, relativeTime } from '~/lib/dates';
import { parseJsonArray } from '~/lib/json';

export const CHAPTERS_PER_PAGE = 100;

export type BlockState = 'unavailable' | 'region' | 'removed' | null;

export interface ChapterView {
  e4pid: string;
  number: number;
  name: string;
  title: string | null;
  subtitle: string | null;
  releasedAt: number;
  dateText: string;
  /** True when the date is shown relatively ("2 days ago"): the browser keeps it fresh. */
  relative: boolean;
  iso: string;
  state: AccessState;
  finalPrice: number;
  originalPrice: number;
  onSale: boolean;
  href: string;
  thumbnail: string | null;
  /** The signed-in reader's state: 'read' (Read Again), 'reading' (Continue) or null. */
  read?: ReadState;
  /** The row the reading button points at. */
  highlighted?: boolean;
}

export interface LanguageTab {
  code: string;
  label: string;
  total: number;
  items: ListItem<ChapterView>[];
  page: number;
  pages: number;
  /** First free, released chapter: the "start reading" target. */
  first: ChapterView | null;
}

export interface SeriesPage {
  series: SeriesRow;
  format: Format;
  images: SeriesImages;
  authors: { name: string; slug: string }[];
  artists: { name: string; slug: string }[];
  tags: { slug: string; name: string; color: string }[];
  publisher: { name: string; homepage: string | null } | null;
  hints: { text: string; icon: string }[];
  /** Blocking message kind (no chapters listed when set, except 'removed' which explains). */
  block: BlockState;
  /** Countries the series is blocked in: for the messages. */
  blockedCountries: string[];
  /** Shown on the English site when the series is licence-blocked somewhere else. */
  licensingNotice: boolean;
  languages: LanguageTab[];
  activeLanguage: string | null;
  order: 'asc' | 'desc';
  path: string;
  /** Signed-in reader: the chapter to continue (newest in progress, else the one after the newest completed). */
  resume: ChapterView | null;
}

export interface SeriesPageOptions {
  site: Site;
  t: T;
  now: number;
  country: string | null;
  order: 'asc' | 'desc';
  /** Language whose tab is paginated to `page`. */
  language: string | null;
  page: number;
  /**
   * The signed-in reader's progress in a series, for read/reading rows and the continue button;
   * absent for anonymous visitors. Passed in by the page (the library feature owns progress), so
   * it loads alongside the chapter list.
   */
  progressOf?: (seriesId: number) => Promise<readonly SeriesProgress[]>;
}

/** What the series page needs of a reader's progress in one chapter. */
export interface SeriesProgress {
  e4pid: string;
  completion: number;
  completed: boolean;
}

/** Everything the anonymous series page shows, or null when the slug is unknown. */
export async function loadSeriesPage(db: DB, slug: string, opts: SeriesPageOptions): Promise<SeriesPage | null> {
  const series = await repo.findSeriesBySlug(db, slug);
  if (!series) return null;
  const [people, tags, languages, campaigns, publisher] = await Promise.all([
    repo.seriesPeople(db, series.id),
    repo.seriesTags(db, series.id),
    repo.seriesLanguages(db, series.id),
    repo.seriesCampaigns(db, series.id),
    repo.findPublisher(db, series.publisher_id),
  ]);
  const { site, t, now } = opts;
  const format = series.format;
  const blockedCountries = regionBlocks(series, publisher);
  let block: BlockState = null;
  if (series.state === 'BLOCKED') block = 'unavailable';
  else if (opts.country && blockedCountries.includes(opts.country)) block = 'region';
  else if (series.state === 'REMOVED') block = 'removed';

  // The site's own language first, then the others alphabetically.
  const codes = languages.map((l) => l.language).sort((a, b) => (a === site.language ? -1 : b === site.language ? 1 : a.localeCompare(b)));
  const active = opts.language && codes.includes(opts.language) ? opts.language : (codes[0] ?? null);
  const tabs: LanguageTab[] = [];
  let resume: ChapterView | null = null;
  if (block === null) {
    const [all, progress] = await Promise.all([
      repo.chapterListOf(db, series.id, codes),
      opts.progressOf ? opts.progressOf(series.id) : Promise.resolve([]),
    ]);
    const progressOf = new Map(progress.map((p) => [p.e4pid, p]));
    const allViews = new Map<string, ChapterView[]>();
    const nameFormat = series.chapter_name_format?.match(/\{(num|ord)\}/) ? series.chapter_name_format : defaultNameFormat(t, series.format);
    // Views (names, dates, prices, links) are built only for the rows a page shows, plus the
    // start-reading target; a signed-in reader's continue target needs them all.
    const signedIn = opts.progressOf !== undefined;
    const memo = new Map<ChapterListRow, ChapterView>();
    const viewOf = (r: ChapterListRow) => {
      let v = memo.get(r);
      if (!v) {
        v = chapterView(series, r, campaigns, nameFormat, opts);
        const p = progressOf.get(v.e4pid);
        if (p) v.read = readState(p);
        memo.set(r, v);
      }
      return v;
    };
    codes.forEach((code) => {
      const rows = limitUpcoming(all.filter((r) => r.language === code), site.id, now, (r) => r.released_at);
      if (signedIn) allViews.set(code, rows.map(viewOf));
      let first: ChapterView | null = null;
      for (const r of rows) {
        if (r.released_at > now) continue;
        const v = viewOf(r);
        if (v.state === 'free') { first = v; break; }
      }
      if (opts.order === 'desc') rows.reverse();
      const pages = Math.max(1, Math.ceil(rows.length / CHAPTERS_PER_PAGE));
      const page = code === active ? Math.min(Math.max(1, opts.page), pages) : 1;
      const slice = rows.slice((page - 1) * CHAPTERS_PER_PAGE, page * CHAPTERS_PER_PAGE).map(viewOf);
      tabs.push({ code, label: languageLabel(t, code), total: rows.length, items: withGaps(slice), page, pages, first });
    });
    resume = resumeTarget(progress, allViews);
    if (resume) resume.highlighted = true;
  }

  return {
    series,
    format,
    images: parseImages(series.images),
    authors: people.filter((p) => p.role === 'author').map(({ name, slug }) => ({ name, slug })),
    artists: people.filter((p) => p.role === 'artist').map(({ name, slug }) => ({ name, slug })),
    tags: tags.map((tag) => ({ slug: tag.slug, name: site.id === 3 ? tag.name_pt : tag.name, color: tag.color })),
    publisher: publisher ? { name: publisher.name, homepage: publisher.homepage } : null,
    hints: parseJsonArray<{ text: string; icon: string }>(series.hints).filter((h) => h && typeof h.text === 'string'),
    block,
    blockedCountries,
    licensingNotice: block === null && site.id === 1 && blockedCountries.length > 0,
    languages: tabs,
    activeLanguage: active,
    order: opts.order,
    path: seriesPath(series),
    resume,
  };
}

/**
 * The continue target from the reader's progress (newest first): the newest chapter in progress;
 * failing that, the released chapter after the newest completed one in its language.
 */
function resumeTarget(progress: readonly { e4pid: string; completion: number; completed: boolean }[], views: Map<string, ChapterView[]>): ChapterView | null {
  const find = (e4pid: string) => {
    for (const list of views.values()) {
      const i = list.findIndex((v) => v.e4pid === e4pid);
      if (i >= 0) return { list, i };
    }
    return null;
  };
  for (const p of progress) {
    if (readState(p) !== 'reading') continue;
    const hit = find(p.e4pid);
    if (hit) return hit.list[hit.i]!;
  }
  const done = progress[0] && readState(progress[0]) === 'read' ? find(progress[0].e4pid) : null;
  const next = done?.list.slice(done.i + 1).find((v) => v.state !== 'scheduled' && v.read !== 'read');
  return next ?? null;
}

function languageLabel(t: T, code: string): string {
  const key = `language.${code}` as Parameters<T>[0];
  const label = t(key);
  return label === key ? code : label;
}

function chapterView(series: SeriesRow, row: ChapterListRow, campaigns: Parameters<typeof finalPrice>[1], nameFormat: string, opts: SeriesPageOptions): ChapterView {
  const { site, now } = opts;
  const price = series.all_free ? 0 : finalPrice(row, campaigns, now);
  const state = accessState({ releasedAt: row.released_at, finalPrice: price }, now);
  return {
    e4pid: row.e4pid,
    number: row.number,
    name: chapterName(row.number, site.locale, nameFormat, nameFormat),
    title: row.title,
    subtitle: row.subtitle,
    releasedAt: row.released_at,
    dateText: state === 'scheduled' ? relativeTime(row.released_at, now, site.locale) : chapterDate(row.released_at, now, site.locale, site.timeZone),
    relative: state === 'scheduled' || dateDisplay(row.released_at, now) === 'relative',
    iso: new Date(row.released_at * 1000).toISOString(),
    state,
    finalPrice: price,
    originalPrice: row.original_price,
    onSale: !series.all_free && isOnSale(row.original_price, price),
    href: readerPath(series, row),
    thumbnail: row.thumbnail,
    read: null,
    highlighted: false,
  };
}
