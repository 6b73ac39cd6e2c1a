import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { MIN_TOTAL, decimalAmount, discountOf, formatMoney, isCouponCode, methodsFor, normalizeCoupon, perKeyPrice, preselectedMethod, quote, type CouponTerms, type PackPrice } from './rules';

const pack: PackPrice = { currency: 'USD', price: 999, keys: 110, xtra_keys: 10 };
const coupon = (c: Partial<CouponTerms> = {}): CouponTerms => ({
  site_id: 1, percent_off: 10, amount_off: null, currency: null, xtra_keys: 0, starts_at: null, ends_at: null,
  max_redemptions: null, per_reader_limit: 1, redemptions: 0, active: 1, ...c,
});

describe('coupon codes', () => {
  it.each([
    ['welcome10', 'WELCOME10'],
    [' spring-sale_2026 ', 'SPRING-SALE_2026'],
    ['café!', 'CAF'],
    ['<script>', 'SCRIPT'],
    ['a'.repeat(50), 'A'.repeat(32)],
  ])('%j is kept as %j', (raw, kept) => {
    expect(normalizeCoupon(raw)).toBe(kept);
  });

  it('pass the field check only with 3 to 32 of the kept characters', () => {
    expect(isCouponCode('AB')).toBe(false);
    expect(isCouponCode('ABC')).toBe(true);
    expect(isCouponCode('ab3')).toBe(false);
    expect(isCouponCode('A'.repeat(33))).toBe(false);
    fc.assert(fc.property(fc.string(), (s) => {
      const n = normalizeCoupon(s);
      expect(/^[A-Z0-9_-]*$/.test(n)).toBe(true);
      expect(normalizeCoupon(n)).toBe(n);
    }));
  });
});

describe('what an order costs', () => {
  it('is the pack price without a coupon', () => {
    expect(quote(pack, null, 1, 0, 0)).toEqual({ ok: true, quote: { currency: 'USD', subtotal: 999, discount: 0, total: 999, keys: 110, xtraKeys: 10, couponXtraKeys: 0 } });
  });

  it('takes a percentage rounded half up to the cent, and adds the coupon bonus', () => {
    // 10 % of 9.99 is 0.999: 1.00 off.
    expect(quote(pack, coupon({ xtra_keys: 5 }), 1, 0, 0)).toEqual({ ok: true, quote: { currency: 'USD', subtotal: 999, discount: 100, total: 899, keys: 110, xtraKeys: 15, couponXtraKeys: 5 } });
    expect(discountOf(1990, { percent_off: 15, amount_off: null })).toBe(299); // 298.5 rounds up
    expect(discountOf(1990, { percent_off: 25, amount_off: null })).toBe(498); // 497.5 rounds up
  });

  it('takes an amount in the same currency only', () => {
    expect(quote(pack, coupon({ percent_off: null, amount_off: 200, currency: 'USD' }), 1, 0, 0)).toMatchObject({ ok: true, quote: { discount: 200, total: 799 } });
    expect(quote(pack, coupon({ percent_off: null, amount_off: 200, currency: 'BRL' }), 1, 0, 0)).toEqual({ ok: false, problem: 'currency' });
  });

  it.each<[Partial<CouponTerms>, number, number, string]>([
    [{ active: 0 }, 1, 0, 'unknown'],
    [{ site_id: 3 }, 1, 0, 'unknown'],
    [{ starts_at: 100 }, 1, 0, 'not_started'],
    [{ ends_at: 100 }, 1, 100, 'ended'],
    [{ max_redemptions: 1, redemptions: 1 }, 1, 0, 'used_up'],
    [{ per_reader_limit: 2 }, 1, 0, ''],
    [{ percent_off: 100 }, 1, 0, 'too_large'],
    [{ percent_off: null, amount_off: 900, currency: 'USD' }, 1, 0, 'too_large'],
  ])('refuses a coupon %j (site %d, at %d): %s', (c, site, now, problem) => {
    const r = quote(pack, coupon(c), site, now, 0);
    if (problem) expect(r).toEqual({ ok: false, problem });
    else expect(r.ok).toBe(true);
  });

  it('refuses a coupon the reader has already used as often as it allows', () => {
    expect(quote(pack, coupon({ per_reader_limit: 1 }), 1, 0, 1)).toEqual({ ok: false, problem: 'reader_limit' });
    expect(quote(pack, coupon({ per_reader_limit: 2 }), 1, 0, 1).ok).toBe(true);
  });

  it('never charges below the minimum, never more than the price, and always adds up (property)', () => {
    fc.assert(fc.property(
      fc.integer({ min: MIN_TOTAL, max: 10_000_000 }),
      fc.option(fc.integer({ min: 1, max: 100 })),
      fc.option(fc.integer({ min: 1, max: 10_000_000 })),
      (price, percent, amount) => {
        const terms = coupon({ percent_off: percent, amount_off: percent == null ? amount : null, currency: 'USD' });
        const r = quote({ ...pack, price }, terms, 1, 0, 0);
        if (!r.ok) {
          expect(r.problem).toBe('too_large');
          return;
        }
        const q = r.quote;
        expect(Number.isSafeInteger(q.discount) && Number.isSafeInteger(q.total)).toBe(true);
        expect(q.total).toBe(q.subtotal - q.discount);
        expect(q.total).toBeGreaterThanOrEqual(MIN_TOTAL);
        expect(q.total).toBeLessThanOrEqual(price);
      },
    ));
  });
});

describe('money', () => {
  it.each([[1, '0.01'], [499, '4.99'], [1990, '19.90'], [100000, '1000.00'], [0, '0.00']])('%d minor units are %s', (minor, text) => {
    expect(decimalAmount(minor)).toBe(text);
  });

  it('refuses what is not a whole, non-negative number of minor units', () => {
    for (const bad of [-1, 1.5, Number.NaN, 2 ** 60]) expect(() => decimalAmount(bad)).toThrow();
  });

  it("shows in the site's locale and currency", () => {
    expect(formatMoney(499, 'USD', 'en')).toBe('$4.99');
    expect(formatMoney(1990, 'BRL', 'pt-BR').replace(/\s/g, ' ')).toBe('R$ 19,90');
    expect(formatMoney(123456789, 'USD', 'en')).toBe('$1,234,567.89');
  });

  it('offers Pix only with Brazilian reais', () => {
    expect(methodsFor('BRL')).toContain('pix');
    expect(methodsFor('USD')).not.toContain('pix');
  });
});

describe('the checkout page (issue 26)', () => {
  it('opens with Pix in reais and card elsewhere, or the method a refused payment named', () => {
    expect(preselectedMethod(methodsFor('BRL'), 'BRL')).toBe('pix');
    expect(preselectedMethod(methodsFor('USD'), 'USD')).toBe('card');
    expect(preselectedMethod(methodsFor('BRL'), 'BRL', 'card')).toBe('card');
    // A method sent that is not offered (or not a method) falls back to the usual one.
    expect(preselectedMethod(methodsFor('BRL', { card: true, pix: false }), 'BRL', 'pix')).toBe('card');
    expect(preselectedMethod(methodsFor('USD'), 'USD', 'bitcoin')).toBe('card');
    expect(preselectedMethod([], 'USD')).toBeNull();
  });

  it('says what one key of a pack costs, to a tenth of a cent', () => {
    expect(perKeyPrice(1999, 210, 'USD', 'en')).toBe('$0.095');
    expect(perKeyPrice(999, 100, 'USD', 'en')).toBe('$0.10');
    expect(perKeyPrice(1990, 50, 'BRL', 'pt-BR')).toBe('R$\u00a00,398');
  });
});
