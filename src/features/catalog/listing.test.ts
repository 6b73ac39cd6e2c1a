import { describe, it, expect } from 'vitest';
import {
  MAX_PAGE,
  cleanQuery,
  defaultLanguages,
  defaultParams,
  followQuery,
  languageState,
  languagesFromForm,
  listingHref,
  pageCount,
  paginationWindow,
  parseFilters,
  parseLanguages,
  parseListing,
  parseOrder,
  parsePage,
  serializeListing,
  siteIdsFor,
  toggleLanguage,
  viewCookie,
  withCategory,
  withFormat,
  withInvertedOrder,
  withLanguage,
  withOrderKey,
  withPage,
  type ListingParams,
} from './listing';

const en = 1 as const;
const br = 3 as const;
const parse = (qs: string, site: 1 | 3 = en, cookie?: string | null) => parseListing(new URLSearchParams(qs), site, cookie).params;
const canonical = (qs: string, site: 1 | 3 = en) => serializeListing(parse(qs, site), site);

describe('search text', () => {
  it('treats text shorter than 2 characters as an empty query', () => {
    expect(cleanQuery('')).toBe('');
    expect(cleanQuery('a')).toBe('');
    expect(cleanQuery('  a  ')).toBe('');
    expect(cleanQuery('é')).toBe('');
    expect(cleanQuery('ab')).toBe('ab');
    expect(cleanQuery(null)).toBe('');
    expect(cleanQuery(undefined)).toBe('');
  });

  it('counts an emoji as one character, not two code units', () => {
    expect(cleanQuery('😀')).toBe('');
    expect(cleanQuery('😀x')).toBe('😀x');
  });

  it('trims and collapses whitespace and control characters', () => {
    expect(cleanQuery('  one   piece \t')).toBe('one piece');
    expect(cleanQuery('a\u0000b')).toBe('a b');
  });

  it('truncates oversized text to 100 characters without splitting a surrogate pair', () => {
    expect(cleanQuery('x'.repeat(250))).toBe('x'.repeat(100));
    const emoji = '😀'.repeat(120);
    const cut = cleanQuery(emoji);
    expect(Array.from(cut)).toHaveLength(100);
    expect(cut).toBe('😀'.repeat(100));
  });


});

describe('order', () => {
  it('accepts the four keys with an optional minus for descending', () => {
    expect(parseOrder('name')).toEqual({ key: 'name', desc: false });
    expect(parseOrder('-name')).toEqual({ key: 'name', desc: true });
    expect(parseOrder('popularity')).toEqual({ key: 'popularity', desc: false });
    expect(parseOrder('-chapters')).toEqual({ key: 'chapters', desc: true });
    expect(parseOrder('updated')).toEqual({ key: 'updated', desc: false });
  });

  it('falls back to -updated for anything else', () => {
    for (const bad of [null, undefined, '', 'rating', '--name', '+name', 'name;drop', '-']) {
      expect(parseOrder(bad)).toEqual({ key: 'updated', desc: true });
    }
  });

  it('order buttons use their natural direction and go back to page 1', () => {
    const p = { ...defaultParams(en), page: 4 };
    expect(withOrderKey(p, 'name').order).toEqual({ key: 'name', desc: false });
    expect(withOrderKey(p, 'popularity').order).toEqual({ key: 'popularity', desc: true });
    expect(withOrderKey(p, 'chapters').order).toEqual({ key: 'chapters', desc: true });
    expect(withOrderKey(p, 'updated').order).toEqual({ key: 'updated', desc: true });
    expect(withOrderKey(p, 'name').page).toBe(1);
  });

  it('invert flips the direction of the current key', () => {
    const p = withOrderKey(defaultParams(en), 'name');
    expect(withInvertedOrder(p).order).toEqual({ key: 'name', desc: true });
    expect(withInvertedOrder(withInvertedOrder(p)).order).toEqual({ key: 'name', desc: false });
    expect(serializeListing(withInvertedOrder(defaultParams(en)), en)).toBe('order=updated');
  });
});

