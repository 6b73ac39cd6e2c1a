import { describe, it, expect } from 'vitest';
import { formatChapterNumber, formatOrdinal, chapterName, finalPrice, unlockBonus, readState, isOnSale, withGaps, limitUpcoming, resolveLanguageHash, unitFor } from './rules';

const DAY = 86400;

describe('chapter numbers', () => {
  it.each([
    [12, '12'], [12.5, '12.5'], [12.5, '12.5'], [12.25, '12.25'], [12.1, '12.1'], [3.1, '3.1'],
    [40.257, '40.26'], [0, '0'], [0.5, '0.5'], [100.999, '101'], [7.0, '7'], [1.005, '1.01'],
  ])('%s shows as %s with up to two decimals and no trailing zeros', (n, expected) => {
    expect(formatChapterNumber(n)).toBe(expected);
  });
  it('uses the locale decimal separator when a locale is given', () => {
    expect(formatChapterNumber(12.5, 'pt-BR')).toBe('12,5');
    expect(formatChapterNumber(12.5, 'en')).toBe('12.5');
    expect(formatChapterNumber(1000, 'en')).toBe('1000');
  });
  it('gives an empty string for non-numbers', () => {
    expect(formatChapterNumber(Number.NaN)).toBe('');
    expect(formatChapterNumber(Infinity)).toBe('');
  });
});

describe('ordinals for {ord}', () => {
  it.each([
    [1, '1st'], [2, '2nd'], [3, '3rd'], [4, '4th'], [11, '11th'], [12, '12th'], [13, '13th'],
    [21, '21st'], [22, '22nd'], [23, '23rd'], [101, '101st'], [111, '111th'], [12.5, '12.5th'],
  ])('English %s -> %s', (n, expected) => expect(formatOrdinal(n, 'en')).toBe(expected));
  it('Portuguese uses the masculine ordinal indicator', () => {
    expect(formatOrdinal(1, 'pt-BR')).toBe('1º');
    expect(formatOrdinal(12.5, 'pt-BR')).toBe('12,5º');
  });
});

describe('chapter names', () => {
  it('uses the localized default when the series has no format', () => {
    expect(chapterName(12.5, 'en', null, 'Chapter {num}')).toBe('Chapter 12.5');
    expect(chapterName(3, 'pt-BR', null, 'Episódio {num}')).toBe('Episódio 3');
  });
  it('fills {num} and {ord} in the series format', () => {
    expect(chapterName(2, 'en', 'Ch. {num}', 'Chapter {num}')).toBe('Ch. 2');
    expect(chapterName(2, 'en', '{ord} Chapter', 'Chapter {num}')).toBe('2nd Chapter');
    expect(chapterName(23, 'en', 'Round {num} ({ord})', 'Chapter {num}')).toBe('Round 23 (23rd)');
  });
  it('ignores a series format without placeholders', () => {
    expect(chapterName(4, 'en', 'Bonus', 'Chapter {num}')).toBe('Chapter 4');
    expect(chapterName(4, 'en', '', 'Episode {num}')).toBe('Episode 4');
  });
  it('webtoons have episodes, comics and manga chapters', () => {
    expect(unitFor('WEBTOON')).toBe('episode');
    expect(unitFor('MANGA')).toBe('chapter');
    expect(unitFor('COMIC')).toBe('chapter');
  });
});

describe('final price with campaigns', () => {
  const now = 1_000_000;
  const campaign = { override_starting_count: 10, override_ending_count: 20, override_all_free: 0, discount: 0.5, starts_at: now - DAY, ends_at: now + DAY };
  it('is the original price without campaigns', () => {
    expect(finalPrice({ number: 5, original_price: 3 }, [], now)).toBe(3);
  });
  it('discounts chapters inside the range while the campaign runs, rounding up', () => {
    expect(finalPrice({ number: 10, original_price: 3 }, [campaign], now)).toBe(2);
    expect(finalPrice({ number: 20, original_price: 10 }, [campaign], now)).toBe(5);
  });
  it('leaves chapters outside the range or time window alone', () => {
    expect(finalPrice({ number: 9, original_price: 3 }, [campaign], now)).toBe(3);
    expect(finalPrice({ number: 21, original_price: 3 }, [campaign], now)).toBe(3);
    expect(finalPrice({ number: 12, original_price: 3 }, [{ ...campaign, ends_at: now }], now)).toBe(3);
    expect(finalPrice({ number: 12, original_price: 3 }, [{ ...campaign, starts_at: now + 1 }], now)).toBe(3);
  });
  it('frees the range when the campaign overrides all free', () => {
    expect(finalPrice({ number: 15, original_price: 12 }, [{ ...campaign, override_all_free: 1 }], now)).toBe(0);
  });
  it('takes the lowest of overlapping campaigns and never goes negative', () => {
    const deeper = { ...campaign, discount: 0.9 };
    expect(finalPrice({ number: 15, original_price: 10 }, [campaign, deeper], now)).toBe(1);
    expect(finalPrice({ number: 15, original_price: 10 }, [{ ...campaign, discount: 7 }], now)).toBe(0);
    expect(finalPrice({ number: 15, original_price: 10 }, [{ ...campaign, discount: -3 }], now)).toBe(10);
  });
  it('open-ended ranges apply to every chapter', () => {
    expect(finalPrice({ number: 999, original_price: 4 }, [{ ...campaign, override_starting_count: null, override_ending_count: null }], now)).toBe(2);
  });
  it('marks a price lowered by a campaign as a sale, and nothing else', () => {
    const sale = { name: 'Sale', discount: 0.5, endsAt: now + 60 };
    expect(isOnSale({ sale, originalPrice: 3, finalPrice: 2 })).toBe(true);
    expect(isOnSale({ sale, originalPrice: 3, finalPrice: 3 })).toBe(false);
    // Free for a while by the series' strategy: free, not a sale.
    expect(isOnSale({ sale: null, originalPrice: 3, finalPrice: 0 })).toBe(false);
  });
});

