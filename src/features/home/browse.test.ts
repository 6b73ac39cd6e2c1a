import { describe, expect, it } from 'vitest';
import { GENRE_CARDS_MAX, GENRE_CARDS_MIN, genreCardsPerTag, isCollectionSlug, updatesPage } from './browse';

describe('genreCardsPerTag', () => {
  it('spreads the budget over the genres, within 2 and 6 each', () => {
    expect(genreCardsPerTag(15, 32)).toBe(2);
    expect(genreCardsPerTag(8, 32)).toBe(4);
    expect(genreCardsPerTag(3, 32)).toBe(GENRE_CARDS_MAX);
    expect(genreCardsPerTag(100, 32)).toBe(GENRE_CARDS_MIN);
    expect(genreCardsPerTag(0, 32)).toBe(GENRE_CARDS_MAX);
  });
  it('keeps the demo catalogue (15 genres) within the 40-image budget', () => {
    expect(15 * genreCardsPerTag(15)).toBeLessThanOrEqual(40);
  });
});

describe('isCollectionSlug', () => {
  it('takes dashed lower-case words and refuses anything else', () => {
    expect(isCollectionSlug('staff-picks')).toBe(true);
    expect(isCollectionSlug('top10')).toBe(true);
    for (const bad of ['', 'Staff', 'a--b', '-a', 'a-', 'a b', '../x', 'x'.repeat(81), null, undefined]) expect(isCollectionSlug(bad)).toBe(false);
  });
});

describe('updatesPage', () => {
  it('is 1 without a page and the page when it exists', () => {
    expect(updatesPage(null, 4)).toBe(1);
    expect(updatesPage('1', 4)).toBe(1);
    expect(updatesPage('4', 4)).toBe(4);
    expect(updatesPage('1', 0)).toBe(1);
  });
  it('is null (a 404) for anything else', () => {
    for (const bad of ['0', '5', '-1', '1.5', '01', 'abc', '', ' 2', '1e3', '99999999999999999999']) expect(updatesPage(bad, 4)).toBeNull();
  });
});
