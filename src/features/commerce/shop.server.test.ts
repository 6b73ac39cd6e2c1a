/**
 * The shop's rules as both front doors apply them (`npm run shop` and the studio's forms): each
 * problem names its field and code, the command line reads the first one's text.
 */
import { describe, expect, it } from 'vitest';
import { couponProblem, couponProblems, packProblem, packProblems, type CouponValues, type PackValues } from './shop.server';

const PACK: PackValues = { site_id: 1, code: 'popular', currency: 'USD', price: 999, keys: 100, xtra_keys: 10, position: 2, active: 1 };
const COUPON: CouponValues = { site_id: 3, code: 'VERAO25', percent_off: 25, amount_off: null, currency: null, xtra_keys: 0, starts_at: null, ends_at: null, max_redemptions: null, per_reader_limit: 1, active: 1 };
const fields = (problems: { field: string; code: string }[]) => problems.map((p) => `${p.field}:${p.code}`);

describe('packProblems', () => {
  it('accepts the seeded shape and the bounds themselves', () => {
    expect(packProblems(PACK)).toEqual([]);
    expect(packProblems({ ...PACK, price: 100, keys: 1, xtra_keys: 0, position: 0 })).toEqual([]);
    expect(packProblems({ ...PACK, price: 1_000_000, keys: 1_000_000, xtra_keys: 1_000_000, position: 10_000 })).toEqual([]);
    expect(packProblems({ ...PACK, site_id: 3, currency: 'BRL' })).toEqual([]);
  });

  it('names every field that is wrong, with the command line reading the first', () => {
    expect(fields(packProblems({ ...PACK, code: 'Bad Code', currency: 'BRL', price: 0, keys: 0, xtra_keys: -1, position: 10_001 }))).toEqual([
      'code:packCode', 'currency:currency', 'price:price', 'keys:keys', 'xtra_keys:xtraKeys', 'position:position',
    ]);
    expect(packProblem({ ...PACK, price: 99 })).toBe('price must be a whole number of minor units, at least 100 and at most 1000000');
    for (const price of [NaN, 4.99, 1_000_001, 2 ** 31, Number.MAX_SAFE_INTEGER + 2]) expect(fields(packProblems({ ...PACK, price })), String(price)).toEqual(['price:price']);
    expect(fields(packProblems({ ...PACK, site_id: 2 }))).toEqual(['site:site']);
  });
});

describe('couponProblems', () => {
  it('accepts a percentage, an amount in the site currency, or Xtra keys alone', () => {
    expect(couponProblems(COUPON)).toEqual([]);
    expect(couponProblems({ ...COUPON, percent_off: null, amount_off: 500, currency: 'BRL' })).toEqual([]);
    expect(couponProblems({ ...COUPON, percent_off: null, xtra_keys: 20 })).toEqual([]);
    expect(couponProblems({ ...COUPON, starts_at: 100, ends_at: 200, max_redemptions: 1_000_000, per_reader_limit: 1000 })).toEqual([]);
  });

  it('refuses what checkout could not honour, each on its field', () => {
    expect(fields(couponProblems({ ...COUPON, code: 'no spaces' }))).toEqual(['code:couponCode']);
    expect(fields(couponProblems({ ...COUPON, percent_off: 101 }))).toEqual(['percent_off:percent']);
    expect(fields(couponProblems({ ...COUPON, amount_off: 100, currency: 'BRL' }))).toEqual(['percent_off:bothDiscounts']);
    expect(fields(couponProblems({ ...COUPON, percent_off: null, amount_off: 100, currency: 'USD' }))).toEqual(['currency:currency']);
    expect(fields(couponProblems({ ...COUPON, currency: 'BRL' }))).toEqual(['currency:currencyAlone']);
    expect(fields(couponProblems({ ...COUPON, percent_off: null }))).toEqual(['percent_off:givesNothing']);
    expect(fields(couponProblems({ ...COUPON, max_redemptions: 0, per_reader_limit: 1001 }))).toEqual(['max_redemptions:maxUses', 'per_reader_limit:perReader']);
    expect(fields(couponProblems({ ...COUPON, starts_at: 200, ends_at: 200 }))).toEqual(['ends_at:window']);
    expect(couponProblem({ ...COUPON, percent_off: 0 })).toBe('percent off must be 1 to 100');
  });
});
