import { describe, expect, it } from 'vitest';
import { RELAY_FUTURE_CAP, RELAY_MAX_IDS, inAskedOrder, parseAfter, parseBefore, parseClientId, parsePublisher, parseSeriesRefs } from './relay';

const NOW = 1_800_000_000;

describe('relay input', () => {
  it('knows the house catalogue and numeric publishers', () => {
    expect(parsePublisher('inkpass')).toEqual({ ok: true, value: { kind: 'house' } });
    expect(parsePublisher('12')).toEqual({ ok: true, value: { kind: 'publisher', id: 12 } });
    for (const bad of ['', 'Inkpass', '0', '-1', '01', 'x'.repeat(10_000)]) expect(parsePublisher(bad)).toMatchObject({ ok: false, status: 404 });
  });

  it('requires a sane clientid', () => {
    expect(parseClientId('web-app_1.0')).toEqual({ ok: true, value: 'web-app_1.0' });
    expect(parseClientId(null)).toMatchObject({ ok: false, status: 400, key: 'relay.error.clientidMissing' });
    expect(parseClientId('')).toMatchObject({ ok: false, status: 400 });
    expect(parseClientId('a b')).toMatchObject({ ok: false, status: 400, key: 'relay.error.clientid' });
    expect(parseClientId('x'.repeat(65))).toMatchObject({ ok: false, status: 400 });
  });

  it('reads ids and e4pids, once each', () => {
    expect(parseSeriesRefs('3,SER-abc,3, 7')).toEqual({ ok: true, value: { ids: [3, 7], e4pids: ['SER-abc'], order: ['3', 'SER-abc', '7'] } });
  });

  it('puts series in the order asked, a series asked twice at its first place', () => {
    const series = [{ id: 1, e4pid: 'SER-a' }, { id: 2, e4pid: 'SER-b' }, { id: 3, e4pid: 'SER-c' }];
    expect(inAskedOrder(series, ['3', 'SER-a', '2']).map((s) => s.id)).toEqual([3, 1, 2]);
    expect(inAskedOrder(series, ['SER-b', '3', '1', '2']).map((s) => s.id)).toEqual([2, 3, 1]);
  });

  it('refuses malformed id lists with 400 and more than 60 series with 422', () => {
    for (const bad of ['', ',', '1,,2', '0', '-1', '1.5', 'abc', 'SER-', 'SER-a b', '99999999999', '1'.repeat(10_240)]) {
      expect(parseSeriesRefs(bad), bad.slice(0, 20)).toMatchObject({ ok: false, status: 400 });
    }
    const many = Array.from({ length: RELAY_MAX_IDS + 1 }, (_, i) => i + 1).join(',');
    expect(parseSeriesRefs(many)).toMatchObject({ ok: false, status: 422, values: { max: 60 } });
    const sixty = Array.from({ length: RELAY_MAX_IDS }, (_, i) => i + 1).join(',');
    expect(parseSeriesRefs(sixty).ok).toBe(true);
  });

  it('takes after between 0 and now', () => {
    expect(parseAfter('0', NOW)).toEqual({ ok: true, value: 0 });
    expect(parseAfter(String(NOW), NOW)).toEqual({ ok: true, value: NOW });
    expect(parseAfter(null, NOW)).toMatchObject({ ok: false, status: 400 });
    for (const bad of ['-1', 'abc', '1e9', '12.5', '99999999999', ' 1']) expect(parseAfter(bad, NOW)).toMatchObject({ ok: false, status: 400 });
    expect(parseAfter(String(NOW + 1), NOW)).toMatchObject({ ok: false, status: 422, key: 'relay.error.afterFuture' });
    expect(parseAfter('9999999999', NOW)).toMatchObject({ ok: false, status: 422 });
  });

  it('caps before at three months ahead', () => {
    expect(parseBefore(String(NOW + 3600), NOW)).toEqual({ ok: true, value: NOW + 3600 });
    expect(parseBefore('9999999999', NOW)).toEqual({ ok: true, value: NOW + RELAY_FUTURE_CAP });
    expect(parseBefore('5', NOW)).toEqual({ ok: true, value: 5 });
    for (const bad of [null, '', '-5', 'soon', '99999999999']) expect(parseBefore(bad, NOW)).toMatchObject({ ok: false, status: 400 });
  });
});
