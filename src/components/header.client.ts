/**
 * Small page-wide behaviours: theme toggle, language switch check, back-to-top, the account menu,
 * logout dialog, and the opener of the search overlay. No framework: the overlay's React island is imported
 * only when a reader first opens search.
 */
import { LOGOUT_PATH } from '~/lib/paths';
import { loadSearchOverlay } from '~/features/search';
import { themeCookies } from '~/lib/theme';
import { browserCookieScope } from '~/lib/cookies';

export const LANGUAGE_CHECK_TIMEOUT_MS = 3000;
export const BACK_TO_TOP_MS = 1000;

function effectiveTheme(): 'dark' | 'light' {
  const set = document.documentElement.dataset.theme;
  if (set === 'dark' || set === 'light') return set;
  return matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

function initTheme() {
  const button = document.getElementById('theme-toggle');
  button?.addEventListener('click', (event) => {
    event.preventDefault();
    const next = effectiveTheme() === 'dark' ? 'light' : 'dark';
    for (const c of themeCookies(next, browserCookieScope())) document.cookie = c;
    document.documentElement.dataset.theme = next;
    button.setAttribute('aria-pressed', String(next === 'dark'));
  });
  button?.setAttribute('aria-pressed', String(effectiveTheme() === 'dark'));
}

function initLanguageSwitch() {
  const link = document.querySelector<HTMLAnchorElement>('a[data-lang-switch]');
  link?.addEventListener('click', async (event) => {
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    const target = link.href;
    const fallback = link.dataset.fallback ?? '/';
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), LANGUAGE_CHECK_TIMEOUT_MS);
    try {
      const res = await fetch(target, { method: 'HEAD', mode: 'cors', credentials: 'omit', signal: controller.signal });
      location.href = res.ok ? target : fallback;
    } catch {
      location.href = fallback;
    } finally {
      clearTimeout(timer);
    }
  });
}

/** easeInOutCubic over a fixed duration; instant when the reader prefers reduced motion. */
export function scrollPosition(start: number, elapsed: number, duration = BACK_TO_TOP_MS): number {
  const p = Math.min(1, Math.max(0, elapsed / duration));
  const eased = p < 0.5 ? 4 * p * p * p : 1 - Math.pow(-2 * p + 2, 3) / 2;
  return Math.round(start * (1 - eased));
}

function initBackToTop() {
  const button = document.getElementById('back-to-top');
  if (!button) return;
  const update = () => button.classList.toggle('is-visible', scrollY > 600);
  addEventListener('scroll', update, { passive: true });
  update();
  button.addEventListener('click', (event) => {
    event.preventDefault();
    const start = scrollY;
    const focusTarget = document.getElementById('main');
    const done = () => focusTarget?.focus({ preventScroll: true });
    if (matchMedia('(prefers-reduced-motion: reduce)').matches) { scrollTo(0, 0); done(); return; }
    const t0 = performance.now();
    const step = (t: number) => {
      scrollTo(0, scrollPosition(start, t - t0));
      if (t - t0 < BACK_TO_TOP_MS) requestAnimationFrame(step);
      else done();
    };
    requestAnimationFrame(step);
  });
}

/**
 * The account menu: without JavaScript a `<details>` disclosure. Here its summary becomes a real
 * `<button aria-expanded aria-controls>` (a summary is not a button to every screen reader) and
 * the panel a sibling shown with `hidden`: Escape closes it and returns focus to the button, a
 * click outside or focus moving out of the menu closes it. The items are plain links, in Tab order.
 */
export function initAccountMenu(root: ParentNode = document): { close(focusButton?: boolean): void; button: HTMLButtonElement } | null {
  const menu = root.querySelector<HTMLElement>('[data-account-menu]');
  const details = menu?.querySelector('details');
  const summary = details?.querySelector('summary');
  const panel = details?.querySelector<HTMLElement>('.account-panel');
  if (!menu || !details || !summary || !panel) return null;
  const button = document.createElement('button');
  button.type = 'button';
  button.id = 'account-button';
  button.className = summary.className;
  for (const name of ['aria-label', 'title']) {
    const v = summary.getAttribute(name);
    if (v !== null) button.setAttribute(name, v);
  }
  button.append(...summary.childNodes);
  button.setAttribute('aria-expanded', 'false');
  button.setAttribute('aria-controls', panel.id);
  panel.hidden = true;
  menu.replaceChildren(button, panel);

  const isOpen = () => button.getAttribute('aria-expanded') === 'true';
  const setOpen = (open: boolean) => {
    button.setAttribute('aria-expanded', String(open));
    panel.hidden = !open;
  };
  const close = (focusButton = false) => {
    if (!isOpen()) return;
    setOpen(false);
    if (focusButton) button.focus();
  };
  button.addEventListener('click', () => setOpen(!isOpen()));
  menu.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape' || !isOpen()) return;
    event.preventDefault();
    close(true);
  });
  document.addEventListener('pointerdown', (event) => {
    if (isOpen() && event.target instanceof Node && !menu.contains(event.target)) close();
  });
  menu.addEventListener('focusout', (event) => {
    // Tabbing past the last item (or Shift+Tab before the button) leaves the menu: it closes.
    const to = event.relatedTarget;
    if (to instanceof Node && !menu.contains(to)) close();
  });
  return { close, button };
}

