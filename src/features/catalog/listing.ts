/**
 * Series listing parameters: parsing, validation and the one
 * canonical query string. Pure: shared by the page, the fragment endpoint, the client script
 * and the unit tests. The URL is the state; everything else (form controls, links) derives
 * from a ListingParams.
 */
import { LISTING_PATH } from '~/lib/paths';
import { cookieOptions, serializeCookie, type CookieScope } from '~/lib/cookies';

export const PAGE_SIZE = 24;
export const MAX_PAGE = 10_000;
export const MAX_QUERY_LENGTH = 100;
export const MIN_QUERY_LENGTH = 2;
/** View cookie lifetime. */
export const VIEW_COOKIE = 'view';
export const VIEW_COOKIE_MAX_AGE = 30 * 24 * 3600;
/** Community chat linked from the no-result panel. */
export const COMMUNITY_CHAT_URL = 'https://discord.gg/inkpass';

export const ORDER_KEYS = ['updated', 'name', 'popularity', 'chapters'] as const;
export type OrderKey = (typeof ORDER_KEYS)[number];
/** An order key, or `relevance`: best match first, only with search text (then it is the default). */
export type SortKey = OrderKey | 'relevance';
export interface Order {
  key: SortKey;
  desc: boolean;
}
export const DEFAULT_ORDER: Readonly<Order> = Object.freeze({ key: 'updated', desc: true });
/** The order of a search: the series the suggestions put first comes first here too. */
export const SEARCH_ORDER: Readonly<Order> = Object.freeze({ key: 'relevance', desc: false });
/** The direction an order button starts with: best match, newest, A→Z, most popular, most chapters. */
export const NATURAL_DESC: Readonly<Record<SortKey, boolean>> = { relevance: false, updated: true, name: false, popularity: true, chapters: true };

export const FORMAT_FILTERS = ['comic', 'manga', 'webtoon'] as const;
export type FormatFilter = (typeof FORMAT_FILTERS)[number];
/** Filter words that are not category slugs. */
export const RESERVED_FILTERS: readonly string[] = [...FORMAT_FILTERS, 'complete', 'exclusive', 'favorited'];

export type View = 'list' | 'grid';
export type ListingSite = 1 | 3;

/** Which language checkboxes are on. Never both off (see `toggleLanguage`). */
export interface Languages {
  en: boolean;
  pt: boolean;
}
export type LanguageCode = keyof Languages;

export interface ListingParams {
  /** Search text as typed (trimmed, at most 100 characters); '' when shorter than 2 characters. */
  q: string;
  /** Selected formats, in FORMAT_FILTERS order, no duplicates. Empty means every format. */
  formats: FormatFilter[];
  /** One primary tag slug, or null. */
  category: string | null;
  complete: boolean;
  exclusive: boolean;
  /** Only the logged-in reader's favorites (`filter=favorited`); ignored for anonymous readers by the server. */
  favorited: boolean;
  order: Order;
  view: View;
  page: number;
  languages: Languages;
}

/** What a query string sets explicitly, beside the resolved params (the page needs both). */
export interface ParsedListing {
  params: ListingParams;
  /** `view` came from the URL (so it overrides, and updates, the view cookie). */
  explicitView: View | null;
  /** The request came from the no-JavaScript form (`lang` checkboxes), so it should be redirected to its canonical URL. */
  fromForm: boolean;
}

const CATEGORY_RE = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;

/** The language checkboxes a site starts with: only its own language. */
export function defaultLanguages(site: ListingSite): Languages {
  return { en: site === 1, pt: site === 3 };
}

/** The listing's params with nothing chosen; with search text `q`, its order is best match. */
export function defaultParams(site: ListingSite, q = ''): ListingParams {
  const text = cleanQuery(q);
  return {
    q: text,
    formats: [],
    category: null,
    complete: false,
    exclusive: false,
    favorited: false,
    order: defaultOrder(text),
    view: 'list',
    page: 1,
    languages: defaultLanguages(site),
  };
}

/**
 * Search text as it is matched: trimmed, cut to 100 characters (never inside a surrogate pair),
 * inner whitespace collapsed; anything shorter than 2 characters is an empty query.
 */
