import { describe, it, expect } from 'vitest';
import { scrollPosition, BACK_TO_TOP_MS, LANGUAGE_CHECK_TIMEOUT_MS } from './header.client';

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
