import { describe, expect, it } from 'vitest';
import { PAYABLE_STATES } from './payable-states';
import { cardLabel, hasReceipt, receiptKind, receiptReader, refundLines, type RefundRow } from './receipts';

describe('receipts', () => {
  it('knows an order id from a charge id, and nothing else', () => {
    expect(receiptKind(`ord${'a1'.repeat(12)}`)).toBe('order');
    expect(receiptKind(`sub${'0f'.repeat(12)}`)).toBe('charge');
    for (const bad of ['', 'ord', `sbs${'a1'.repeat(12)}`, `ord${'A1'.repeat(12)}`, `ord${'a1'.repeat(12)}0`, `ord${'a1'.repeat(11)}`, `ord${'a1'.repeat(11)}g1`, `../ord${'a1'.repeat(12)}`, `ord${'a1'.repeat(12)}\n`]) {
      expect(receiptKind(bad), JSON.stringify(bad)).toBeNull();
    }
  });

  it('gives a receipt to a payment taken, refunded or not, and to nothing unpaid', () => {
    expect(PAYABLE_STATES.filter(hasReceipt)).toEqual(['PAID', 'REFUNDED', 'PARTIALLY_REFUNDED']);
  });

  it('lets its reader and support staff read it, and nobody else', () => {
    expect(receiptReader({ id: 7, capabilities: [] }, 7)).toBe('owner');
    expect(receiptReader({ id: 7, capabilities: ['support', 'money'] }, 7)).toBe('owner');
    expect(receiptReader({ id: 8, capabilities: ['support'] }, 7)).toBe('support');
    expect(receiptReader({ id: 8, capabilities: [] }, 7)).toBeNull();
    for (const cap of ['money', 'admin', 'content', 'pricing', 'moderation']) expect(receiptReader({ id: 8, capabilities: [cap] }, 7), cap).toBeNull();
  });

  it('names a card as the purchases list does', () => {
    expect(cardLabel('Visa', '1111')).toBe('Visa •••• 1111');
    expect(cardLabel('PayPal', null)).toBe('PayPal');
    expect(cardLabel(null, '1111')).toBeNull();
  });

  it('says each confirmed refund and one in progress, oldest first, and leaves failed ones out', () => {
    const row = (r: Partial<RefundRow> & Pick<RefundRow, 'id' | 'state'>): RefundRow => ({ amount: 999, currency: 'USD', keys: 100, xtra_keys: 10, ending: null, created_at: 1_000, confirmed_at: null, ...r });
    expect(refundLines([
      row({ id: 3, state: 'PENDING', created_at: 3_000 }),
      row({ id: 1, state: 'FAILED', created_at: 1_000 }),
      row({ id: 2, state: 'CONFIRMED', amount: 499, keys: 50, xtra_keys: 0, created_at: 2_000, confirmed_at: 2_050, ending: 'now' }),
    ])).toEqual([
      { kind: 'refunded', amount: 499, currency: 'USD', at: 2_050, keys: 50, xtraKeys: 0, ending: 'now' },
      { kind: 'inProgress', since: 3_000 },
    ]);
    expect(refundLines([])).toEqual([]);
  });
});