export function cleanQuery(raw: string | null | undefined): string {
  if (!raw) return '';
  // Control characters are never part of a title; they only make logs and URLs harder to read.
  const chars = Array.from(raw.replace(/[\u0000-\u001f\u007f]/g, ' ').trim().replace(/\s+/g, ' '));
  const text = chars.slice(0, MAX_QUERY_LENGTH).join('').trim();
  return Array.from(text).length < MIN_QUERY_LENGTH ? '' : text;
}


/** The order used when none is chosen: best match with search text `q`, else newest first. */
export function defaultOrder(q: string): Order {
  return { ...(q ? SEARCH_ORDER : DEFAULT_ORDER) };
}

/**
 * `order` value: `[-]updated|name|popularity|chapters`, or `relevance` with search text `q`
 * (one direction only); anything else is the default for `q`.
 */
export function parseOrder(raw: string | null | undefined, q = ''): Order {
  const m = /^(-?)(updated|name|popularity|chapters|relevance)$/.exec((raw ?? '').trim().toLowerCase());
  if (!m || (m[2] === 'relevance' && !q)) return defaultOrder(q);
  if (m[2] === 'relevance') return { ...SEARCH_ORDER };
  return { key: m[2] as OrderKey, desc: m[1] === '-' };
}

export function serializeOrder(order: Order): string {
  return `${order.desc ? '-' : ''}${order.key}`;
}

/** Whether `order` is the default for search text `q` (and so left out of URLs). */
export function isDefaultOrder(order: Order, q = ''): boolean {
  const d = defaultOrder(q);
  return order.key === d.key && order.desc === d.desc;
}

/**
 * The order after the search text changes from `prev.q` to `next.q`: a reader on the default
 * order gets the new text's default (typing a search ranks by best match, clearing it goes back
 * to newest first); best match without text is the default too.
 */
export function followQuery(prev: ListingParams, next: ListingParams): ListingParams {
  if (prev.q === next.q && (next.q || next.order.key !== 'relevance')) return next;
  if (isDefaultOrder(prev.order, prev.q) || (!next.q && next.order.key === 'relevance')) return { ...next, order: defaultOrder(next.q) };
  return next;
}

/** `page`: digits only, clamped to 1..10000; anything malformed is page 1. */
export function parsePage(raw: string | null | undefined): number {
  const s = (raw ?? '').trim();
  if (!/^\d+$/.test(s)) return 1;
  if (s.replace(/^0+/, '').length > 6) return MAX_PAGE;
  return Math.min(MAX_PAGE, Math.max(1, Number(s)));
}

export function parseView(raw: string | null | undefined): View | null {
  const v = (raw ?? '').trim().toLowerCase();
  return v === 'grid' || v === 'list' ? v : null;
}

/** A category slug candidate (whether the tag exists and is primary is the server's business). */
export function isCategorySlug(value: string): boolean {
  return CATEGORY_RE.test(value) && !RESERVED_FILTERS.includes(value);
}

/** Repeated `filter` values: formats (several), complete, exclusive, favorited, and the first category slug. */
export function parseFilters(values: readonly string[]): Pick<ListingParams, 'formats' | 'category' | 'complete' | 'exclusive' | 'favorited'> {
  const formats = new Set<FormatFilter>();
  let category: string | null = null;
  let complete = false;
  let exclusive = false;
  let favorited = false;
  for (const raw of values) {
    const v = raw.trim().toLowerCase();
    if ((FORMAT_FILTERS as readonly string[]).includes(v)) formats.add(v as FormatFilter);
    else if (v === 'complete') complete = true;
    else if (v === 'exclusive') exclusive = true;
    else if (v === 'favorited') favorited = true;
    else if (category === null && isCategorySlug(v)) category = v;
  }
  return { formats: FORMAT_FILTERS.filter((f) => formats.has(f)), category, complete, exclusive, favorited };
}

/**
 * Languages from `show_all_sites` / `site_id` (first values): `show_all_sites=true` is both,
 * `site_id=3` Portuguese only, `site_id=1` English only; otherwise the site's own language.
 */
export function parseLanguages(showAll: string | null, siteId: string | null, site: ListingSite): Languages {
  const all = (showAll ?? '').trim().toLowerCase();
  if (all === 'true' || all === '1') return { en: true, pt: true };
  const id = (siteId ?? '').trim();
  if (id === '1') return { en: true, pt: false };
  if (id === '3') return { en: false, pt: true };
  return defaultLanguages(site);
}

