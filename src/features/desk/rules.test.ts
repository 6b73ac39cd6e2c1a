import { describe, expect, it } from 'vitest';
import { grantLedgerKey, parseDeskQuery, parseGrant, userAgentSummary } from './rules';

describe('the desk search term', () => {
  const q = (raw: string) => {
    const p = parseDeskQuery(raw);
    if (p.kind !== 'query') throw new Error(p.kind);
    return p.query;
  };
  it('is empty, refused when too long or with control characters', () => {
    expect(parseDeskQuery('  ').kind).toBe('empty');
    expect(parseDeskQuery(null).kind).toBe('empty');
    expect(parseDeskQuery('a'.repeat(255))).toEqual({ kind: 'invalid', reason: 'tooLong' });
    expect(parseDeskQuery('ab\u0000cd')).toEqual({ kind: 'invalid', reason: 'characters' });
    expect(parseDeskQuery('ab\ncd')).toEqual({ kind: 'invalid', reason: 'characters' });
    expect(parseDeskQuery('ab\uFFFDcd')).toEqual({ kind: 'invalid', reason: 'characters' });
  });
  it('takes each kind only in its shape', () => {
    expect(q(' Ana@Example.COM ')).toMatchObject({ email: 'ana@example.com', readerId: null, orderId: null, couponCode: null });
    expect(q('42')).toMatchObject({ readerId: 42, email: null });
    expect(q('0').readerId).toBeNull();
    expect(q('2147483648').readerId).toBeNull();
    expect(q(`ord${'a1'.repeat(12)}`)).toMatchObject({ orderId: `ord${'a1'.repeat(12)}`, chargeId: null });
    expect(q(`SUB${'0F'.repeat(12)}`)).toMatchObject({ chargeId: `sub${'0f'.repeat(12)}`, orderId: null });
    expect(q('ord123').orderId).toBeNull();
    expect(q('E12345678202611271200abcdefghijk').paymentId).toBe('E12345678202611271200abcdefghijk');
    expect(q('sbx_abc123').paymentId).toBe('sbx_abc123');
    expect(q('welcome10').couponCode).toBe('WELCOME10');
    expect(q("' OR 1=1 --")).toMatchObject({ email: null, emailPrefix: null, readerId: null, paymentId: null, couponCode: null });
  });
});

describe('the grant form', () => {
  const base = { keys: '5', xtra: '', reason: 'Sorry for the outage', request: 'abcdefghijklmnopqrstuvwx' };
  it('takes whole amounts up to 10000, at least one, a reason of 3 to 200 characters and a request key', () => {
    expect(parseGrant(base)).toEqual({ ok: true, value: { keys: 5, xtra: 0, reason: 'Sorry for the outage', requestKey: base.request } });
    expect(parseGrant({ ...base, keys: '0', xtra: '10000' })).toMatchObject({ ok: true, value: { keys: 0, xtra: 10000 } });
    expect(parseGrant({ ...base, keys: '10001' })).toEqual({ ok: false, errors: { keys: 'amount' } });
    expect(parseGrant({ ...base, keys: '-1' })).toEqual({ ok: false, errors: { keys: 'amount' } });
    expect(parseGrant({ ...base, keys: '1.5' })).toEqual({ ok: false, errors: { keys: 'amount' } });
    expect(parseGrant({ ...base, keys: '', xtra: '0' })).toEqual({ ok: false, errors: { keys: 'none' } });
    expect(parseGrant({ ...base, reason: ' ab ' })).toEqual({ ok: false, errors: { reason: 'reasonShort' } });
    expect(parseGrant({ ...base, reason: 'x'.repeat(201) })).toEqual({ ok: false, errors: { reason: 'reasonLong' } });
    expect(parseGrant({ ...base, reason: 'bad\u0007bell' })).toEqual({ ok: false, errors: { reason: 'reasonCharacters' } });
    expect(parseGrant({ ...base, request: 'short' })).toEqual({ ok: false, errors: { request: 'request' } });
  });
  it('keys the ledger by actor and request', () => {
    expect(grantLedgerKey(7, 'abc')).toBe('grant:7:abc');
  });
});

it('summarizes a user agent in a few words', () => {
  expect(userAgentSummary('Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0')).toBe('Firefox · Linux');
  expect(userAgentSummary('Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36')).toBe('Chrome · Android');
  expect(userAgentSummary('Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1')).toBe('Safari · iOS');
  expect(userAgentSummary('curl/8.5.0')).toBe('curl/8.5.0');
  expect(userAgentSummary(null)).toBeNull();
});
