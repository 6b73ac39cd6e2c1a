/** Comment moderation: pure rules (report reasons and thresholds, blocked words, ban lengths), shared by the server, pages and tests. */

/** The reasons a reader may give for a report (a closed list). */
export const REPORT_REASONS = ['spoiler', 'spam', 'harassment', 'other'] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];

export function isReportReason(value: unknown): value is ReportReason {
  return typeof value === 'string' && (REPORT_REASONS as readonly string[]).includes(value);
}

/** Open reports that hold a comment for review (hidden from everyone but its author). */
export const HOLD_AT_REPORTS = 3;
/** Open reports that remove it outright (hidden from its author too, until a moderator restores it). */
export const REMOVE_AT_REPORTS = 10;

export type CommentState = 'VISIBLE' | 'HELD' | 'REMOVED';

/** The state a comment moves to after a new report brings its open reports to `count` (REMOVED and HELD are never undone here). */
export function stateAfterReports(state: CommentState, count: number): { state: CommentState; reason: 'reports' | 'reports_limit' } | null {
  if (count >= REMOVE_AT_REPORTS && state !== 'REMOVED') return { state: 'REMOVED', reason: 'reports_limit' };
  if (count >= HOLD_AT_REPORTS && state === 'VISIBLE') return { state: 'HELD', reason: 'reports' };
  return null;
}

/** The longest blocked word or phrase, and how many a site may have. */
export const BLOCKED_WORD_MAX = 60;
export const BLOCKED_WORDS_PER_SITE = 500;

/**
 * Text as blocked words are matched: lowercase, accents gone, anything but letters and digits a
 * single space. "Idiota!" and "IDIÓTA" both match the word "idiota"; "||spoiler||" is the word "spoiler".
 */
export function normalizeWords(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}+/gu, '').toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
}

/**
 * The first blocked word or phrase (already normalized) found in `body` as whole words, or null.
 * Whole words only: "class" does not match a blocked "ass".
 */
export function findBlockedWord(body: string, words: readonly string[]): string | null {
  if (!words.length) return null;
  const text = ` ${normalizeWords(body)} `;
  return words.find((w) => w && text.includes(` ${w} `)) ?? null;
}

/** Ban lengths the studio offers: days, or `forever`. */
export const BAN_LENGTHS = ['1', '7', '30', 'forever'] as const;
export type BanLength = (typeof BAN_LENGTHS)[number];
export const BAN_REASON_MAX = 300;

export function isBanLength(value: unknown): value is BanLength {
  return typeof value === 'string' && (BAN_LENGTHS as readonly string[]).includes(value);
}

/** When a ban of this length, given at `now`, ends (null: never). */
export function banUntil(length: BanLength, now: number): number | null {
  return length === 'forever' ? null : now + Number(length) * 24 * 60 * 60;
}
