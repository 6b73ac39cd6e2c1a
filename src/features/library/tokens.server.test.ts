import { describe, expect, it } from 'vitest';
import { PROGRESS_TOKEN_TTL, clampTtl, signAppToken, signProgressToken, verifyAppToken, verifyProgressToken } from './tokens.server';
import { keyFor } from '~/server/secrets';
import { completionAt, historyState, isNewerUpdate, mergeProgress, parseProgressReport } from './progress';

const S = 'test-secret';
const now = 1_800_000_000;

describe('progress tokens', () => {
  const token = signProgressToken(7, 'EPI-abc', now, S);
  it('verifies for the same user and chapter and returns the issue time', () => {
    expect(verifyProgressToken(token, { userId: 7, e4pid: 'EPI-abc', now: now + 10 }, S)).toEqual({ ok: true, issuedAt: now });
  });
  it("refuses another user's token, another chapter, a tampered time and another secret", () => {
    expect(verifyProgressToken(token, { userId: 8, e4pid: 'EPI-abc', now }, S)).toEqual({ ok: false, reason: 'wrongUser' });
    expect(verifyProgressToken(token, { userId: 7, e4pid: 'EPI-xyz', now }, S)).toEqual({ ok: false, reason: 'wrongChapter' });
    expect(verifyProgressToken(token.replace(`.${now}.`, `.${now + 1}.`), { userId: 7, e4pid: 'EPI-abc', now }, S).ok).toBe(false);
    expect(verifyProgressToken(token, { userId: 7, e4pid: 'EPI-abc', now }, 'other')).toEqual({ ok: false, reason: 'invalid' });
    expect(verifyProgressToken('garbage', { userId: 7, e4pid: 'EPI-abc', now }, S)).toEqual({ ok: false, reason: 'invalid' });
  });
  it('expires after 24 hours', () => {
    expect(verifyProgressToken(token, { userId: 7, e4pid: 'EPI-abc', now: now + PROGRESS_TOKEN_TTL + 1 }, S)).toEqual({ ok: false, reason: 'expired' });
  });
  it('is not accepted as an app token and vice versa', () => {
    expect(verifyAppToken(token, now, S)).toEqual({ ok: false, code: 'token_invalid' });
    expect(verifyProgressToken(signAppToken('sessionid123', 7, now + 60, S), { userId: 7, e4pid: 'EPI-abc', now }, S).ok).toBe(false);
  });
});

describe('app tokens', () => {
  it('verify until they expire, then say token_expired', () => {
    const t = signAppToken('sessionid123', 3, now + 60, S);
    expect(verifyAppToken(t, now, S)).toEqual({ ok: true, sessionId: 'sessionid123', userId: 3, expiresAt: now + 60 });
    expect(verifyAppToken(t, now + 60, S)).toEqual({ ok: false, code: 'token_expired' });
    expect(verifyAppToken(t.replace('.3.', '.4.'), now, S)).toEqual({ ok: false, code: 'token_invalid' });
    expect(verifyAppToken(t.replace('sessionid123', 'sessionid124'), now, S)).toEqual({ ok: false, code: 'token_invalid' });
    expect(verifyAppToken(null, now, S)).toEqual({ ok: false, code: 'token_invalid' });
    expect(verifyAppToken(`a1.3.${now + 60}.0123456789abcdef0123456789abcdef`, now, S)).toEqual({ ok: false, code: 'token_invalid' });
  });
  it('are refused when they claim to live longer than any token is issued for', () => {
    const far = signAppToken('sessionid123', 3, now + 3600 + 120, S);
    expect(verifyAppToken(far, now, S)).toEqual({ ok: false, code: 'token_invalid' });
    expect(verifyAppToken(signAppToken('sessionid123', 3, 4_102_444_800, S), now, S)).toEqual({ ok: false, code: 'token_invalid' });
    expect(verifyAppToken(signAppToken('sessionid123', 3, now + 3600, S), now, S).ok).toBe(true);
  });
  it('and progress tokens are signed with their own keys by default', () => {
    const app = signAppToken('sessionid123', 3, now + 60);
    expect(verifyAppToken(app, now).ok).toBe(true);
    expect(verifyAppToken(app, now, keyFor('progress-token'))).toEqual({ ok: false, code: 'token_invalid' });
    expect(verifyAppToken(app, now, keyFor('page-url'))).toEqual({ ok: false, code: 'token_invalid' });
    const progress = signProgressToken(7, 'EPI-abc', now);
    expect(verifyProgressToken(progress, { userId: 7, e4pid: 'EPI-abc', now }).ok).toBe(true);
    expect(verifyProgressToken(progress, { userId: 7, e4pid: 'EPI-abc', now }, keyFor('app-token')).ok).toBe(false);
  });
  it('clamp the ttl to 60..3600', () => {
    expect(clampTtl(null)).toBe(3600);
    expect(clampTtl('5')).toBe(60);
    expect(clampTtl('999999')).toBe(3600);
    expect(clampTtl('120')).toBe(120);
    expect(clampTtl('abc')).toBe(3600);
  });
});

describe('ordering of progress updates', () => {
  it('accepts a newer token or a higher seq of the same token, nothing else', () => {
    expect(isNewerUpdate({ issuedAt: 10, seq: 1 }, null)).toBe(true);
    expect(isNewerUpdate({ issuedAt: 10, seq: 2 }, { issuedAt: 10, seq: 1 })).toBe(true);
    expect(isNewerUpdate({ issuedAt: 11, seq: 1 }, { issuedAt: 10, seq: 9 })).toBe(true);
    expect(isNewerUpdate({ issuedAt: 10, seq: 1 }, { issuedAt: 10, seq: 1 })).toBe(false);
    expect(isNewerUpdate({ issuedAt: 10, seq: 0 }, { issuedAt: 10, seq: 1 })).toBe(false);
    expect(isNewerUpdate({ issuedAt: 9, seq: 99 }, { issuedAt: 10, seq: 1 })).toBe(false);
  });
  it('keeps completed once set and takes the latest completion', () => {
    expect(mergeProgress({ completion: 100, completed: true }, { completion: 20, completed: false })).toEqual({ completion: 20, completed: true });
    expect(mergeProgress(null, { completion: 40, completed: false })).toEqual({ completion: 40, completed: false });
  });
  it('computes completion by page and the history state', () => {
    expect(completionAt(0, 4)).toBe(25);
    expect(completionAt(3, 4)).toBe(100);
    expect(completionAt(9, 4)).toBe(100);
    expect(historyState({ completion: 100, completed: false })).toBe('read');
    expect(historyState({ completion: 10, completed: true })).toBe('read');
    expect(historyState({ completion: 10, completed: false })).toBe('reading');
  });
  it('parses a progress report body', () => {
    expect(parseProgressReport({ e4pid: 'EPI-a', completion: 50.4, completed: false, progress_token: 't', seq: 1 })).toEqual({ e4pid: 'EPI-a', completion: 50, completed: false, token: 't', seq: 1 });
    expect(parseProgressReport({ e4pid: 'EPI-a', completion: 101, progress_token: 't', seq: 1 })).toBeNull();
    expect(parseProgressReport({ e4pid: 'x', completion: 1, progress_token: 't', seq: 1 })).toBeNull();
    expect(parseProgressReport({ e4pid: 'EPI-a', completion: 1, progress_token: 't', seq: -1 })).toBeNull();
    expect(parseProgressReport([1])).toBeNull();
  });
});
