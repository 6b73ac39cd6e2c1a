/**
 * The reader's behaviour, plain TypeScript (no framework). The server renders every page as a
 * vertical strip; this turns it into a pager for the rtl/ltr modes, follows the scroll in
 * vertical mode, and keeps the signed page URLs fresh from the chapter manifest.
 * The input rules (keys, tap zones, swipes, clamping) live in features/reader/modes.ts.
 */
import {
  isMode,
  isPaged,
  keyAction,
  navigate,
  pageNumber,
  preloadRange,
  swipeAction,
  tapAction,
  tapZone,
  type Action,
  type Mode,
} from '~/features/reader/modes';
import { createProgressReporter } from '~/features/library';

/** Refresh the page URLs this long before they expire. */
const REFRESH_MARGIN_S = 5 * 60;

interface ManifestPage {
  href: string;
  width: number;
  height: number;
}

function expiryOf(src: string | undefined): number {
  const exp = src ? Number(new URL(src, location.href).searchParams.get('exp')) : 0;
  return Number.isFinite(exp) ? exp : 0;
}

export function initReader(root: HTMLElement | null = document.getElementById('reader')): void {
  if (!root || root.dataset.state !== 'readable' || root.dataset.ready) return;
  root.dataset.ready = '1';
  const stage = root.querySelector<HTMLElement>('#reader-stage')!;
  const pages = Array.from(stage.querySelectorAll<HTMLElement>('.reader-page'));
  const imgs = pages.map((p) => p.querySelector('img')!);
  const slots = [...pages, stage.querySelector<HTMLElement>('.reader-end')!];
  const counter = root.querySelector<HTMLElement>('#reader-counter');
  const prevBtn = root.querySelector<HTMLButtonElement>('#reader-prev-page');
  const nextBtn = root.querySelector<HTMLButtonElement>('#reader-next-page');
  const modes = root.querySelector<HTMLFieldSetElement>('#reader-modes');
  const total = pages.length;
  const template = root.dataset.counter ?? '{page} / {total}';
  const storageKey = root.dataset.storageKey ?? '';
  let mode: Mode = isMode(root.dataset.mode) ? root.dataset.mode : isMode(root.dataset.defaultMode) ? root.dataset.defaultMode : 'vertical';
  let index = 0;

  root.classList.add('is-js');
  if (modes) modes.hidden = false;
  // Paged pages fit the viewport below the site header; it can change height (wrapping, rotation).
  const measure = () => root.style.setProperty('--reader-top', `${root.offsetTop}px`);
  measure();
  addEventListener('resize', measure, { passive: true });

  const progress = createProgressReporter(root, total);
  const showCounter = () => {
    progress?.at(index);
    if (counter) counter.textContent = template.replace('{page}', String(pageNumber(index, total))).replace('{total}', String(total));
  };

  const render = () => {
    slots.forEach((s, i) => s.classList.toggle('is-current', i === index));
    for (const i of [index, ...preloadRange(index, total)]) if (imgs[i]) imgs[i]!.loading = 'eager';
    if (prevBtn) prevBtn.disabled = index <= 0;
    if (nextBtn) nextBtn.disabled = index >= total;
    showCounter();
  };

  const go = (action: Action) => {
    if (action === 'toggle') {
      root.classList.toggle('is-immersive');
      return;
    }
    if (!isPaged(mode)) return;
    const next = navigate(index, action, total);
    if (next === index) return;
    index = next;
    render();
    checkExpiry();
    // Keep the top of the page in view when the previous one was scrolled (tall pages on phones).
    if (stage.getBoundingClientRect().top < 0) stage.scrollIntoView({ block: 'start' });
  };

  const setMode = (next: Mode, persist: boolean) => {
    const from = mode;
    mode = next;
    root.dataset.mode = next;
    if (persist) {
      try {
        localStorage.setItem(storageKey, next);
      } catch { /* private mode: the choice lasts for this page only */ }
    }
    for (const input of modes?.querySelectorAll<HTMLInputElement>('input') ?? []) input.checked = input.value === next;
    if (prevBtn) prevBtn.hidden = !isPaged(next);
    if (nextBtn) nextBtn.hidden = !isPaged(next);
    if (isPaged(next)) {
      index = Math.min(index, total);
      render();
    } else {
      slots.forEach((s) => s.classList.remove('is-current'));
      showCounter();
      if (isPaged(from) && index > 0) slots[index]?.scrollIntoView({ block: 'start' });
    }
  };

  // Vertical mode: the page crossing the middle of the viewport is the current one.
  if ('IntersectionObserver' in window) {
    const seen = new IntersectionObserver(
      (entries) => {
        if (isPaged(mode)) return;
        for (const e of entries) {
          if (!e.isIntersecting) continue;
          index = Math.min(Number((e.target as HTMLElement).dataset.index), total - 1);
          showCounter();
        }
      },
      { rootMargin: '-50% 0px -50% 0px' },
    );
    pages.forEach((p) => seen.observe(p));
  }

  // A mode picked with the pointer hands the keyboard back to the pages (arrows would otherwise
  // move between the radios); picked with the keyboard, focus stays in the radio group.
  let byPointer = false;
  modes?.addEventListener('pointerdown', () => { byPointer = true; });
  modes?.addEventListener('change', (e) => {
    const value = (e.target as HTMLInputElement).value;
    if (isMode(value)) setMode(value, true);
    if (byPointer) stage.focus({ preventScroll: true });
    byPointer = false;
  });
  prevBtn?.addEventListener('click', () => go('prev'));
  nextBtn?.addEventListener('click', () => go('next'));

  document.addEventListener('keydown', (e) => {
    if (e.altKey || e.ctrlKey || e.metaKey || e.defaultPrevented) return;
    const t = e.target as HTMLElement;
    // Form fields keep their keys (arrows move between the mode radios); buttons and links keep Space.
    if (t.closest('input, textarea, select, [contenteditable="true"]')) return;
    if (e.key === ' ' && t.closest('a, button')) return;
    const action = keyAction(e.key, mode);
    if (!action) return;
    e.preventDefault();
    go(action);
  });

  stage.addEventListener('click', (e) => {
    if ((e.target as HTMLElement).closest('a, button, input, label')) return;
    const rect = stage.getBoundingClientRect();
    go(tapAction(tapZone(e.clientX - rect.left, rect.width), mode));
  });

  let touch: { x: number; y: number } | null = null;
  stage.addEventListener('touchstart', (e) => {
    const zoomed = (window.visualViewport?.scale ?? 1) > 1.01;
    touch = e.touches.length === 1 && !zoomed ? { x: e.touches[0]!.clientX, y: e.touches[0]!.clientY } : null;
  }, { passive: true });
  stage.addEventListener('touchend', (e) => {
    const t = e.changedTouches[0];
    if (!touch || !t) return;
    const action = swipeAction(t.clientX - touch.x, t.clientY - touch.y, stage.clientWidth, mode);
    touch = null;
    if (action) go(action);
  }, { passive: true });

  // Signed page URLs expire (about two hours): the manifest hands out fresh ones.
  const manifestUrl = root.dataset.manifest;
  let expiresAt = expiryOf(imgs[0]?.getAttribute('src') ?? undefined);
  let refreshing: Promise<void> | null = null;
  let lastRefresh = 0;
  const refresh = (): Promise<void> => {
    if (!manifestUrl || refreshing || Date.now() - lastRefresh < 15_000) return refreshing ?? Promise.resolve();
    lastRefresh = Date.now();
    refreshing = fetch(manifestUrl, { credentials: 'same-origin', headers: { Accept: 'application/json' } })
      .then((r) => (r.ok ? r.json() : null))
      .then((m: { readingOrder?: ManifestPage[] } | null) => {
        const order = m?.readingOrder;
        if (!order || order.length !== total) return;
        order.forEach((p, i) => {
          const img = imgs[i]!;
          // Loaded images stay as they are; the rest get the fresh URL.
          if (img.naturalWidth === 0 && img.getAttribute('src') !== p.href) img.src = p.href;
        });
        expiresAt = expiryOf(order[0]?.href);
      })
      .catch(() => { /* offline: try again on the next page turn */ })
      .finally(() => { refreshing = null; });
    return refreshing;
  };
  const checkExpiry = () => {
    if (Date.now() / 1000 > expiresAt - REFRESH_MARGIN_S) void refresh();
  };
  imgs.forEach((img) => img.addEventListener('error', () => void refresh()));
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') checkExpiry();
  });
  setInterval(checkExpiry, 60_000);
  const idle = (window as { requestIdleCallback?: (cb: () => void) => void }).requestIdleCallback ?? ((cb: () => void) => setTimeout(cb, 200));
  idle(() => void refresh());

  setMode(mode, false);
}
