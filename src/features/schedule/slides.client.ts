/**
 * Campaign slide rotation (CampaignSlides.astro), following the WAI-ARIA APG carousel: one slide
 * shown at a time, previous/next and pause buttons, auto-advance every `data-interval` ms that
 * pauses while the pointer is over the carousel or focus is inside it, and no auto-advance at
 * all when the reader prefers reduced motion. While it rotates the slides are `aria-live="off"`;
 * when paused, `polite`, so a screen reader hears the slide the reader moves to.
 */
export function initSlides() {
  for (const root of document.querySelectorAll<HTMLElement>('[data-slides]')) {
    if (root.dataset.enhanced) continue;
    root.dataset.enhanced = '1';
    const track = root.querySelector<HTMLElement>('[data-track]');
    const slides = [...root.querySelectorAll<HTMLElement>('[data-slide]')];
    const controls = root.querySelector<HTMLElement>('[data-controls]');
    const pauseButton = root.querySelector<HTMLButtonElement>('[data-pause]');
    if (!track || !controls || slides.length === 0) continue;
    const reduce = matchMedia('(prefers-reduced-motion: reduce)');
    const interval = Math.max(2000, Number(root.dataset.interval) || 5000);
    let index = 0;
    let timer: ReturnType<typeof setInterval> | undefined;
    // Paused by the button (stays paused) or by hover/focus (resumes when they end).
    let userPaused = reduce.matches;
    let hovered = false;
    let focused = false;

    const show = (i: number) => {
      index = (i + slides.length) % slides.length;
      slides.forEach((s, n) => { s.hidden = n !== index; });
    };
    const rotating = () => slides.length > 1 && !userPaused && !hovered && !focused;
    const sync = () => {
      clearInterval(timer);
      timer = undefined;
      if (rotating()) timer = setInterval(() => show(index + 1), interval);
      track.setAttribute('aria-live', rotating() ? 'off' : 'polite');
      root.dataset.paused = String(userPaused);
      if (pauseButton) {
        pauseButton.setAttribute('aria-label', (userPaused ? pauseButton.dataset.labelPlay : pauseButton.dataset.labelPause) ?? '');
        pauseButton.setAttribute('aria-pressed', String(userPaused));
      }
    };

    root.classList.add('is-rotating');
    controls.hidden = slides.length < 2;
    show(0);
    root.querySelector('[data-prev]')?.addEventListener('click', () => show(index - 1));
    root.querySelector('[data-next]')?.addEventListener('click', () => show(index + 1));
    pauseButton?.addEventListener('click', () => { userPaused = !userPaused; sync(); });
    root.addEventListener('mouseenter', () => { hovered = true; sync(); });
    root.addEventListener('mouseleave', () => { hovered = false; sync(); });
    root.addEventListener('focusin', () => { focused = true; sync(); });
    root.addEventListener('focusout', (e) => {
      if (!root.contains(e.relatedTarget as Node | null)) { focused = false; sync(); }
    });
    reduce.addEventListener?.('change', () => { if (reduce.matches) userPaused = true; sync(); });
    sync();
  }
}
