/**
 * The reader's page model: loads a chapter by the id in its URL, checks the URL is the
 * canonical one, decides what the visitor may see, and (only when the chapter is readable)
 * hands out signed page URLs. Used by the reader page and by its manifest endpoint.
 */
import type { ChapterRow, SeriesRow } from '@db/schema';
import type { DB } from '~/server/db';
import type { T } from '~/lib/i18n';
import { contentLanguage, type Locale } from '~/lib/site';
import { ageGated, displayChapterName, type ChapterAccess } from '~/features/catalog';
import { defaultMode, type Mode } from './modes';
import { buildManifest, type Manifest } from './manifest';
import { manifestPath as manifestPathFor, chapterPrefix, numberSegment, readerPath, seriesPath, mediaUrl } from '~/lib/paths';
import { pageViewer, signedPageUrl, signedPreviewUrl, verifyPage, verifyPreviewPage } from './signing.server';
import { renditionFile, renditionWidth } from './renditions.server';
import { pageSrcset } from './view';
import { mediaForbidden, mediaNotFound, storedResponse } from '~/server/media';
import { mediaStore } from '~/server/media-store';
import { relativeTime } from '~/lib/dates';
import { findChapter, chapterSurroundings, chapterPageRows, mayPreviewPage, pageMediaKey, previewPages } from '~/features/catalog/index.server';
import { chapterAccessFor, mayReadChapter, type Balances } from '~/features/wallet/index.server';

/**
 * What the visitor gets for a chapter, from the one pricing rule (catalog pricing.ts). Only
 * 'readable' shows pages.
 * - blocked: series state BLOCKED (unavailable everywhere)
 * - region: the visitor's country is in the series' or the publisher's geoblocks
 * - removed: the series is REMOVED (or the chapter withdrawn) and the visitor does not own it
 * - scheduled: released_at is in the future
 * - locked: paid, and not owned, rented or otherwise open to this visitor
 * - adult: an adult series the visitor has not confirmed being 18 or older for (docs/adult.md)
 */
export type ReaderState = 'readable' | 'locked' | 'scheduled' | 'blocked' | 'region' | 'removed' | 'adult';

export interface ReaderPage {
  position: number;
  src: string;
  /** The narrower copies and the original for the browser to choose from (null: only `src`). */
  srcset: string | null;
  width: number;
  height: number;
  alt: string;
}

export interface ChapterLink {
  path: string;
  manifest: string;
  name: string;
}

/**
 * The next chapter as the end card shows it: its thumbnail and, from the same pricing rule as
 * this chapter (wallet `chapterAccessFor`), whether the visitor may read it or what it costs.
 */
export interface NextChapterCard extends ChapterLink {
  /** Public media URL of the chapter's thumbnail, or null. */
  thumbnail: string | null;
  /** Its subtitle ("The Duel"), if any. */
  title: string | null;
  readable: boolean;
  /** What a key unlock costs now (0 when readable for free). */
  price: number;
  /** Why it is readable: free for everyone, or this reader's (owned, rented, subscribed). */
  reason: ChapterAccess['reason'];
}

/** The chapter still to come after the last one out, as the end card announces it. */
export interface UpcomingChapter {
  name: string;
  /** Unix seconds. */
  releasedAt: number;
  /** What unlocking it will cost this visitor by the pricing rule as it stands (0: free). */
  price: number;
}

export interface ReaderModel {
  series: SeriesRow;
  chapter: ChapterRow;
  /** Canonical reader path of this chapter. */
  path: string;
  manifestPath: string;
  seriesPath: string;
  /** Display name ("Chapter 12.5", or the series' own format). */
  name: string;
  state: ReaderState;
  price: number;
  /** The pricing rule's answer for this visitor (unlock ways, bonus, rental end). */
  access: ChapterAccess;
  /** The signed-in reader's balances (zero for anonymous visitors). */
  balances: Balances;
  /** A plan rental is open: the plan's rentals left this month; null when closed. */
  rentLeft: number | null;
  signedIn: boolean;
  /** "in 3 days" for a scheduled chapter. */
  releaseWhen: string | null;
  /** The visitor's country, for the region message. */
  country: string | null;
  /** Empty unless state is 'readable'. */
  pages: ReaderPage[];
  /**
   * A locked chapter's preview: its first pages, for anyone, signed in the preview scope
   * (docs/reader.md, "Chapter preview"); empty unless state is 'locked' and the series gives one.
   */
  preview: ReaderPage[];
  prev: ChapterLink | null;
  next: ChapterLink | null;
  /** The end card's next chapter (only for a readable chapter, whose pages end on the card). */
  nextCard: NextChapterCard | null;
  /** No released chapter follows: the next one still to come, if its date is known (only for a readable chapter). */
  upcoming: UpcomingChapter | null;
  defaultMode: Mode;
  /** The series has geoblocks, so the answer depends on the visitor's country (no shared caching). */
  countryDependent: boolean;
}

