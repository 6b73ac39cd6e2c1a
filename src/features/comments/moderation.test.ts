import { describe, expect, it } from 'vitest';
import { banUntil, findBlockedWord, HOLD_AT_REPORTS, isReportReason, normalizeWords, REMOVE_AT_REPORTS, stateAfterReports } from './moderation';

describe('stateAfterReports', () => {
  it('holds at 3 open reports and removes at 10', () => {
    expect(stateAfterReports('VISIBLE', HOLD_AT_REPORTS - 1)).toBeNull();
    expect(stateAfterReports('VISIBLE', HOLD_AT_REPORTS)).toEqual({ state: 'HELD', reason: 'reports' });
    expect(stateAfterReports('HELD', HOLD_AT_REPORTS + 1)).toBeNull();
    expect(stateAfterReports('HELD', REMOVE_AT_REPORTS)).toEqual({ state: 'REMOVED', reason: 'reports_limit' });
    expect(stateAfterReports('REMOVED', REMOVE_AT_REPORTS + 1)).toBeNull();
  });
});

describe('blocked words', () => {
  it('matches whole words, whatever the case, accents and punctuation', () => {
    expect(normalizeWords('  IDIÓTA!! ||Spoiler||  ')).toBe('idiota spoiler');
    expect(findBlockedWord('Você é um Idiota!', ['idiota'])).toBe('idiota');
    expect(findBlockedWord('a first-class read', ['ass'])).toBeNull();
    expect(findBlockedWord('buy cheap coins now', ['cheap coins'])).toBe('cheap coins');
    expect(findBlockedWord('anything', [])).toBeNull();
  });
});

describe('reasons and ban lengths', () => {
  it('takes the closed list of reasons only', () => {
    expect(isReportReason('spam')).toBe(true);
    expect(isReportReason('SPAM')).toBe(false);
    expect(isReportReason(undefined)).toBe(false);
  });
  it('ends a ban after its days, or never', () => {
    expect(banUntil('7', 100)).toBe(100 + 7 * 86400);
    expect(banUntil('forever', 100)).toBeNull();
  });
});
