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
    // From the parsed message: a select's branch text ("{unit, select, episode {episodes} …}") is no placeholder.
    type Node = { type: number; value?: unknown; options?: Record<string, { value: Node[] }> };
    const names = (nodes: Node[], out: string[] = []): string[] => {
      for (const n of nodes) {
        if (n.type !== 0 && n.type !== 7 && n.type !== 8 && typeof n.value === 'string') out.push(n.value);
        for (const o of Object.values(n.options ?? {})) names(o.value, out);
      }
      return out;
    };
    const args = (s: string, locale: string) => names(new IntlMessageFormat(s, locale).getAst() as Node[]);
    for (const key of Object.keys(en) as (keyof typeof en)[]) {
      expect(new Set(args((pt as Record<string, string>)[key]!, 'pt-BR')), key).toEqual(new Set(args(en[key], 'en')));
    }
  });
  it('translates: no Portuguese message is left identical to English except names and symbols', () => {
    const same = Object.keys(en).filter((k) => (pt as Record<string, string>)[k] === (en as Record<string, string>)[k]);
    // "Push" is the word Brazilian sites use for push notifications (a column header of the settings table).
    for (const k of same) expect(en[k as keyof typeof en], k).toMatch(/^(Inkpass|18\+|Webtoon|PayPal|Google Pay|Apple Pay|Pix|Push|\{[^}]+\}.*|[^a-z]*)$/i);
  });
});
