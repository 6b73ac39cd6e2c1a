import { describe, expect, it } from 'vitest';
import { countMessage, languageParams, parseSuggestions, submitHref, suggestUrl, toggleLanguage } from './overlay';

const EN = { en: true, pt: false };
const PT = { en: false, pt: true };
const ALL = { en: true, pt: true };

describe('languageParams', () => {
  it('maps the filter to site_id or show_all_sites', () => {
    expect(languageParams(EN)).toEqual({ site_id: '1' });
    expect(languageParams(PT)).toEqual({ site_id: '3' });
    expect(languageParams(ALL)).toEqual({ show_all_sites: 'true' });
  });
});

describe('the at-least-one-language rule', () => {
  it('unchecking the last language checks the other one', () => {
    expect(toggleLanguage(EN, 'en', false)).toEqual(PT);
    expect(toggleLanguage(PT, 'pt', false)).toEqual(EN);
    expect(toggleLanguage(ALL, 'en', false)).toEqual(PT);
    expect(toggleLanguage(EN, 'pt', true)).toEqual(ALL);
  });
});

describe('suggestUrl', () => {
  it('asks for covers, the text and the language filter', () => {
    const url = new URL(suggestUrl(' blad ', EN)!, 'http://x');
    expect(url.pathname).toBe('/search/suggest/');
    expect(Object.fromEntries(url.searchParams)).toEqual({ cover: 'true', q: 'blad', site_id: '1' });
    expect(new URL(suggestUrl('Coração', ALL)!, 'http://x').searchParams.get('show_all_sites')).toBe('true');
    expect(new URL(suggestUrl('a&b=c', PT)!, 'http://x').searchParams.get('q')).toBe('a&b=c');
  });
  it('sends nothing below 2 searchable characters', () => {
    for (const t of ['', 'a', ' b ', 'á', '**', '"', '😀😀']) expect(suggestUrl(t, EN)).toBeNull();
    expect(suggestUrl('ab', EN)).not.toBeNull();
  });
});

describe('parseSuggestions', () => {
  it('zips the tuple into suggestions', () => {
    const body = ['bl', ['Blade'], ['A ronin'], ['http://h/comics/blade/'], ['http://h/media/t.webp'], [[1, 3]]];
    expect(parseSuggestions(body)).toEqual([{ name: 'Blade', excerpt: 'A ronin', link: 'http://h/comics/blade/', thumbnail: 'http://h/media/t.webp', siteIds: [1, 3] }]);
  });
  it('accepts a tuple without site ids and empty thumbnails', () => {
    expect(parseSuggestions(['x', ['A'], [''], ['/comics/a/'], ['']])).toEqual([{ name: 'A', excerpt: '', link: '/comics/a/', thumbnail: '', siteIds: [] }]);
  });
  it('rejects malformed bodies', () => {
    for (const b of [null, {}, 'x', [], ['x', 'A', [], [], []], ['x', [1], [''], ['/a/'], ['']], { detail: 'no' }]) expect(parseSuggestions(b)).toBeNull();
  });
  it('drops links a reader must not follow', () => {
    const body = ['x', ['A', 'B'], ['', ''], ['javascript:alert(1)', 'https://h/comics/b/'], ['javascript:x', '']];
    expect(parseSuggestions(body)!.map((s) => s.name)).toEqual(['B']);
  });
});

describe('submitHref', () => {
  it('goes to the listing with the query, and the language only when it is not the site default', () => {
    expect(submitHref('blade moon', EN, 1)).toBe('/comics/?q=blade+moon');
    expect(submitHref('blade', PT, 3)).toBe('/comics/?q=blade');
    expect(submitHref('blade', ALL, 1)).toBe('/comics/?q=blade&show_all_sites=true');
    expect(submitHref('blade', PT, 1)).toBe('/comics/?q=blade&site_id=3');
  });
  it('drops a query shorter than 2 characters', () => {
    expect(submitHref('a', EN, 1)).toBe('/comics/');
  });
});

describe('countMessage', () => {
  it('chooses the plural form for the locale', () => {
    const forms = { one: '{count} result', other: '{count} results' };
    expect(countMessage(forms, 1, 'en')).toBe('1 result');
    expect(countMessage(forms, 8, 'en')).toBe('8 results');
    expect(countMessage({ one: '{count} resultado', other: '{count} resultados' }, 2, 'pt-BR')).toBe('2 resultados');
    // Portuguese zero is plural (CLDR's `one` covers 0; Brazilians write "0 resultados").
    expect(countMessage({ one: '{count} resultado', other: '{count} resultados' }, 0, 'pt-BR')).toBe('0 resultados');
    expect(countMessage({ one: '{count} resultado', other: '{count} resultados' }, 1, 'pt-BR')).toBe('1 resultado');
  });
});
