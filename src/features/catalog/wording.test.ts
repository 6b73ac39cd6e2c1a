import { describe, expect, it } from 'vitest';
import { createT, messageSources, type MessageKey } from '~/lib/i18n';
import { EPISODE_VARIANTS, unitKey, unitT } from './wording';

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)/g)].map((m) => m[1]).sort();

describe('unit wording: chapter and episode variants', () => {
  for (const locale of ['en', 'pt-BR'] as const) {
    const t = createT(locale);
    it(`every variant pair names its unit and keeps the placeholders (${locale})`, () => {
      for (const [chapterKey, episodeKey] of Object.entries(EPISODE_VARIANTS) as [MessageKey, MessageKey][]) {
        const chapter = t(chapterKey, { price: 1, keys: 0, xtra: 0 });
        const episode = t(episodeKey, { price: 1, keys: 0, xtra: 0 });
        expect(chapter, chapterKey).toMatch(/chapter|capítulo/i);
        expect(chapter, chapterKey).not.toMatch(/episode|episódio/i);
        expect(episode, episodeKey).toMatch(/episode|episódio/i);
        expect(episode, episodeKey).not.toMatch(/chapter|capítulo/i);
        expect(placeholders(messageSources(locale, [episodeKey])[episodeKey]!), episodeKey).toEqual(placeholders(messageSources(locale, [chapterKey])[chapterKey]!));
      }
    });
    it(`webtoons get the episode variant, other formats the chapter one (${locale})`, () => {
      expect(unitT(t, 'WEBTOON')('wallet.error.owned')).toMatch(/episode|episódio/i);
      expect(unitT(t, 'MANGA')('wallet.error.owned')).toMatch(/chapter|capítulo/i);
      expect(unitT(t, null)('wallet.error.owned')).toMatch(/chapter|capítulo/i);
      // Keys without a variant pass through.
      expect(unitT(t, 'WEBTOON')('wallet.buyKeys')).toBe(t('wallet.buyKeys'));
    });
  }
  it('picks keys by format', () => {
    expect(unitKey('WEBTOON', 'series.rentPromo')).toBe('series.rentPromoEpisode');
    expect(unitKey('COMIC', 'series.rentPromo')).toBe('series.rentPromo');
  });
});