function parseLanguageState(raw: string | null): Languages | null {
  switch ((raw ?? '').trim()) {
    case 'en': return { en: true, pt: false };
    case 'pt': return { en: false, pt: true };
    case 'all': return { en: true, pt: true };
    default: return null;
  }
}

/** The compact form of a language state, used by the no-JavaScript form (`langs_was`). */
export function languageState(l: Languages): 'en' | 'pt' | 'all' {
  return l.en && l.pt ? 'all' : l.pt ? 'pt' : 'en';
}

/**
 * The at-least-one-language rule: turning a language off when it is the only one on turns
 * the other one on instead of leaving none.
 */
export function toggleLanguage(current: Languages, lang: LanguageCode, on: boolean): Languages {
  const next: Languages = { ...current, [lang]: on };
  if (!next.en && !next.pt) return lang === 'en' ? { en: false, pt: true } : { en: true, pt: false };
  return next;
}

/**
 * Languages submitted by the no-JavaScript form: the checked boxes, and the state the form was
 * rendered with. None checked means the reader unchecked the last one, so the other one wins;
 * when both were on (two boxes unchecked at once) the site's own language wins.
 */
export function languagesFromForm(checked: readonly string[], previous: Languages | null, site: ListingSite): Languages {
  const set = new Set(checked.map((c) => c.trim().toLowerCase()));
  const chosen: Languages = { en: set.has('en'), pt: set.has('pt') };
  if (chosen.en || chosen.pt) return chosen;
  if (previous && previous.en !== previous.pt) return { en: !previous.en, pt: !previous.pt };
  return defaultLanguages(site);
}

/** Site ids whose series are listed for a language state. */
export function siteIdsFor(l: Languages): ListingSite[] {
  const ids: ListingSite[] = [];
  if (l.en) ids.push(1);
  if (l.pt) ids.push(3);
  return ids.length ? ids : [1];
}

function sameLanguages(a: Languages, b: Languages): boolean {
  return a.en === b.en && a.pt === b.pt;
}

/** Any record of string lists (URLSearchParams, or a plain object in tests). */
export type QueryInput = URLSearchParams | string | Record<string, string | string[] | undefined>;

function toSearchParams(input: QueryInput): URLSearchParams {
  if (input instanceof URLSearchParams) return input;
  if (typeof input === 'string') return new URLSearchParams(input);
  const sp = new URLSearchParams();
  for (const [k, v] of Object.entries(input)) {
    if (v === undefined) continue;
    for (const item of Array.isArray(v) ? v : [v]) sp.append(k, item);
  }
  return sp;
}

/**
 * Reads listing params from a query string. Unknown values are ignored, repeated scalar
 * params use the first value, `q` is cut to 100 characters, `page` clamped to 1..10000.
 * `cookieView` is the view cookie, used when the URL has no valid `view`.
 */
export function parseListing(input: QueryInput, site: ListingSite, cookieView?: string | null): ParsedListing {
  const sp = toSearchParams(input);
  const filters = parseFilters(sp.getAll('filter').slice(0, 50));
  const explicitView = parseView(sp.get('view'));
  const fromForm = sp.has('lang') || sp.has('langs_was');
  const languages = fromForm
    ? languagesFromForm(sp.getAll('lang').slice(0, 10), parseLanguageState(sp.get('langs_was')), site)
    : parseLanguages(sp.get('show_all_sites'), sp.get('site_id'), site);
  const params: ListingParams = {
    q: cleanQuery(sp.get('q')),
    ...filters,
    order: parseOrder(sp.get('order'), cleanQuery(sp.get('q'))),
    view: explicitView ?? parseView(cookieView) ?? 'list',
    page: parsePage(sp.get('page')),
    languages,
  };
  return { params, explicitView, fromForm };
}

export interface SerializeOptions {
  /** Write `view=list` too (the view switch must override a grid cookie). */
  explicitView?: boolean;
}

/**
 * The canonical query string (without `?`), params always in the same order:
 * q, filter (formats, complete, exclusive, favorited, category), order, view, page, site_id, show_all_sites.
 * Defaults are left out: the `-updated` order, the list view, page 1 and the site's own language.
 */
