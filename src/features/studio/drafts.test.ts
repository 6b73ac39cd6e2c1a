import { describe, expect, it } from 'vitest';
import { parseChapterNumber, parseDraftFields, parseLocalDateTime, parsePublishFields } from './drafts';

const form = (fields: Record<string, string>) => new URLSearchParams(fields);

describe('draft fields', () => {
  it('takes decimals in the chapter number, and a blank one (ComicInfo may fill it)', () => {
    expect(parseChapterNumber('12')).toBe(12);
    expect(parseChapterNumber(' 12.5 ')).toBe(12.5);
    expect(parseChapterNumber('12,5')).toBe(12.5);
    expect(parseChapterNumber('')).toBeNull();
    for (const bad of ['-1', '1e3', '12.3456', 'abc', '1234567', 'NaN']) expect(parseChapterNumber(bad)).toBe('invalid');
  });

  it('refuses an unknown language and an overlong title', () => {
    expect(parseDraftFields(form({ language: 'xx', number: '1' }))).toEqual({ ok: false, error: 'language' });
    expect(parseDraftFields(form({ language: 'en', number: '1', title: 'x'.repeat(201) }))).toEqual({ ok: false, error: 'title' });
    expect(parseDraftFields(form({ language: 'pt-br', number: '3', title: ' A ' }))).toEqual({ ok: true, value: { language: 'pt-br', number: 3, title: 'A', subtitle: null } });
  });
});

describe('publish fields', () => {
  it('reads a datetime-local on the wall clock of a zone, across daylight saving', () => {
    expect(parseLocalDateTime('2031-03-04T18:30', 'America/Sao_Paulo')).toBe(Date.UTC(2031, 2, 4, 21, 30) / 1000);
    expect(parseLocalDateTime('2026-07-01T12:00', 'Europe/Lisbon')).toBe(Date.UTC(2026, 6, 1, 11, 0) / 1000);
    expect(parseLocalDateTime('2026-01-01T12:00', 'Europe/Lisbon')).toBe(Date.UTC(2026, 0, 1, 12, 0) / 1000);
    for (const bad of ['2026-02-30T10:00', '2026-13-01T10:00', '2026-01-01 10:00', '', 'tomorrow']) expect(parseLocalDateTime(bad, 'UTC')).toBeNull();
  });

  it('checks the price, the zone and the times', () => {
    const base = { price: '3', zone: 'UTC', release: 'now', purchase: '1' };
    expect(parsePublishFields(form(base))).toMatchObject({ ok: true, value: { price: 3, release: 'now', saleAt: null, expiresAt: null, flags: { purchase: true, ads: false } } });
    for (const price of ['-1', '1.5', '', '10001', 'free']) expect(parsePublishFields(form({ ...base, price }))).toEqual({ ok: false, error: 'price' });
    expect(parsePublishFields(form({ ...base, zone: 'Mars/Olympus' }))).toEqual({ ok: false, error: 'zone' });
    expect(parsePublishFields(form({ ...base, release: 'at', release_at: 'soon' }))).toEqual({ ok: false, error: 'release' });
    expect(parsePublishFields(form({ ...base, release: 'later' }))).toEqual({ ok: false, error: 'release' });
    expect(parsePublishFields(form({ ...base, sale_at: 'x' }))).toEqual({ ok: false, error: 'sale' });
    expect(parsePublishFields(form({ ...base, expires_at: '2026-02-30T00:00' }))).toEqual({ ok: false, error: 'expiry' });
  });
});
