import { describe, expect, it } from 'vitest';
import { subscriptionStatusView, type SubscriptionFacts } from './status-view';

const PAID_UNTIL = 1_800_000_000;
const GRACE_END = PAID_UNTIL + 3 * 86_400;
const facts = (over: Partial<SubscriptionFacts>): SubscriptionFacts => ({ state: 'ACTIVE', live: true, canceled: false, paidUntil: PAID_UNTIL, accessEnd: GRACE_END, ...over });

describe('what /my/subscriptions/ says about a subscription', () => {
  it('active: renews when the paid period ends; cancellable', () => {
    expect(subscriptionStatusView(facts({}))).toEqual({ state: 'active', date: PAID_UNTIL, dateKind: 'renews', cancellable: true });
  });
  it('trial: the trial\'s end, which is where reading ends (no grace); cancellable', () => {
    expect(subscriptionStatusView(facts({ state: 'TRIAL', accessEnd: PAID_UNTIL }))).toEqual({ state: 'trial', date: PAID_UNTIL, dateKind: 'trialEnds', cancellable: true });
  });
  it('payment due: access until the grace ends; cancellable', () => {
    expect(subscriptionStatusView(facts({ state: 'PAST_DUE' }))).toEqual({ state: 'pastDue', date: GRACE_END, dateKind: 'accessUntil', cancellable: true });
  });
  it('cancelled and still live: "Ends on" the access end, nothing more to cancel', () => {
    for (const state of ['ACTIVE', 'TRIAL', 'PAST_DUE']) {
      expect(subscriptionStatusView(facts({ state, canceled: true, accessEnd: PAID_UNTIL }))).toEqual({ state: 'ending', date: PAID_UNTIL, dateKind: null, cancellable: false });
    }
  });
  it('over by the clock, whatever state is stored (the renewal command may not have run yet): expired', () => {
    for (const state of ['ACTIVE', 'TRIAL', 'PAST_DUE', 'EXPIRED']) {
      expect(subscriptionStatusView(facts({ state, live: false }))).toEqual({ state: 'expired', date: GRACE_END, dateKind: 'ended', cancellable: false });
    }
    expect(subscriptionStatusView(facts({ live: false, canceled: true, accessEnd: PAID_UNTIL })).state).toBe('expired');
  });
  it('waiting for the first payment: no date, nothing to cancel', () => {
    expect(subscriptionStatusView(facts({ state: 'PENDING', live: false }))).toEqual({ state: 'pending', date: null, dateKind: null, cancellable: false });
  });
});
