import { describe, it, expect } from 'vitest';
import { themeCookies, scrollPosition, THEME_MAX_AGE, BACK_TO_TOP_MS, LANGUAGE_CHECK_TIMEOUT_MS } from '~/components/header.client';

describe('theme cookies', () => {
  it('store the dark choice and its inverse in lite, for 1080 days', () => {
    expect(THEME_MAX_AGE).toBe(1080 * 24 * 3600);
    const [dark, lite] = themeCookies('dark', false);
    expect(dark).toMatch(/^dark=1; Path=\/; Max-Age=93312000; SameSite=Lax$/);
    expect(lite).toMatch(/^lite=0;/);
    const [dark2, lite2] = themeCookies('light', true);
    expect(dark2).toMatch(/^dark=0;.*; Secure$/);
    expect(lite2).toMatch(/^lite=1;.*; Secure$/);
  });
});

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