export type ReaderResult =
  | { kind: 'notFound' }
  | { kind: 'redirect'; location: string }
  | { kind: 'ok'; model: ReaderModel };

export interface ReaderContext {
  now: number;
  /** The signed-in reader, if any: pages of paid chapters are signed for them alone. */
  user?: { id: number } | null;
  country: string | null;
  locale: Locale;
  t: T;
  /** The visitor confirmed being 18 or older (the catalogue's age cookie); adult series are gated without it. */
  adultConfirmed?: boolean;
}

export interface ReaderParams {
  slug?: string;
  id?: string;
  chapter?: string;
}

const ID_SEGMENT = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * Loads the reader for `/read/{slug}/{id}/{prefix}-{number}/`. The chapter is found by its id
 * alone; any other slug or last segment redirects to the canonical URL (plus `suffix`).
 */
export async function loadReader(db: DB, params: ReaderParams, ctx: ReaderContext, suffix = ''): Promise<ReaderResult> {
  const id = params.id ?? '';
  if (!ID_SEGMENT.test(id)) return { kind: 'notFound' };
  const found = await findChapter(db, `EPI-${id}`, contentLanguage(ctx.locale));
  if (!found) return { kind: 'notFound' };
  const { series, chapter } = found;
  const lastSegment = `${chapterPrefix(chapter.language, series.format)}-${numberSegment(Number(chapter.number))}`;
  if (params.slug !== series.slug || params.chapter !== lastSegment) {
    return { kind: 'redirect', location: readerPath(series, chapter) + suffix };
  }
  return { kind: 'ok', model: await buildModel(db, series, chapter, ctx) };
}

/** The same model found by the chapter's e4pid (`EPI-...`), for the manifest API. */
export async function loadReaderByE4pid(db: DB, e4pid: string, ctx: ReaderContext): Promise<ReaderResult> {
  if (!/^EPI-[A-Za-z0-9_-]{1,64}$/.test(e4pid)) return { kind: 'notFound' };
  const found = await findChapter(db, e4pid, contentLanguage(ctx.locale));
  if (!found) return { kind: 'notFound' };
  return { kind: 'ok', model: await buildModel(db, found.series, found.chapter, ctx) };
}

