/**
 * Enhances a server-rendered carousel (src/components/Carousel.astro) with keen-slider. Loaded
 * on demand by the carousel's observer, so pages pay for it only when a carousel is in view.
 *
 * What it adds: previous/next buttons, dots or thumbnails, arrow keys while focus is inside,
 * swipe/drag that changes slides only past the threshold (20 % of the width), autoplay that
 * pauses on hover, stops on focus (WAI-ARIA APG carousel) and has a pause/play button, and
 * `inert` on slides out of view so keyboard users never tab into hidden slides. With
 * prefers-reduced-motion there is no autoplay and slides change without animation.
 */
import KeenSlider, { type KeenSliderInstance, type KeenSliderPlugin } from 'keen-slider';
import { AUTOPLAY_INTERVAL_MS, SLIDE_SPACING, SWIPE_THRESHOLD, keenBreakpoints, swipeTarget, type CarouselOptions } from '~/components/carousel';

const ANIMATION_MS = 500;
const instances = new WeakMap<HTMLElement, KeenSliderInstance>();

function readOptions(root: HTMLElement): CarouselOptions | null {
  try {
    const o = JSON.parse(root.dataset.carousel ?? '') as Partial<CarouselOptions>;
    if (!o || typeof o !== 'object' || !o.perView || typeof o.perView.base !== 'number') return null;
    return {
      perView: o.perView,
      loop: o.loop === true,
      autoplay: typeof o.autoplay === 'number' && o.autoplay > 0 ? o.autoplay : 0,
      threshold: typeof o.threshold === 'number' && o.threshold > 0 && o.threshold < 1 ? o.threshold : SWIPE_THRESHOLD,
      spacing: typeof o.spacing === 'number' ? o.spacing : SLIDE_SPACING,
    };
  } catch {
    return null;
  }
}

function reducedMotion(): boolean {
  return typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches;
}

/**
 * Replaces keen-slider's velocity-based snap: a drag settles on the next slide only when it
 * covered `threshold` of the carousel's width, otherwise it springs back.
 * keen-slider's track unit is one container width, so positions compare to the threshold directly.
 */
function swipeThreshold(threshold: number, duration: () => number): KeenSliderPlugin {
  return (slider) => {
    let startIdx = 0;
    let startPos = 0;
    slider.on('dragStarted', () => {
      const d = slider.track.details;
      if (!d) return;
      startIdx = d.abs;
      startPos = d.position;
    });
    slider.on('dragEnded', () => {
      const d = slider.track.details;
      if (!d) return;
      // One slide's share of the width (spacing is a few px: small enough to leave out).
      const size = d.slides[0]?.size ?? 1;
      let target = swipeTarget(startIdx, d.position - startPos, size > 0 ? size : 1, threshold);
      if (!slider.options.loop) target = Math.min(d.maxIdx, Math.max(d.minIdx, target));
      slider.moveToIdx(target, true, { duration: duration() });
    });
  };
}

export interface EnhancedCarousel {
  slider: KeenSliderInstance;
  /** Whether autoplay is currently running (false when paused, stopped or never on). */
  playing(): boolean;
}

