/**
 * Until when a subscription gives access, and how the renewal command moves it as that time runs
 * out: the one rule that the access checks (`isLive`), /my/subscriptions/ (`accessEnd`) and the
 * renewal command (`renewalMove`) all read, so they agree to the second. Pure and browser-safe,
 * unit-tested in access.test.ts. docs/subscriptions.md.
 *
 * - A trial's access ends when the trial ends: nothing was paid, so there is no grace.
 * - A paid period's access ends with it, plus GRACE_DAYS while its renewal is unpaid.
 * - A cancelled subscription ends with its paid (or trial) time, without grace.
 */
import type { SubscriptionState } from '@db/schema';
import { graceEnd } from './periods';

/** An unpaid renewal keeps access this many days after the paid period. */
export const GRACE_DAYS = 3;

/** The columns of a subscription these rules read. */
export interface SubscriptionTiming {
  state: SubscriptionState;
  /** The start of the first paid period: the subscription time, or a trial's end. */
  anchor_at: number;
  /** The end of the paid time: a trial's end until a period is paid. */
  paid_until: number;
  cancel_at_period_end: number;
}

/**
 * Whether a period was ever paid. Only a payment moves `paid_until` past the anchor (a trial's
 * `paid_until` is its end, which is the anchor; a pending first payment's is the anchor too), so
 * this holds whatever state is stored, rows written by older code included.
 */
export function hasPaidPeriod(sub: Pick<SubscriptionTiming, 'anchor_at' | 'paid_until'>): boolean {
  return sub.paid_until > sub.anchor_at;
}

/** The first instant without access (exclusive): the paid or trial time, plus the grace after a paid period unless cancelled. */
export function accessEnd(sub: Pick<SubscriptionTiming, 'anchor_at' | 'paid_until' | 'cancel_at_period_end'>): number {
  return sub.cancel_at_period_end || !hasPaidPeriod(sub) ? sub.paid_until : graceEnd(sub.paid_until, GRACE_DAYS);
}

/** Whether the subscription gives access at `now`: a live state and before its access end. */
export function isLive(sub: SubscriptionTiming, now: number): boolean {
  return (sub.state === 'TRIAL' || sub.state === 'ACTIVE' || sub.state === 'PAST_DUE') && now < accessEnd(sub);
}

/** A move of the renewal command: the states it may leave, the one it enters, why. */
export interface RenewalMove {
  from: SubscriptionState[];
  to: 'PAST_DUE' | 'EXPIRED';
  detail: string;
  /**
   * The move happens only while `paid_until` is still at most this: a payment confirmed between
   * the command's read and its write extends the paid time, and the move no longer applies.
   */
  paidUntilBefore: number;
}

const LIVE: SubscriptionState[] = ['TRIAL', 'ACTIVE', 'PAST_DUE'];

/** What the renewal command does to a live subscription at `now`, or null while its time runs. */
export function renewalMove(sub: SubscriptionTiming, now: number): RenewalMove | null {
  if (!LIVE.includes(sub.state)) return null;
  if (now >= accessEnd(sub)) {
    const detail = sub.cancel_at_period_end ? 'cancelled: the paid period ended'
      : hasPaidPeriod(sub) ? 'the renewal was not paid within the grace' : 'the trial ended without a payment';
    return { from: LIVE, to: 'EXPIRED', detail, paidUntilBefore: sub.paid_until };
  }
  // Only a paid period has a grace to go past due into.
  if (sub.paid_until <= now && sub.state === 'ACTIVE') {
    return { from: ['ACTIVE'], to: 'PAST_DUE', detail: 'the paid period ended: grace until the renewal is paid', paidUntilBefore: sub.paid_until };
  }
  return null;
}
