import { describe, expect, it } from 'vitest';
import { sharedMemo } from './memo';

describe('sharedMemo', () => {
  it('loads once per key within the time to live, again after it', async () => {
    let loads = 0;
    const load = async () => ++loads;
    expect(await sharedMemo('a', 1000, load, 0)).toBe(1);
    expect(await sharedMemo('a', 1000, load, 999)).toBe(1);
    expect(await sharedMemo('b', 1000, load, 999)).toBe(2);
    expect(await sharedMemo('a', 1000, load, 1000)).toBe(3);
  });
  it('forgets a failed load at once', async () => {
    let calls = 0;
    await expect(sharedMemo('f', 1000, async () => { calls++; throw new Error('db down'); }, 0)).rejects.toThrow('db down');
    expect(await sharedMemo('f', 1000, async () => { calls++; return 'ok'; }, 1)).toBe('ok');
    expect(calls).toBe(2);
  });
});