describe('order of a search', () => {
  it('is best match by default, so the first card is the first suggestion', () => {
    expect(parse('q=villanes').order).toEqual({ key: 'relevance', desc: false });
    expect(serializeListing(parse('q=villanes'), en)).toBe('q=villanes');
    expect(listingHref(defaultParams(en, ' villanes '), en)).toBe('/comics/?q=villanes');
  });

  it('keeps an order the reader chose, newest first included', () => {
    expect(parse('q=villanes&order=name').order).toEqual({ key: 'name', desc: false });
    expect(parse('q=villanes&order=-updated').order).toEqual({ key: 'updated', desc: true });
    expect(canonical('q=villanes&order=-updated')).toBe('q=villanes&order=-updated');
    expect(withOrderKey(parse('q=villanes&order=name'), 'relevance').order).toEqual({ key: 'relevance', desc: false });
    expect(canonical('q=villanes&order=relevance')).toBe('q=villanes');
  });

  it('has no best match without search text, nor a reversed best match', () => {
    expect(parse('order=relevance').order).toEqual({ key: 'updated', desc: true });
    expect(canonical('order=relevance')).toBe('');
    expect(parse('q=villanes&order=-relevance').order).toEqual({ key: 'relevance', desc: false });
    const p = parse('q=villanes');
    expect(withInvertedOrder(p).order).toEqual(p.order);
  });

  it('follows the text: typing ranks by best match, clearing goes back to newest, a chosen order stays', () => {
    const none = defaultParams(en);
    expect(followQuery(none, { ...none, q: 'villanes' }).order).toEqual({ key: 'relevance', desc: false });
    const searching = parse('q=villanes');
    expect(followQuery(searching, { ...searching, q: '' }).order).toEqual({ key: 'updated', desc: true });
    expect(followQuery(searching, { ...searching, q: 'vilas' }).order).toEqual({ key: 'relevance', desc: false });
    const byName = parse('q=villanes&order=name');
    expect(followQuery(byName, { ...byName, q: 'vilas' }).order).toEqual({ key: 'name', desc: false });
    expect(followQuery(byName, { ...byName, q: '' }).order).toEqual({ key: 'name', desc: false });
    const byUpdated = withOrderKey(none, 'popularity');
    expect(followQuery(byUpdated, { ...byUpdated, q: 'x1' }).order).toEqual({ key: 'popularity', desc: true });
  });
});

describe('page', () => {
  it('clamps to 1..10000', () => {
    expect(parsePage('1')).toBe(1);
    expect(parsePage('7')).toBe(7);
    expect(parsePage('0')).toBe(1);
    expect(parsePage('10000')).toBe(10000);
    expect(parsePage('10001')).toBe(MAX_PAGE);
    expect(parsePage('99999999999999999999')).toBe(MAX_PAGE);
    expect(parsePage('0007')).toBe(7);
  });

  it('reads anything malformed as page 1', () => {
    for (const bad of [null, undefined, '', '-3', '2.5', '1e3', 'abc', '0x10', ' ']) expect(parsePage(bad)).toBe(1);
  });

  it('withPage clamps too', () => {
    const p = defaultParams(en);
    expect(withPage(p, 0).page).toBe(1);
    expect(withPage(p, 20000).page).toBe(MAX_PAGE);
    expect(withPage(p, Number.NaN).page).toBe(1);
  });

  it('counts pages of 24', () => {
    expect(pageCount(0)).toBe(1);
    expect(pageCount(24)).toBe(1);
    expect(pageCount(25)).toBe(2);
    expect(pageCount(240)).toBe(10);
  });

  it('shows first, last and a window around the current page', () => {
    expect(paginationWindow(1, 1)).toEqual([1]);
    expect(paginationWindow(1, 3)).toEqual([1, 2, 3]);
    expect(paginationWindow(5, 10)).toEqual([1, null, 4, 5, 6, null, 10]);
    expect(paginationWindow(3, 10)).toEqual([1, 2, 3, 4, null, 10]);
    expect(paginationWindow(1, 10)).toEqual([1, 2, null, 10]);
    expect(paginationWindow(50, 10)).toEqual([1, null, 10]);
  });
});

describe('filters', () => {
  it('keeps several formats in a fixed order, without duplicates', () => {
    expect(parseFilters(['webtoon', 'comic', 'webtoon']).formats).toEqual(['comic', 'webtoon']);
    expect(parseFilters(['MANGA']).formats).toEqual(['manga']);
  });

  it('reads complete and exclusive flags', () => {
    const f = parseFilters(['complete', 'exclusive']);
    expect(f.complete).toBe(true);
    expect(f.exclusive).toBe(true);
    expect(parseFilters([]).complete).toBe(false);
  });

  it('keeps only the first category (one category at a time)', () => {
    expect(parseFilters(['action', 'romance']).category).toBe('action');
    expect(parseFilters(['comic', 'slice-of-life', 'drama']).category).toBe('slice-of-life');
  });

  it('ignores values that cannot be a tag slug', () => {
    expect(parseFilters(['', '-bad', 'bad-', 'has space', '<script>', 'x'.repeat(80), 'é']).category).toBeNull();
    expect(parseFilters(['', '<script>', 'ok']).category).toBe('ok');
  });

  it('selecting a category replaces the previous one; selecting it again clears it', () => {
    const p = withCategory(defaultParams(en), 'action');
    expect(p.category).toBe('action');
    expect(withCategory(p, 'romance').category).toBe('romance');
    expect(withCategory(p, 'action').category).toBeNull();
    expect(withCategory(p, null).category).toBeNull();
    expect(withCategory(p, 'comic').category).toBeNull();
  });

  it('turns formats on and off', () => {
    let p = withFormat(defaultParams(en), 'webtoon', true);
    p = withFormat(p, 'comic', true);
    expect(p.formats).toEqual(['comic', 'webtoon']);
    expect(withFormat(p, 'comic', false).formats).toEqual(['webtoon']);
  });
});

