import { describe, expect, it } from 'vitest';
import { decimalAmount, parseAmount } from './money';

describe('parseAmount', () => {
  it('reads both decimal marks into minor units without floating point', () => {
    expect(parseAmount('4.99')).toBe(499);
    expect(parseAmount('4,99')).toBe(499);
    expect(parseAmount(' 12 ')).toBe(1200);
    expect(parseAmount('0.5')).toBe(50);
    expect(parseAmount('19,9')).toBe(1990);
    // 0.29 * 100 is 28.999999999999996 in floating point; the text never goes through a float.
    expect(parseAmount('0.29')).toBe(29);
    expect(parseAmount('999999999.99')).toBe(99_999_999_999);
  });

  it('refuses signs, exponents, thousands separators, extra decimals and empty text', () => {
    for (const bad of ['', '-1', '+1', '1e3', '1,000.00', '1.000,00', '4.999', '.5', '5.', 'abc', '1 000', '1234567890', 'NaN', 'Infinity']) expect(parseAmount(bad), bad).toBeNaN();
  });

  it('round-trips with decimalAmount', () => {
    for (const minor of [100, 499, 1990, 1_000_000]) expect(parseAmount(decimalAmount(minor))).toBe(minor);
  });
});
