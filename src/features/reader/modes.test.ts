import { describe, expect, it } from 'vitest';
import {
  clampIndex,
  defaultMode,
  isMode,
  keyAction,
  modeStorageKey,
  navigate,
  pageNumber,
  preloadRange,
  progressionFor,
  resolveMode,
  swipeAction,
  tapAction,
  tapZone,
} from './modes';

describe('default mode by format', () => {
  it('scrolls webtoons, reads manga right to left and comics left to right', () => {
    expect(defaultMode('WEBTOON')).toBe('vertical');
    expect(defaultMode('MANGA')).toBe('rtl');
    expect(defaultMode('COMIC')).toBe('ltr');
  });

  it('uses a stored choice only when it is a known mode', () => {
    expect(resolveMode('ltr', 'MANGA')).toBe('ltr');
    expect(resolveMode('vertical', 'COMIC')).toBe('vertical');
    expect(resolveMode('sideways', 'MANGA')).toBe('rtl');
    expect(resolveMode(null, 'WEBTOON')).toBe('vertical');
    expect(resolveMode(undefined, 'COMIC')).toBe('ltr');
    expect(isMode('rtl')).toBe(true);
    expect(isMode('RTL')).toBe(false);
    expect(isMode(3)).toBe(false);
  });

  it('remembers the mode per format', () => {
    expect(modeStorageKey('MANGA')).not.toBe(modeStorageKey('COMIC'));
    expect(modeStorageKey('WEBTOON')).toContain('WEBTOON');
  });

  it('maps modes to Readium reading progressions', () => {
    expect(progressionFor('vertical')).toBe('ttb');
    expect(progressionFor('rtl')).toBe('rtl');
    expect(progressionFor('ltr')).toBe('ltr');
  });
});

describe('keyboard', () => {
  it('goes forward with ArrowLeft in right-to-left reading', () => {
    expect(keyAction('ArrowLeft', 'rtl')).toBe('next');
    expect(keyAction('ArrowRight', 'rtl')).toBe('prev');
  });

  it('goes forward with ArrowRight in left-to-right reading', () => {
    expect(keyAction('ArrowRight', 'ltr')).toBe('next');
    expect(keyAction('ArrowLeft', 'ltr')).toBe('prev');
  });

  it('pages with PageDown/PageUp/Space and jumps with Home/End in both directions', () => {
    for (const mode of ['rtl', 'ltr'] as const) {
      expect(keyAction('PageDown', mode)).toBe('next');
      expect(keyAction(' ', mode)).toBe('next');
      expect(keyAction('PageUp', mode)).toBe('prev');
      expect(keyAction('Home', mode)).toBe('first');
      expect(keyAction('End', mode)).toBe('last');
    }
  });

  it('leaves every key to the browser in vertical mode and ignores unrelated keys', () => {
    for (const key of ['ArrowLeft', 'ArrowRight', 'PageDown', ' ', 'Home']) expect(keyAction(key, 'vertical')).toBeNull();
    expect(keyAction('a', 'ltr')).toBeNull();
    expect(keyAction('ArrowDown', 'rtl')).toBeNull();
    expect(keyAction('Tab', 'rtl')).toBeNull();
  });
});

describe('tap zones', () => {
  it('splits the width in thirds', () => {
    expect(tapZone(0, 900)).toBe('left');
    expect(tapZone(299, 900)).toBe('left');
    expect(tapZone(300, 900)).toBe('middle');
    expect(tapZone(599, 900)).toBe('middle');
    expect(tapZone(600, 900)).toBe('right');
    expect(tapZone(900, 900)).toBe('right');
  });

  it('treats a zero-width area as the middle', () => {
    expect(tapZone(10, 0)).toBe('middle');
  });

  it('turns pages in the reading direction and toggles the toolbars in the middle', () => {
    expect(tapAction('left', 'rtl')).toBe('next');
    expect(tapAction('right', 'rtl')).toBe('prev');
    expect(tapAction('left', 'ltr')).toBe('prev');
    expect(tapAction('right', 'ltr')).toBe('next');
    expect(tapAction('middle', 'rtl')).toBe('toggle');
    expect(tapAction('middle', 'ltr')).toBe('toggle');
  });

  it('only toggles the toolbars in vertical mode', () => {
    expect(tapAction('left', 'vertical')).toBe('toggle');
    expect(tapAction('right', 'vertical')).toBe('toggle');
  });
});

describe('swipe', () => {
  const W = 400;
  it('needs 20% of the width', () => {
    expect(swipeAction(-79, 0, W, 'ltr')).toBeNull();
    expect(swipeAction(-80, 0, W, 'ltr')).toBe('next');
    expect(swipeAction(79, 0, W, 'rtl')).toBeNull();
    expect(swipeAction(80, 0, W, 'rtl')).toBe('next');
  });

  it('follows the reading direction', () => {
    expect(swipeAction(-200, 10, W, 'ltr')).toBe('next');
    expect(swipeAction(200, 10, W, 'ltr')).toBe('prev');
    expect(swipeAction(200, 10, W, 'rtl')).toBe('next');
    expect(swipeAction(-200, 10, W, 'rtl')).toBe('prev');
  });

  it('ignores mostly vertical gestures, vertical mode and a zero width', () => {
    expect(swipeAction(-100, 150, W, 'ltr')).toBeNull();
    expect(swipeAction(-200, 0, W, 'vertical')).toBeNull();
    expect(swipeAction(-200, 0, 0, 'ltr')).toBeNull();
  });
});

describe('navigation', () => {
  const total = 5; // pages 0..4, end card 5

  it('moves one page at a time', () => {
    expect(navigate(0, 'next', total)).toBe(1);
    expect(navigate(3, 'prev', total)).toBe(2);
  });

  it('shows the end card after the last page and stops there', () => {
    expect(navigate(4, 'next', total)).toBe(5);
    expect(navigate(5, 'next', total)).toBe(5);
    expect(navigate(5, 'prev', total)).toBe(4);
  });

  it('stays on the first page when going back from it', () => {
    expect(navigate(0, 'prev', total)).toBe(0);
  });

  it('jumps to the first and last page', () => {
    expect(navigate(3, 'first', total)).toBe(0);
    expect(navigate(1, 'last', total)).toBe(4);
    expect(navigate(2, 'toggle', total)).toBe(2);
  });

  it('clamps wild indexes', () => {
    expect(clampIndex(-3, total)).toBe(0);
    expect(clampIndex(99, total)).toBe(5);
    expect(clampIndex(2.7, total)).toBe(2);
    expect(clampIndex(4, 0)).toBe(0);
  });

  it('counts pages from 1 and shows the last page number on the end card', () => {
    expect(pageNumber(0, total)).toBe(1);
    expect(pageNumber(4, total)).toBe(5);
    expect(pageNumber(5, total)).toBe(5);
  });

  it('preloads the next three pages that exist', () => {
    expect(preloadRange(0, total)).toEqual([1, 2, 3]);
    expect(preloadRange(3, total)).toEqual([4]);
    expect(preloadRange(4, total)).toEqual([]);
    expect(preloadRange(0, total, 2)).toEqual([1, 2]);
  });
});
