import { LISTING_PATH, LISTING_FRAGMENT_PATH } from '~/lib/paths';
import { browserCookieScope } from '~/lib/cookies';
/**
 * In-place updates for /comics/. The page works without this
 * module (links and a GET form); with it, results come from /comics/fragment/ and replace
 * the live region, the address bar follows, and Back/Forward restore earlier results.
 * The URL is the state: every control is derived from a ListingParams (features/catalog/listing.ts).
 */
import {
  cleanQuery,
  followQuery,
  isDefaultOrder,
  languageState,
  listingHref,
  parseListing,
  serializeListing,
  serializeOrder,
  toggleLanguage,
  viewCookie,
  withInvertedOrder,
  withOrderKey,
  withView,
  type LanguageCode,
  type ListingParams,
  type ListingSite,
  type SortKey,
  type View,
} from '~/features/catalog/listing';

export const PAGE_PATH = LISTING_PATH;
export const FRAGMENT_PATH = LISTING_FRAGMENT_PATH;
export const TYPING_DEBOUNCE_MS = 350;

interface Messages {
  errorStatus: string;
  retry: string;
  network: string;
  loading: string;
}

interface HistoryState {
  listing: string;
}

type Mode = 'push' | 'replace' | 'none';

interface NavigateOptions {
  mode: Mode;
  /** Move focus to the results heading and bring the results into view (pagination). */
  focusResults?: boolean;
  /** The search box is being typed in: leave its value alone. */
  typing?: boolean;
}

/** What a fetch of the fragment endpoint turned into. Exported for tests. */
export type FragmentOutcome =
  | { kind: 'results'; html: string }
  | { kind: 'not-found'; html: string }
  | { kind: 'error'; status: number; statusText: string }
  | { kind: 'aborted' };

/** Fetches one fragment; an abort (a newer request started) is reported as 'aborted', never thrown. */
export async function fetchFragment(query: string, signal: AbortSignal, fetchImpl: typeof fetch = fetch): Promise<FragmentOutcome> {
  try {
    const res = await fetchImpl(query ? `${FRAGMENT_PATH}?${query}` : FRAGMENT_PATH, {
      signal,
      headers: { Accept: 'text/html' },
      credentials: 'same-origin',
    });
    const html = await res.text();
    if (res.ok) return { kind: 'results', html };
    if (res.status === 404) return { kind: 'not-found', html };
    return { kind: 'error', status: res.status, statusText: res.statusText };
  } catch (e) {
    if (signal.aborted || (e instanceof DOMException && e.name === 'AbortError')) return { kind: 'aborted' };
    return { kind: 'error', status: 0, statusText: '' };
  }
}

