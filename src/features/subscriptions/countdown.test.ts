import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { countdownParts } from './countdown';

const NOW = Date.parse('2026-07-31T12:00:00Z');

describe('the Pix countdown', () => {
  it.each([
    [30 * 60_000, false, 30, 0, '30:00'],
    [30 * 60_000 - 1, false, 30, 0, '30:00'], // 29:59.999 rounds up
    [29 * 60_000 + 59_000, false, 29, 59, '29:59'],
    [61_000, false, 1, 1, '01:01'],
    [60_000, false, 1, 0, '01:00'],
    [59_001, false, 1, 0, '01:00'],
    [59_000, false, 0, 59, '00:59'],
    [1_000, false, 0, 1, '00:01'],
    [1, false, 0, 1, '00:01'], // the last millisecond still shows a second
    [0, true, 0, 0, '00:00'],
    [-1, true, 0, 0, '00:00'],
    [-3_600_000, true, 0, 0, '00:00'], // long gone: never negative
    [100 * 60_000, false, 100, 0, '100:00'],
    [24 * 3_600_000, false, 1440, 0, '1440:00'],
  ])('%i ms before the expiry shows expired %s, %i min %i s, %j', (left, expired, minutes, seconds, text) => {
    expect(countdownParts(NOW + left, NOW)).toEqual({ expired, minutes, seconds, text });
  });

  it('counts an unreadable expiry as expired', () => {
    expect(countdownParts(Number.NaN, NOW)).toEqual({ expired: true, minutes: 0, seconds: 0, text: '00:00' });
    expect(countdownParts(Date.parse('not a date'), NOW).expired).toBe(true);
  });

  it('goes down one second a second, the same for ticks that fire late', () => {
    const expires = NOW + 5_000;
    const shown = [0, 1_000, 2_000, 3_000, 4_000, 5_000].map((ms) => countdownParts(expires, NOW + ms).text);
    expect(shown).toEqual(['00:05', '00:04', '00:03', '00:02', '00:01', '00:00']);
    const late = [0, 1_020, 2_400, 3_004, 4_999, 5_000].map((ms) => countdownParts(expires, NOW + ms).text);
    expect(late).toEqual(shown);
  });

  it('is never negative, rounds up, and is expired exactly when nothing is left', () => {
    fc.assert(fc.property(fc.integer({ min: -10 * 86_400_000, max: 10 * 86_400_000 }), (left) => {
      const p = countdownParts(NOW + left, NOW);
      expect(p.minutes).toBeGreaterThanOrEqual(0);
      expect(p.seconds).toBeGreaterThanOrEqual(0);
      expect(p.seconds).toBeLessThan(60);
      expect(p.expired).toBe(left <= 0);
      expect(p.minutes * 60 + p.seconds).toBe(left <= 0 ? 0 : Math.ceil(left / 1000));
      expect(p.text).toMatch(/^\d{2,}:\d{2}$/);
      expect(p.text).toBe(`${String(p.minutes).padStart(2, '0')}:${String(p.seconds).padStart(2, '0')}`);
    }));
  });
});
