import { describe, expect, it } from 'vitest';
import {
  AUTH_PREFIX, CHAPTER_PAGES_PREFIX, LOCALIZED_PREFIX, LOGOUT_CONFIRM_PATH, LOGOUT_PATH, MY_PREFIX, NOT_FOUND_PATH, PURCHASE_PATH, SERIES_SITEMAP_PATH, SITEMAP_PATH,
  categoryPath, chapterPagePath, chapterPrefix, chapterSitemapPath, favoritesPath, historyApiPath, historyPath, homePath, keysPath, loginPath, logoutPagePath,
  manifestPath, mediaUrl, numberSegment, popularPath, readerPath, relayUpdatesPath, sapiComicsPath, searchPath, seriesFeedPath, seriesPath, signupPath,
  suggestPath,
} from './paths';

const manga = { slug: 'moon-harbor', format: 'MANGA' as const };
const comic = { slug: 'iron-lantern', format: 'COMIC' as const };
const webtoon = { slug: 'tidal-hearts', format: 'WEBTOON' as const };
const ch = (number: number, language = 'en', e4pid = 'EPI-k3j9d2ab') => ({ e4pid, number, language });

describe('numberSegment', () => {
  it.each([
    [1, '1'],
    [12, '12'],
    [0, '0'],
    [10, '10'],
    [100, '100'],
    [1000, '1000'],
    [12.5, '12-5'],
    [40.25, '40-25'],
    [3.1, '3-1'],
    [3.10, '3-1'],
    [10.05, '10-05'],
    [20.5, '20-5'],
    [0.5, '0-5'],
    [7.0, '7'],
  ])('%s -> %s', (n, expected) => {
    expect(numberSegment(n)).toBe(expected);
  });

  it('keeps at most two decimals, rounding the third', () => {
    expect(numberSegment(40.257)).toBe('40-26');
    expect(numberSegment(1.004)).toBe('1');
    expect(numberSegment(1.999)).toBe('2');
  });

  it('survives floating-point noise from REAL columns', () => {
    expect(numberSegment(0.1 + 0.2)).toBe('0-3');
    expect(numberSegment(12.499999999)).toBe('12-5');
  });
});

describe('chapterPrefix', () => {
  it('uses chapter for comics and manga and episode for webtoons in English', () => {
    expect(chapterPrefix('en', 'MANGA')).toBe('chapter');
    expect(chapterPrefix('en', 'COMIC')).toBe('chapter');
    expect(chapterPrefix('en', 'WEBTOON')).toBe('episode');
  });

  it.each(Object.entries(LOCALIZED_PREFIX))('localizes %s as %s whatever the format', (language, prefix) => {
    for (const format of ['MANGA', 'COMIC', 'WEBTOON'] as const) expect(chapterPrefix(language, format)).toBe(prefix);
  });

  it('matches language codes case-insensitively', () => {
    expect(chapterPrefix('PT-BR', 'MANGA')).toBe('capitulo-portugues');
    expect(chapterPrefix('Es', 'WEBTOON')).toBe('capitulo-espanol');
  });

  it('falls back to the English words for languages without a localized prefix', () => {
    expect(chapterPrefix('de', 'MANGA')).toBe('chapter');
    expect(chapterPrefix('ja', 'WEBTOON')).toBe('episode');
  });

  it('has exactly the four localized prefixes of the spec', () => {
    expect(LOCALIZED_PREFIX).toEqual({
      es: 'capitulo-espanol',
      'pt-br': 'capitulo-portugues',
      fr: 'chapitre-francais',
      id: 'bab-bahasa',
    });
  });
});

