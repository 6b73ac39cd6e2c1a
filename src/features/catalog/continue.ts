/**
 * The one continue-reading rule (docs/library-progress.md "Continue reading"): which chapter a
 * reader goes on with in a series. Pure, so the series page, the episodes API, the history page,
 * the home shelf and the favorites page all apply the same rule to the rows they load.
 *
 * - No progress in the series: the first available chapter (the site's language first): `start`.
 * - The reader's position is their newest progress row (last read, then the higher number).
 *   Unfinished and still available: that chapter (`continue`).
 * - Otherwise the first available chapter after it, in its language, that the reader has not
 *   finished (`continue`).
 * - Nothing unfinished after it (caught up): the latest available chapter, `readAgain`; when a new
 *   chapter comes out it becomes the `continue` target, so nothing jumps back to chapter 1.
 * Available: released (`released_at <= now`) and not withdrawn (`expired_at` unset or later);
 * a chapter deleted from the catalogue is simply not in the list.
 */
import { readState } from './rules';
import type { MessageKey, T } from '~/lib/i18n';

export interface ContinueChapter {
  e4pid: string;
  number: number;
  language: string;
  released_at: number;
  expired_at?: number | null;
}

export interface ContinueProgress {
  e4pid: string;
  number: number;
  language: string;
  completion: number;
  completed: boolean;
  lastRead: number;
}

export type ContinueKind = 'start' | 'continue' | 'readAgain';

export interface ContinueTarget<C extends ContinueChapter> {
  kind: ContinueKind;
  chapter: C;
}

export function isAvailable(c: Pick<ContinueChapter, 'released_at' | 'expired_at'>, now: number): boolean {
  return c.released_at <= now && (c.expired_at == null || c.expired_at > now);
}

/** The reader's position in a series: the newest progress row (last read, then the higher number). */
export function newestProgress<P extends ContinueProgress>(progress: readonly P[]): P | null {
  let best: P | null = null;
  for (const p of progress) {
    if (!best || p.lastRead > best.lastRead || (p.lastRead === best.lastRead && p.number > best.number)) best = p;
  }
  return best;
}

const byNumber = (a: ContinueChapter, b: ContinueChapter) => a.number - b.number;

/**
 * The chapter to continue. `chapters` are the series' chapters in any order (callers may pass only
 * those from the position on, in its language: the rule reads nothing before it); `progress` is
 * every progress row of the reader in the series. Null when the series has no available chapter.
 */
export function continueTarget<C extends ContinueChapter>(
  chapters: readonly C[],
  progress: readonly ContinueProgress[],
  now: number,
  preferLanguage: string,
): ContinueTarget<C> | null {
  const available = chapters.filter((c) => isAvailable(c, now));
  const at = newestProgress(progress);
  if (at) {
    const lineup = available.filter((c) => c.language === at.language).sort(byNumber);
    if (lineup.length > 0) {
      const finished = new Set(progress.filter((p) => readState(p) === 'read').map((p) => p.e4pid));
      if (!finished.has(at.e4pid)) {
        const same = lineup.find((c) => c.e4pid === at.e4pid);
        if (same) return { kind: 'continue', chapter: same };
      }
      const next = lineup.find((c) => c.number > at.number && !finished.has(c.e4pid));
      if (next) return { kind: 'continue', chapter: next };
      return { kind: 'readAgain', chapter: lineup[lineup.length - 1]! };
    }
  }
  const first = available.filter((c) => c.language === preferLanguage).sort(byNumber)[0] ?? [...available].sort(byNumber)[0];
  return first ? { kind: 'start', chapter: first } : null;
}

const LABEL_KEYS = { start: 'continue.start', continue: 'series.continueReading', readAgain: 'continue.readAgain' } as const satisfies Record<ContinueKind, MessageKey>;

/** The button text every surface shows for a target: "Continue Chapter 3", "Continuar Episódio 3", … */
export function continueLabel(t: T, kind: ContinueKind, chapterName: string): string {
  return t(LABEL_KEYS[kind], { chapter: chapterName });
}
