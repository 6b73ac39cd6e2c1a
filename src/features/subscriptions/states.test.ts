import { describe, expect, it } from 'vitest';
import type { SubscriptionState } from '@db/schema';
import { LIVE_STATES, nextSubscriptionState, START, SUBSCRIPTION_EVENTS, SUBSCRIPTION_STATES, type SubscriptionEvent } from './states';

/** Every state × event of a subscription, written out (null: refused). */
const EXPECTED: Record<SubscriptionState, Record<SubscriptionEvent, SubscriptionState | null>> = {
  PENDING: { periodPaid: 'ACTIVE', periodEnded: null, accessEnded: null, replaced: 'EXPIRED', givenUp: 'EXPIRED', cancelled: null },
  TRIAL: { periodPaid: 'ACTIVE', periodEnded: null, accessEnded: 'EXPIRED', replaced: null, givenUp: null, cancelled: 'TRIAL' },
  ACTIVE: { periodPaid: 'ACTIVE', periodEnded: 'PAST_DUE', accessEnded: 'EXPIRED', replaced: null, givenUp: null, cancelled: 'ACTIVE' },
  PAST_DUE: { periodPaid: 'ACTIVE', periodEnded: null, accessEnded: 'EXPIRED', replaced: null, givenUp: null, cancelled: 'PAST_DUE' },
  EXPIRED: { periodPaid: null, periodEnded: null, accessEnded: null, replaced: null, givenUp: null, cancelled: null },
};

describe('the subscription transition table', () => {
  for (const state of SUBSCRIPTION_STATES) {
    for (const event of SUBSCRIPTION_EVENTS) {
      it(`${state} × ${event} → ${EXPECTED[state][event] ?? 'refused'}`, () => {
        expect(nextSubscriptionState(state, event)).toBe(EXPECTED[state][event]);
      });
    }
  }

  it('an EXPIRED subscription never becomes live again, whatever happens (a late payment included)', () => {
    for (const event of SUBSCRIPTION_EVENTS) expect(nextSubscriptionState('EXPIRED', event)).toBeNull();
  });

  it('starts TRIAL or PENDING, both live', () => {
    expect(START).toEqual({ trial: 'TRIAL', awaitingPayment: 'PENDING' });
    expect(LIVE_STATES).toEqual(['PENDING', 'TRIAL', 'ACTIVE', 'PAST_DUE']);
  });
});
