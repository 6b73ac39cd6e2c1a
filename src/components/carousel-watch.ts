/**
 * Loads the carousel code (and keen-slider) only when a carousel comes near the viewport. Runs for
 * the page (Carousel.astro's script) and again for HTML swapped in later (the home page's
 * deferred blocks, src/components/home-fragments.client.ts); a carousel is watched once.
 */
export function watchCarousels(scope: ParentNode): void {
  const roots = [...scope.querySelectorAll<HTMLElement>('[data-carousel]')].filter((r) => !r.dataset.carouselWatched);
  if (roots.length === 0) return;
  for (const r of roots) r.dataset.carouselWatched = '1';
  const enhance = (root: HTMLElement) => {
    // Each carousel in a task of its own (a message to ourselves, which no timer throttles): the
    // ones coming into view together on the home page's first screen held a slow phone's main
    // thread in one long task.
    import('~/components/carousel.client')
      .then((m) => new Promise<typeof m>((resolve) => {
        const channel = new MessageChannel();
        channel.port1.onmessage = () => resolve(m);
        channel.port2.postMessage(null);
      }))
      .then((m) => m.enhanceCarousel(root))
      .catch(() => { /* the scrollable row keeps working */ });
  };
  if ('IntersectionObserver' in window) {
    const io = new IntersectionObserver((entries) => {
      for (const e of entries) {
        if (!e.isIntersecting) continue;
        io.unobserve(e.target);
        enhance(e.target as HTMLElement);
      }
    }, { rootMargin: '200px 0px' });
    roots.forEach((r) => io.observe(r));
  } else {
    roots.forEach(enhance);
  }
}
