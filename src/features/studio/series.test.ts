import { describe, expect, it } from 'vitest';
import { isCountryCode, parseCountries, parseNewTags, readSeriesForm, slugify } from './series.server';

const form = (fields: Record<string, string | string[]>) => {
  const f = new URLSearchParams({
    'original.name': 'The Tower', state: 'DRAFT', format: 'MANGA', update_status: 'WEEKLY', color: '#112233',
    starting_count: '0', catchup_count: '0', daily_pass_ttl: '72', daily_pass_recharge: '23', total_ads: '0', ads_ttl: '48',
  });
  for (const [k, v] of Object.entries(fields)) {
    f.delete(k);
    for (const one of Array.isArray(v) ? v : [v]) f.append(k, one);
  }
  return f;
};

describe('the series editor form (docs/staff.md)', () => {
  it('makes slugs from names: accents folded, punctuation dropped, single hyphens', () => {
    expect(slugify('Coração de Aço!')).toBe('coracao-de-aco');
    expect(slugify("  The Witch's -- Hat  ")).toBe('the-witchs-hat');
    expect(slugify('!!!')).toBe('');
    expect(slugify('a'.repeat(300))).toHaveLength(200);
  });

  it('takes real two-letter country codes only, upper-cased, deduplicated and sorted', () => {
    expect(parseCountries('pt, br BR;jp')).toEqual(['BR', 'JP', 'PT']);
    expect(parseCountries('')).toEqual([]);
    for (const bad of ['XX', 'BRA', 'Brazil', 'ZZ', 'EU', '1A']) expect(parseCountries(bad), bad).toBeNull();
    expect(isCountryCode('BR')).toBe(true);
  });

  it('reads new tags as "English | Português", one a line', () => {
    expect(parseNewTags('Space Opera | Ópera Espacial\n\n Cozy | Aconchegante ')).toEqual([{ name: 'Space Opera', namePt: 'Ópera Espacial' }, { name: 'Cozy', namePt: 'Aconchegante' }]);
    for (const bad of ['Only English', ' | Só português', 'A | B | C', `${'x'.repeat(61)} | y`, '!!! | ???']) expect(parseNewTags(bad), bad).toBeNull();
  });

  it('refuses each bad field with its message and keeps what was typed', () => {
    expect(readSeriesForm(form({})).errors).toEqual({});
    const cases: [Record<string, string | string[]>, string, string][] = [
      [{ 'original.name': ' ' }, 'original.name', 'studio.series.error.name'],
      [{ 'original.excerpt': 'x'.repeat(501) }, 'original.excerpt', 'studio.series.error.tooLong'],
      [{ 'en.name': 'Two\nlines' }, 'en.name', 'studio.series.error.oneLine'],
      [{ 'pt-br.chapter_name_format': 'Capítulo' }, 'pt-br.chapter_name_format', 'studio.series.error.chapterFormat'],
      [{ color: '#12345' }, 'color', 'studio.series.error.color'],
      [{ slug: 'a--b' }, 'slug', 'studio.series.error.slug'],
      [{ languages: ['en', 'en'] }, 'languages', 'studio.series.error.choice'],
      [{ state: 'PUBLISHED' }, 'state', 'studio.series.error.choice'],
      [{ starting_count: '1.5' }, 'starting_count', 'studio.series.error.count'],
      [{ daily_pass_ttl: '8761' }, 'daily_pass_ttl', 'studio.series.error.hours'],
      [{ ads_enabled: '1' }, 'total_ads', 'studio.series.error.adsNone'],
      [{ tags: ['1', '1'] }, 'tags', 'studio.series.error.choice'],
      [{ fpf: 'later' }, 'fpf', 'studio.series.error.choice'],
    ];
    for (const [change, field, key] of cases) {
      const { values, errors } = readSeriesForm(form(change));
      expect([field, errors[field as keyof typeof errors]]).toEqual([field, key]);
      expect(values.original.description).toBe('');
    }
    const kept = readSeriesForm(form({ 'original.description': 'Kept\r\nas typed ', color: 'red' }));
    expect(kept.values.original.description).toBe('Kept\nas typed');
  });
});
