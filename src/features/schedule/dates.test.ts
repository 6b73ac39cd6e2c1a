import { describe, expect, it } from 'vitest';
import { SITES } from '~/lib/site';
import { bucket, displayZone, isReleased, periodIndex, scheduleDays, scheduleMonths, span, todayIndex } from './dates';

const SP = 'America/Sao_Paulo';
const utc = (iso: string) => Date.parse(iso) / 1000;

describe('page variant: 7 days from yesterday', () => {
  it('lists yesterday through 5 days ahead with today second', () => {
    const now = utc('2026-11-21T12:00:00Z');
    const days = scheduleDays(now, 'UTC', 'page');
    expect(days.map((d) => d.key)).toEqual(['2026-11-20', '2026-11-21', '2026-11-22', '2026-11-23', '2026-11-24', '2026-11-25', '2026-11-26']);
    expect(todayIndex(days)).toBe(1);
    expect(days.map((d) => d.today)).toEqual([false, true, false, false, false, false, false]);
    expect(days[0]!.past).toBe(true);
    expect(days[1]!.past).toBe(false);
    // Consecutive, gap-free, 24 h each in UTC.
    for (let i = 1; i < days.length; i++) expect(days[i]!.start).toBe(days[i - 1]!.end);
    expect(days.every((d) => d.end - d.start === 86_400)).toBe(true);
  });

  it('moves to the next São Paulo day exactly at 03:00Z', () => {
    const before = scheduleDays(utc('2026-11-21T02:59:59Z'), SP, 'page');
    const after = scheduleDays(utc('2026-11-21T03:00:00Z'), SP, 'page');
    expect(before[1]!.key).toBe('2026-11-20');
    expect(before[0]!.key).toBe('2026-11-19');
    expect(after[1]!.key).toBe('2026-11-21');
    expect(after[0]!.key).toBe('2026-11-20');
    expect(after[1]!.start).toBe(utc('2026-11-21T03:00:00Z'));
    expect(after[6]!.end).toBe(utc('2026-11-27T03:00:00Z'));
  });

  it('crosses a month and a year boundary', () => {
    const days = scheduleDays(utc('2026-12-30T15:00:00Z'), SP, 'page');
    expect(days.map((d) => d.key)).toEqual(['2026-12-29', '2026-12-30', '2026-12-31', '2027-01-01', '2027-01-02', '2027-01-03', '2027-01-04']);
    const first = scheduleDays(utc('2027-01-01T03:00:00Z'), SP, 'page');
    expect(first[0]!.key).toBe('2026-12-31');
    expect(first[1]!.key).toBe('2027-01-01');
  });
});

describe('home variant: two weeks from Sunday', () => {
  it('has 14 days starting on the Sunday of the current week', () => {
    const now = utc('2026-11-25T12:00:00Z'); // a Wednesday
    const days = scheduleDays(now, 'UTC', 'home');
    expect(days).toHaveLength(14);
    expect(days[0]!.key).toBe('2026-11-22');
    expect(days[0]!.weekday).toBe(0);
    expect(days[7]!.weekday).toBe(0);
    expect(days[13]!.key).toBe('2026-12-05');
    expect(todayIndex(days)).toBe(3);
  });

  it('starts today when today is Sunday, and ends the second week on Saturday', () => {
    const days = scheduleDays(utc('2026-11-22T10:00:00Z'), 'UTC', 'home');
    expect(todayIndex(days)).toBe(0);
    expect(days[13]!.weekday).toBe(6);
  });

  it('decides the week by the zone: Saturday 23:30 in São Paulo is still the old week', () => {
    // 2026-11-22T02:30Z is Sunday in UTC but Saturday 23:30 in São Paulo.
    const now = utc('2026-11-22T02:30:00Z');
    expect(scheduleDays(now, 'UTC', 'home')[0]!.key).toBe('2026-11-22');
    const sp = scheduleDays(now, SP, 'home');
    expect(sp[0]!.key).toBe('2026-11-15');
    expect(todayIndex(sp)).toBe(6);
  });
});

