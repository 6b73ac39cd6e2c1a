/**
 * A subscription's transition table (docs/money-states.md): every state × event gives the next
 * state or a refusal (null). The one guarded move (moves.server.ts) reads it; nothing else writes
 * a subscription's state. Pure and browser-safe; states.test.ts checks every pair.
 *
 * - A subscription starts TRIAL (a plan with a trial) or PENDING (waiting for its first payment).
 * - A paid period makes it ACTIVE from any live state, extending its paid time (never back).
 * - An ACTIVE one whose paid time ended goes PAST_DUE (the grace); when its access ends (the trial
 *   is over, the grace is over, or it was cancelled and its paid time is over) it EXPIRES.
 * - A PENDING one is replaced by a new subscription, or given up when its first payment fails or
 *   never comes.
 * - Cancelling keeps the state (access runs to the end of the paid time) and sets a flag.
 * - EXPIRED is final: nothing revives it, a late payment included (that payment is to refund).
 */
import type { SubscriptionState } from '@db/schema';

/** How a subscription begins, and the state it begins in. */
export const START = { trial: 'TRIAL', awaitingPayment: 'PENDING' } as const satisfies Record<string, SubscriptionState>;
export type StartEvent = keyof typeof START;

export const SUBSCRIPTION_EVENTS = ['periodPaid', 'periodEnded', 'accessEnded', 'replaced', 'givenUp', 'cancelled'] as const;
export type SubscriptionEvent = (typeof SUBSCRIPTION_EVENTS)[number];

export const SUBSCRIPTION_STATES: readonly SubscriptionState[] = ['PENDING', 'TRIAL', 'ACTIVE', 'PAST_DUE', 'EXPIRED'];

/** The states in which a reader holds "their" subscription: at most one per reader (a partial unique index). */
export const LIVE_STATES: readonly SubscriptionState[] = ['PENDING', 'TRIAL', 'ACTIVE', 'PAST_DUE'];

/** state × event → next state; an event missing from a state's row is refused. */
export const SUBSCRIPTION_TRANSITIONS: Readonly<Record<SubscriptionState, Partial<Record<SubscriptionEvent, SubscriptionState>>>> = {
  PENDING: { periodPaid: 'ACTIVE', replaced: 'EXPIRED', givenUp: 'EXPIRED' },
  TRIAL: { periodPaid: 'ACTIVE', accessEnded: 'EXPIRED', cancelled: 'TRIAL' },
  ACTIVE: { periodPaid: 'ACTIVE', periodEnded: 'PAST_DUE', accessEnded: 'EXPIRED', cancelled: 'ACTIVE' },
  PAST_DUE: { periodPaid: 'ACTIVE', accessEnded: 'EXPIRED', cancelled: 'PAST_DUE' },
  EXPIRED: {},
};

/** The state after `event`, or null when the table refuses it. */
export function nextSubscriptionState(from: SubscriptionState, event: SubscriptionEvent): SubscriptionState | null {
  return SUBSCRIPTION_TRANSITIONS[from][event] ?? null;
}
