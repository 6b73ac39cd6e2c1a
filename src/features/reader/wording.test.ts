import { describe, expect, it } from 'vitest';
import { createT } from '~/lib/i18n';
import { readerWords } from './wording';

describe('reader wording follows the series unit', () => {
  it('webtoons say episode, in both languages', () => {
    expect(readerWords(createT('en'), 'WEBTOON')).toMatchObject({ next: 'Next episode', previous: 'Previous episode', locked: 'This episode is locked' });
    expect(readerWords(createT('pt-BR'), 'WEBTOON')).toMatchObject({ next: 'Próximo episódio', previous: 'Episódio anterior', locked: 'Este episódio está bloqueado' });
  });
  it('comics and manga say chapter, in both languages', () => {
    for (const format of ['COMIC', 'MANGA'] as const) {
      expect(readerWords(createT('en'), format)).toMatchObject({ next: 'Next chapter', locked: 'This chapter is locked' });
      expect(readerWords(createT('pt-BR'), format)).toMatchObject({ next: 'Próximo capítulo', locked: 'Este capítulo está bloqueado' });
    }
  });
  it('no episode word leaks into chapter wording or back', () => {
    for (const locale of ['en', 'pt-BR'] as const) {
      const t = createT(locale);
      for (const text of Object.values(readerWords(t, 'WEBTOON'))) expect(text).not.toMatch(/chapter|capítulo/i);
      for (const text of Object.values(readerWords(t, 'MANGA'))) expect(text).not.toMatch(/episode|episódio/i);
    }
  });
  it('Portuguese ends an episode with "Fim do"', () => {
    expect(createT('pt-BR')('reader.endOfChapter', { chapter: 'Episódio 1' })).toBe('Fim do Episódio 1');
  });
});