describe('monthly releases: three months', () => {
  it('gives the current and next two months with zone-aware bounds', () => {
    const months = scheduleMonths(utc('2026-11-21T12:00:00Z'), SP);
    expect(months.map((m) => m.key)).toEqual(['2026-11', '2026-12', '2027-01']);
    expect(months[0]!.start).toBe(utc('2026-11-01T03:00:00Z'));
    expect(months[0]!.end).toBe(utc('2026-12-01T03:00:00Z'));
    expect(months[2]!.end).toBe(utc('2027-02-01T03:00:00Z'));
    for (let i = 1; i < months.length; i++) expect(months[i]!.start).toBe(months[i - 1]!.end);
  });

  it('switches month at local midnight: 02:59Z on the 1st is still last month in São Paulo', () => {
    expect(scheduleMonths(utc('2026-12-01T02:59:00Z'), SP)[0]!.key).toBe('2026-11');
    expect(scheduleMonths(utc('2026-12-01T03:00:00Z'), SP)[0]!.key).toBe('2026-12');
    expect(scheduleMonths(utc('2026-12-01T02:59:00Z'), 'UTC')[0]!.key).toBe('2026-12');
  });

  it('rolls over the year from November and December', () => {
    expect(scheduleMonths(utc('2026-12-15T12:00:00Z'), 'UTC').map((m) => [m.year, m.month])).toEqual([[2026, 12], [2027, 1], [2027, 2]]);
    expect(scheduleMonths(utc('2027-02-10T12:00:00Z'), 'UTC').map((m) => m.key)).toEqual(['2027-02', '2027-03', '2027-04']);
  });
});

describe('bucketing and status', () => {
  const days = scheduleDays(utc('2026-11-21T12:00:00Z'), SP, 'page');
  it('sorts items into the São Paulo day they fall on; items outside are dropped', () => {
    const items = [
      { id: 'a', at: utc('2026-11-21T02:59:59Z') }, // 20th local
      { id: 'b', at: utc('2026-11-21T03:00:00Z') }, // 21st local
      { id: 'c', at: utc('2026-11-19T12:00:00Z') }, // before the window
      { id: 'd', at: utc('2026-11-27T02:00:00Z') }, // 26th local, last day
      { id: 'e', at: utc('2026-11-27T03:00:00Z') }, // after the window
    ];
    const buckets = bucket(items, (i) => i.at, days);
    expect(buckets.map((b) => b.map((i) => i.id))).toEqual([['a'], ['b'], [], [], [], [], ['d']]);
    expect(periodIndex(items[4]!.at, days)).toBe(-1);
    expect(span(days)).toEqual({ start: days[0]!.start, end: days[6]!.end });
  });

  it('calls an entry released at or before now', () => {
    expect(isReleased(100, 100)).toBe(true);
    expect(isReleased(99, 100)).toBe(true);
    expect(isReleased(101, 100)).toBe(false);
  });
});

describe('one rule decides the zone of release times', () => {
  it('the Portuguese site keeps Brasília time whatever the browser\'s zone; the English site follows the reader, UTC until it knows it', () => {
    expect(displayZone(SITES[3].scheduleZone, SITES[3].timeZone, 'America/New_York')).toBe('America/Sao_Paulo');
    expect(displayZone(SITES[3].scheduleZone, SITES[3].timeZone, 'America/Manaus')).toBe('America/Sao_Paulo');
    expect(displayZone(SITES[3].scheduleZone, SITES[3].timeZone, null)).toBe('America/Sao_Paulo');
    expect(displayZone(SITES[1].scheduleZone, SITES[1].timeZone, 'America/New_York')).toBe('America/New_York');
    expect(displayZone(SITES[1].scheduleZone, SITES[1].timeZone, null)).toBe('UTC');
  });
});
