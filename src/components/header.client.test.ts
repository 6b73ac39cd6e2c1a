import { describe, it, expect } from 'vitest';
import { scrollPosition, isSearchShortcut, BACK_TO_TOP_MS, LANGUAGE_CHECK_TIMEOUT_MS } from './header.client';

describe('back to top', () => {
  it('takes 1000 ms, starting where the page is and ending at the top', () => {
    expect(BACK_TO_TOP_MS).toBe(1000);
    expect(scrollPosition(2400, 0)).toBe(2400);
    expect(scrollPosition(2400, 1000)).toBe(0);
    expect(scrollPosition(2400, 5000)).toBe(0);
    expect(scrollPosition(2400, 500)).toBe(1200);
  });
  it('only ever moves up', () => {
    let last = Infinity;
    for (let t = 0; t <= 1000; t += 50) {
      const y = scrollPosition(3000, t);
      expect(y).toBeLessThanOrEqual(last);
      last = y;
    }
  });
});

it('the language switch waits at most 3 s for the other site', () => {
  expect(LANGUAGE_CHECK_TIMEOUT_MS).toBe(3000);
});

describe('search shortcut', () => {
  const key = (k: string, extra: Partial<KeyboardEvent> = {}) => ({ key: k, ctrlKey: false, metaKey: false, altKey: false, defaultPrevented: false, isComposing: false, ...extra });
  // An element stub: `closest` matches when the element is a text field.
  const el = (textField: boolean) => ({ closest: () => (textField ? {} : null) }) as unknown as Element;
  it('is `/` with no modifier outside text fields', () => {
    expect(isSearchShortcut(key('/'), el(false))).toBe(true);
    expect(isSearchShortcut(key('/'), null)).toBe(true);
  });
  it('is not `/` typed into a field, with a modifier, already handled, or another key', () => {
    expect(isSearchShortcut(key('/'), el(true))).toBe(false);
    expect(isSearchShortcut(key('/', { ctrlKey: true }), el(false))).toBe(false);
    expect(isSearchShortcut(key('/', { defaultPrevented: true }), el(false))).toBe(false);
    expect(isSearchShortcut(key('s'), el(false))).toBe(false);
  });
});
