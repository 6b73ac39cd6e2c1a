/**
 * The one search (fuzzy.ts) over the demo catalogue's real names, in both languages: what a
 * reader mistypes must still put the series first, whichever path asks (the suggestions and the
 * listing rank with this same index; tests/integration/search.test.ts checks both paths agree).
 */
import { describe, expect, it } from 'vitest';
import { SERIES } from '@db/seed/catalog';
import { buildSuggestIndex, joinedTails, type SuggestDoc } from './fuzzy';

const docs: SuggestDoc[] = SERIES.map((s, i) => ({
  id: i + 1,
  names: [s.name, ...(s.pt ? [s.pt] : []), ...(s.alt ?? [])],
  text: [s.author, s.artist ?? '', ...s.tags, ...s.kw].join(' '),
  popularity: s.popularity ?? 0,
  blocks: [],
  active: s.state !== 'REMOVED',
}));
const index = await buildSuggestIndex(docs);
const nameOf = (id: number | undefined) => (id == null ? null : SERIES[id - 1]!.name);
const first = (q: string) => nameOf(index.search(q, { limit: 8 })[0]);

/** [typed, the series it must put first]: the three and the kinds of slip readers make. */
export const MISSPELLINGS: readonly (readonly [string, string])[] = [
  // The issue's own.
  ['villanes', 'The Villainess Retires Early'],
  ['vilãs', 'The Villainess Retires Early'],
  // Dropped letters.
  ['clockwrk sheriff', 'The Clockwork Sheriff'],
  ['ravenmor', 'Ravenmoor'],
  ['cartographr', 'The Last Cartographer'],
  // Doubled letters.
  ['harrbor lights', 'Harbor Lights'],
  ['ironwoood', 'Ironwood'],
  // Swapped letters.
  ['stardsut courier', 'Stardust Courier'],
  ['menagreie', 'The Brass Menagerie'],
  // Wrong letters.
  ['kaiju wether report', 'Kaiju Weather Report'],
  ['velvit hours', 'Velvet Hours'],
  // A missing space.
  ['villainessretires', 'The Villainess Retires Early'],
  ['ghostward', 'Ghost Ward 13'],
  // Word order.
  ['retires villainess', 'The Villainess Retires Early'],
  ['moon quiet blade', 'Blade of the Quiet Moon'],
  // Partial words, as typed.
  ['sakuragi mount', 'Sakuragi Mountain Express'],
  ['exorc', 'Ninth Floor Exorcist'],
  // Portuguese, accents dropped or misplaced, and Portuguese typos.
  ['coracao de aco', 'Coração de Aço'],
  ['cancao da mare', 'Canção da Maré'],
  ['sertao das almas', 'O Sertão das Almas'],
  ['noites de sao joão', 'Noites de São João'],
  ['jabuticba', 'Sabor de Jabuticaba'],
  ['cangaco cibernetico', 'Cangaço Cibernético'],
  ['feitiçeira atrazada', 'Diário de uma Feiticeira Atrasada'],
  ['vila se aposnta', 'The Villainess Retires Early'],
  ['guardia do farol', 'A Guardiã do Farol'],
  ['capoera celestial', 'Capoeira Celestial'],
  // Upper case and punctuation.
  ['CORAÇÃO DE AÇO', 'Coração de Aço'],
  ['coffee & curses!', 'Coffee & Curses'],
];

describe('the one search over the demo catalogue', () => {
  it.each(MISSPELLINGS)('"%s" puts %s first', (typed, series) => {
    expect(first(typed)).toBe(series);
  });

  it('finds nothing for noise, and offers no "Did you mean" that does not look like the text', () => {
    expect(index.search('qqzzxx wvvy', {})).toEqual([]);
    expect(index.closest('qqzzxx wvvy', {})).toBeNull();
    // Not in the catalogue; "pice" is two edits from "tide", but "Crimson Tide Ronin" looks nothing like it.
    expect(index.search('one pice', {})).toEqual([]);
    expect(index.closest('one pice', {})).toBeNull();
  });

  it('offers the closest name when the text is too far for the search itself, in both languages', () => {
    for (const [typed, series] of [
      ['clokwrok sherif', 'The Clockwork Sheriff'],
      ['ghots wrd', 'Ghost Ward 13'],
      ['the vilainess retires eraly now', 'The Villainess Retires Early'],
      ['corasaum de aso', 'Coração de Aço'],
      ['noyts de sao juao', 'Noites de São João'],
    ] as const) {
      expect(index.search(typed, {}), typed).toEqual([]);
      expect(nameOf(index.closest(typed, {}) ?? undefined), typed).toBe(series);
    }
  });

  it('joins a name from each word on, for missing spaces', () => {
    expect(joinedTails('the villainess retires early')).toEqual(['thevillainessretiresearly', 'villainessretiresearly', 'retiresearly']);
    expect(joinedTails('ravenmoor')).toEqual([]);
  });
});
