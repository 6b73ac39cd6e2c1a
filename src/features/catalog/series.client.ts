/** Series page behaviours as a plain module: no framework on anonymous series pages. */
import { resolveLanguageHash } from '~/features/catalog/rules';
import type { Locale } from '~/lib/site';
import { relativeTime, RELATIVE_DATE_LIMIT } from '~/lib/dates';
import { appTokenClient } from '~/lib/app-token.client';
import { episodesApiPath } from '~/lib/paths';

export const ORDER_STORAGE_KEY = 'inkpass.chapterOrder';
const REFRESH_MS = 60_000;
/** The chapter rows (prices, owned, rentals, passes) are loaded again this often. */
export const CONTENT_REFRESH_MS = 10 * 60_000;

function initDescription() {
  const box = document.querySelector<HTMLElement>('[data-description]');
  const text = box?.querySelector<HTMLElement>('.description-text');
  if (!box || !text) return;
  box.classList.add('is-clamped');
  if (text.scrollHeight <= text.clientHeight + 2) { box.classList.remove('is-clamped'); return; }
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'description-toggle';
  button.setAttribute('aria-controls', text.id);
  button.setAttribute('aria-expanded', 'false');
  button.textContent = box.dataset.more ?? 'More';
  button.addEventListener('click', () => {
    const expanded = box.classList.toggle('is-clamped') === false;
    button.setAttribute('aria-expanded', String(expanded));
    button.textContent = (expanded ? box.dataset.less : box.dataset.more) ?? '';
  });
  box.append(button);
}

function initTabs() {
  const root = document.querySelector<HTMLElement>('[data-tabs]');
  const list = root?.querySelector<HTMLElement>('[role="tablist"]');
  if (!root || !list) return;
  const tabs = [...list.querySelectorAll<HTMLButtonElement>('[role="tab"]')];
  const panels = [...root.querySelectorAll<HTMLElement>('.tab-panel')];
  const own = root.dataset.ownLanguage ?? 'en';
  const codes = tabs.map((t) => t.dataset.code ?? '');
  root.classList.add('is-enhanced');
  list.hidden = false;
  const select = (code: string, focus = false) => {
    for (const tab of tabs) {
      const on = tab.dataset.code === code;
      tab.setAttribute('aria-selected', String(on));
      tab.tabIndex = on ? 0 : -1;
      if (on && focus) tab.focus();
    }
    for (const panel of panels) panel.hidden = panel.dataset.code !== code;
  };
  const fromHash = () => {
    const { tab, replaceWith } = resolveLanguageHash(location.hash, own, codes);
    if (replaceWith) history.replaceState(history.state, '', replaceWith);
    return tab;
  };
  select(fromHash() ?? tabs.find((t) => t.getAttribute('aria-selected') === 'true')?.dataset.code ?? codes[0] ?? '');
  addEventListener('hashchange', () => { const tab = fromHash(); if (tab) select(tab); });
  tabs.forEach((tab, i) => {
    tab.addEventListener('click', () => {
      const code = tab.dataset.code ?? '';
      select(code);
      history.replaceState(history.state, '', code === own ? '#languages' : `#language-${code}`);
    });
    tab.addEventListener('keydown', (e) => {
      const delta = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0;
      let target = delta ? (i + delta + tabs.length) % tabs.length : e.key === 'Home' ? 0 : e.key === 'End' ? tabs.length - 1 : -1;
      if (target < 0) return;
      e.preventDefault();
      tabs[target]?.click();
      tabs[target]?.focus();
    });
  });
}

function reverseLists() {
  for (const list of document.querySelectorAll<HTMLElement>('[data-chapter-list]')) {
    list.append(...[...list.children].reverse());
  }
}

function initSort() {
  const group = document.querySelector<HTMLElement>('[data-sort]');
  if (!group) return;
  const paginated = group.dataset.paginated === 'true';
  let current = group.dataset.order === 'asc' ? 'asc' : 'desc';
  const links = [...group.querySelectorAll<HTMLAnchorElement>('[data-order-link]')];
  const mark = () => links.forEach((l) => (l.dataset.orderLink === current ? l.setAttribute('aria-current', 'true') : l.removeAttribute('aria-current')));
  const apply = (order: 'asc' | 'desc', link?: HTMLAnchorElement) => {
    if (order === current) return;
    if (paginated) { if (link) location.href = link.href; return; }
    reverseLists();
    current = order;
    mark();
    const url = new URL(location.href);
    if (order === 'asc') url.searchParams.set('order', 'asc'); else url.searchParams.delete('order');
    history.replaceState(history.state, '', url);
  };
  for (const link of links) {
    link.addEventListener('click', (e) => {
      e.preventDefault();
      const order = link.dataset.orderLink === 'asc' ? 'asc' : 'desc';
      try { localStorage.setItem(ORDER_STORAGE_KEY, order); } catch { /* storage may be disabled */ }
      apply(order, link);
    });
  }
  // The remembered preference wins unless the address names an order itself.
  let stored: string | null = null;
  try { stored = localStorage.getItem(ORDER_STORAGE_KEY); } catch { stored = null; }
  if ((stored === 'asc' || stored === 'desc') && !new URL(location.href).searchParams.has('order') && stored !== current) {
    apply(stored, links.find((l) => l.dataset.orderLink === stored));
  }
}

