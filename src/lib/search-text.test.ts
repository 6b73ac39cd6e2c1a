import { describe, expect, it } from 'vitest';
import { MAX_QUERY_LENGTH, MAX_TERMS, normalizeQuery, normalizeText, searchDocument, truncateQuery } from './search-text';

describe('normalizeText', () => {
  it('lower-cases and strips accents', () => {
    expect(normalizeText('Coração de Aço')).toBe('coracao de aco');
    expect(normalizeText('ÉLÈVE Ñandú Über Çà')).toBe('eleve nandu uber ca');
    expect(normalizeText('Ficção Científica')).toBe('ficcao cientifica');
  });
  it('handles precomposed and decomposed input alike', () => {
    expect(normalizeText('Cora\u00e7\u00e3o')).toBe(normalizeText('Corac\u0327a\u0303o'));
  });
  it('turns punctuation and symbols into separators and collapses whitespace', () => {
    expect(normalizeText('  Blade\tof\n the   Quiet-Moon!! ')).toBe('blade of the quiet moon');
    expect(normalizeText('"foo"* (bar) baz:qux -x \'y\' \\z')).toBe('foo bar baz qux x y z');
    expect(normalizeText('50%_off')).toBe('50 off');
    expect(normalizeText('post-apocalyptic')).toBe('post apocalyptic');
  });
  it('keeps letters of other scripts and digits', () => {
    expect(normalizeText('東京 2099')).toBe('東京 2099');
    expect(normalizeText('Ωmega')).toBe('ωmega');
  });
  it('gives an empty string for nothing searchable', () => {
    expect(normalizeText('')).toBe('');
    expect(normalizeText('  ***  ')).toBe('');
    expect(normalizeText('\u0301\u0327')).toBe('');
    expect(normalizeText('😀 🎉')).toBe('');
  });
});

describe('truncateQuery', () => {
  it('cuts to the maximum length in code points', () => {
    expect(truncateQuery('a'.repeat(10_000))).toHaveLength(MAX_QUERY_LENGTH);
    expect(Array.from(truncateQuery('😀'.repeat(200)))).toHaveLength(MAX_QUERY_LENGTH);
    expect(truncateQuery('short')).toBe('short');
  });
  it('accepts missing input', () => {
    expect(truncateQuery(null)).toBe('');
    expect(truncateQuery(undefined)).toBe('');
  });
});

describe('normalizeQuery', () => {
  it('splits into distinct terms', () => {
    expect(normalizeQuery('CORACAO de aco')).toEqual({ text: 'coracao de aco', terms: ['coracao', 'de', 'aco'] });
    expect(normalizeQuery('one  piece one')).toEqual({ text: 'one piece', terms: ['one', 'piece'] });
  });
  it('treats a query shorter than 2 characters as empty', () => {
    expect(normalizeQuery('')).toEqual({ text: '', terms: [] });
    expect(normalizeQuery('a')).toEqual({ text: '', terms: [] });
    expect(normalizeQuery(' á ')).toEqual({ text: '', terms: [] });
    expect(normalizeQuery('"*')).toEqual({ text: '', terms: [] });
    expect(normalizeQuery(null)).toEqual({ text: '', terms: [] });
    expect(normalizeQuery('ab').terms).toEqual(['ab']);
    expect(normalizeQuery('a b').terms).toEqual(['a', 'b']);
  });
  it('caps the number of terms', () => {
    expect(normalizeQuery('a b c d e f g h i j k').terms).toHaveLength(MAX_TERMS);
    expect(normalizeQuery('a b c d e f g h i j k').terms.at(-1)).toBe('h');
  });
  it('caps the length before normalising', () => {
    const q = normalizeQuery('x'.repeat(10_000));
    expect(q.terms).toEqual(['x'.repeat(MAX_QUERY_LENGTH)]);
  });
  it('never lets search syntax through', () => {
    for (const raw of ['"', '*', '(', ':', 'NEAR(a b)', '-x', "'", '\\', 'a" OR "b', "x' or 1=1 --", 'col:term', 'a & b | !c', 'term:*', '^start', '{a b}']) {
      for (const t of normalizeQuery(raw).terms) expect(t).toMatch(/^[\p{L}\p{N}]+$/u);
    }
  });
  it('handles lone surrogates and control characters', () => {
    expect(normalizeQuery('ab\uD800cd').terms).toEqual(['ab', 'cd']);
    expect(normalizeQuery('ab\u0000cd').terms).toEqual(['ab', 'cd']);
  });
});

describe('searchDocument', () => {
  it('joins normalised parts and skips empty ones', () => {
    expect(searchDocument(['Coração de Aço', null, '', 'Ação', 'Mariana Tôrres', undefined, 'time travel'])).toBe('coracao de aco acao mariana torres time travel');
  });
});
