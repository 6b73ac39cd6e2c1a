import { describe, expect, it } from 'vitest';
import { buildSuggestIndex, fuzziness, tier, type SuggestDoc } from './fuzzy';

const doc = (id: number, names: string[], popularity = 0, text = '', blocks: string[] = []): SuggestDoc => ({ id, names, text, popularity, blocks });

const DOCS: SuggestDoc[] = [
  doc(1, ['The Villainess Retires Early', 'A Vilã se Aposenta Cedo'], 100, 'mara ellison romance villainess royalty'),
  doc(2, ['Villa Rosa'], 5000),
  doc(3, ['Villains Anonymous'], 900),
  doc(4, ['Blade of the Quiet Moon', 'Lâmina da Lua Silenciosa'], 50, 'haruto mizushima action samurai'),
  doc(5, ['Blade'], 10),
  doc(6, ['Bladesmith Diaries'], 99999),
  doc(7, ['Coração de Aço'], 300, 'lucas andrade'),
  doc(8, ['Ghost Ward 13'], 1, '', ['JP']),
];
const index = await buildSuggestIndex(DOCS);
const search = (q: string, country?: string) => index.search(q, { limit: 8, country });

describe('suggestion ranking', () => {
  it('puts the exact name first, then name prefixes, then the rest, whatever the popularity', () => {
    const ids = search('blade');
    expect(ids[0]).toBe(5); // exact, least popular
    expect(ids.slice(1, 3).sort()).toEqual([4, 6]); // prefixes
    expect(ids.indexOf(6)).toBeLessThan(ids.length);
  });

  it('ranks a prefix of the name above a fuzzy match of a more popular series', () => {
    const ids = search('villa');
    expect(ids[0]).toBe(2); // "villa rosa": prefix, and popular
    expect(ids).toContain(1);
    const typo = search('villains');
    expect(typo[0]).toBe(3); // prefix of "villains anonymous" beats the fuzzy "villainess"
  });

  it('tells the tiers apart', () => {
    expect(tier(['blade'], 'blade')).toBe(0);
    expect(tier(['blade of the quiet moon'], 'blade')).toBe(1);
    expect(tier(['the blade'], 'blade')).toBe(2);
  });
});

describe('suggestion typos', () => {
  it('finds "The Villainess Retires Early" from "villanes" (English)', () => {
    // "villains" is as near as "villainess" (two edits each): both are offered.
    expect(search('villanes').slice(0, 2).sort()).toEqual([1, 3]);
    expect(search('the villanes retires')[0]).toBe(1);
  });

  it('finds the Portuguese name from a Portuguese typo, accents or not', () => {
    expect(search('aposnta')[0]).toBe(1);
    expect(search('vila se aposenta')[0]).toBe(1);
    expect(search('silenciossa')[0]).toBe(4);
    expect(search('corasao')[0]).toBe(7);
    expect(search('CORAÇÃO')[0]).toBe(7);
  });

  it('keeps short terms exact (no fuzzy under 4 letters), one edit from 4, two from 7, and matches nothing for noise', () => {
    expect(fuzziness('moo')).toBe(false);
    expect(fuzziness('villanes')).toBe(2);
    expect(fuzziness('aposnta')).toBe(2);
    expect(fuzziness('vilas')).toBe(1);
    expect(fuzziness('horror')).toBe(1); // two edits would make it "harbor"
    expect(search('qqzzxx')).toEqual([]);
    expect(search('a')).toEqual([]);
  });

  it('matches authors and keywords too', () => {
    expect(search('mizushima')).toEqual([4]);
    expect(search('andrad')).toEqual([7]);
  });

  it('leaves out REMOVED series when asked (the suggestions), not otherwise (the listing)', async () => {
    const withRemoved = await buildSuggestIndex([...DOCS, { ...doc(9, ['Glass Crown'], 10), active: false }]);
    expect(withRemoved.search('glass crown', {})).toEqual([9]);
    expect(withRemoved.search('glass crown', { activeOnly: true })).toEqual([]);
  });

  it("leaves out series blocked in the reader's country", () => {
    expect(search('ghost ward')).toEqual([8]);
    expect(search('ghost ward', 'JP')).toEqual([]);
    expect(search('ghost ward', 'BR')).toEqual([8]);
  });
});
