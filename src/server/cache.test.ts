import { describe, expect, it } from 'vitest';
import { catalogChanged, createCache } from './cache';
import { beginRender, lookupPage } from './page-cache.mjs';

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('createCache', () => {
  it('loads once for concurrent gets and serves the value while fresh', async () => {
    const cache = createCache<number>({ ttlMs: 1000 });
    let loads = 0;
    const load = async () => ++loads;
    const values = await Promise.all([cache.get('k', load, 0), cache.get('k', load, 1), cache.get('k', load, 2)]);
    expect(values).toEqual([1, 1, 1]);
    expect(await cache.get('k', load, 999)).toBe(1);
    expect(await cache.get('k', load, 1000)).toBe(2);
    expect(loads).toBe(2);
  });

  it('forgets a failed load at once', async () => {
    const cache = createCache<number>({ ttlMs: 1000 });
    await expect(cache.get('k', async () => { throw new Error('down'); }, 0)).rejects.toThrow('down');
    await tick();
    expect(cache.size).toBe(0);
    expect(await cache.get('k', async () => 7, 1)).toBe(7);
  });

  it('serves a stale value while one reload runs, then the new one', async () => {
    const cache = createCache<string>({ ttlMs: 100, staleMs: 1000 });
    await cache.get('k', async () => 'old', 0);
    let release!: (v: string) => void;
    let reloads = 0;
    const slow = () => { reloads++; return new Promise<string>((r) => (release = r)); };
    expect(await cache.get('k', slow, 200)).toBe('old');
    expect(await cache.get('k', slow, 201)).toBe('old');
    expect(reloads).toBe(1);
    release('new');
    await tick();
    await tick();
    expect(await cache.get('k', slow, 202)).toBe('new');
    // Past the stale window the caller waits for a fresh load.
    expect(await cache.get('k', async () => 'newest', 202 + 100 + 1000)).toBe('newest');
  });

  it('keeps the stale value when its reload fails', async () => {
    const cache = createCache<string>({ ttlMs: 100, staleMs: 1000 });
    await cache.get('k', async () => 'old', 0);
    expect(await cache.get('k', async () => { throw new Error('x'); }, 200)).toBe('old');
    await tick();
    expect(cache.peek('k', 300)).toBe('old');
  });

  it('evicts the least recently used entries past maxEntries', async () => {
    const cache = createCache<string>({ ttlMs: 10_000, maxEntries: 2 });
    await cache.get('a', async () => 'a', 0);
    await cache.get('b', async () => 'b', 0);
    await cache.get('a', async () => 'a2', 1); // touch a
    await cache.get('c', async () => 'c', 2);
    await tick();
    expect(cache.peek('a', 3)).toBe('a');
    expect(cache.peek('b', 3)).toBeUndefined();
    expect(cache.peek('c', 3)).toBe('c');
  });

  it('bounds the total size with sizeOf', async () => {
    const cache = createCache<string>({ ttlMs: 10_000, sizeOf: (v) => v.length, maxSize: 10 });
    await cache.get('a', async () => 'xxxx', 0);
    await cache.get('b', async () => 'yyyy', 0);
    await cache.get('c', async () => 'zzzz', 0);
    await tick();
    expect(cache.totalSize).toBeLessThanOrEqual(10);
    expect(cache.peek('a', 1)).toBeUndefined();
    expect(cache.peek('c', 1)).toBe('zzzz');
  });

  it('clear and delete forget entries', async () => {
    const cache = createCache<number>({ ttlMs: 10_000 });
    await cache.get('a', async () => 1, 0);
    cache.delete('a');
    expect(cache.peek('a', 1)).toBeUndefined();
    await cache.get('b', async () => 2, 0);
    cache.clear();
    expect(cache.size).toBe(0);
    expect(cache.totalSize).toBe(0);
  });

  it('catalogChanged forgets every cache and the kept pages of this process', async () => {
    const a = createCache<number>({ ttlMs: 60_000 });
    const b = createCache<string>({ ttlMs: 60_000 });
    await a.get('x', async () => 1);
    await b.get('y', async () => 'kept');
    beginRender('page')({ status: 200, headers: { 'content-type': 'text/html', 'content-encoding': 'br', 'cache-control': 'public, max-age=0, s-maxage=60' }, body: Buffer.from('page') });
    expect(lookupPage('page')).not.toBeNull();
    catalogChanged();
    expect(a.size + b.size).toBe(0);
    expect(lookupPage('page')).toBeNull();
  });
});
