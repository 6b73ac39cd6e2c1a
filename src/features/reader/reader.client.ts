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
import {
  clampZoom,
  doubleTapZoom,
  DOUBLE_TAP_MS,
  isDoubleTap,
  isZoomed,
  NO_ZOOM,
  pageSrcset,
  pageValueText,
  panBy,
  resolveFit,
  viewKey,
  zoomAt,
  zoomTransform,
  ZOOM_STEP,
  type Fit,
  type Zoom,
} from '~/features/reader/view';
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
  const settings = root.querySelector<HTMLElement>('#reader-settings');
  const settingsBtn = root.querySelector<HTMLButtonElement>('#reader-settings-btn');
  const settingsPanel = root.querySelector<HTMLElement>('#reader-settings-panel');
  const settingsOpen = () => !!settingsPanel && !settingsPanel.hidden;
  const openSettings = (open: boolean) => {
    if (!settingsPanel || !settingsBtn) return;
    settingsPanel.hidden = !open;
    settingsBtn.setAttribute('aria-expanded', String(open));
  };
  const fits = root.querySelector<HTMLFieldSetElement>('#reader-fits');
  const scrubber = root.querySelector<HTMLElement>('#reader-scrubber');
  const scrub = root.querySelector<HTMLInputElement>('#reader-scrub');
  const topBar = root.querySelector<HTMLElement>('#reader-top')!;
  const bottomBar = root.querySelector<HTMLElement>('#reader-bottom')!;
  const total = pages.length;
  const template = root.dataset.counter ?? '{page} / {total}';
  const storageKey = root.dataset.storageKey ?? '';
  let mode: Mode = isMode(root.dataset.mode) ? root.dataset.mode : isMode(root.dataset.defaultMode) ? root.dataset.defaultMode : 'vertical';
  let index = 0;
  let fit: Fit = resolveFit(root.dataset.fit);
  let zoom: Zoom = NO_ZOOM;

  // The page's inline script has shown the controls already (before the first paint); a reader
  // started some other way shows them here.
  root.classList.add('is-js');
  if (modes) modes.hidden = false;
  if (settings) settings.hidden = false;
  if (scrubber) scrubber.hidden = false;
  // A paged page fills the space between the bars; they change height when they wrap or the
  // phone turns.
  const measure = () => {
    root.style.setProperty('--top-h', `${topBar.offsetHeight}px`);
    root.style.setProperty('--bottom-h', `${bottomBar.offsetHeight}px`);
  };
  measure();
  addEventListener('resize', measure, { passive: true });

  const progress = createProgressReporter(root, total);
  const showCounter = () => {
    progress?.at(index);
    const text = pageValueText(template, pageNumber(index, total), total);
    if (counter) counter.textContent = text;
    if (scrub) {
      scrub.value = String(pageNumber(index, total));
      scrub.setAttribute('aria-valuetext', text);
    }
  };

  // Zoom of the current page (paged modes): a transform on its image, clamped to its box.
  const currentImg = () => (isPaged(mode) ? imgs[index] ?? null : null);
  // The narrower copies are for a page shown at most as wide as the screen: a zoomed page, or one
  // the fit makes wider, asks for the original (the browser falls back to src without srcset).
  const fullSize = (img: HTMLImageElement) => {
    if (!img.hasAttribute('srcset')) return;
    img.removeAttribute('srcset');
    img.removeAttribute('sizes');
  };
  // A paged page at a size other than the screen's is shown wider than the copies were made for.
  const sizeCopies = () => {
    if (fit !== 'screen' && isPaged(mode)) imgs.forEach(fullSize);
  };
  const applyZoom = (next: Zoom) => {
    const img = currentImg();
    zoom = img ? clampZoom(next, img.offsetWidth, img.offsetHeight) : NO_ZOOM;
    if (img) img.style.transform = zoomTransform(zoom);
    if (img && isZoomed(zoom)) fullSize(img);
    root.classList.toggle('is-zoomed', isZoomed(zoom));
  };
  const resetZoom = () => {
    for (const img of imgs) img.style.transform = '';
    zoom = NO_ZOOM;
    root.classList.remove('is-zoomed');
  };
  /** A client point in the current image's own (untransformed) box. */
  const boxPoint = (img: HTMLImageElement, cx: number, cy: number) => {
    const r = img.getBoundingClientRect();
    return { x: cx - (r.left - zoom.x), y: cy - (r.top - zoom.y) };
  };
  const zoomTo = (scale: number, cx?: number, cy?: number) => {
    const img = currentImg();
    if (!img) return;
    const r = stage.getBoundingClientRect();
    const p = boxPoint(img, cx ?? r.left + r.width / 2, cy ?? r.top + r.height / 2);
    applyZoom(zoomAt(zoom, scale, p.x, p.y, img.offsetWidth, img.offsetHeight));
  };
  const doubleTap = (cx: number, cy: number) => {
    const img = currentImg();
    if (!img) return;
    const p = boxPoint(img, cx, cy);
    applyZoom(doubleTapZoom(zoom, p.x, p.y, img.offsetWidth, img.offsetHeight));
  };

  const setFit = (next: Fit, persist: boolean) => {
    fit = next;
    root.dataset.fit = next;
    sizeCopies();
    resetZoom();
    scrollToStart();
    for (const input of fits?.querySelectorAll<HTMLInputElement>('input') ?? []) input.checked = input.value === next;
    if (persist) {
      try {
        localStorage.setItem(root.dataset.fitKey ?? '', next);
      } catch { /* private mode: the choice lasts for this page only */ }
    }
  };

  const setImmersive = (on: boolean) => {
    root.classList.toggle('is-immersive', on);
    if (on) openSettings(false);
    // Bars that slid away keep no focus.
    if (on && (topBar.contains(document.activeElement) || bottomBar.contains(document.activeElement))) stage.focus({ preventScroll: true });
  };

  // A page wider than the area starts at the edge where reading starts (the right one in rtl).
  const scrollToStart = () => stage.scrollTo(mode === 'rtl' ? stage.scrollWidth : 0, 0);
  // The page on screen first; the next ones once it is on screen (arrived, decoded and painted),
  // so that on a slow connection they share neither its bandwidth nor the phone's CPU: it is the
  // page's largest paint. Two animation frames: the second runs after the frame that showed it.
  const afterPaint = (run: () => void) => requestAnimationFrame(() => requestAnimationFrame(run));
  const preload = (at: number) => {
    const current = imgs[at];
    const ahead = () => {
      if (index === at) for (const i of preloadRange(at, total)) if (imgs[i]) imgs[i]!.loading = 'eager';
    };
    const shown = () => {
      if (!current) return afterPaint(ahead);
      current.decode().then(() => afterPaint(ahead), () => afterPaint(ahead));
    };
    if (current) current.loading = 'eager';
    if (!current || current.complete) shown();
    else {
      current.addEventListener('load', shown, { once: true });
      current.addEventListener('error', ahead, { once: true });
    }
  };
  const render = () => {
    resetZoom();
    scrollToStart();
    slots.forEach((s, i) => s.classList.toggle('is-current', i === index));
    preload(index);
    if (prevBtn) prevBtn.disabled = index <= 0;
    if (nextBtn) nextBtn.disabled = index >= total;
    showCounter();
  };

  const go = (action: Action) => {
    if (action === 'toggle') {
      setImmersive(!root.classList.contains('is-immersive'));
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
    sizeCopies();
    if (persist) {
      try {
        localStorage.setItem(storageKey, next);
      } catch { /* private mode: the choice lasts for this page only */ }
    }
    for (const input of modes?.querySelectorAll<HTMLInputElement>('input') ?? []) input.checked = input.value === next;
    if (prevBtn) prevBtn.hidden = !isPaged(next);
    if (nextBtn) nextBtn.hidden = !isPaged(next);
    resetZoom();
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
  settingsBtn?.addEventListener('click', () => openSettings(!settingsOpen()));
  fits?.addEventListener('change', (e) => setFit(resolveFit((e.target as HTMLInputElement).value), true));
  root.querySelector('#reader-zoom-in')?.addEventListener('click', () => zoomTo(zoom.s * ZOOM_STEP));
  root.querySelector('#reader-zoom-out')?.addEventListener('click', () => zoomTo(zoom.s / ZOOM_STEP));
  root.querySelector('#reader-immersive')?.addEventListener('click', () => setImmersive(true));
  // The scrubber jumps to a page (paged modes) or scrolls it into view (vertical).
  scrub?.addEventListener('input', () => {
    const target = Math.max(0, Math.min(total - 1, Number(scrub.value) - 1));
    if (isPaged(mode)) {
      if (target === index) return;
      index = target;
      render();
      checkExpiry();
    } else {
      index = target;
      showCounter();
      pages[target]?.scrollIntoView({ block: 'start' });
    }
  });

  document.addEventListener('keydown', (e) => {
    if (e.altKey || e.ctrlKey || e.metaKey || e.defaultPrevented) return;
    // Escape closes the settings first, and gives focus back to their button.
    if (e.key === 'Escape' && settingsOpen()) {
      openSettings(false);
      settingsBtn?.focus();
      return;
    }
    const t = e.target as HTMLElement;
    // Form fields keep their keys (arrows move between the mode radios); buttons and links keep Space.
    if (t.closest('input, textarea, select, [contenteditable="true"]')) return;
    if (e.key === ' ' && t.closest('a, button')) return;
    const view = viewKey(e.key);
    if (view === 'immersive' || (view === 'leaveImmersive' && root.classList.contains('is-immersive'))) {
      e.preventDefault();
      setImmersive(view === 'immersive' && !root.classList.contains('is-immersive'));
      return;
    }
    if (view && view !== 'leaveImmersive' && currentImg()) {
      e.preventDefault();
      zoomTo(view === 'zoomIn' ? zoom.s * ZOOM_STEP : view === 'zoomOut' ? zoom.s / ZOOM_STEP : 1);
      return;
    }
    const action = keyAction(e.key, mode);
    if (!action) return;
    e.preventDefault();
    go(action);
  });

  // Taps and clicks. A tap waits DOUBLE_TAP_MS for a second one: two on the same spot zoom
  // (or unzoom) the page instead of turning it twice. While zoomed a single tap does nothing but
  // the bars (the middle), so panning never turns a page.
  let lastTap: { x: number; y: number; t: number } | null = null;
  let pendingTap: ReturnType<typeof setTimeout> | null = null;
  const tap = (cx: number, cy: number) => {
    // A tap beside the open settings closes them, and does nothing else.
    if (settingsOpen()) {
      openSettings(false);
      return;
    }
    const now = performance.now();
    if (isPaged(mode) && isDoubleTap(lastTap, cx, cy, now)) {
      if (pendingTap) clearTimeout(pendingTap);
      pendingTap = null;
      lastTap = null;
      doubleTap(cx, cy);
      return;
    }
    if (pendingTap) {
      // A second tap elsewhere: the first one acts now.
      clearTimeout(pendingTap);
      flush();
    }
    lastTap = { x: cx, y: cy, t: now };
    const rect = stage.getBoundingClientRect();
    const action = tapAction(tapZone(cx - rect.left, rect.width), mode);
    const act = () => {
      pendingTap = null;
      if (action === 'toggle' || !isZoomed(zoom)) go(action);
    };
    flush = act;
    // Vertical mode has no double tap here (the browser zooms the strip): act at once.
    if (!isPaged(mode)) act();
    else pendingTap = setTimeout(act, DOUBLE_TAP_MS);
  };
  let flush: () => void = () => {};
  const ignored = (t: EventTarget | null) => !!(t as HTMLElement | null)?.closest?.('a, button, input, label, form');

  stage.addEventListener('click', (e) => {
    if (ignored(e.target)) return;
    if (dragged) {
      dragged = false;
      return;
    }
    tap(e.clientX, e.clientY);
  });

  // Desktop: ctrl + wheel zooms around the pointer; dragging a zoomed page pans it.
  stage.addEventListener('wheel', (e) => {
    if (!e.ctrlKey || !currentImg()) return;
    e.preventDefault();
    zoomTo(e.deltaY < 0 ? zoom.s * ZOOM_STEP : zoom.s / ZOOM_STEP, e.clientX, e.clientY);
  }, { passive: false });
  let drag: { x: number; y: number; id: number } | null = null;
  let dragged = false;
  stage.addEventListener('pointerdown', (e) => {
    if (e.pointerType !== 'mouse' || !isZoomed(zoom) || ignored(e.target)) return;
    drag = { x: e.clientX, y: e.clientY, id: e.pointerId };
    dragged = false;
  });
  stage.addEventListener('pointermove', (e) => {
    if (!drag || e.pointerId !== drag.id) return;
    const img = currentImg();
    if (!img) return;
    const dx = e.clientX - drag.x;
    const dy = e.clientY - drag.y;
    if (Math.abs(dx) + Math.abs(dy) > 3) dragged = true;
    drag = { ...drag, x: e.clientX, y: e.clientY };
    applyZoom(panBy(zoom, dx, dy, img.offsetWidth, img.offsetHeight));
  });
  const endDrag = () => { drag = null; };
  stage.addEventListener('pointerup', endDrag);
  stage.addEventListener('pointercancel', endDrag);

  // Touch: one finger swipes (unzoomed) or pans (zoomed); two fingers pinch. Handled here in
  // full, so a tap's own click is cancelled (no tap counted twice).
  let touch: { x: number; y: number; lx: number; ly: number; moved: boolean } | null = null;
  let pinch: { d: number; s: number } | null = null;
  const distance = (t: TouchList) => Math.hypot(t[0]!.clientX - t[1]!.clientX, t[0]!.clientY - t[1]!.clientY);
  stage.addEventListener('touchstart', (e) => {
    if (ignored(e.target)) return;
    const pageZoomed = (window.visualViewport?.scale ?? 1) > 1.01;
    if (e.touches.length === 2 && currentImg() && !pageZoomed) {
      pinch = { d: distance(e.touches), s: zoom.s };
      touch = null;
      return;
    }
    const t0 = e.touches[0];
    touch = e.touches.length === 1 && t0 && !pageZoomed ? { x: t0.clientX, y: t0.clientY, lx: t0.clientX, ly: t0.clientY, moved: false } : null;
  }, { passive: true });
  stage.addEventListener('touchmove', (e) => {
    const img = currentImg();
    if (pinch && e.touches.length === 2 && img) {
      if (e.cancelable) e.preventDefault();
      const r0 = e.touches[0]!;
      const r1 = e.touches[1]!;
      const p = boxPoint(img, (r0.clientX + r1.clientX) / 2, (r0.clientY + r1.clientY) / 2);
      applyZoom(zoomAt(zoom, pinch.s * (distance(e.touches) / pinch.d), p.x, p.y, img.offsetWidth, img.offsetHeight));
      return;
    }
    const t = e.touches[0];
    if (!touch || !t) return;
    if (Math.hypot(t.clientX - touch.x, t.clientY - touch.y) > 10) touch.moved = true;
    if (isZoomed(zoom) && img) {
      if (e.cancelable) e.preventDefault();
      applyZoom(panBy(zoom, t.clientX - touch.lx, t.clientY - touch.ly, img.offsetWidth, img.offsetHeight));
    }
    touch.lx = t.clientX;
    touch.ly = t.clientY;
  }, { passive: false });
  stage.addEventListener('touchend', (e) => {
    if (pinch) {
      if (e.touches.length === 0) pinch = null;
      if (e.cancelable) e.preventDefault();
      return;
    }
    const t = e.changedTouches[0];
    if (!touch || !t) return;
    const start = touch;
    touch = null;
    const dx = t.clientX - start.x;
    const dy = t.clientY - start.y;
    if (!start.moved && Math.hypot(dx, dy) <= 10) {
      if (e.cancelable) e.preventDefault();
      tap(t.clientX, t.clientY);
      return;
    }
    // No page turn while zoomed, nor while the page is wider than the area (that swipe scrolls it).
    if (isZoomed(zoom) || stage.scrollWidth > stage.clientWidth + 1) return;
    const action = swipeAction(dx, dy, stage.clientWidth, mode);
    if (action) go(action);
  }, { passive: false });

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
          if (img.naturalWidth === 0 && img.getAttribute('src') !== p.href) {
            if (img.hasAttribute('srcset')) img.srcset = pageSrcset(p.href, p.width) ?? '';
            img.src = p.href;
          }
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

  setFit(fit, false);
  setMode(mode, false);
}
