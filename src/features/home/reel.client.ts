/**
 * Series card hover reel: on devices that hover, the first hover over a grid
 * card fetches /home/reel/{e4pid}/ and adds an overlay to the cover: chapter thumbnails
 * scrolling upwards at 230 px per second, a start-reading button (first free chapter) and a
 * link to the series page. CSS shows it while the card is hovered or focused within. Touch
 * devices get nothing; with reduced motion the strip stands still. Failures are silent.
 */
import { REEL_SPEED, reelDuration } from '~/features/home/rules';
import { reelPath } from '~/lib/paths';

export interface ReelData {
  thumbnails: string[];
  start: string | null;
  link: string;
}

const cache = new Map<string, Promise<ReelData | null>>();

/** Validates the endpoint's answer (anything unexpected is treated as "no reel"). */
export function parseReel(body: unknown): ReelData | null {
  if (!body || typeof body !== 'object') return null;
  const b = body as Record<string, unknown>;
  const sameSite = (u: unknown): u is string => typeof u === 'string' && u.startsWith('/') && !u.startsWith('//');
  if (!Array.isArray(b.thumbnails) || !sameSite(b.link)) return null;
  return {
    thumbnails: b.thumbnails.filter(sameSite),
    start: sameSite(b.start) ? b.start : null,
    link: b.link,
  };
}

function load(e4pid: string): Promise<ReelData | null> {
  let p = cache.get(e4pid);
  if (!p) {
    p = fetch(reelPath(e4pid), { headers: { Accept: 'application/json' }, credentials: 'omit' })
      .then((r) => (r.ok ? r.json() : null))
      .then(parseReel)
      .catch(() => null);
    cache.set(e4pid, p);
  }
  return p;
}

function el<K extends keyof HTMLElementTagNameMap>(tag: K, className: string, attrs: Record<string, string> = {}): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  node.className = className;
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  return node;
}

/** Builds the overlay for a card (exported for tests). */
export function buildReel(card: HTMLElement, data: ReelData, labels: { start: string; series: string }, reduceMotion: boolean): HTMLElement {
  const overlay = el('div', 'sc-reel', { 'data-reel-overlay': '' });
  if (data.thumbnails.length > 0) {
    const viewport = el('div', 'sc-reel-viewport', { 'aria-hidden': 'true' });
    const strip = el('div', 'sc-reel-strip');
    // Two copies: the animation moves the strip up by one copy and starts over seamlessly.
    const copies = reduceMotion ? 1 : 2;
    for (let c = 0; c < copies; c++) {
      for (const src of data.thumbnails) strip.append(el('img', '', { src, alt: '', width: '320', height: '180', decoding: 'async' }));
    }
    viewport.append(strip);
    overlay.append(viewport);
    if (!reduceMotion) {
      const size = () => {
        const height = strip.scrollHeight / 2;
        if (height > 0) strip.style.setProperty('--reel-duration', `${reelDuration(height, REEL_SPEED).toFixed(2)}s`);
      };
      strip.querySelectorAll('img').forEach((img) => img.addEventListener('load', size, { once: true }));
      requestAnimationFrame(size);
    } else {
      overlay.classList.add('is-static');
    }
  }
  const actions = el('div', 'sc-reel-actions');
  if (data.start) {
    const start = el('a', 'btn btn-primary sc-reel-start', { href: data.start });
    start.textContent = labels.start;
    actions.append(start);
  }
  const link = el('a', 'btn sc-reel-link', { href: data.link });
  link.textContent = labels.series;
  actions.append(link);
  overlay.append(actions);
  card.append(overlay);
  card.classList.add('has-reel');
  return overlay;
}

/** Listens for the first hover over each `[data-reel]` card (only where the device can hover). */
export function initReels(doc: Document = document): void {
  if (typeof matchMedia !== 'function' || !matchMedia('(hover: hover) and (pointer: fine)').matches) return;
  const started = new WeakSet<HTMLElement>();
  doc.addEventListener('pointerover', (e) => {
    if (e.pointerType && e.pointerType !== 'mouse') return;
    const card = (e.target as Element | null)?.closest?.<HTMLElement>('[data-reel]');
    if (!card || started.has(card)) return;
    started.add(card);
    const e4pid = card.dataset.reel ?? '';
    load(e4pid).then((data) => {
      if (!data || card.querySelector('[data-reel-overlay]')) return;
      const reduce = matchMedia('(prefers-reduced-motion: reduce)').matches;
      buildReel(card, data, { start: card.dataset.reelStart ?? '', series: card.dataset.reelSeries ?? '' }, reduce);
    });
  });
}