describe('unlock bonus', () => {
  it.each([[0, 0], [9, 0], [10, 1], [15, 1], [19, 1], [20, 2], [99, 9]])('price %s gives %s Xtra keys', (p, b) => expect(unlockBonus(p)).toBe(b));
});

describe('chapter states', () => {
  it('read once completed or at 100, reading when started', () => {
    expect(readState({ completed: true, completion: 10 })).toBe('read');
    expect(readState({ completion: 100 })).toBe('read');
    expect(readState({ completion: 1 })).toBe('reading');
    expect(readState({ completion: 0 })).toBeNull();
    expect(readState({})).toBeNull();
  });
});

describe('coming-soon gaps', () => {
  const nums = (ns: number[]) => ns.map((number) => ({ number }));
  const shape = (items: ReturnType<typeof withGaps>) => items.map((i) => (i.kind === 'gap' ? 'gap' : (i.chapter as { number: number }).number));
  it('inserts a row where consecutive chapters are more than 1.5 apart', () => {
    expect(shape(withGaps(nums([1, 2, 3, 6, 7])))).toEqual([1, 2, 3, 'gap', 6, 7]);
  });
  it('does not for gaps of exactly 1.5 or decimals in between', () => {
    expect(shape(withGaps(nums([1, 2.5, 3, 4])))).toEqual([1, 2.5, 3, 4]);
    expect(shape(withGaps(nums([12, 12.5, 13])))).toEqual([12, 12.5, 13]);
  });
  it('works newest first too', () => {
    expect(shape(withGaps(nums([9, 8, 5, 4])))).toEqual([9, 8, 'gap', 5, 4]);
  });
  it('handles empty and single lists', () => {
    expect(withGaps([])).toEqual([]);
    expect(shape(withGaps(nums([1])))).toEqual([1]);
  });
});

describe('upcoming chapters on the Portuguese site', () => {
  const now = 1000;
  const list = (released: number, upcoming: number) => [
    ...Array.from({ length: released }, (_, i) => ({ id: `r${i}`, releasedAt: now - 100 + i })),
    ...Array.from({ length: upcoming }, (_, i) => ({ id: `u${i}`, releasedAt: now + 100 * (i + 1) })),
  ];
  it('keeps only the 5 soonest upcoming chapters when released ones exist', () => {
    const out = limitUpcoming(list(3, 8), 3, now);
    expect(out.map((c) => c.id)).toEqual(['r0', 'r1', 'r2', 'u0', 'u1', 'u2', 'u3', 'u4']);
  });
  it('keeps every chapter when nothing is released yet', () => {
    expect(limitUpcoming(list(0, 8), 3, now)).toHaveLength(8);
  });
  it('keeps every chapter on the English site', () => {
    expect(limitUpcoming(list(3, 8), 1, now)).toHaveLength(11);
  });
  it('keeps the input order (newest first lists stay newest first)', () => {
    const desc = list(2, 7).reverse();
    expect(limitUpcoming(desc, 3, now).map((c) => c.id)).toEqual(['u4', 'u3', 'u2', 'u1', 'u0', 'r1', 'r0']);
  });
  it('reads the release time through an accessor (database rows)', () => {
    const rows = list(3, 8).map((c) => ({ id: c.id, released_at: c.releasedAt }));
    expect(limitUpcoming(rows, 3, now, (r) => r.released_at).map((c) => c.id)).toEqual(['r0', 'r1', 'r2', 'u0', 'u1', 'u2', 'u3', 'u4']);
  });
});

describe('language tabs from the hash', () => {
  const available = ['en', 'pt-br', 'es'];
  it('selects another language by #language-{code}', () => {
    expect(resolveLanguageHash('#language-es', 'en', available)).toEqual({ tab: 'es', replaceWith: null });
  });
  it("redirects the reader's own language to #languages", () => {
    expect(resolveLanguageHash('#language-en', 'en', available)).toEqual({ tab: 'en', replaceWith: '#languages' });
    expect(resolveLanguageHash('#language-pt-br', 'pt-br', available)).toEqual({ tab: 'pt-br', replaceWith: '#languages' });
  });
  it('ignores unknown languages and other hashes', () => {
    expect(resolveLanguageHash('#language-fr', 'en', available)).toEqual({ tab: null, replaceWith: null });
    expect(resolveLanguageHash('#languages', 'en', available)).toEqual({ tab: null, replaceWith: null });
    expect(resolveLanguageHash('', 'en', available)).toEqual({ tab: null, replaceWith: null });
    expect(resolveLanguageHash('#language-<script>', 'en', available)).toEqual({ tab: null, replaceWith: null });
  });
  it('is case-insensitive', () => {
    expect(resolveLanguageHash('#language-ES', 'en', available).tab).toBe('es');
  });
});
