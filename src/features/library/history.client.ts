/**
 * "Load more" on /my/history/, plain TypeScript. The app token and its renew-once-and-retry
 * rule come from the shared client (lib/app-token.client.ts). Entries are built with the same
 * markup as components/HistoryItem.astro.
 */
import { historyApiPath, historyPath } from '~/lib/paths';
import { AppTokenError, appTokenClient } from '~/lib/app-token.client';
import { relativeTime } from '~/lib/dates';

interface HistoryJson {
  history: {
    comic: { name: string; link: string; cover: string | null };
    progress: { e4pid: string; completed: boolean; completion: number; lastRead: string };
    content_url: string;
    continue_reading: { e4pid: string; name: string; text: string; url: string } | null;
  }[];
}

interface Labels {
  continue: string;
  readAgain: string;
  progress: string;
  lastRead: string;
  loadError: string;
  processError: string;
}

class HttpError extends Error {}

/** "2 hours ago" in the browser's clock: whole seconds from now, by the site's one rule (src/lib/dates.ts). */
function relative(iso: string, locale: string): string {
  return relativeTime(Math.round((Date.parse(iso) - Date.now()) / 1000), 0, locale);
}

function el<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, string> = {}, text?: string): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

function path(url: string): string {
  const u = new URL(url, location.href);
  return u.origin === location.origin ? u.pathname + u.search : u.href;
}

export function entryElement(item: HistoryJson['history'][number], labels: Labels, locale: string): HTMLLIElement {
  const read = item.progress.completed || item.progress.completion >= 100;
  const percent = read ? 100 : Math.max(0, Math.min(100, Math.round(item.progress.completion)));
  const next = item.continue_reading;
  const href = path(next?.url ?? item.content_url);
  const li = el('li', { class: `history-item is-${read ? 'read' : 'reading'}`, 'data-e4pid': item.progress.e4pid });
  const coverLink = el('a', { class: 'history-cover', href, tabindex: '-1', 'aria-hidden': 'true' });
  coverLink.append(item.comic.cover ? el('img', { src: path(item.comic.cover), width: '70', height: '100', alt: '', loading: 'lazy', decoding: 'async' }) : el('span', { class: 'history-cover-empty' }));
  const body = el('div', { class: 'history-body' });
  const bar = el('div', { class: 'history-progress', role: 'progressbar', 'aria-valuemin': '0', 'aria-valuemax': '100', 'aria-valuenow': String(percent), 'aria-label': labels.progress.replace('{percent}', String(percent)) });
  bar.append(el('span', { style: `width:${percent}%` }));
  const meta = el('p', { class: 'history-meta' });
  meta.append(el('time', { datetime: item.progress.lastRead }, labels.lastRead.replace('{when}', relative(item.progress.lastRead, locale))));
  body.append(el('a', { class: 'history-name', href: path(item.comic.link) }, item.comic.name), bar, meta);
  // Label by the entry's state (spec section 4); the continue rule's chapter follows it.
  const action = el('a', { class: 'btn history-action', href }, read ? labels.readAgain : labels.continue);
  if (next) {
    action.dataset.continue = next.e4pid;
    action.append(el('span', { class: 'history-chapter' }, ` ${next.name}`));
  }
  li.append(coverLink, body, action);
  return li;
}

export function initHistory(): void {
  const list = document.getElementById('history-list');
  const more = document.getElementById('history-more');
  const warning = document.getElementById('history-error');
  if (!list || !more || !warning) return;
  const labels = JSON.parse(list.dataset.labels ?? '{}') as Labels;
  const locale = list.dataset.locale ?? document.documentElement.lang;
  const pageSize = Number(list.dataset.pageSize) || 25;
  let skip = Number(list.dataset.skip) || 0;
  let busy = false;
  const call = appTokenClient();

  const fetchPage = async (): Promise<HistoryJson> => {
    let r: Response;
    try {
      r = await call((token) => historyApiPath({ limit: pageSize, skip, token }));
    } catch (err) {
      throw err instanceof AppTokenError ? new HttpError(String(err.status)) : err;
    }
    if (!r.ok) throw new HttpError(String(r.status));
    return (await r.json()) as HistoryJson;
  };

  more.addEventListener('click', async (e) => {
    e.preventDefault();
    if (busy) return;
    busy = true;
    more.setAttribute('aria-busy', 'true');
    let data: HistoryJson;
    try {
      data = await fetchPage();
    } catch (err) {
      warning.textContent = err instanceof HttpError ? labels.loadError : labels.processError;
      warning.hidden = false;
      if (err instanceof HttpError) more.hidden = true;
      busy = false;
      more.removeAttribute('aria-busy');
      return;
    }
    try {
      const items = data.history.map((item) => entryElement(item, labels, locale));
      list.append(...items);
      skip += items.length;
      (more as HTMLAnchorElement).href = historyPath(skip);
      more.hidden = items.length < pageSize;
      warning.hidden = true;
    } catch {
      warning.textContent = labels.processError;
      warning.hidden = false;
    }
    busy = false;
    more.removeAttribute('aria-busy');
  });
}