/** Relative times ("in 3 hours", "2 days ago") written from this browser's clock. */
function refreshTimes() {
  const locale = (document.documentElement.lang || 'en') as Locale;
  const now = Math.floor(Date.now() / 1000);
  for (const el of document.querySelectorAll<HTMLElement>('[data-countdown], [data-relative]')) {
    const at = Number(el.dataset.countdown ?? el.dataset.relative);
    if (!Number.isFinite(at)) continue;
    if (el.dataset.relative && Math.abs(now - at) > RELATIVE_DATE_LIMIT) continue;
    // The daily pass is back: its "wait for free" line would count into the past (the rows say it is ready on their next refresh).
    const done = at <= now ? el.closest<HTMLElement>('[data-hide-when-due]') : null;
    if (done) { done.hidden = true; continue; }
    el.textContent = relativeTime(at, now, locale);
  }
}

function initTimers() {
  setInterval(refreshTimes, REFRESH_MS);
}

/**
 * Every 10 minutes the rows are replaced by the server's current ones (a chapter released, a
 * sale ended, a rental run out), except while an unlock dialog is open, the page is hidden or
 * the browser is offline. The rows come from the page itself, fetched again (same address, same
 * sort order, the reader's session). A signed-in reader's refresh first asks the episodes API
 * with the app token (spec sections 7 and 8), through the one renew-once-and-retry rule of
 * lib/app-token.client.ts, and fetches the page only when that answer changed since the last
 * refresh. A failure says which load failed, in the page.
 */
function initContentRefresh() {
  const error = document.querySelector<HTMLElement>('[data-content-error]');
  if (!error || !document.querySelector('[data-chapter-list]')) return;
  const ref = error.dataset.episodesRef;
  const call = ref ? appTokenClient() : null;
  let lastEpisodes: string | null = null;
  const fail = (text: string | undefined) => {
    error.textContent = text ?? '';
    error.hidden = false;
  };

  const refresh = async () => {
    if (!navigator.onLine || document.visibilityState === 'hidden' || document.querySelector('dialog[open]')) return;
    if (call && ref) {
      let episodes: string;
      try {
        const r = await call((token) => episodesApiPath(ref, { language: error.dataset.language ?? 'en', token }));
        if (!r.ok) throw new Error(`status ${r.status}`);
        episodes = await r.text();
      } catch {
        fail(error.dataset.seriesFailed);
        return;
      }
      // Nothing changed for this reader since the last refresh: the rows stand.
      if (episodes === lastEpisodes) { error.hidden = true; return; }
      lastEpisodes = episodes;
    }
    let fresh: Document;
    try {
      const res = await fetch(location.href, { credentials: 'same-origin', headers: { accept: 'text/html' } });
      if (!res.ok) throw new Error(`status ${res.status}`);
      fresh = new DOMParser().parseFromString(await res.text(), 'text/html');
    } catch {
      fail(error.dataset.contentFailed);
      return;
    }
    try {
      // A dialog opened while the request was under way: its row must not change under it.
      if (document.querySelector('dialog[open]')) return;
      if (!fresh.querySelector('[data-chapter-list]')) throw new Error('no chapter list');
      for (const list of document.querySelectorAll<HTMLElement>('[data-chapter-list]')) {
        const code = list.closest<HTMLElement>('[data-code]')?.dataset.code ?? '';
        const next = fresh.querySelector(`.tab-panel[data-code="${CSS.escape(code)}"] [data-chapter-list]`);
        if (next) list.innerHTML = next.innerHTML;
      }
      // The new rows' relative times, from the same clock as the rest of the page.
      refreshTimes();
      const data = fresh.getElementById('page-user-data')?.textContent;
      const own = document.getElementById('page-user-data');
      if (data && own) own.textContent = data;
      error.hidden = true;
    } catch {
      fail(error.dataset.comicFailed);
    }
  };
  setInterval(() => void refresh(), CONTENT_REFRESH_MS);
}

export function initSeriesPage() {
  initDescription();
  initTabs();
  initSort();
  initTimers();
  initContentRefresh();
}