describe('languages', () => {
  it('defaults to the site own language', () => {
    expect(defaultLanguages(en)).toEqual({ en: true, pt: false });
    expect(defaultLanguages(br)).toEqual({ en: false, pt: true });
    expect(parse('', br).languages).toEqual({ en: false, pt: true });
  });

  it('reads show_all_sites and site_id', () => {
    expect(parseLanguages('true', null, en)).toEqual({ en: true, pt: true });
    expect(parseLanguages('true', '1', br)).toEqual({ en: true, pt: true });
    expect(parseLanguages(null, '3', en)).toEqual({ en: false, pt: true });
    expect(parseLanguages(null, '1', br)).toEqual({ en: true, pt: false });
    expect(parseLanguages('false', '2', br)).toEqual({ en: false, pt: true });
    expect(parseLanguages(null, 'abc', en)).toEqual({ en: true, pt: false });
  });

  it('keeps at least one language: unchecking the last one checks the other', () => {
    expect(toggleLanguage({ en: true, pt: false }, 'en', false)).toEqual({ en: false, pt: true });
    expect(toggleLanguage({ en: false, pt: true }, 'pt', false)).toEqual({ en: true, pt: false });
    expect(toggleLanguage({ en: true, pt: true }, 'en', false)).toEqual({ en: false, pt: true });
    expect(toggleLanguage({ en: true, pt: true }, 'pt', false)).toEqual({ en: true, pt: false });
    expect(toggleLanguage({ en: true, pt: false }, 'pt', true)).toEqual({ en: true, pt: true });
    expect(toggleLanguage({ en: false, pt: true }, 'pt', true)).toEqual({ en: false, pt: true });
  });

  it('withLanguage applies the rule and goes back to page 1', () => {
    const p = withLanguage({ ...defaultParams(en), page: 3 }, 'en', false);
    expect(p.languages).toEqual({ en: false, pt: true });
    expect(p.page).toBe(1);
  });

  it('applies the rule to the no-JavaScript form using the state it was rendered with', () => {
    expect(languagesFromForm(['en', 'pt'], null, en)).toEqual({ en: true, pt: true });
    expect(languagesFromForm(['pt'], { en: true, pt: true }, en)).toEqual({ en: false, pt: true });
    expect(languagesFromForm([], { en: true, pt: false }, en)).toEqual({ en: false, pt: true });
    expect(languagesFromForm([], { en: false, pt: true }, br)).toEqual({ en: true, pt: false });
    expect(languagesFromForm([], { en: true, pt: true }, br)).toEqual({ en: false, pt: true });
    expect(languagesFromForm([], null, en)).toEqual({ en: true, pt: false });
    expect(languagesFromForm(['xx'], null, br)).toEqual({ en: false, pt: true });
  });

  it('maps languages to the sites listed', () => {
    expect(siteIdsFor({ en: true, pt: true })).toEqual([1, 3]);
    expect(siteIdsFor({ en: false, pt: true })).toEqual([3]);
    expect(siteIdsFor({ en: true, pt: false })).toEqual([1]);
    expect(languageState({ en: true, pt: true })).toBe('all');
    expect(languageState({ en: false, pt: true })).toBe('pt');
  });

  it('reads the form (lang + langs_was) and asks for a redirect', () => {
    const r = parseListing('q=&lang=pt&lang=en&langs_was=en&order=-updated', en);
    expect(r.fromForm).toBe(true);
    expect(r.params.languages).toEqual({ en: true, pt: true });
    expect(serializeListing(r.params, en)).toBe('show_all_sites=true');
    const none = parseListing('langs_was=pt', br);
    expect(none.params.languages).toEqual({ en: true, pt: false });
    expect(parseListing('site_id=3', en).fromForm).toBe(false);
  });
});

