import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { addMonths, graceEnd, nextPeriod, periodEnd, planMonth, trialEnd } from './periods';

const DAY = 86_400;
/** Unix seconds of an ISO time in UTC. */
const t = (iso: string) => Date.parse(`${iso}Z`) / 1000;
/** An instant back as ISO text, to read failures easily. */
const iso = (at: number) => new Date(at * 1000).toISOString().replace('.000Z', '');
/** Seconds since midnight, before the epoch too. */
const timeOfDay = (at: number) => ((at % DAY) + DAY) % DAY;

describe('adding months', () => {
  it.each([
    ['2026-01-15T08:00:00', 1, '2026-02-15T08:00:00'],
    ['2026-01-31T10:30:15', 1, '2026-02-28T10:30:15'],
    ['2028-01-31T10:30:15', 1, '2028-02-29T10:30:15'], // leap year
    ['2026-01-29T00:00:00', 1, '2026-02-28T00:00:00'],
    ['2026-03-31T23:59:59', 1, '2026-04-30T23:59:59'],
    ['2026-08-31T12:00:00', 1, '2026-09-30T12:00:00'],
    ['2028-02-29T06:00:00', 12, '2029-02-28T06:00:00'],
    ['2028-02-29T06:00:00', 48, '2032-02-29T06:00:00'],
    ['2028-02-29T06:00:00', 1, '2028-03-29T06:00:00'],
    ['2100-01-31T00:00:00', 1, '2100-02-28T00:00:00'], // 2100 is not a leap year
    ['2000-01-31T00:00:00', 1, '2000-02-29T00:00:00'], // 2000 is
    // Year ends.
    ['2026-12-15T20:00:00', 1, '2027-01-15T20:00:00'],
    ['2026-12-31T23:59:59', 2, '2027-02-28T23:59:59'],
    ['2026-10-31T01:02:03', 13, '2027-11-30T01:02:03'],
    ['2026-11-30T00:00:00', 25, '2028-12-30T00:00:00'],
    // Backwards and nowhere.
    ['2026-03-31T10:00:00', -1, '2026-02-28T10:00:00'],
    ['2026-01-31T10:00:00', -1, '2025-12-31T10:00:00'],
    ['2028-03-30T10:00:00', -1, '2028-02-29T10:00:00'],
    ['2026-05-17T10:00:00', 0, '2026-05-17T10:00:00'],
    ['1969-12-31T23:00:00', 1, '1970-01-31T23:00:00'], // before the epoch: negative seconds
  ])('%s + %i months is %s', (from, n, to) => {
    expect(iso(addMonths(t(from), n))).toBe(to);
  });

  it('keeps a fraction of a second', () => {
    expect(addMonths(t('2026-01-31T10:00:00') + 0.25, 1)).toBe(t('2026-02-28T10:00:00') + 0.25);
  });

  it('refuses a fractional month and an instant that is not a number', () => {
    expect(() => addMonths(t('2026-01-31T10:00:00'), 1.5)).toThrow(RangeError);
    expect(() => addMonths(Number.NaN, 1)).toThrow(RangeError);
  });

  it('is not additive across a short month, which is why periods count from the anchor', () => {
    const jan31 = t('2026-01-31T10:00:00');
    expect(iso(addMonths(addMonths(jan31, 1), 1))).toBe('2026-03-28T10:00:00');
    expect(iso(addMonths(jan31, 2))).toBe('2026-03-31T10:00:00');
  });

  it('keeps the time of day and the day of month, or the month\'s last day', () => {
    fc.assert(fc.property(fc.integer({ min: t('1970-01-01T00:00:00'), max: t('2200-12-31T23:59:59') }), fc.integer({ min: -240, max: 240 }), (at, n) => {
      const from = new Date(at * 1000);
      const to = new Date(addMonths(at, n) * 1000);
      expect(timeOfDay(addMonths(at, n))).toBe(timeOfDay(at));
      const months = from.getUTCFullYear() * 12 + from.getUTCMonth() + n;
      expect(to.getUTCFullYear() * 12 + to.getUTCMonth()).toBe(months);
      const lastDay = new Date(Date.UTC(Math.floor(months / 12), (months % 12) + 1, 0)).getUTCDate();
      expect(to.getUTCDate()).toBe(Math.min(from.getUTCDate(), lastDay));
    }));
  });
});

