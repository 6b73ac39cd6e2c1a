import { describe, expect, it } from 'vitest';
import { LATEST_PAGING, pageLatestUpdates } from './paging';

const NOW = 1_800_000_000;
const DAY = 86_400;

interface Entry { id: number; at: number }

/** A fake relay: series `id` last released `ago(id)` seconds before NOW (null = never in 30 days). */
function relay(ago: (id: number) => number | null) {
  const calls: { ids: number[]; after: number }[] = [];
  const fetch = async (ids: number[], after: number): Promise<Entry[]> => {
    calls.push({ ids, after });
    return ids.flatMap((id) => {
      const a = ago(id);
      return a != null && NOW - a > after ? [{ id, at: NOW - a }] : [];
    });
  };
  return { calls, fetch };
}

const run = (ids: number[], r: ReturnType<typeof relay>, limit?: number) =>
  pageLatestUpdates<number, Entry>({ now: NOW, seriesIds: ids, fetch: r.fetch, keyOf: (e) => e.id, timeOf: (e) => e.at, limit });

const range = (n: number, from = 1) => Array.from({ length: n }, (_, i) => from + i);

describe('pageLatestUpdates', () => {
  it('starts 7 days back and widens by 7 days up to 30, never further', async () => {
    const r = relay(() => null);
    const res = await run(range(10), r);
    expect(r.calls.map((c) => (NOW - c.after) / DAY)).toEqual([7, 14, 21, 28, 30]);
    expect(res.days).toBe(30);
    expect(res.entries).toEqual([]);
  });

  it('makes at most 20 requests however many series there are', async () => {
    const r = relay(() => null);
    const res = await run(range(5000), r);
    expect(r.calls).toHaveLength(LATEST_PAGING.maxRequests);
    expect(res.requests).toBe(20);
    expect(Math.min(...r.calls.map((c) => c.after))).toBeGreaterThanOrEqual(NOW - 30 * DAY);
  });

  it('asks in batches of at most 50 series', async () => {
    const r = relay((id) => (id % 3 === 0 ? 2 * DAY : null));
    await run(range(260), r);
    expect(r.calls.length).toBeGreaterThan(1);
    expect(Math.max(...r.calls.map((c) => c.ids.length))).toBeLessThanOrEqual(50);
    expect(r.calls[0]!.ids).toEqual(range(50));
  });

  it('returns at most 50 entries, newest first, and stops asking once it has 50', async () => {
    const r = relay((id) => id * 60); // every series released recently; smaller id = newer
    const res = await run(range(300), r);
    expect(res.entries).toHaveLength(50);
    expect(r.calls).toHaveLength(1);
    const times = res.entries.map((e) => e.at);
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(res.entries[0]!.id).toBe(1);
  });

  it('honours a smaller limit and caps a larger one at 50', async () => {
    const r = relay((id) => id * 60);
    expect((await run(range(100), r, 12)).entries).toHaveLength(12);
    expect((await run(range(100), relay((id) => id * 60), 500)).entries).toHaveLength(50);
  });

  it('asks only still-missing series when it widens the window', async () => {
    // Series 1-5 updated 2 days ago, 6-10 updated 20 days ago.
    const r = relay((id) => (id <= 5 ? 2 * DAY : 20 * DAY));
    const res = await run(range(10), r);
    expect(r.calls.map((c) => [(NOW - c.after) / DAY, c.ids])).toEqual([
      [7, range(10)],
      [14, range(5, 6)],
      [21, range(5, 6)],
    ]);
    expect(res.entries.map((e) => e.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it('ignores entries for series it did not ask about and keeps the first entry per series', async () => {
    const fetch = async (ids: number[]) => [{ id: 999, at: NOW }, ...ids.map((id) => ({ id, at: NOW - id })), { id: 1, at: NOW - 5000 }];
    const res = await pageLatestUpdates<number, Entry>({ now: NOW, seriesIds: [1, 2, 2], fetch, keyOf: (e) => e.id, timeOf: (e) => e.at });
    expect(res.entries).toEqual([{ id: 1, at: NOW - 1 }, { id: 2, at: NOW - 2 }]);
  });

  it('stops silently with what it has when a fetch fails', async () => {
    let n = 0;
    const fetch = async (ids: number[]) => {
      if (++n === 2) throw new Error('network down');
      return ids.slice(0, 3).map((id) => ({ id, at: NOW - id }));
    };
    const res = await pageLatestUpdates<number, Entry>({ now: NOW, seriesIds: range(120), fetch, keyOf: (e) => e.id, timeOf: (e) => e.at });
    expect(res.aborted).toBe(true);
    expect(res.requests).toBe(2);
    expect(res.entries.map((e) => e.id)).toEqual([1, 2, 3]);
  });
});
