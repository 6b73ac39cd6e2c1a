import { describe, expect, it } from 'vitest';
import { createT } from '~/lib/i18n';
import { continueLabel, continueTarget, newestProgress, type ContinueChapter, type ContinueProgress } from './continue';

const NOW = 1_800_000_000;
const ch = (number: number, extra: Partial<ContinueChapter> = {}): ContinueChapter => ({ e4pid: `EPI-${extra.language ?? 'en'}-${number}`, number, language: 'en', released_at: NOW - 1000 + number, ...extra });
const read = (c: ContinueChapter, lastRead: number, completion = 100): ContinueProgress => ({ e4pid: c.e4pid, number: c.number, language: c.language, completion, completed: completion >= 100, lastRead });
const five = [1, 2, 3, 4, 5].map((n) => ch(n));
const target = (chapters: ContinueChapter[], progress: ContinueProgress[], prefer = 'en') => {
  const t = continueTarget(chapters, progress, NOW, prefer);
  return t && { kind: t.kind, number: t.chapter.number, language: t.chapter.language };
};

describe('continueTarget: the one continue-reading rule', () => {
  it('no progress: the first chapter, in the preferred language when it has one', () => {
    expect(target(five, [])).toEqual({ kind: 'start', number: 1, language: 'en' });
    const pt = [ch(1, { language: 'pt-br' }), ch(2, { language: 'pt-br' })];
    expect(target([...[...five].reverse(), ...pt], [], 'pt-br')).toEqual({ kind: 'start', number: 1, language: 'pt-br' });
    expect(target(five, [], 'pt-br')).toEqual({ kind: 'start', number: 1, language: 'en' });
  });
  it('a chapter in progress: that chapter', () => {
    expect(target(five, [read(five[0]!, 10), read(five[2]!, 20, 40)])).toEqual({ kind: 'continue', number: 3, language: 'en' });
  });
  it('a chapter opened but not scrolled (completion 0) is still the one to continue', () => {
    expect(target(five, [read(five[0]!, 10), read(five[1]!, 20, 0)])).toEqual({ kind: 'continue', number: 2, language: 'en' });
  });
  it('last finished N: the first unfinished chapter after N', () => {
    expect(target(five, [read(five[0]!, 10)])).toEqual({ kind: 'continue', number: 2, language: 'en' });
    // Chapters 3 and 4 were read earlier; re-reading 2 continues at 5.
    expect(target(five, [read(five[2]!, 5), read(five[3]!, 6), read(five[1]!, 9)])).toEqual({ kind: 'continue', number: 5, language: 'en' });
  });
  it('finished in the same second as opening the next: the higher number is the position', () => {
    expect(target(five, [read(five[0]!, 10), read(five[1]!, 10, 5)])).toEqual({ kind: 'continue', number: 2, language: 'en' });
  });
  it('everything finished: read the latest chapter again', () => {
    expect(target(five, five.map((c, i) => read(c, i)))).toEqual({ kind: 'readAgain', number: 5, language: 'en' });
  });
  it('skips unreleased and withdrawn chapters', () => {
    const chapters = [ch(1), ch(2, { expired_at: NOW - 1 }), ch(3, { released_at: NOW + 60 }), ch(4)];
    expect(target(chapters, [read(chapters[0]!, 10)])).toEqual({ kind: 'continue', number: 4, language: 'en' });
    // Caught up with only a scheduled chapter ahead: the latest released one, not the scheduled one.
    expect(target([ch(1), ch(2, { released_at: NOW + 60 })], [read(ch(1), 10)])).toEqual({ kind: 'readAgain', number: 1, language: 'en' });
    // Nothing released yet: no target.
    expect(continueTarget([ch(1, { released_at: NOW + 1 })], [], NOW, 'en')).toBeNull();
  });
  it('a chapter in progress that was removed: the next available one', () => {
    const gone = ch(2);
    expect(target([five[0]!, five[2]!], [read(five[0]!, 5), read(gone, 9, 50)])).toEqual({ kind: 'continue', number: 3, language: 'en' });
  });
  it('stays in the language the reader reads', () => {
    const pt = [1, 2, 3].map((n) => ch(n, { language: 'pt-br' }));
    expect(target([...five, ...pt], [read(pt[0]!, 10)], 'en')).toEqual({ kind: 'continue', number: 2, language: 'pt-br' });
  });
  it('works on the chapters from the position on (what the lists load)', () => {
    expect(target(five.slice(1), [read(five[0]!, 10)])).toEqual({ kind: 'continue', number: 2, language: 'en' });
  });
  it('newestProgress picks the last read, then the higher number', () => {
    expect(newestProgress([read(five[3]!, 5), read(five[1]!, 9), read(five[0]!, 9)])?.number).toBe(2);
    expect(newestProgress([])).toBeNull();
  });
});

describe('continueLabel names the chapter', () => {
  it('in both languages, episodes for webtoons (through the chapter name)', () => {
    expect(continueLabel(createT('en'), 'continue', 'Chapter 3')).toBe('Continue Chapter 3');
    expect(continueLabel(createT('pt-BR'), 'continue', 'Capítulo 3')).toBe('Continuar Capítulo 3');
    expect(continueLabel(createT('pt-BR'), 'readAgain', 'Episódio 5')).toBe('Reler Episódio 5');
    expect(continueLabel(createT('en'), 'start', 'Episode 1')).toBe('Start Episode 1');
  });
});
