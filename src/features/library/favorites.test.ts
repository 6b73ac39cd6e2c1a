import { describe, expect, it } from 'vitest';
import { FAVORITES_PAGE_SIZE, favoritesPageCount, isSeriesRef } from './favorites';
import { requestFavorite } from '~/features/library/favorites.client';
import { defaultParams, parseListing, serializeListing } from '~/features/catalog';
import { favoriteEndpoint } from '~/lib/paths';

describe('favorites helpers', () => {
  it('accepts series e4pids and numeric ids only', () => {
    expect(isSeriesRef('SER-abc123')).toBe(true);
    expect(isSeriesRef('42')).toBe(true);
    expect(isSeriesRef('EPI-abc')).toBe(false);
    expect(isSeriesRef('../x')).toBe(false);
    expect(isSeriesRef('')).toBe(false);
  });
  it('counts pages of 24, at least one', () => {
    expect(FAVORITES_PAGE_SIZE).toBe(24);
    expect(favoritesPageCount(0)).toBe(1);
    expect(favoritesPageCount(24)).toBe(1);
    expect(favoritesPageCount(25)).toBe(2);
  });
  it('builds the endpoint path', () => {
    expect(favoriteEndpoint('SER-ab')).toBe('/api/favorites/SER-ab/');
  });
});

describe('requestFavorite', () => {
  const fake = (status: number, body: unknown) => (async (_url: string, init?: RequestInit) => {
    calls.push(init?.method ?? 'GET');
    return new Response(JSON.stringify(body), { status });
  }) as unknown as typeof fetch;
  let calls: string[] = [];
  it('POSTs to favorite and DELETEs to remove', async () => {
    calls = [];
    expect(await requestFavorite('/api/favorites/SER-a/', true, fake(200, { favorited: true }))).toBe(true);
    expect(await requestFavorite('/api/favorites/SER-a/', false, fake(200, { favorited: false }))).toBe(false);
    expect(calls).toEqual(['POST', 'DELETE']);
  });
  it('rejects on an error status or a malformed answer', async () => {
    await expect(requestFavorite('/x/', true, fake(403, { detail: 'no' }))).rejects.toThrow();
    await expect(requestFavorite('/x/', true, fake(200, { ok: 1 }))).rejects.toThrow();
  });
});

describe('listing favorited filter', () => {
  it('parses and serializes filter=favorited', () => {
    const p = parseListing('filter=favorited', 1).params;
    expect(p.favorited).toBe(true);
    expect(p.category).toBeNull();
    expect(serializeListing(p, 1)).toBe('filter=favorited');
    expect(defaultParams(1).favorited).toBe(false);
  });
});

describe('favoriteAnchor', () => {
  it('names a control by its series, as a safe fragment the no-JavaScript form comes back to', async () => {
    const { favoriteAnchor } = await import('./favorites');
    expect(favoriteAnchor('SER-abc_1')).toBe('fav-SER-abc_1');
    expect(favoriteAnchor('SER-"x<y>')).toBe('fav-SER-xy');
  });
});
