import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { accessEnd, GRACE_DAYS, hasPaidPeriod, isLive, renewalMove, type SubscriptionTiming } from './access';
import { addMonths, trialEnd } from './periods';

const DAY = 86_400;
/** Unix seconds of an ISO time in UTC. */
const t = (iso: string) => Date.parse(`${iso}Z`) / 1000;

/** A 7-day trial started at 2026-03-10T14:37:21: it ends, unpaid, on 2026-03-17 at the same second. */
const START = t('2026-03-10T14:37:21');
const TRIAL_END = trialEnd(START, 7);
const trial: SubscriptionTiming = { state: 'TRIAL', anchor_at: TRIAL_END, paid_until: TRIAL_END, cancel_at_period_end: 0 };
/** The same subscription once its first month (from the trial's end) is paid. */
const PERIOD_END = addMonths(TRIAL_END, 1);
const paid: SubscriptionTiming = { state: 'ACTIVE', anchor_at: TRIAL_END, paid_until: PERIOD_END, cancel_at_period_end: 0 };

describe('a trial', () => {
  it('gives access until the second it ends, not one second more: no grace', () => {
    expect(TRIAL_END).toBe(t('2026-03-17T14:37:21'));
    expect(hasPaidPeriod(trial)).toBe(false);
    expect(accessEnd(trial)).toBe(TRIAL_END);
    expect(isLive(trial, TRIAL_END - 1)).toBe(true);
    expect(isLive(trial, TRIAL_END)).toBe(false);
    expect(isLive(trial, TRIAL_END + 1)).toBe(false);
    // The defect: 7 days of trial were 10 days of access.
    expect(isLive(trial, TRIAL_END + GRACE_DAYS * DAY - 1)).toBe(false);
  });

  it('expires when it ends, never going past due', () => {
    expect(renewalMove(trial, TRIAL_END - 1)).toBeNull();
    expect(renewalMove(trial, TRIAL_END)).toEqual({ from: ['TRIAL', 'ACTIVE', 'PAST_DUE'], to: 'EXPIRED', detail: 'the trial ended without a payment', paidUntilBefore: TRIAL_END });
    expect(renewalMove(trial, TRIAL_END + 1)?.to).toBe('EXPIRED');
  });

  it('cancelled, ends at the same second', () => {
    const cancelled = { ...trial, cancel_at_period_end: 1 };
    expect(accessEnd(cancelled)).toBe(TRIAL_END);
    expect([isLive(cancelled, TRIAL_END - 1), isLive(cancelled, TRIAL_END)]).toEqual([true, false]);
    expect(renewalMove(cancelled, TRIAL_END)?.detail).toBe('cancelled: the paid period ended');
  });

  it('that went past due under the old rule has no grace either (the rule reads the dates, not the state)', () => {
    const old = { ...trial, state: 'PAST_DUE' as const };
    expect([isLive(old, TRIAL_END - 1), isLive(old, TRIAL_END)]).toEqual([true, false]);
    expect(renewalMove(old, TRIAL_END)?.to).toBe('EXPIRED');
  });
});

describe('a paid period', () => {
  const GRACE_END = PERIOD_END + GRACE_DAYS * DAY;

  it('gives access to its end and through the grace while the renewal is unpaid, to the second', () => {
    expect(hasPaidPeriod(paid)).toBe(true);
    expect(accessEnd(paid)).toBe(GRACE_END);
    expect(isLive(paid, PERIOD_END)).toBe(true);
    expect(isLive(paid, GRACE_END - 1)).toBe(true);
    expect(isLive(paid, GRACE_END)).toBe(false);
  });

  it('goes past due when it ends and expires when the grace does', () => {
    expect(renewalMove(paid, PERIOD_END - 1)).toBeNull();
    expect(renewalMove(paid, PERIOD_END)).toEqual({ from: ['ACTIVE'], to: 'PAST_DUE', detail: 'the paid period ended: grace until the renewal is paid', paidUntilBefore: PERIOD_END });
    const pastDue = { ...paid, state: 'PAST_DUE' as const };
    expect(renewalMove(pastDue, GRACE_END - 1)).toBeNull();
    expect(renewalMove(pastDue, GRACE_END)).toEqual({ from: ['TRIAL', 'ACTIVE', 'PAST_DUE'], to: 'EXPIRED', detail: 'the renewal was not paid within the grace', paidUntilBefore: PERIOD_END });
  });

  it('cancelled, ends with the period, without grace', () => {
    const cancelled = { ...paid, cancel_at_period_end: 1 };
    expect(accessEnd(cancelled)).toBe(PERIOD_END);
    expect([isLive(cancelled, PERIOD_END - 1), isLive(cancelled, PERIOD_END)]).toEqual([true, false]);
    expect(renewalMove(cancelled, PERIOD_END)).toMatchObject({ to: 'EXPIRED', detail: 'cancelled: the paid period ended' });
  });
});

describe('the access rule and the renewal command agree', () => {
  const states = fc.constantFrom<SubscriptionTiming['state']>('TRIAL', 'ACTIVE', 'PAST_DUE');

  it('live exactly until the access end; the command expires it exactly from there', () => {
    fc.assert(fc.property(states, fc.integer({ min: 0, max: 2_000_000_000 }), fc.integer({ min: 0, max: 400 * DAY }), fc.constantFrom(0, 1), fc.integer({ min: -40 * DAY, max: 40 * DAY }),
      (state, anchor, paidFor, cancel, offset) => {
        const sub: SubscriptionTiming = { state, anchor_at: anchor, paid_until: anchor + paidFor, cancel_at_period_end: cancel };
        const end = accessEnd(sub);
        const now = sub.paid_until + offset;
        expect(end).toBe(paidFor > 0 && !cancel ? sub.paid_until + GRACE_DAYS * DAY : sub.paid_until);
        expect(isLive(sub, now)).toBe(now < end);
        expect(renewalMove(sub, now)?.to === 'EXPIRED').toBe(now >= end);
        // Past due only inside a paid period's grace.
        if (renewalMove(sub, now)?.to === 'PAST_DUE') expect(paidFor > 0 && !cancel && now >= sub.paid_until && now < end).toBe(true);
      }));
  });

  it('nothing moves a subscription that is not live', () => {
    for (const state of ['PENDING', 'EXPIRED'] as const) expect(renewalMove({ ...paid, state }, PERIOD_END + 10 * DAY)).toBeNull();
    expect(isLive({ ...paid, state: 'PENDING' }, PERIOD_END - 1)).toBe(false);
  });
});