/** Turns one carousel root into a keen-slider carousel (idempotent). */
export function enhanceCarousel(root: HTMLElement): EnhancedCarousel | null {
  if (instances.has(root)) return null;
  const options = readOptions(root);
  const track = root.querySelector<HTMLElement>('[data-carousel-track]');
  if (!options || !track) return null;
  const slides = Array.from(track.querySelectorAll<HTMLElement>(':scope > .carousel-slide'));
  if (slides.length === 0) return null;
  const reduce = reducedMotion();
  const duration = () => (reducedMotion() ? 0 : ANIMATION_MS);

  const prev = root.querySelector<HTMLButtonElement>('[data-carousel-prev]');
  const next = root.querySelector<HTMLButtonElement>('[data-carousel-next]');
  const toggle = root.querySelector<HTMLButtonElement>('[data-carousel-toggle]');
  const controls = root.querySelector<HTMLElement>('.carousel-controls');
  const pager = root.querySelector<HTMLElement>('.carousel-pager');
  const dots = Array.from(root.querySelectorAll<HTMLButtonElement>('[data-carousel-dot]'));
  const count = root.querySelector<HTMLElement>('[data-carousel-count]');

  // Start where the reader had scrolled the no-JS row to.
  const first = slides[0]!;
  const step = slides.length > 1 ? slides[1]!.offsetLeft - first.offsetLeft : first.offsetWidth;
  const initial = step > 0 ? Math.min(slides.length - 1, Math.max(0, Math.round(track.scrollLeft / step))) : 0;
  // Without snapping first: a mandatory snap put the row back at its 2 px padding, and keen-slider
  // then drew every slide 2 px to the left, clipping the first card.
  track.style.scrollSnapType = 'none';
  track.scrollLeft = 0;

  // Autoplay state: `stopped` is the reader's choice (button or focus); hover and hidden tabs pause.
  let stopped = options.autoplay === 0 || reduce;
  let hovered = false;
  let dragging = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  // Slide (relative index) to move keyboard focus to once the current animation ends.
  let pendingFocus: number | null = null;

  const goTo = (idx: number) => slider.moveToIdx(idx, false, { duration: duration() });
  const clear = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
  };
  const running = () => options.autoplay > 0 && !stopped && !hovered && !dragging && document.visibilityState !== 'hidden';
  const schedule = () => {
    clear();
    if (!running()) return;
    timer = setTimeout(() => {
      timer = undefined;
      if (running()) slider.next();
    }, options.autoplay || AUTOPLAY_INTERVAL_MS);
  };
  const showToggle = () => {
    if (!toggle) return;
    toggle.classList.toggle('is-paused', stopped);
    toggle.setAttribute('aria-label', (stopped ? root.dataset.labelPlay : root.dataset.labelPause) ?? '');
    // Screen readers hear slide changes only when they are not automatic (APG carousel).
    track.setAttribute('aria-live', stopped ? 'polite' : 'off');
  };

  const update = (s: KeenSliderInstance) => {
    const d = s.track.details;
    if (!d) return;
    // Slides more than half out of view are inert: not focusable, hidden from assistive tech.
    const focused = document.activeElement;
    s.slides.forEach((el, i) => {
      el.toggleAttribute('data-current', i === d.rel);
      const visible = (d.slides[i]?.portion ?? 0) >= 0.5;
      // While sliding, keep the focused slide reachable: focus moves on when the animation ends.
      if (!visible && s.animator.active && focused && el.contains(focused)) return;
      el.toggleAttribute('inert', !visible);
      if (visible) el.removeAttribute('aria-hidden');
      else el.setAttribute('aria-hidden', 'true');
    });
    if (!s.options.loop) {
      if (prev) prev.disabled = d.abs <= d.minIdx;
      if (next) next.disabled = d.abs >= d.maxIdx;
      // Everything fits: no buttons or pager to offer (autoplay keeps its toggle).
      const fits = d.maxIdx <= d.minIdx;
      if (controls) controls.hidden = fits && !toggle;
      if (pager) pager.hidden = fits;
    }
    if (count) count.textContent = `${d.rel + 1} / ${slides.length}`;
    dots.forEach((dot, i) => {
      if (i === d.rel) dot.setAttribute('aria-current', 'true');
      else dot.removeAttribute('aria-current');
    });
  };

  const slider = new KeenSlider(
    track,
    {
      selector: (c: HTMLElement) => Array.from(c.children).filter((el): el is HTMLElement => el.classList.contains('carousel-slide')),
      initial,
      loop: options.loop && slides.length > 1,
      rubberband: !reduce,
      defaultAnimation: { duration: duration() },
      slides: { perView: options.perView.base, spacing: options.spacing },
      breakpoints: keenBreakpoints(options.perView, options.spacing),
      created: (s) => {
        root.classList.add('is-enhanced');
        if (controls) controls.hidden = false;
        if (pager) pager.hidden = false;
        update(s);
        schedule();
      },
      slideChanged: (s) => {
        update(s);
        schedule();
      },
      animationEnded: (s) => {
        if (pendingFocus !== null) {
          const el = s.slides[pendingFocus];
          pendingFocus = null;
          el?.removeAttribute('inert');
          el?.querySelector<HTMLElement>('a[href], button, [tabindex]:not([tabindex="-1"])')?.focus({ preventScroll: true });
        }
        update(s);
      },
      updated: update,
      optionsChanged: update,
      dragStarted: () => {
        dragging = true;
        clear();
      },
      dragEnded: () => {
        dragging = false;
        schedule();
      },
    },
    [swipeThreshold(options.threshold, duration)],
  );
  instances.set(root, slider);

  showToggle();

  prev?.addEventListener('click', () => slider.prev());
  next?.addEventListener('click', () => slider.next());
  dots.forEach((dot, i) => dot.addEventListener('click', () => goTo(i)));
  toggle?.addEventListener('click', () => {
    stopped = !stopped;
    showToggle();
    schedule();
  });

  root.addEventListener('keydown', (e) => {
    const target = e.target as HTMLElement;
    if (e.altKey || e.ctrlKey || e.metaKey || target.closest('input, textarea, select, [contenteditable="true"]')) return;
    if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return;
    e.preventDefault();
    if (e.key === 'ArrowRight') slider.next();
    else slider.prev();
    // Focus on a slide follows to the new current slide (the old one may go out of view).
    const targetIdx = slider.animator.targetIdx;
    if (target.closest('.carousel-slide') && targetIdx !== null) pendingFocus = slider.track.absToRel(targetIdx);
  });

  if (options.autoplay > 0) {
    root.addEventListener('mouseenter', () => {
      hovered = true;
      clear();
    });
    root.addEventListener('mouseleave', () => {
      hovered = false;
      schedule();
    });
    // Keyboard focus inside stops rotation until the reader starts it again (APG); a click on the
    // toggle itself is that choice, so it does not count.
    root.addEventListener('focusin', (e) => {
      const el = e.target as HTMLElement;
      if (el === toggle || stopped || !el.matches(':focus-visible')) return;
      stopped = true;
      showToggle();
      clear();
    });
    document.addEventListener('visibilitychange', schedule);
  }
  return { slider, playing: () => timer !== undefined };
}
