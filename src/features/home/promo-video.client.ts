/**
 * Promotional videos (ANIMATION, VIDEO visuals) in the home hero: the server renders them with
 * controls, a poster and preload="none" (enough without JavaScript). Here the controls give way
 * to one play/pause button, and a video plays, muted and looping, while it is on screen, unless
 * the reader prefers reduced motion (then it waits for the button). A video the reader paused
 * stays paused. WCAG 2.2.2: anything that moves by itself for over five seconds can be paused.
 */
export function initPromoVideos(root: ParentNode = document): void {
  const reduce = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
  for (const video of root.querySelectorAll<HTMLVideoElement>('video[data-promo-video]:not([data-ready])')) {
    const button = video.parentElement?.querySelector<HTMLButtonElement>('[data-promo-toggle]');
    if (!button) continue;
    video.dataset.ready = '';
    video.controls = false;
    button.hidden = false;
    let chosen = reduce ? 'paused' : 'auto';
    const show = () => {
      const playing = !video.paused;
      button.setAttribute('aria-label', (playing ? button.dataset.pause : button.dataset.play) ?? '');
      button.setAttribute('aria-pressed', String(playing));
      button.classList.toggle('is-playing', playing);
    };
    const play = () => video.play().catch(() => show());
    video.addEventListener('play', show);
    video.addEventListener('pause', show);
    // The press acts on what the button showed the reader, not on `video.paused` at that instant:
    // an automatic pause (the slide sliding under the pointer) can land between the press and the
    // click, and a "Pause" press must never start the video.
    button.addEventListener('click', () => {
      if (button.getAttribute('aria-pressed') !== 'true') {
        chosen = 'playing';
        void play();
      } else {
        chosen = 'paused';
        video.pause();
      }
    });
    show();
    // Plays while on screen (a hidden slide is off screen): no bytes for slides nobody sees.
    new IntersectionObserver((entries) => {
      for (const e of entries) {
        if (e.isIntersecting && e.intersectionRatio >= 0.5 && chosen !== 'paused') void play();
        else if (!e.isIntersecting || e.intersectionRatio < 0.5) video.pause();
      }
    }, { threshold: [0, 0.5] }).observe(video);
  }
}
