import { describe, expect, it } from 'vitest';
import en from '../../i18n/en.json';
import ptBR from '../../i18n/pt-BR.json';
import { createT, hasMessage } from './i18n';

describe('t.exists', () => {
  const t = createT('en');
  const tPt = createT('pt-BR');

  it('is true for every catalogue key, in both locales', () => {
    for (const key of Object.keys(en)) {
      expect(t.exists(key), key).toBe(true);
      expect(tPt.exists(key), key).toBe(true);
    }
    expect(Object.keys(ptBR).every((key) => hasMessage('pt-BR', key))).toBe(true);
  });

  it('is false for keys built from data that have no message', () => {
    expect(t.exists('status.SOMETIMES')).toBe(false);
    expect(tPt.exists('language.xx')).toBe(false);
    expect(t.exists('')).toBe(false);
  });

  it('ignores what every object inherits', () => {
    for (const key of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) expect(t.exists(key), key).toBe(false);
  });

  it('agrees with formatting: an existing key gives its message, a missing one comes back as the key', () => {
    expect(t.exists('status.COMPLETED')).toBe(true);
    expect(t('status.COMPLETED')).not.toBe('status.COMPLETED');
    const missing = 'status.SOMETIMES';
    expect(t.exists(missing)).toBe(false);
    expect(t(missing as Parameters<typeof t>[0])).toBe(missing);
  });

  it('narrows a built key so it can be formatted without a cast', () => {
    const key = `language.${'pt-br'}`;
    const label = t.exists(key) ? t(key) : 'pt-br';
    expect(label).toBe(en['language.pt-br']);
  });
});

describe('formatting with values (kept per key and values)', () => {
  it('gives each set of values its own text, the same text again, and never mixes types or locales', () => {
    const t = createT('en');
    const tPt = createT('pt-BR');
    expect(t('header.keys', { keys: 1, xtra: 2 })).toBe('Your keys: 1 key and 2 Xtra keys');
    expect(t('header.keys', { keys: 1, xtra: 2 })).toBe('Your keys: 1 key and 2 Xtra keys');
    expect(t('header.keys', { keys: 2, xtra: 1 })).toBe('Your keys: 2 keys and 1 Xtra key');
    expect(tPt('header.keys', { keys: 1, xtra: 2 })).not.toBe(t('header.keys', { keys: 1, xtra: 2 }));
    // A string of digits is kept apart from the number (a different key) and formats the same.
    expect(t('header.keys', { keys: '1' as unknown as number, xtra: 2 })).toBe(t('header.keys', { keys: 1, xtra: 2 }));
    for (let i = 0; i < 6000; i++) t('header.keys', { keys: i, xtra: 0 });
    expect(t('header.keys', { keys: 1, xtra: 2 })).toBe('Your keys: 1 key and 2 Xtra keys');
  });
});