export function serializeListing(p: ListingParams, site: ListingSite, options: SerializeOptions = {}): string {
  const sp = new URLSearchParams();
  const q = cleanQuery(p.q);
  if (q) sp.append('q', q);
  for (const f of FORMAT_FILTERS) if (p.formats.includes(f)) sp.append('filter', f);
  if (p.complete) sp.append('filter', 'complete');
  if (p.exclusive) sp.append('filter', 'exclusive');
  if (p.favorited) sp.append('filter', 'favorited');
  if (p.category && isCategorySlug(p.category)) sp.append('filter', p.category);
  if (!isDefaultOrder(p.order, q)) sp.append('order', serializeOrder(p.order));
  if (p.view === 'grid' || options.explicitView) sp.append('view', p.view);
  const page = Math.min(MAX_PAGE, Math.max(1, Math.floor(p.page) || 1));
  if (page > 1) sp.append('page', String(page));
  const languages = p.languages.en || p.languages.pt ? p.languages : defaultLanguages(site);
  if (!sameLanguages(languages, defaultLanguages(site))) {
    if (languages.en && languages.pt) sp.append('show_all_sites', 'true');
    else sp.append('site_id', languages.pt ? '3' : '1');
  }
  return sp.toString();
}

/** `/comics/` (or the fragment path) with the canonical query. */
export function listingHref(p: ListingParams, site: ListingSite, base = LISTING_PATH, options: SerializeOptions = {}): string {
  const qs = serializeListing(p, site, options);
  return qs ? `${base}?${qs}` : base;
}

/** Params for an order button: its key in its natural direction, back to page 1. */
export function withOrderKey(p: ListingParams, key: SortKey): ListingParams {
  return { ...p, order: { key, desc: NATURAL_DESC[key] }, page: 1 };
}

/** Params for the invert-order control. */
export function withInvertedOrder(p: ListingParams): ListingParams {
  // Best match has one direction: worst match first helps no one.
  if (p.order.key === 'relevance') return { ...p, page: 1 };
  return { ...p, order: { key: p.order.key, desc: !p.order.desc }, page: 1 };
}

/** Selecting a category replaces the previous one; selecting the current one clears it. */
export function withCategory(p: ListingParams, slug: string | null): ListingParams {
  const next = slug && isCategorySlug(slug) && slug !== p.category ? slug : null;
  return { ...p, category: next, page: 1 };
}

/** Turns a format on or off (several can be on). */
export function withFormat(p: ListingParams, format: FormatFilter, on: boolean): ListingParams {
  const set = new Set(p.formats);
  if (on) set.add(format);
  else set.delete(format);
  return { ...p, formats: FORMAT_FILTERS.filter((f) => set.has(f)), page: 1 };
}

export function withLanguage(p: ListingParams, lang: LanguageCode, on: boolean): ListingParams {
  return { ...p, languages: toggleLanguage(p.languages, lang, on), page: 1 };
}

export function withPage(p: ListingParams, page: number): ListingParams {
  return { ...p, page: Math.min(MAX_PAGE, Math.max(1, Math.floor(page) || 1)) };
}

export function withView(p: ListingParams, view: View): ListingParams {
  return { ...p, view };
}

/** Number of pages for a total (at least 1). */
export function pageCount(total: number): number {
  return Math.max(1, Math.ceil(total / PAGE_SIZE));
}

/** The page numbers a pagination bar shows: first, last, and a window around the current one; null is a gap. */
export function paginationWindow(page: number, pages: number, radius = 1): (number | null)[] {
  const out: (number | null)[] = [];
  const wanted = new Set<number>([1, pages]);
  for (let i = page - radius; i <= page + radius; i++) if (i >= 1 && i <= pages) wanted.add(i);
  const sorted = [...wanted].sort((a, b) => a - b);
  sorted.forEach((n, i) => {
    const prev = sorted[i - 1];
    if (prev !== undefined && n - prev > 1) out.push(n - prev === 2 ? n - 1 : null);
    out.push(n);
  });
  return out;
}

/** The view cookie as `document.cookie` takes it. */
export function viewCookie(view: View, scope: CookieScope): string {
  return serializeCookie(VIEW_COOKIE, view, cookieOptions(scope, { maxAge: VIEW_COOKIE_MAX_AGE }));
}
