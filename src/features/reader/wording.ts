/**
 * The reader's words for the series' unit: a webtoon is read in episodes, every other format in
 * chapters (catalog `unitFor`), in both languages. Every reader string that names the unit comes
 * from here, so no page says "Next chapter" under an episode.
 */
import { unitFor, type Format } from '~/features/catalog';
import type { MessageKey, T } from '~/lib/i18n';

const KEYS = {
  chapter: {
    previous: 'reader.previousChapter',
    next: 'reader.nextChapter',
    locked: 'reader.locked.title',
    list: 'reader.chapterList',
    nav: 'reader.chapterNav',
    upToDate: 'reader.upToDate',
  },
  episode: {
    previous: 'reader.previousEpisode',
    next: 'reader.nextEpisode',
    locked: 'reader.locked.episodeTitle',
    list: 'reader.episodeList',
    nav: 'reader.episodeNav',
    upToDate: 'reader.upToDateEpisodes',
  },
} as const satisfies Record<'chapter' | 'episode', Record<string, MessageKey>>;

export type ReaderWords = Record<keyof (typeof KEYS)['chapter'], string>;

export function readerWords(t: T, format: Format): ReaderWords {
  const keys = KEYS[unitFor(format)];
  return {
    previous: t(keys.previous),
    next: t(keys.next),
    locked: t(keys.locked),
    list: t(keys.list),
    nav: t(keys.nav),
    upToDate: t(keys.upToDate),
  };
}
