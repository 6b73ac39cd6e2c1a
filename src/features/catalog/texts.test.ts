import { describe, expect, it } from 'vitest';
import { hintsFor, localizeRow, localizedText, scheduleLine } from './texts';

describe('series texts fallback', () => {
  it('shows the translation when there is one', () => {
    expect(localizedText('Updated weekly', 'Atualizado semanalmente')).toBe('Atualizado semanalmente');
  });

  it('falls back to the original for a missing, null or blank translation', () => {
    expect(localizedText('Updated weekly', undefined)).toBe('Updated weekly');
    expect(localizedText('Updated weekly', null)).toBe('Updated weekly');
    expect(localizedText('Updated weekly', '  ')).toBe('Updated weekly');
    expect(localizedText(null, null)).toBeNull();
  });

  it('replaces field by field and keeps untranslated fields original', () => {
    const row = { id: 7, name: 'The Villainess Retires Early', excerpt: 'A villainess quits.', update_text: 'Updated weekly', slug: 'x' };
    const out = localizeRow(row, { name: 'A Vilã se Aposenta Cedo', excerpt: null });
    expect(out).toEqual({ id: 7, name: 'A Vilã se Aposenta Cedo', excerpt: 'A villainess quits.', update_text: 'Updated weekly', slug: 'x' });
    expect(row.name).toBe('The Villainess Retires Early');
  });

  it('never adds fields the row does not carry, and returns the row itself when nothing changes', () => {
    const row = { id: 1, name: 'Ironwood' };
    expect(localizeRow(row, { description: 'Uma descrição' })).toBe(row);
    expect(localizeRow(row, undefined)).toBe(row);
    expect('description' in localizeRow(row, { description: 'x' })).toBe(false);
  });

  it('lists the original name among the alternative names instead of the translated one', () => {
    const row = { name: 'Midnight Volleyball Club', alt: 'Clube de Vôlei da Meia-Noite\nMayonaka Volley' };
    expect(localizeRow(row, { name: 'Clube de Vôlei da Meia-Noite' }).alt).toBe('Midnight Volleyball Club\nMayonaka Volley');
    expect(localizeRow(row, { description: 'x' }).alt).toBe(row.alt);
  });

  it('translates the chapter name format ("Round {num}" → "Rodada {num}")', () => {
    expect(localizeRow({ chapter_name_format: 'Round {num}' }, { chapter_name_format: 'Rodada {num}' }).chapter_name_format).toBe('Rodada {num}');
  });
});

describe('the schedule line (issue 26: no English line under Portuguese labels)', () => {
  const line = (over: Partial<Parameters<typeof scheduleLine>[0]>) =>
    scheduleLine({ original: 'New episodes every Friday', localized: 'New episodes every Friday', siteLanguage: 'pt-br', seriesLanguages: ['en'], generated: 'Novos episódios toda sexta-feira', ...over });
  it('an English-only series on the Portuguese site gets the line generated in Portuguese, never the English one', () => {
    expect(line({})).toBe('Novos episódios toda sexta-feira');
    expect(line({ seriesLanguages: ['en', 'pt-br'] })).toBe('Novos episódios toda sexta-feira');
  });
  it('a translation into the site\'s language wins; the original shows where it is the site\'s language', () => {
    expect(line({ localized: 'Toda sexta, episódio novo' })).toBe('Toda sexta, episódio novo');
    expect(line({ siteLanguage: 'en', generated: 'New episodes every Friday' , original: 'Fresh on Fridays', localized: 'Fresh on Fridays' })).toBe('Fresh on Fridays');
    expect(line({ original: 'Novos capítulos todo domingo', localized: 'Novos capítulos todo domingo', seriesLanguages: ['pt-br'] })).toBe('Novos capítulos todo domingo');
  });
  it('a Portuguese-only series on the English site gets the English line; no line of its own or no status line gives none', () => {
    expect(line({ siteLanguage: 'en', original: 'Em hiato', localized: 'Em hiato', seriesLanguages: ['pt-br'], generated: 'On hiatus' })).toBe('On hiatus');
    expect(line({ original: null, localized: null })).toBeNull();
    expect(line({ generated: '' })).toBeNull();
  });
});

describe('the series notes a site shows', () => {
  const friday = { text: 'New chapters every Friday', icon: 'BELL' };
  const sexta = { text: 'Capítulos novos toda sexta', icon: 'BELL', language: 'pt-br' };
  it('a note in the series\' first language shows on that site only; one naming its language, on that one', () => {
    expect(hintsFor([friday, sexta], 'en', ['en', 'pt-br'])).toEqual([friday]);
    expect(hintsFor([friday, sexta], 'pt-br', ['en', 'pt-br'])).toEqual([sexta]);
    expect(hintsFor([{ text: 'Nova temporada em breve', icon: 'BELL' }], 'pt-br', ['pt-br'])).toHaveLength(1);
    expect(hintsFor([friday], 'pt-br', ['en'])).toEqual([]);
  });
});
