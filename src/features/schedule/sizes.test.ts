import { describe, expect, it } from 'vitest';
import { LATEST_UPDATES_PAGES, latestUpdatesPageSize, latestUpdatesPages } from './sizes';

describe('latestUpdatesPageSize', () => {
  it('is 12 on the English site with nothing else', () => {
    expect(latestUpdatesPageSize({ siteId: 1 })).toBe(12);
  });
  it('is 15 for the longer layout', () => {
    expect(latestUpdatesPageSize({ siteId: 1, longer: true })).toBe(15);
  });
  it('is 8 with both favorites and continue-reading, whatever else holds', () => {
    expect(latestUpdatesPageSize({ siteId: 1, hasFavorites: true, hasContinueReading: true })).toBe(8);
    expect(latestUpdatesPageSize({ siteId: 3, longer: true, hasFavorites: true, hasContinueReading: true })).toBe(8);
  });
  it('is 10 with one of them', () => {
    expect(latestUpdatesPageSize({ siteId: 1, hasFavorites: true })).toBe(10);
    expect(latestUpdatesPageSize({ siteId: 1, hasContinueReading: true })).toBe(10);
    expect(latestUpdatesPageSize({ siteId: 1, longer: true, hasContinueReading: true })).toBe(10);
  });
  it('is 10 on the Portuguese site, 15 there when longer', () => {
    expect(latestUpdatesPageSize({ siteId: 3 })).toBe(10);
    expect(latestUpdatesPageSize({ siteId: 3, longer: true })).toBe(15);
  });
});

describe('latestUpdatesPages', () => {
  const entries = Array.from({ length: 50 }, (_, i) => i);
  it('makes at most 3 pages of the given size', () => {
    const pages = latestUpdatesPages(entries, 12);
    expect(LATEST_UPDATES_PAGES).toBe(3);
    expect(pages.map((p) => p.length)).toEqual([12, 12, 12]);
    expect(pages[1]![0]).toBe(12);
  });
  it('leaves the last page short and makes none for no entries', () => {
    expect(latestUpdatesPages(entries.slice(0, 17), 8).map((p) => p.length)).toEqual([8, 8, 1]);
    expect(latestUpdatesPages([], 10)).toEqual([]);
  });
});
