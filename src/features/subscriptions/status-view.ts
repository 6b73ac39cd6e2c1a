/**
 * What /my/subscriptions/ says about a subscription: its state in the reader's words, the one
 * date that matters for that state, and whether it can still be cancelled. Pure (the page gives
 * it what `mySubscriptions` found), unit-tested in status-view.test.ts.
 */

export type SubscriptionStateView = 'active' | 'trial' | 'pastDue' | 'ending' | 'pending' | 'expired';

/** Which sentence the date goes in ("Renews on …"); null when the state's own words carry it ("Ends on …"). */
export type SubscriptionDateKind = 'renews' | 'trialEnds' | 'accessUntil' | 'ended';

export interface SubscriptionStatusView {
  state: SubscriptionStateView;
  /** Unix seconds, or null when there is no date to show (waiting for the first payment). */
  date: number | null;
  dateKind: SubscriptionDateKind | null;
  cancellable: boolean;
}

export interface SubscriptionFacts {
  /** The stored state: PENDING, TRIAL, ACTIVE, PAST_DUE or EXPIRED. */
  state: string;
  /** Whether it gives access now (`isLive`: a live state and before its access end). */
  live: boolean;
  /** Cancelled by the reader: access to the end of the paid period, no grace, no renewal. */
  canceled: boolean;
  paidUntil: number;
  /** The first instant without access (access.ts `accessEnd`): paidUntil, plus the grace after a paid period unless cancelled. */
  accessEnd: number;
}

export function subscriptionStatusView(s: SubscriptionFacts): SubscriptionStatusView {
  if (s.state === 'PENDING') return { state: 'pending', date: null, dateKind: null, cancellable: false };
  // Time runs out before the renewal command writes EXPIRED: the clock decides, not the stored state.
  if (!s.live) return { state: 'expired', date: s.accessEnd, dateKind: 'ended', cancellable: false };
  if (s.canceled) return { state: 'ending', date: s.accessEnd, dateKind: null, cancellable: false };
  // A trial has no grace: reading ends when the trial does, and that is the date shown.
  if (s.state === 'TRIAL') return { state: 'trial', date: s.accessEnd, dateKind: 'trialEnds', cancellable: true };
  // Unpaid renewal: reading goes on through the grace days, so the date is the access end.
  if (s.state === 'PAST_DUE') return { state: 'pastDue', date: s.accessEnd, dateKind: 'accessUntil', cancellable: true };
  return { state: 'active', date: s.paidUntil, dateKind: 'renews', cancellable: true };
}

/**
 * When the plan's rentals come back: the next plan month, while the plan goes on into it. A
 * cancelled plan whose access ends by then gets no new month, so the page says when the plan ends
 * instead of promising rentals on that day (null).
 */
export function rentalsRefillAt(s: Pick<SubscriptionFacts, 'live' | 'canceled' | 'accessEnd'>, rentMonthEnd: number): number | null {
  if (!s.live) return null;
  if (s.canceled && rentMonthEnd >= s.accessEnd) return null;
  return rentMonthEnd;
}
