import type { DB } from '../../server/db';
import type { Site } from '../../lib/site';
import type { T } from '../../lib/i18n';
import type { SeriesRow } from '../../../db/schema';
import type { ChapterListRow } from './repository.server';
import * as repo from './repository.server';
import {
  accessState, chapterDate, chapterName, finalPrice, isOnSale, limitUpcoming, relativeTime, withGaps,
  type AccessState, type Format, type ListItem,
} from './rules';
import { parseImages, parseJsonArray, type SeriesImages } from './media';
import { readerPath, seriesPath } from '../reader/urls';
import { defaultNameFormat } from './naming';

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
  iso: string;
  state: AccessState;
  finalPrice: number;
  originalPrice: number;
  onSale: boolean;
  href: string;
  thumbnail: string | null;
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
  const blockedCountries = [...new Set([...parseJsonArray<string>(series.geoblocks), ...parseJsonArray<string>(publisher?.geoblocks)])]
    .filter((c) => typeof c === 'string')
    .sort();
  let block: BlockState = null;
  if (series.state === 'BLOCKED') block = 'unavailable';
  else if (opts.country && blockedCountries.includes(opts.country)) block = 'region';
  else if (series.state === 'REMOVED') block = 'removed';

  // The site's own language first, then the others alphabetically.
  const codes = languages.map((l) => l.language).sort((a, b) => (a === site.language ? -1 : b === site.language ? 1 : a.localeCompare(b)));
  const active = opts.language && codes.includes(opts.language) ? opts.language : (codes[0] ?? null);
  const tabs: LanguageTab[] = [];
  if (block === null) {
    const all = await repo.chapterListOf(db, series.id, codes);
    const nameFormat = series.chapter_name_format?.match(/\{(num|ord)\}/) ? series.chapter_name_format : defaultNameFormat(t, series.format);
    codes.forEach((code) => {
      const rows = all.filter((r) => r.language === code);
      const views = limitUpcoming(rows.map((r) => chapterView(series, r, campaigns, nameFormat, opts)), site.id, now);
      const first = views.find((v) => v.state === 'free') ?? null;
      if (opts.order === 'desc') views.reverse();
      const pages = Math.max(1, Math.ceil(views.length / CHAPTERS_PER_PAGE));
      const page = code === active ? Math.min(Math.max(1, opts.page), pages) : 1;
      const slice = views.slice((page - 1) * CHAPTERS_PER_PAGE, page * CHAPTERS_PER_PAGE);
      tabs.push({ code, label: languageLabel(t, code), total: views.length, items: withGaps(slice), page, pages, first });
    });
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
  };
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
    iso: new Date(row.released_at * 1000).toISOString(),
    state,
    finalPrice: price,
    originalPrice: row.original_price,
    onSale: !series.all_free && isOnSale(row.original_price, price),
    href: readerPath(series, row),
    thumbnail: row.thumbnail,
  };
}