describe('readerPath', () => {
  it('builds the example from the spec', () => {
    expect(readerPath(manga, ch(12.5))).toBe('/read/moon-harbor/k3j9d2ab/chapter-12-5/');
  });

  it('strips only the leading EPI- prefix from the id', () => {
    expect(readerPath(manga, ch(1, 'en', 'EPI-abc'))).toBe('/read/moon-harbor/abc/chapter-1/');
    expect(readerPath(manga, ch(1, 'en', 'EPI-EPI-x'))).toBe('/read/moon-harbor/EPI-x/chapter-1/');
    expect(readerPath(manga, ch(1, 'en', 'xEPI-1'))).toBe('/read/moon-harbor/xEPI-1/chapter-1/');
  });

  it.each([
    [12.5, 'chapter-12-5'],
    [40.25, 'chapter-40-25'],
    [3.1, 'chapter-3-1'],
    [3.10, 'chapter-3-1'],
    [1, 'chapter-1'],
    [10, 'chapter-10'],
    [100, 'chapter-100'],
    [0, 'chapter-0'],
  ])('manga chapter %s ends in %s', (n, last) => {
    expect(readerPath(manga, ch(n))).toBe(`/read/moon-harbor/k3j9d2ab/${last}/`);
  });

  it('uses chapter for comics and episode for webtoons', () => {
    expect(readerPath(comic, ch(7))).toBe('/read/iron-lantern/k3j9d2ab/chapter-7/');
    expect(readerPath(webtoon, ch(7))).toBe('/read/tidal-hearts/k3j9d2ab/episode-7/');
    expect(readerPath(webtoon, ch(40.25))).toBe('/read/tidal-hearts/k3j9d2ab/episode-40-25/');
  });

  it.each([
    ['es', 'capitulo-espanol'],
    ['pt-br', 'capitulo-portugues'],
    ['fr', 'chapitre-francais'],
    ['id', 'bab-bahasa'],
  ])('uses the localized prefix for %s chapters of every format', (language, prefix) => {
    expect(readerPath(manga, ch(12.5, language))).toBe(`/read/moon-harbor/k3j9d2ab/${prefix}-12-5/`);
    expect(readerPath(comic, ch(3, language))).toBe(`/read/iron-lantern/k3j9d2ab/${prefix}-3/`);
    expect(readerPath(webtoon, ch(40.25, language))).toBe(`/read/tidal-hearts/k3j9d2ab/${prefix}-40-25/`);
  });

  it('always ends with a trailing slash (trailingSlash: always)', () => {
    for (const s of [manga, comic, webtoon]) for (const l of ['en', 'es', 'pt-br', 'fr', 'id']) expect(readerPath(s, ch(2, l)).endsWith('/')).toBe(true);
  });

  it('percent-encodes slugs and ids so they stay one path segment each', () => {
    expect(readerPath({ slug: 'a/b', format: 'MANGA' }, ch(1))).toBe('/read/a%2Fb/k3j9d2ab/chapter-1/');
    expect(readerPath({ slug: 'café-noir', format: 'COMIC' }, ch(1))).toBe('/read/caf%C3%A9-noir/k3j9d2ab/chapter-1/');
    expect(readerPath({ slug: 'what?#', format: 'COMIC' }, ch(1))).toBe('/read/what%3F%23/k3j9d2ab/chapter-1/');
    expect(readerPath(manga, ch(1, 'en', 'EPI-a b'))).toBe('/read/moon-harbor/a%20b/chapter-1/');
  });

  it('leaves ordinary slugs untouched', () => {
    expect(readerPath({ slug: 'the-2nd-life_of-x', format: 'MANGA' }, ch(1))).toBe('/read/the-2nd-life_of-x/k3j9d2ab/chapter-1/');
  });

  it('has the four segments the reader route expects', () => {
    const parts = readerPath(webtoon, ch(3.5, 'fr')).split('/');
    expect(parts).toEqual(['', 'read', 'tidal-hearts', 'k3j9d2ab', 'chapitre-francais-3-5', '']);
  });
});

describe('seriesPath and loginPath', () => {
  it('links to the series page with a trailing slash', () => {
    expect(seriesPath({ slug: 'moon-harbor' })).toBe('/comics/moon-harbor/');
    expect(seriesPath({ slug: 'a/b' })).toBe('/comics/a%2Fb/');
  });

  it('sends the reader to login with the current path as next', () => {
    expect(loginPath('/read/moon-harbor/k3j9d2ab/chapter-12-5/')).toBe('/auth/login/?next=%2Fread%2Fmoon-harbor%2Fk3j9d2ab%2Fchapter-12-5%2F');
    expect(loginPath('/a/?b=1&c=2')).toBe('/auth/login/?next=%2Fa%2F%3Fb%3D1%26c%3D2');
  });
});

describe('manifestPath', () => {
  it('is the reader API path of the chapter, with a trailing slash', () => {
    expect(manifestPath('EPI-k3j9d2ab')).toBe('/api/reader/EPI-k3j9d2ab/manifest/');
    expect(manifestPath('EPI-a/b')).toBe('/api/reader/EPI-a%2Fb/manifest/');
  });
});

