import { describe, expect, it } from 'vitest';
import { MAX_ID, parseId, parseSeriesRef, parseUnixTime } from './params';

describe('parseId', () => {
  it('accepts 1 up to the largest PostgreSQL integer', () => {
    expect(parseId('1')).toBe(1);
    expect(parseId('42')).toBe(42);
    expect(parseId(String(MAX_ID))).toBe(MAX_ID);
  });
  it.each(['2147483648', '4294967296', '9999999999', '99999999999999999999', '0', '-1', '+1', '01', '1.0', '1e3', ' 1', '1 ', '0x10', '１', '', '1\u0000'])(
    'refuses %j',
    (raw) => expect(parseId(raw)).toBeNull(),
  );
  it('refuses null and undefined', () => {
    expect(parseId(null)).toBeNull();
    expect(parseId(undefined)).toBeNull();
  });
});

describe('parseSeriesRef', () => {
  it('reads ids and e4pids', () => {
    expect(parseSeriesRef('7')).toEqual({ id: 7 });
    expect(parseSeriesRef('SER-abc123')).toEqual({ e4pid: 'SER-abc123' });
  });
  it.each(['2147483648', 'SER-', 'SER-a\u0000', "SER-x' OR '1'='1", 'abc', '', 'SER-' + 'a'.repeat(33)])('refuses %j', (raw) => {
    expect(parseSeriesRef(raw)).toBeNull();
  });
});

describe('parseUnixTime', () => {
  it('accepts times after 2038 and refuses what is not a time', () => {
    expect(parseUnixTime('2147483648')).toBe(2_147_483_648);
    expect(parseUnixTime('0')).toBe(0);
    for (const bad of ['-1', '1.5', 'abc', '', '9999999999999', null]) expect(parseUnixTime(bad)).toBeNull();
  });
});