async function buildModel(db: DB, series: SeriesRow, chapter: ChapterRow, ctx: ReaderContext): Promise<ReaderModel> {
  const number = Number(chapter.number);
  const canonical = readerPath(series, chapter);
  const { now, locale, t } = ctx;
  const country = ctx.country?.toUpperCase() ?? null;
  const userId = ctx.user?.id ?? null;
  const [{ adjacent, upcoming: upcomingRow }, { context, access, balances, rentLeft }] = await Promise.all([
    chapterSurroundings(db, series, chapter, now),
    chapterAccessFor(db, { series, chapter, userId, country, now }),
  ]);
  const blockedIn = new Set(context.blockedCountries);

  let state: ReaderState;
  if (series.state === 'BLOCKED') state = 'blocked';
  else if (country && blockedIn.has(country)) state = 'region';
  else if (ageGated(series, ctx.adultConfirmed ?? false)) state = 'adult';
  else if (access.readable) state = 'readable';
  else if (access.state === 'scheduled') state = 'scheduled';
  else if (access.state === 'unavailable') state = 'removed';
  else state = 'locked';
  // Pages of a chapter free for everyone are the same for everyone (publicly cacheable); any
  // other reason to read is this reader's, and so are the page URLs.
  const viewer = access.reason === 'free' || access.reason === 'strategy_free' || access.reason === 'campaign_free' ? 0 : (userId ?? 0);

  const name = displayChapterName(t, locale, series, number);
  const link = (c: { e4pid: string; number: number; language: string } | undefined): ChapterLink | null => {
    if (!c) return null;
    const n = Number(c.number);
    return { path: readerPath(series, { e4pid: c.e4pid, number: n, language: c.language }), manifest: manifestPathFor(c.e4pid), name: displayChapterName(t, locale, series, n) };
  };

  let pages: ReaderPage[] = [];
  let preview: ReaderPage[] = [];
  let nextCard: NextChapterCard | null = null;
  let upcoming: UpcomingChapter | null = null;
  if (state === 'readable') {
    if (upcomingRow) {
      const found = await findChapter(db, upcomingRow.e4pid);
      if (found) {
        // Priced by the same rule as any chapter, as it stands today (a campaign may still change it).
        const { access: later } = await chapterAccessFor(db, { series, chapter: found.chapter, userId, country, now });
        const n = Number(upcomingRow.number);
        upcoming = { name: displayChapterName(t, locale, series, n), releasedAt: Number(upcomingRow.released_at), price: later.finalPrice };
      }
    }
    const nextLink = link(adjacent.next);
    const [rows, nextFound] = await Promise.all([chapterPageRows(db, chapter.id), adjacent.next ? findChapter(db, adjacent.next.e4pid) : null]);
    if (nextLink && nextFound) {
      // The same door as this chapter's state: the pricing rule is never repeated here.
      const { access: nextAccess } = await chapterAccessFor(db, { series, chapter: nextFound.chapter, userId, country, now });
      nextCard = {
        ...nextLink,
        thumbnail: mediaUrl(nextFound.chapter.thumbnail),
        title: nextFound.chapter.title?.trim() || null,
        readable: nextAccess.readable,
        price: nextAccess.finalPrice,
        reason: nextAccess.reason,
      };
    }
    pages = rows.map((r, i) => {
      const src = signedPageUrl(chapter.e4pid, Number(r.position), now, undefined, viewer);
      return {
        position: Number(r.position),
        src,
        srcset: pageSrcset(src, Number(r.width)),
        width: Number(r.width),
        height: Number(r.height),
        alt: t('reader.pageAlt', { series: series.name, chapter: name, page: i + 1 }),
      };
    });
  } else if (state === 'locked') {
    preview = (await previewPages(db, series, chapter)).map((r, i) => {
      const src = signedPreviewUrl(chapter.e4pid, r.position, now);
      return { position: r.position, src, srcset: pageSrcset(src, r.width), width: r.width, height: r.height, alt: t('reader.pageAlt', { series: series.name, chapter: name, page: i + 1 }) };
    });
  }

  return {
    series,
    chapter,
    path: canonical,
    manifestPath: manifestPathFor(chapter.e4pid),
    seriesPath: seriesPath(series),
    name,
    state,
    price: access.finalPrice,
    access,
    balances,
    rentLeft,
    signedIn: userId !== null,
    releaseWhen: state === 'scheduled' ? relativeTime(Number(chapter.released_at), now, locale) : null,
    country,
    pages,
    preview,
    prev: link(adjacent.prev),
    next: link(adjacent.next),
    nextCard,
    upcoming,
    defaultMode: defaultMode(series.format),
    countryDependent: blockedIn.size > 0,
  };
}

/** The manifest of a loaded chapter; pages only when it is readable. */
export function manifestOf(model: ReaderModel): Manifest {
  return buildManifest({
    selfHref: model.manifestPath,
    readerHref: model.path,
    identifier: model.chapter.e4pid,
    title: model.name,
    subtitle: model.chapter.title,
    language: model.chapter.language,
    number: Number(model.chapter.number),
    format: model.series.format,
    series: { name: model.series.name, identifier: model.series.e4pid, href: model.seriesPath },
    prev: model.prev && { href: model.prev.manifest, title: model.prev.name },
    next: model.next && { href: model.next.manifest, title: model.next.name },
    pages: model.state === 'readable' ? model.pages.map((p) => ({ href: p.src, width: p.width, height: p.height })) : null,
  });
}

