import { describe, it, expect } from 'vitest';
import { IntlMessageFormat } from 'intl-messageformat';
import en from './en.json';
import pt from './pt-BR.json';

describe('message catalogues', () => {
  it('have exactly the same keys', () => {
    expect(Object.keys(pt).sort()).toEqual(Object.keys(en).sort());
  });
  it('every message parses as ICU MessageFormat in its locale', () => {
    for (const [locale, catalogue] of [['en', en], ['pt-BR', pt]] as const) {
      for (const [key, source] of Object.entries(catalogue)) {
        expect(() => new IntlMessageFormat(source as string, locale), `${locale} ${key}`).not.toThrow();
      }
    }
  });
  it('uses the same placeholders in both languages', () => {
    const args = (s: string) => [...s.matchAll(/\{\s*(\w+)\s*[,}]/g)].map((m) => m[1]).sort();
    for (const key of Object.keys(en) as (keyof typeof en)[]) {
      expect(new Set(args((pt as Record<string, string>)[key]!)), key).toEqual(new Set(args(en[key])));
    }
  });
  it('translates: no Portuguese message is left identical to English except names and symbols', () => {
    const same = Object.keys(en).filter((k) => (pt as Record<string, string>)[k] === (en as Record<string, string>)[k]);
    for (const k of same) expect(en[k as keyof typeof en], k).toMatch(/^(Inkpass|18\+|Webtoon|PayPal|Google Pay|Apple Pay|Pix|\{[^}]+\}.*|[^a-z]*)$/i);
  });
});
