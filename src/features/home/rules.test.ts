import { describe, expect, it } from 'vitest';
import {
  FAVORITE_WEIGHT, HISTORY_WEIGHT, RECOMMENDED_COUNT, RECOMMENDED_TAGS, SIMULPUB_MAX, SIMULPUB_WINDOW,
  dailyIndex, isSimulpub, rankRecommendations, reelDuration, selectSimulpub, tagProfile, topProfileTags,
} from './rules';

describe('recommendation ranking', () => {
  it('weighs favorites above history', () => {
    const p = tagProfile([{ tagIds: [1, 2] }], [{ tagIds: [2, 3] }, { tagIds: [3, 3] }]);
    expect(Object.fromEntries(p)).toEqual({ 1: FAVORITE_WEIGHT, 2: FAVORITE_WEIGHT + HISTORY_WEIGHT, 3: 2 * HISTORY_WEIGHT });
  });

  it('returns the top 3 by shared-tag weight with at most 2 tags each', () => {
    const profile = new Map([[1, 5], [2, 3], [3, 1], [4, 1]]);
    const ranked = rankRecommendations(profile, [
      { id: 10, popularity: 1, tagIds: [3] },
      { id: 11, popularity: 1, tagIds: [1, 2, 3, 4] },
      { id: 12, popularity: 1, tagIds: [2, 9] },
      { id: 13, popularity: 1, tagIds: [1] },
      { id: 14, popularity: 1, tagIds: [9] },
    ]);
    expect(RECOMMENDED_COUNT).toBe(3);
    expect(RECOMMENDED_TAGS).toBe(2);
    expect(ranked.map((r) => r.id)).toEqual([11, 13, 12]);
    expect(ranked[0]).toEqual({ id: 11, score: 10, sharedTagIds: [1, 2] });
    expect(ranked.every((r) => r.sharedTagIds.length <= 2)).toBe(true);
  });

  it('breaks ties by number of shared tags, then popularity, then id', () => {
    const profile = new Map([[1, 2], [2, 1], [3, 1]]);
    const ranked = rankRecommendations(profile, [
      { id: 5, popularity: 10, tagIds: [1] },
      { id: 4, popularity: 10, tagIds: [2, 3] },
      { id: 3, popularity: 50, tagIds: [1] },
      { id: 2, popularity: 10, tagIds: [1] },
    ], new Set(), 4);
    expect(ranked.map((r) => r.id)).toEqual([4, 3, 2, 5]);
  });

  it('leaves out excluded series, duplicates and series sharing nothing', () => {
    const profile = new Map([[1, 1]]);
    const ranked = rankRecommendations(profile, [
      { id: 1, popularity: 9, tagIds: [1] },
      { id: 2, popularity: 1, tagIds: [1, 1] },
      { id: 2, popularity: 1, tagIds: [1] },
      { id: 3, popularity: 99, tagIds: [7] },
    ], new Set([1]));
    expect(ranked).toEqual([{ id: 2, score: 1, sharedTagIds: [1] }]);
    expect(rankRecommendations(new Map(), [{ id: 1, popularity: 1, tagIds: [1] }])).toEqual([]);
  });

  it('keeps the series own tag order among equally weighted shared tags', () => {
    const ranked = rankRecommendations(new Map([[7, 1], [3, 1], [5, 1]]), [{ id: 1, popularity: 0, tagIds: [5, 7, 3] }]);
    expect(ranked[0]!.sharedTagIds).toEqual([5, 7]);
  });

  it('queries the heaviest profile tags first', () => {
    expect(topProfileTags(new Map([[4, 1], [2, 3], [9, 3], [1, 0]]), 2)).toEqual([2, 9]);
  });
});

describe('simulpub selection', () => {
  const now = 1_800_000_000;
  const row = (seriesId: number, inSeconds: number, simulpub = true) => ({ seriesId, releasedAt: now + inSeconds, simulpub });

  it('keeps flagged series with a chapter in the next 7 days, soonest first, one entry per series', () => {
    const picked = selectSimulpub([row(1, 3600 * 5), row(2, 60), row(1, 3600), row(3, SIMULPUB_WINDOW + 1), row(4, -60), row(5, 120, false), row(6, 0)], now);
    expect(picked.map((r) => [r.seriesId, r.releasedAt - now])).toEqual([[2, 60], [1, 3600]]);
  });

  it('shows at most 12 series', () => {
    const rows = Array.from({ length: 30 }, (_, i) => row(i + 1, 1000 - i));
    const picked = selectSimulpub(rows, now);
    expect(SIMULPUB_MAX).toBe(12);
    expect(picked).toHaveLength(12);
    expect(picked[0]!.seriesId).toBe(30);
  });

  it('reads the simulpub flag from the strategy JSON', () => {
    expect(isSimulpub('{"simulpub":true,"starting_count":3}')).toBe(true);
    expect(isSimulpub('{"simulpub":"yes"}')).toBe(false);
    expect(isSimulpub('not json')).toBe(false);
    expect(isSimulpub(null)).toBe(false);
  });
});

describe('daily spotlight and reel', () => {
  it('rotates once a day in the site time zone', () => {
    // 2027-01-15 02:00 UTC is still the 14th in São Paulo (UTC-3).
    const t = Date.UTC(2027, 0, 15, 2) / 1000;
    expect(dailyIndex(t, 6, 'UTC')).toBe((dailyIndex(t, 6, 'America/Sao_Paulo') + 1) % 6);
    expect(dailyIndex(t + 86400, 6, 'UTC')).toBe((dailyIndex(t, 6, 'UTC') + 1) % 6);
    expect(dailyIndex(t, 0)).toBe(0);
  });

  it('scrolls the reel at 230 px per second', () => {
    expect(reelDuration(460)).toBe(2);
    expect(reelDuration(0)).toBe(0);
  });
});
