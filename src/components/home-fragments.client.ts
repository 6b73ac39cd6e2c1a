/**
 * The home page's later blocks (src/components/home-blocks.ts): each placeholder is a link until
 * the reader comes within a few screens of it, then its fragment replaces it and the carousels
 * in it are watched like the page's own. A fragment that fails leaves the link in place.
 * Styles are deduplicated by their text: fragments arrive in any order, each with the same sheet.
 */
import { watchCarousels } from '~/components/carousel-watch';
import { initLatestRefresh } from '~/features/schedule';

/** How far ahead of the screen a block starts loading: a fast flick should not outrun it. */
const AHEAD = '1500px 0px';

const seenStyles = new Set<string>();

async function load(box: HTMLElement): Promise<void> {
  const src = box.dataset.src;
  if (!src || box.dataset.loading) return;
  box.dataset.loading = '1';
  try {
    const res = await fetch(src, { credentials: 'same-origin', headers: { accept: 'text/html' } });
    if (!res.ok) throw new Error(String(res.status));
    const tpl = document.createElement('template');
    tpl.innerHTML = await res.text();
    // Every fragment carries the later blocks' stylesheet (the first document does not): keep one copy.
    for (const style of tpl.content.querySelectorAll('style')) {
      const css = style.textContent ?? '';
      if (seenStyles.has(css)) style.remove();
      else seenStyles.add(css);
    }
    box.replaceWith(tpl.content);
    // Carousels already watched are skipped; the new ones load their script as they come into view.
    watchCarousels(document);
    if (box.dataset.homeBlock === 'latest') initLatestRefresh();
  } catch {
    delete box.dataset.loading;
    box.classList.add('is-link');
  }
}

export function loadHomeFragments(): void {
  const boxes = [...document.querySelectorAll<HTMLElement>('[data-home-block]')];
  if (boxes.length === 0) return;
  if (!('IntersectionObserver' in window)) {
    boxes.forEach((b) => void load(b));
    return;
  }
  const io = new IntersectionObserver((entries) => {
    for (const e of entries) {
      if (!e.isIntersecting) continue;
      io.unobserve(e.target);
      void load(e.target as HTMLElement);
    }
  }, { rootMargin: AHEAD });
  boxes.forEach((b) => io.observe(b));
}