export function initListing(): void {
  const root = document.querySelector<HTMLElement>('[data-listing]');
  const form = root?.querySelector<HTMLFormElement>('form[data-listing-form]');
  const region = root?.querySelector<HTMLElement>('[data-listing-results]');
  if (!root || !form || !region) return;
  document.documentElement.classList.add('js-listing');

  const site: ListingSite = root.dataset.site === '3' ? 3 : 1;
  const messages: Messages = { errorStatus: 'Error {status}', retry: 'Try again', network: 'Error', loading: '…', ...safeJson(region.dataset.messages) };
  const search = form.querySelector<HTMLInputElement>('input[name="q"]');
  const filters = root.querySelector<HTMLDetailsElement>('details[data-filters]');

  let state = initialState();
  let controller: AbortController | null = null;
  let typingTimer: ReturnType<typeof setTimeout> | undefined;
  /** The current history entry was created by typing, so further typing replaces it. */
  let typingEntry = false;

  history.replaceState({ ...(history.state ?? {}), listing: serializeListing(state, site) } satisfies HistoryState, '');

  // The server renders the filters folded unless one is in use (the phone layout, final at first
  // paint); on wide screens they are a fixed sidebar whose body CSS shows anyway, so opening it
  // here changes only what assistive technology is told, not the layout.
  const narrow = matchMedia('(max-width: 860px)');
  if (filters && !narrow.matches) filters.open = true;
  filters?.querySelector('summary')?.addEventListener('click', (event) => {
    if (!narrow.matches) event.preventDefault();
  });

  function initialState(): ListingParams {
    const results = region!.querySelector<HTMLElement>('.ls-results');
    const parsed = parseListing(location.search, site, results?.dataset.view ?? null).params;
    // The server may have dropped values (an unknown category); the rendered controls are the truth.
    return { ...parsed, ...readFilters(parsed.languages), page: Number(results?.dataset.page) || parsed.page };
  }

  /** Search text, formats, flags, category and languages as the form controls show them. */
  function readFilters(previous = state.languages): Pick<ListingParams, 'q' | 'formats' | 'category' | 'complete' | 'exclusive' | 'favorited' | 'languages'> {
    const sp = new URLSearchParams();
    for (const [k, v] of new FormData(form!)) if (typeof v === 'string' && (k === 'q' || k === 'filter' || k === 'lang')) sp.append(k, v);
    sp.append('langs_was', languageState(previous));
    const p = parseListing(sp, site, null).params;
    return { q: p.q, formats: p.formats, category: p.category, complete: p.complete, exclusive: p.exclusive, favorited: p.favorited, languages: p.languages };
  }

  /**
   * The params the form controls ask for, back to page 1. New search text ranks by best match
   * unless the reader chose an order, and clearing it goes back to newest first.
   */
  function fromControls(): ListingParams {
    return followQuery(state, { ...state, ...readFilters(), page: 1 });
  }

  function syncControls(p: ListingParams, typing = false): void {
    if (search && !typing) search.value = p.q;
    for (const box of form!.querySelectorAll<HTMLInputElement>('input[data-format]')) box.checked = p.formats.includes(box.dataset.format as never);
    for (const box of form!.querySelectorAll<HTMLInputElement>('input[data-flag]')) box.checked = box.dataset.flag === 'complete' ? p.complete : p.exclusive;
    for (const box of form!.querySelectorAll<HTMLInputElement>('input[data-favorited]')) box.checked = p.favorited;
    for (const box of form!.querySelectorAll<HTMLInputElement>('input[data-lang]')) box.checked = p.languages[box.dataset.lang as LanguageCode];
    for (const radio of form!.querySelectorAll<HTMLInputElement>('input[data-category]')) radio.checked = (radio.dataset.category || null) === p.category;
    const order = form!.querySelector<HTMLInputElement>('input[data-state="order"]');
    if (order) {
      order.value = serializeOrder(p.order);
      order.disabled = isDefaultOrder(p.order, p.q);
    }
    const view = form!.querySelector<HTMLInputElement>('input[data-state="view"]');
    if (view) view.disabled = p.view !== 'grid';
    const was = form!.querySelector<HTMLInputElement>('input[data-state="langs_was"]');
    if (was) was.value = languageState(p.languages);
    for (const link of root!.querySelectorAll<HTMLAnchorElement>('a[data-order-key]')) {
      const key = link.dataset.orderKey as SortKey;
      // Best match exists only with search text.
      if (key === 'relevance') link.closest('li')?.toggleAttribute('hidden', !p.q);
      link.href = listingHref(withOrderKey(p, key), site);
      if (p.order.key === key) link.setAttribute('aria-current', 'true');
      else link.removeAttribute('aria-current');
    }
    const invert = root!.querySelector<HTMLAnchorElement>('a[data-invert]');
    if (invert) {
      invert.href = listingHref(withInvertedOrder(p), site);
      invert.dataset.desc = String(p.order.desc);
      invert.hidden = p.order.key === 'relevance';
    }
    for (const link of root!.querySelectorAll<HTMLAnchorElement>('a[data-view]')) {
      const v = link.dataset.view as View;
      link.href = listingHref(withView(p, v), site, PAGE_PATH, { explicitView: true });
      if (p.view === v) link.setAttribute('aria-current', 'true');
      else link.removeAttribute('aria-current');
    }
  }

  async function navigate(next: ListingParams, options: NavigateOptions): Promise<void> {
    typingEntry = options.typing === true && options.mode !== 'none';
    state = next;
    syncControls(next, options.typing);
    const query = serializeListing(next, site);
    const entry: HistoryState = { listing: query };
    const url = listingHref(next, site, PAGE_PATH);
    if (options.mode === 'push') history.pushState(entry, '', url);
    else if (options.mode === 'replace') history.replaceState(entry, '', url);

    controller?.abort();
    const mine = new AbortController();
    controller = mine;
    region!.setAttribute('aria-busy', 'true');
    const outcome = await fetchFragment(query, mine.signal);
    if (outcome.kind === 'aborted' || controller !== mine) return; // a newer request owns the region
    controller = null;
    if (outcome.kind === 'error') swap(errorPanel(outcome.status, outcome.statusText, url), options);
    else swap(outcome.html, options);
    region!.setAttribute('aria-busy', 'false');
  }

  function swap(content: string | Node, options: NavigateOptions): void {
    const active = document.activeElement;
    const focusWasInside = active instanceof HTMLElement && region!.contains(active);
    if (typeof content === 'string') region!.innerHTML = content;
    else region!.replaceChildren(content);
    if (focusWasInside || options.focusResults) {
      region!.querySelector<HTMLElement>('[data-results-heading]')?.focus({ preventScroll: true });
    }
    if (options.focusResults) {
      const top = root!.getBoundingClientRect().top;
      if (top < 0) root!.scrollIntoView({ block: 'start', behavior: matchMedia('(prefers-reduced-motion: reduce)').matches ? 'auto' : 'smooth' });
    }
  }

  function errorPanel(status: number, statusText: string, url: string): Node {
    const box = document.createElement('section');
    box.className = 'ls-error';
    box.setAttribute('role', 'alert');
    const heading = document.createElement('h2');
    heading.tabIndex = -1;
    heading.dataset.resultsHeading = '';
    heading.textContent = statusText || (status ? messages.errorStatus.replace('{status}', String(status)) : messages.network);
    const retry = document.createElement('a');
    retry.className = 'btn';
    retry.href = url;
    retry.textContent = messages.retry;
    box.append(heading, retry);
    return box;
  }

  function fromHref(href: string): ListingParams {
    const url = new URL(href, location.href);
    // Links carry view=grid when the grid is on, so a link without view means the list.
    return parseListing(url.searchParams, site, null).params;
  }

  // Order buttons, invert, view switch, pagination and "clear filters": links, swapped in place.
  root.addEventListener('click', (event) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const link = (event.target as Element | null)?.closest<HTMLAnchorElement>('a[data-listing-link]');
    if (!link || !root.contains(link)) return;
    event.preventDefault();
    const next = fromHref(link.href);
    if (link.dataset.view) document.cookie = viewCookie(next.view, browserCookieScope());
    void navigate(next, { mode: 'push', focusResults: link.hasAttribute('data-page-link') });
  });

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    clearTimeout(typingTimer);
    void navigate(fromControls(), { mode: 'push' });
  });

  form.addEventListener('change', (event) => {
    const input = event.target as HTMLInputElement;
    if (input === search || input.type === 'hidden') return;
    if (input.dataset.lang) {
      // At least one language stays on: unchecking the last one checks the other.
      const lang = input.dataset.lang as LanguageCode;
      const langs = toggleLanguage(state.languages, lang, input.checked);
      for (const box of form.querySelectorAll<HTMLInputElement>('input[data-lang]')) box.checked = langs[box.dataset.lang as LanguageCode];
    }
    clearTimeout(typingTimer);
    void navigate(fromControls(), { mode: 'push' });
  });

  search?.addEventListener('input', () => {
    clearTimeout(typingTimer);
    typingTimer = setTimeout(() => {
      if (cleanQuery(search.value) === state.q) return;
      void navigate(fromControls(), { mode: typingEntry ? 'replace' : 'push', typing: true });
    }, TYPING_DEBOUNCE_MS);
  });

  addEventListener('popstate', (event) => {
    clearTimeout(typingTimer);
    const saved = (event.state as Partial<HistoryState> | null)?.listing;
    const cookieView = /(?:^|;\s*)view=(grid|list)/.exec(document.cookie)?.[1] ?? null;
    const next = typeof saved === 'string' ? parseListing(saved, site, null).params : parseListing(location.search, site, cookieView).params;
    typingEntry = false;
    void navigate(next, { mode: 'none' });
  });
}

function safeJson(text: string | undefined): Partial<Messages> {
  try {
    const v = JSON.parse(text ?? '{}');
    return v && typeof v === 'object' ? v : {};
  } catch {
    return {};
  }
}