/**
 * Header logout: the confirm dialog's HTML comes from GET /auth/logout/;
 * its form POSTs there. Without JavaScript the button is a link to the same form as a page.
 */
function initLogout(menu: ReturnType<typeof initAccountMenu>) {
  const button = document.getElementById('logout-button') as HTMLAnchorElement | null;
  const dialog = document.getElementById('logout-dialog') as HTMLDialogElement | null;
  if (!button || !dialog || typeof dialog.showModal !== 'function') return;
  button.setAttribute('role', 'button');
  button.setAttribute('aria-haspopup', 'dialog');
  // The item sits in the account menu, which the dialog closed: focus returns to the menu's button.
  dialog.addEventListener('close', () => (menu?.button ?? button).focus());
  // A click on the backdrop (outside the content box) closes the dialog too.
  dialog.addEventListener('click', (event) => {
    if (event.target === dialog) dialog.close();
  });
  const open = async () => {
    try {
      const res = await fetch(button.dataset.promptUrl ?? LOGOUT_PATH, { credentials: 'same-origin', headers: { Accept: 'text/html' } });
      if (!res.ok) throw new Error(`status ${res.status}`);
      dialog.innerHTML = await res.text();
      menu?.close();
      dialog.showModal();
      (dialog.querySelector<HTMLElement>('[autofocus]') ?? dialog.querySelector<HTMLElement>('button, a'))?.focus();
    } catch {
      alert(button.dataset.error ?? "Couldn't load logout prompt!");
    }
  };
  button.addEventListener('click', (event) => {
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    void open();
  });
  button.addEventListener('keydown', (event) => {
    if (event.key === ' ') {
      event.preventDefault();
      void open();
    }
  });
}

/**
 * Whether a key press is the search shortcut: `/` with no modifier, while focus is not in a
 * place where `/` is text (a field, an editable element) and nothing else handled the key.
 */
export function isSearchShortcut(event: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'altKey' | 'defaultPrevented' | 'isComposing'>, target: Element | null): boolean {
  if (event.key !== '/' || event.ctrlKey || event.metaKey || event.altKey || event.defaultPrevented || event.isComposing) return false;
  return !target?.closest('input, textarea, select, [contenteditable]:not([contenteditable="false"])');
}

/**
 * Header search ("Search bar overlay"): without JavaScript it is a plain GET form
 * to /comics/?q=. Here the overlay opens on activation, never on focus (WCAG 3.2.1: tabbing
 * through the header must pass the field by): a click on the field, typing into it, Enter in
 * it or on its button (the form's submit), or the `/` shortcut from outside a text field. The
 * island (React, react-dom and its styles) is fetched with a dynamic import on that first open
 * only. If the import fails, the plain form keeps working.
 */
function initSearchOverlay() {
  const form = document.querySelector<HTMLFormElement>('form.header-search');
  const field = form?.querySelector<HTMLInputElement>('input[name="q"]');
  const configEl = document.getElementById('search-overlay-config');
  if (!form || !field || !configEl) return;
  let config: import('~/features/search').OverlayConfig;
  try {
    config = JSON.parse(configEl.textContent ?? '');
  } catch {
    return;
  }
  field.setAttribute('aria-haspopup', 'dialog');
  field.setAttribute('aria-keyshortcuts', '/');
  let controller: Promise<import('~/features/search').OverlayController> | null = null;
  /** `fallback` runs when the island cannot load (the submit path sends the plain form then). */
  const open = (fallback?: () => void) => {
    controller ??= loadSearchOverlay().then((m) => m.mountSearchOverlay(config));
    controller.then(
      (c) => {
        // What the reader typed while the island loaded moves into the overlay's field.
        const text = field.value;
        field.value = '';
        c.open({ text, onClose: () => field.focus({ preventScroll: true }) });
      },
      () => {
        controller = null;
        fallback?.();
      },
    );
  };
  field.addEventListener('click', () => open());
  field.addEventListener('input', () => open());
  // Enter in the field and Enter/Space/click on its button all submit the form.
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    open(() => form.submit());
  });
  document.addEventListener('keydown', (event) => {
    if (!isSearchShortcut(event, event.target instanceof Element ? event.target : null)) return;
    event.preventDefault();
    open();
  });
}

export function initHeader() {
  initSearchOverlay();
  initTheme();
  initLogout(initAccountMenu());
  initLanguageSwitch();
  initBackToTop();
}