describe('route builders', () => {
  it('omit empty query values and page 1', () => {
    expect(loginPath()).toBe('/auth/login/');
    expect(loginPath('')).toBe('/auth/login/');
    expect(loginPath('/comics/x/?order=asc')).toBe('/auth/login/?next=%2Fcomics%2Fx%2F%3Forder%3Dasc');
    expect(signupPath('/my/history/')).toBe('/auth/signup/?next=%2Fmy%2Fhistory%2F');
    expect(favoritesPath()).toBe('/my/favorites/');
    expect(favoritesPath({ page: 1 })).toBe('/my/favorites/');
    expect(favoritesPath({ page: 3 })).toBe('/my/favorites/?page=3');
    expect(favoritesPath({ removed: 'SER-a' })).toBe('/my/favorites/?removed=SER-a');
    expect(historyPath()).toBe('/my/history/');
    expect(historyPath(25)).toBe('/my/history/?skip=25');
  });

  it('encode what comes from data', () => {
    expect(categoryPath('slice of life')).toBe('/comics/?filter=slice+of+life');
    expect(searchPath('a&b=c')).toBe('/comics/?q=a%26b%3Dc');
    expect(seriesFeedPath('a/b')).toBe('/feeds/comics/a%2Fb.xml');
    expect(chapterPagePath('EPI-x', 3)).toBe('/media/p/EPI-x/3.webp');
    expect(historyApiPath({ limit: 25, skip: 0, token: 'a2.x' })).toBe('/api/house/history/me?limit=25&skip=0&token=a2.x');
    expect(mediaUrl(null)).toBeNull();
    expect(mediaUrl('series/x/cover.webp')).toBe('/media/series/x/cover.webp');
  });
});

describe('listing, search, relay, API and sitemap builders', () => {
  it('link the listing by category and by popularity', () => {
    expect(categoryPath('exclusive')).toBe('/comics/?filter=exclusive');
    expect(categoryPath('slice-of-life')).toBe('/comics/?filter=slice-of-life');
    expect(popularPath()).toBe('/comics/?order=-popularity');
  });

  it('build the suggestions URL with every parameter given, in order', () => {
    expect(suggestPath({ cover: 'true', q: 'blade moon', site_id: '1' })).toBe('/search/suggest/?cover=true&q=blade+moon&site_id=1');
    expect(suggestPath({ cover: 'true', q: 'a&b', show_all_sites: 'true' })).toBe('/search/suggest/?cover=true&q=a%26b&show_all_sites=true');
  });

  it("build the relay's updates URL for a list of series", () => {
    expect(relayUpdatesPath([3, 1, 2], { clientid: 'inkpass-web', after: 1_800_000_000 })).toBe('/relay/consumer/inkpass/series/3,1,2/updates?clientid=inkpass-web&after=1800000000');
    expect(relayUpdatesPath(['SER-a', 7], { clientid: 'x', after: 0 })).toBe('/relay/consumer/inkpass/series/SER-a,7/updates?clientid=x&after=0');
  });

  it("build the comics API's next page", () => {
    expect(sapiComicsPath({ ordering: '-last_updated', page: 2 })).toBe('/sapi/comics/?ordering=-last_updated&page=2');
    expect(sapiComicsPath({ ordering: 'name', page: 41 })).toBe('/sapi/comics/?ordering=name&page=41');
  });

  it('name the sitemap files', () => {
    expect(SITEMAP_PATH).toBe('/sitemap.xml');
    expect(SERIES_SITEMAP_PATH).toBe('/sitemap-series.xml');
    expect(chapterSitemapPath(0)).toBe('/sitemaps/chapters-0.xml');
    expect(chapterSitemapPath(12)).toBe('/sitemaps/chapters-12.xml');
  });
});

describe('fixed routes and prefixes', () => {
  it('keep the URLs the site has always had', () => {
    expect(homePath()).toBe('/');
    expect(NOT_FOUND_PATH).toBe('/404/');
    expect(AUTH_PREFIX).toBe('/auth/');
    expect(LOGOUT_PATH).toBe('/auth/logout/');
    expect(logoutPagePath()).toBe('/auth/logout/?full=1');
    expect(LOGOUT_CONFIRM_PATH).toBe('/auth/logout/confirm/');
    expect(MY_PREFIX).toBe('/my/');
    expect(PURCHASE_PATH).toBe('/my/purchase/');
    expect(keysPath()).toBe('/my/keys/');
    expect(keysPath(2)).toBe('/my/keys/?page=2');
    expect(CHAPTER_PAGES_PREFIX).toBe('/media/p/');
  });

  it('put every account and personal page under its prefix', () => {
    for (const p of [loginPath(), signupPath('/x/'), LOGOUT_PATH, LOGOUT_CONFIRM_PATH]) expect(p.startsWith(AUTH_PREFIX)).toBe(true);
    for (const p of [favoritesPath(), historyPath(), keysPath(), PURCHASE_PATH]) expect(p.startsWith(MY_PREFIX)).toBe(true);
    expect(chapterPagePath('EPI-x', 1).startsWith(CHAPTER_PAGES_PREFIX)).toBe(true);
  });
});
