import { describe, expect, it } from 'vitest';
import { purchaseRefund, withdrawalTerms, WITHDRAWAL_SECONDS } from './refund-rules';

const order = { total: 999, keys: 100, xtraKeys: 10 };

describe('what refunding a purchase gives back', () => {
  it('all its keys held: the whole total, its keys and its bonus', () => {
    expect(purchaseRefund(order, { keys: 250, xtra: 40 })).toEqual({ amount: 999, keys: 100, xtra: 10, whole: true });
  });

  it('the bonus partly spent: still whole, only the Xtra keys held are taken', () => {
    expect(purchaseRefund(order, { keys: 100, xtra: 3 })).toEqual({ amount: 999, keys: 100, xtra: 3, whole: true });
  });

  it('some keys spent: the share of the unspent keys, rounded down, and their share of the bonus rounded up', () => {
    expect(purchaseRefund(order, { keys: 33, xtra: 40 })).toEqual({ amount: 329, keys: 33, xtra: 4, whole: false });
  });

  it('every key spent: nothing to refund', () => {
    expect(purchaseRefund(order, { keys: 0, xtra: 40 })).toBeNull();
  });

  it('a share worth less than a cent is nothing to refund', () => {
    expect(purchaseRefund({ total: 5, keys: 100, xtraKeys: 0 }, { keys: 1, xtra: 0 })).toBeNull();
  });

  it('never more than the order, whatever the balances', () => {
    for (let held = 0; held <= 300; held += 7) {
      const r = purchaseRefund(order, { keys: held, xtra: held });
      if (!r) continue;
      expect(r.amount).toBeLessThanOrEqual(order.total);
      expect(r.keys).toBeLessThanOrEqual(order.keys);
      expect(r.xtra).toBeLessThanOrEqual(order.xtraKeys);
      expect(Number.isSafeInteger(r.amount)).toBe(true);
    }
  });
});

describe("a reader's withdrawal", () => {
  const paidAt = 1_000_000;
  const paid = { ...order, state: 'PAID', paidAt };

  it('within 7 days with nothing spent: the whole purchase', () => {
    expect(withdrawalTerms(paid, { keys: 100, xtra: 10 }, paidAt + WITHDRAWAL_SECONDS - 1)).toEqual({ ok: true, terms: { amount: 999, keys: 100, xtra: 10, whole: true } });
  });

  it('7 days after payment: too late', () => {
    expect(withdrawalTerms(paid, { keys: 100, xtra: 10 }, paidAt + WITHDRAWAL_SECONDS)).toEqual({ ok: false, problem: 'window' });
  });

  it('a key or a bonus Xtra key spent: refused', () => {
    expect(withdrawalTerms(paid, { keys: 99, xtra: 10 }, paidAt + 60)).toEqual({ ok: false, problem: 'spent' });
    expect(withdrawalTerms(paid, { keys: 100, xtra: 9 }, paidAt + 60)).toEqual({ ok: false, problem: 'spent' });
  });

  it('an order not paid, or refunded already: refused', () => {
    expect(withdrawalTerms({ ...paid, state: 'REFUNDED' }, { keys: 100, xtra: 10 }, paidAt + 60)).toEqual({ ok: false, problem: 'not_paid' });
    expect(withdrawalTerms({ ...paid, state: 'PENDING', paidAt: null }, { keys: 100, xtra: 10 }, paidAt + 60)).toEqual({ ok: false, problem: 'not_paid' });
  });
});