/**
 * The answer to a chapter page URL (`/media/p/{e4pid}/{position}.webp?exp[&u]&sig`): 403 for a
 * bad or expired signature (checked before any database work), for a URL bound to another
 * reader than the visitor, and when the visitor may no longer read the chapter (a rental
 * ended, a free week ended); 404 for an unknown page; else the image: public for a chapter
 * free for everyone, private for one reader's.
 */
export async function chapterPageResponse(db: DB, url: URL, request: Request, visitor: { now: number; user: { id: number } | null; country: string | null }): Promise<Response> {
  const { now } = visitor;
  // Parsed from the URL itself: the route may be reached through an internal rewrite (see docs/reader.md).
  const m = /^\/media\/p\/(EPI-[A-Za-z0-9_-]{1,64})\/(\d{1,5})\.webp\/?$/.exec(url.pathname);
  if (!m) return mediaNotFound();
  const e4pid = m[1]!;
  const position = Number(m[2]);
  if (url.searchParams.has('pv')) return previewPageResponse(db, url, request, e4pid, position, visitor);
  const viewer = pageViewer(url.searchParams.get('u'));
  if (viewer === null) return mediaForbidden();
  if (verifyPage(e4pid, position, url.searchParams.get('exp'), url.searchParams.get('sig'), now, undefined, viewer) !== 'ok') return mediaForbidden();
  if (viewer !== 0 && visitor.user?.id !== viewer) return mediaForbidden();
  const readable = await mayReadChapter(db, { e4pid, userId: viewer || null, country: visitor.country?.toUpperCase() ?? null, now });
  if (readable === null) return mediaNotFound();
  if (!readable) return mediaForbidden();
  // A narrower copy (`w`) is the same page: asked for only once the URL and the right are checked.
  return pageImage(db, url, request, e4pid, position, viewer === 0 ? 'public, max-age=600' : 'private, max-age=600');
}

/**
 * A preview page (`…?exp&pv=1&sig`, the preview scope): 403 unless the signature is a preview
 * one for this very page, and the page is still among the chapter's preview pages for anyone in
 * the visitor's country (a setting turned down, a chapter made free or withdrawn: no more).
 */
async function previewPageResponse(db: DB, url: URL, request: Request, e4pid: string, position: number, visitor: { now: number; country: string | null }): Promise<Response> {
  if (url.searchParams.get('pv') !== '1' || url.searchParams.has('u')) return mediaForbidden();
  if (verifyPreviewPage(e4pid, position, url.searchParams.get('exp'), url.searchParams.get('sig'), visitor.now) !== 'ok') return mediaForbidden();
  const allowed = await mayPreviewPage(db, { e4pid, position, country: visitor.country?.toUpperCase() ?? null, now: visitor.now });
  if (allowed === null) return mediaNotFound();
  if (!allowed) return mediaForbidden();
  // The same for everyone in a country: shared caches may keep it as long as the URL lives.
  return pageImage(db, url, request, e4pid, position, 'public, max-age=600');
}

/** The stored page image (or its narrower copy `w`), once the URL and the right are checked. */
async function pageImage(db: DB, url: URL, request: Request, e4pid: string, position: number, cacheControl: string): Promise<Response> {
  const width = renditionWidth(url.searchParams.get('w'));
  if (width === undefined) return mediaNotFound();
  const key = await pageMediaKey(db, e4pid, position);
  const store = mediaStore();
  const original = key ? await store.stat(key) : null;
  // A copy that cannot be made (a read-only store) gives the original: larger, never missing.
  const file = original && width !== null ? ((await renditionFile(original, width, store)) ?? original) : original;
  if (!file) return mediaNotFound();
  const headers = new Headers({
    'Content-Type': 'image/webp',
    'Cache-Control': cacheControl,
    'Cross-Origin-Resource-Policy': 'same-site',
    'X-Robots-Tag': 'noindex',
  });
  return (await storedResponse(file.key, headers, request.method, store)) ?? mediaNotFound();
}
