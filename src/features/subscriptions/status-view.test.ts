import { describe, expect, it } from 'vitest';
import { rentalsRefillAt, subscriptionStatusView, type SubscriptionFacts } from './status-view';

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

describe('when the plan\'s rentals come back', () => {
  const MONTH_END = PAID_UNTIL;
  it('at the next plan month while the plan goes on (renewing, in a trial, payment due)', () => {
    expect(rentalsRefillAt(facts({}), MONTH_END)).toBe(MONTH_END);
    expect(rentalsRefillAt(facts({ state: 'PAST_DUE' }), MONTH_END)).toBe(MONTH_END);
    expect(rentalsRefillAt(facts({ state: 'TRIAL', accessEnd: PAID_UNTIL }), MONTH_END)).toBe(MONTH_END);
  });
  it('never, once cancelled, when the plan ends on or before that day: no promise of rentals on the day it ends', () => {
    expect(rentalsRefillAt(facts({ canceled: true, accessEnd: PAID_UNTIL }), MONTH_END)).toBeNull();
    expect(rentalsRefillAt(facts({ canceled: true, accessEnd: PAID_UNTIL }), MONTH_END + 86_400)).toBeNull();
  });
  it('still, once cancelled, for a month that starts before a longer plan ends (a yearly plan\'s monthly rentals)', () => {
    const monthEnd = PAID_UNTIL - 300 * 86_400;
    expect(rentalsRefillAt(facts({ canceled: true, accessEnd: PAID_UNTIL }), monthEnd)).toBe(monthEnd);
  });
  it('never once the plan is over', () => {
    expect(rentalsRefillAt(facts({ live: false }), MONTH_END)).toBeNull();
  });
});
