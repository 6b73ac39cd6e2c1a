/**
 * The slim bar shown when a page navigation takes longer than 500 ms (spec section 9: progress after
 * 500 ms, give up after 60 s). Inkpass is a multi-page site, so the browser does the navigating;
 * this only watches same-origin link clicks and form submits and removes the bar when the page is
 * left (pagehide) or comes back from the back/forward cache (pageshow).
 */
export const NAV_PROGRESS_DELAY_MS = 500;
export const NAV_TIMEOUT_MS = 60_000;

export interface LinkClick {
  button: number;
  modified: boolean;
  defaultPrevented: boolean;
  /** The link's target attribute, download attribute presence and resolved URL. */
  target: string;
  download: boolean;
  href: string;
}

/** Whether a click on a link navigates this tab to another document of this origin. */
export function leavesPage(click: LinkClick, here: { origin: string; pathname: string; search: string }): boolean {
  if (click.button !== 0 || click.modified || click.defaultPrevented || click.download) return false;
  if (click.target !== '' && click.target !== '_self') return false;
  let url: URL;
  try { url = new URL(click.href); } catch { return false; }
  if (url.origin !== here.origin) return false;
  // A jump within this page is not a navigation.
  if (url.hash && url.pathname === here.pathname && url.search === here.search) return false;
  return true;
}

export function initNavProgress(label: string): void {
  let timer = 0;
  let bar: HTMLElement | null = null;
  const stop = () => {
    clearTimeout(timer);
    bar?.remove();
    bar = null;
  };
  const start = () => {
    stop();
    timer = window.setTimeout(() => {
      bar = document.createElement('div');
      bar.className = 'nav-progress';
      bar.setAttribute('role', 'progressbar');
      bar.setAttribute('aria-label', label);
      document.body.append(bar);
      timer = window.setTimeout(stop, NAV_TIMEOUT_MS - NAV_PROGRESS_DELAY_MS);
    }, NAV_PROGRESS_DELAY_MS);
  };
  // Bubbling phase, after the page's own handlers, so a click they cancelled is ignored.
  document.addEventListener('click', (e) => {
    const a = e.target instanceof Element ? e.target.closest('a[href]') : null;
    if (!(a instanceof HTMLAnchorElement)) return;
    const click = { button: e.button, modified: e.metaKey || e.ctrlKey || e.shiftKey || e.altKey, defaultPrevented: e.defaultPrevented, target: a.target, download: a.hasAttribute('download'), href: a.href };
    if (leavesPage(click, location)) start();
  });
  document.addEventListener('submit', (e) => {
    const form = e.target;
    if (!e.defaultPrevented && form instanceof HTMLFormElement && (form.target === '' || form.target === '_self')) start();
  });
  addEventListener('pagehide', stop);
  addEventListener('pageshow', stop);
}