describe('view', () => {
  it('uses the URL first, then the cookie, then list', () => {
    expect(parse('view=grid').view).toBe('grid');
    expect(parse('view=list', en, 'grid').view).toBe('list');
    expect(parse('', en, 'grid').view).toBe('grid');
    expect(parse('', en, 'bogus').view).toBe('list');
    expect(parse('view=tiles', en, 'grid').view).toBe('grid');
    expect(parse('').view).toBe('list');
  });

  it('reports whether the URL chose the view', () => {
    expect(parseListing('view=GRID', en).explicitView).toBe('grid');
    expect(parseListing('', en, 'grid').explicitView).toBeNull();
  });

  it('writes the cookie for 30 days', () => {
    expect(viewCookie('grid', { secure: false, domain: null })).toBe('view=grid; Path=/; Max-Age=2592000; SameSite=Lax');
    expect(viewCookie('list', { secure: true, domain: 'inkpass.example' })).toBe('view=list; Path=/; Domain=inkpass.example; Max-Age=2592000; SameSite=Lax; Secure');
  });
});

describe('validation of the query string', () => {
  it('uses the first value of repeated scalar params', () => {
    const p = parse('q=first&q=second&order=name&order=-chapters&page=3&page=5&view=grid&view=list&site_id=3&site_id=1');
    expect(p.q).toBe('first');
    expect(p.order).toEqual({ key: 'name', desc: false });
    expect(p.page).toBe(3);
    expect(p.view).toBe('grid');
    expect(p.languages).toEqual({ en: false, pt: true });
  });

  it('ignores unknown params and values', () => {
    expect(parse('foo=bar&filter=&filter=%00&order=sideways&view=3d&site_id=2')).toEqual(defaultParams(en));
  });

  it('accepts a plain object too', () => {
    expect(parseListing({ filter: ['manga', 'action'], q: 'hero' }, en).params).toMatchObject({ formats: ['manga'], category: 'action', q: 'hero' });
  });

  it('never throws on hostile input', () => {
    const hostile = ['%', '%E0%A4%A', 'page=' + '9'.repeat(500), 'filter=' + 'a'.repeat(100_000), 'q=%ED%A0%80', '&&&=&=='];
    for (const qs of hostile) expect(() => canonical(qs)).not.toThrow();
    expect(() => serializeListing(parseListing({ q: '\uD800ab' }, en).params, en)).not.toThrow();
  });
});

describe('canonical query string', () => {
  it('is empty for the defaults', () => {
    expect(serializeListing(defaultParams(en), en)).toBe('');
    expect(serializeListing(defaultParams(br), br)).toBe('');
    expect(listingHref(defaultParams(en), en)).toBe('/comics/');
  });

  it('omits the default order and the list view', () => {
    expect(canonical('order=-updated&view=list&page=1')).toBe('');
    expect(canonical('order=updated&view=grid')).toBe('order=updated&view=grid');
  });

  it('writes params in a stable order whatever the input order', () => {
    const a = canonical('site_id=3&page=2&view=grid&order=name&filter=exclusive&filter=action&filter=webtoon&filter=complete&filter=comic&q=hero');
    const b = canonical('filter=comic&q=hero&filter=action&order=name&filter=webtoon&view=grid&filter=complete&page=2&filter=exclusive&site_id=3');
    expect(a).toBe('q=hero&filter=comic&filter=webtoon&filter=complete&filter=exclusive&filter=action&order=name&view=grid&page=2&site_id=3');
    expect(b).toBe(a);
  });

  it('writes the language only when it is not the site default', () => {
    expect(canonical('site_id=1', en)).toBe('');
    expect(canonical('site_id=3', br)).toBe('');
    expect(canonical('site_id=3', en)).toBe('site_id=3');
    expect(canonical('site_id=1', br)).toBe('site_id=1');
    expect(canonical('show_all_sites=true&site_id=1', br)).toBe('show_all_sites=true');
  });

  it('drops a short search and keeps a real one encoded', () => {
    expect(canonical('q=a')).toBe('');
    expect(canonical('q=a%C3%A7%C3%A3o+m%C3%A1gica')).toBe('q=a%C3%A7%C3%A3o+m%C3%A1gica');
    expect(canonical('q=' + 'z'.repeat(150))).toBe('q=' + 'z'.repeat(100));
  });

  it('is a fixed point: parsing the canonical string gives the same string and params', () => {
    const inputs = [
      '', 'q=hero', 'filter=manga&filter=comic', 'order=-name&page=9', 'view=grid&show_all_sites=true', 'filter=fantasy&filter=complete&site_id=3',
      'page=10001', 'q=%25%25', 'order=chapters&view=list',
    ];
    for (const site of [en, br]) {
      for (const qs of inputs) {
        const once = canonical(qs, site);
        const params = parse(once, site);
        expect(serializeListing(params, site)).toBe(once);
        expect(params).toEqual(parse(qs, site));
      }
    }
  });

  it('can force view=list for the view switch', () => {
    const p: ListingParams = { ...defaultParams(en), view: 'list' };
    expect(listingHref(p, en, '/comics/', { explicitView: true })).toBe('/comics/?view=list');
    expect(listingHref(p, en, '/comics/fragment/')).toBe('/comics/fragment/');
  });
});
