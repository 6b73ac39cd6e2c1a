import { describe, expect, it } from 'vitest';
import { newEpisodesSince, updatesUrl } from './refresh';

describe('latest-updates refresh', () => {
  it('asks the relay for the shown series after the newest shown time, at most 50 ids', () => {
    expect(updatesUrl([3, 1, 2], 1_800_000_000.7)).toBe('/relay/consumer/inkpass/series/3,1,2/updates?clientid=inkpass-web&after=1800000000');
    const many = Array.from({ length: 70 }, (_, i) => i + 1);
    expect(updatesUrl(many, 5)!.split('/series/')[1]!.split('/')[0]!.split(',')).toHaveLength(50);
  });
  it('asks nothing without valid ids or time', () => {
    expect(updatesUrl([], 5)).toBeNull();
    expect(updatesUrl([0, -1, Number.NaN, 1.5], 5)).toBeNull();
    expect(updatesUrl([1], Number.NaN)).toBeNull();
    expect(updatesUrl([1], -1)).toBeNull();
  });
  it('counts only episodes released strictly after the time shown', () => {
    const at = (iso: string) => ({ released_at: iso });
    const after = Date.parse('2026-11-21T12:00:00Z') / 1000;
    const body = { status: 'ok', data: { episodes: [
      { items: [at('2026-11-21T12:00:00Z'), at('2026-11-21T12:00:01Z')] },
      { items: [at('2026-11-21T13:00:00Z'), at('not a date'), null] },
      { items: 'nope' },
    ] } };
    expect(newEpisodesSince(body, after)).toBe(2);
  });
  it('treats anything malformed as no news', () => {
    for (const body of [null, undefined, 'x', {}, { data: null }, { data: { episodes: {} } }]) expect(newEpisodesSince(body, 0)).toBe(0);
  });
});
