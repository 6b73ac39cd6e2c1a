import { describe, expect, it } from 'vitest';
import { PAYABLE_EVENTS, PAYABLE_STATES, payableStep, type PayableEvent, type PayableState, type PayableStep } from './payable-states';

/**
 * Every state × event of a payable (an order or a subscription charge), written out: the table
 * is the rule, so the test states it again rather than deriving it.
 */
const EXPECTED: Record<PayableState, Record<PayableEvent, PayableStep | { same: PayableStep; other: PayableStep }>> = {
  PENDING: {
    paid: { do: 'move', to: 'PAID', grant: true, refund: false },
    mismatch: { do: 'note' },
    failed: { do: 'move', to: 'FAILED', grant: false, refund: false },
    expired: { do: 'move', to: 'EXPIRED', grant: false, refund: false },
    voided: { do: 'move', to: 'EXPIRED', grant: false, refund: true },
    refunded: { do: 'refuse' },
    partlyRefunded: { do: 'refuse' },
  },
  PAID: {
    paid: { same: { do: 'already' }, other: { do: 'refund' } },
    mismatch: { same: { do: 'ignore' }, other: { do: 'refund' } },
    failed: { do: 'ignore' },
    expired: { do: 'ignore' },
    voided: { do: 'ignore' },
    refunded: { do: 'move', to: 'REFUNDED', grant: false, refund: false },
    partlyRefunded: { do: 'move', to: 'PARTIALLY_REFUNDED', grant: false, refund: false },
  },
  FAILED: { paid: { do: 'refund' }, mismatch: { do: 'refund' }, failed: { do: 'ignore' }, expired: { do: 'ignore' }, voided: { do: 'ignore' }, refunded: { do: 'refuse' }, partlyRefunded: { do: 'refuse' } },
  EXPIRED: { paid: { do: 'refund' }, mismatch: { do: 'refund' }, failed: { do: 'ignore' }, expired: { do: 'ignore' }, voided: { do: 'ignore' }, refunded: { do: 'refuse' }, partlyRefunded: { do: 'refuse' } },
  REFUNDED: {
    paid: { same: { do: 'already' }, other: { do: 'refund' } },
    mismatch: { same: { do: 'ignore' }, other: { do: 'refund' } },
    failed: { do: 'ignore' }, expired: { do: 'ignore' }, voided: { do: 'ignore' }, refunded: { do: 'refuse' }, partlyRefunded: { do: 'refuse' },
  },
  PARTIALLY_REFUNDED: {
    paid: { same: { do: 'already' }, other: { do: 'refund' } },
    mismatch: { same: { do: 'ignore' }, other: { do: 'refund' } },
    failed: { do: 'ignore' }, expired: { do: 'ignore' }, voided: { do: 'ignore' }, refunded: { do: 'refuse' }, partlyRefunded: { do: 'refuse' },
  },
};

describe('the payable transition table', () => {
  for (const state of PAYABLE_STATES) {
    for (const event of PAYABLE_EVENTS) {
      const want = EXPECTED[state][event];
      it(`${state} × ${event}`, () => {
        if ('same' in want) {
          expect(payableStep(state, event, true)).toEqual(want.same);
          expect(payableStep(state, event, false)).toEqual(want.other);
        } else {
          expect(payableStep(state, event, true)).toEqual(want);
          expect(payableStep(state, event, false)).toEqual(want);
        }
      });
    }
  }

  it('no final state is ever left, PAID only by a refund, and only a matching payment of a pending record grants', () => {
    for (const state of PAYABLE_STATES) {
      for (const event of PAYABLE_EVENTS) {
        for (const same of [true, false]) {
          const step = payableStep(state, event, same);
          if (state === 'PAID' && step.do === 'move') expect(['refunded', 'partlyRefunded']).toContain(event);
          else if (state !== 'PENDING') expect(step.do, `${state} × ${event}`).not.toBe('move');
          if (step.do === 'move' && step.grant) expect([state, event]).toEqual(['PENDING', 'paid']);
        }
      }
    }
  });
});