describe('periods', () => {
  it('last a month by default, or the months asked', () => {
    const start = t('2026-01-31T10:00:00');
    expect(iso(periodEnd(start))).toBe('2026-02-28T10:00:00');
    expect(iso(periodEnd(start, 3))).toBe('2026-04-30T10:00:00');
    expect(iso(periodEnd(start, 12))).toBe('2027-01-31T10:00:00');
  });

  it('count from the anchor: Jan 31 → Feb 28 → Mar 31, not Mar 28', () => {
    const anchor = t('2026-01-31T10:00:00');
    const ends = [0, 1, 2, 3, 4].map((k) => nextPeriod(anchor, k)).map((p) => [iso(p.start), iso(p.end)]);
    expect(ends).toEqual([
      ['2026-01-31T10:00:00', '2026-02-28T10:00:00'],
      ['2026-02-28T10:00:00', '2026-03-31T10:00:00'],
      ['2026-03-31T10:00:00', '2026-04-30T10:00:00'],
      ['2026-04-30T10:00:00', '2026-05-31T10:00:00'],
      ['2026-05-31T10:00:00', '2026-06-30T10:00:00'],
    ]);
  });

  it('from a leap day come back to Feb 29 only in leap years', () => {
    const anchor = t('2028-02-29T06:00:00');
    expect(iso(nextPeriod(anchor, 0).end)).toBe('2028-03-29T06:00:00');
    expect([iso(nextPeriod(anchor, 11).end), iso(nextPeriod(anchor, 12).end)]).toEqual(['2029-02-28T06:00:00', '2029-03-29T06:00:00']);
    expect(iso(nextPeriod(anchor, 48).start)).toBe('2032-02-29T06:00:00');
  });

  it('cross the year end', () => {
    const anchor = t('2026-12-31T23:30:00');
    expect(nextPeriod(anchor, 0)).toEqual({ start: anchor, end: t('2027-01-31T23:30:00') });
    expect(nextPeriod(anchor, 1)).toEqual({ start: t('2027-01-31T23:30:00'), end: t('2027-02-28T23:30:00') });
    expect(nextPeriod(anchor, 12)).toEqual({ start: t('2027-12-31T23:30:00'), end: t('2028-01-31T23:30:00') });
  });

  it('take a whole, non-negative index', () => {
    expect(() => nextPeriod(0, -1)).toThrow(RangeError);
    expect(() => nextPeriod(0, 0.5)).toThrow(RangeError);
  });

  it('are contiguous and strictly increasing, each 28 to 31 whole days long', () => {
    fc.assert(fc.property(fc.integer({ min: t('1970-01-01T00:00:00'), max: t('2200-12-31T23:59:59') }), fc.nat(1200), (anchor, k) => {
      const p = nextPeriod(anchor, k);
      const q = nextPeriod(anchor, k + 1);
      expect(p.end).toBe(q.start);
      expect(p.start).toBeLessThan(p.end);
      expect(q.start).toBeLessThan(q.end);
      for (const { start, end } of [p, q]) {
        expect((end - start) % DAY).toBe(0);
        expect((end - start) / DAY).toBeGreaterThanOrEqual(28);
        expect((end - start) / DAY).toBeLessThanOrEqual(31);
      }
      expect(p.start).toBe(k === 0 ? anchor : nextPeriod(anchor, k - 1).end);
    }));
  });
});

describe('trials and grace', () => {
  it('add whole days', () => {
    expect(iso(trialEnd(t('2026-12-28T15:00:00'), 7))).toBe('2027-01-04T15:00:00');
    expect(iso(trialEnd(t('2028-02-25T15:00:00'), 7))).toBe('2028-03-03T15:00:00'); // over Feb 29
    expect(trialEnd(t('2026-05-01T00:00:00'), 0)).toBe(t('2026-05-01T00:00:00'));
    expect(iso(graceEnd(t('2026-02-28T10:00:00'), 3))).toBe('2026-03-03T10:00:00');
    expect(iso(graceEnd(t('2028-02-28T10:00:00'), 3))).toBe('2028-03-02T10:00:00');
    expect(graceEnd(t('2026-02-28T10:00:00'), 0)).toBe(t('2026-02-28T10:00:00'));
  });

  it('refuse negative and fractional days', () => {
    expect(() => trialEnd(0, -1)).toThrow(RangeError);
    expect(() => trialEnd(0, 1.5)).toThrow(RangeError);
    expect(() => graceEnd(0, -3)).toThrow(RangeError);
  });
});

describe('the plan month', () => {
  const anchor = t('2026-01-31T10:00:00');

  it.each([
    ['2026-01-31T10:00:00', '2026-01-31T10:00:00', '2026-02-28T10:00:00'],
    ['2026-02-28T09:59:59', '2026-01-31T10:00:00', '2026-02-28T10:00:00'],
    ['2026-02-28T10:00:00', '2026-02-28T10:00:00', '2026-03-31T10:00:00'],
    ['2026-03-30T12:00:00', '2026-02-28T10:00:00', '2026-03-31T10:00:00'],
    ['2026-03-31T09:00:00', '2026-02-28T10:00:00', '2026-03-31T10:00:00'],
    ['2026-03-31T10:00:00', '2026-03-31T10:00:00', '2026-04-30T10:00:00'],
    ['2026-12-31T23:59:59', '2026-12-31T10:00:00', '2027-01-31T10:00:00'],
    ['2028-02-29T12:00:00', '2028-02-29T10:00:00', '2028-03-31T10:00:00'],
    // Before the anchor (a clock behind the server's): still a month around now.
    ['2026-01-31T09:00:00', '2025-12-31T10:00:00', '2026-01-31T10:00:00'],
  ])('at %s is %s to %s', (now, start, end) => {
    expect(planMonth(anchor, t(now))).toEqual({ start: t(start), end: t(end) });
  });

  it('contains now and is one of the billing periods', () => {
    fc.assert(fc.property(fc.integer({ min: t('1970-01-01T00:00:00'), max: t('2100-12-31T23:59:59') }), fc.integer({ min: 0, max: 100 * 366 * DAY }), (anchor, later) => {
      const now = anchor + later;
      const month = planMonth(anchor, now);
      expect(month.start).toBeLessThanOrEqual(now);
      expect(now).toBeLessThan(month.end);
      const from = new Date(anchor * 1000);
      const to = new Date(month.start * 1000);
      const k = (to.getUTCFullYear() - from.getUTCFullYear()) * 12 + to.getUTCMonth() - from.getUTCMonth();
      expect(month).toEqual(nextPeriod(anchor, k));
    }));
  });
});
