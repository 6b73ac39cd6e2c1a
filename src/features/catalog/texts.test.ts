import { describe, expect, it } from 'vitest';
import { localizeRow, localizedText } from './texts';

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
