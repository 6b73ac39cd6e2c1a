/**
 * The one owner of a subscription's state (docs/money-states.md): it alone writes `state`,
 * `paid_until` and the cancel flag of `subscriptions`, and their events, through the transition
 * table (states.ts). Each move locks the row, asks the table, updates the row only if it is still
 * in the state it was read in (`… WHERE state = <from>`), and records the event in the same
 * transaction. A move the table refuses changes nothing and says so (false): a late payment for
 * an EXPIRED subscription, a second "expire" by a concurrent renewal run.
 */
import type { SubscriptionState } from '@db/schema';
import type { WriteTx } from '~/server/db';
import * as repo from './repository.server';
import { nextSubscriptionState, START, type StartEvent, type SubscriptionEvent } from './states';

export type SubscriptionRow = NonNullable<Awaited<ReturnType<typeof repo.findSubscription>>>;
export type NewSubscriptionRow = Omit<repo.NewSubscription, 'state'>;

/** Who asked for a move: the reader's checkout or page, a payment's confirmation, the renewal command. */
export type MoveSource = 'checkout' | 'reader' | 'payment' | 'renew' | 'webhook' | 'poll' | 'reconcile' | 'expiry' | 'cli' | 'refund';

/** Makes a subscription in the state its start event gives, with that event recorded. */
export async function beginSubscription(trx: WriteTx, row: NewSubscriptionRow, how: StartEvent, detail: string, now: number): Promise<SubscriptionRow> {
  const state = START[how];
  const id = await repo.insertSubscription(trx, { ...row, state }, now);
  await repo.insertEvent(trx, { subscription_id: id, state, source: 'checkout', detail, charge_id: null, created_at: now });
  return (await repo.findSubscription(trx, id))!;
}

export interface MoveInput {
  id: number;
  event: SubscriptionEvent;
  source: MoveSource;
  detail: string;
  now: number;
  /** periodPaid: the end of the paid period (paid_until moves to it, never back). */
  periodEnd?: number;
  /** periodPaid: the charge that paid it (its event names it; the audit counts on that). */
  chargeId?: number;
  /**
   * Only while paid_until is still at most this: the renewal command's moves read the row, then
   * write; a payment confirmed in between extends the paid time and the move no longer applies.
   */
  paidUntilAtMost?: number;
}

/** The move's result: the states it went between, or why it did not happen. */
export type MoveResult = { moved: true; from: SubscriptionState; to: SubscriptionState } | { moved: false; why: 'unknown' | 'refused' | 'stale' };

/** The one guarded move of a subscription. */
export async function moveSubscription(trx: WriteTx, m: MoveInput): Promise<MoveResult> {
  const sub = await repo.lockSubscription(trx, m.id);
  if (!sub) return { moved: false, why: 'unknown' };
  const to = nextSubscriptionState(sub.state, m.event);
  if (to === null) return { moved: false, why: 'refused' };
  if (m.event === 'cancelled' && sub.cancel_at_period_end) return { moved: false, why: 'stale' };
  if (m.paidUntilAtMost !== undefined && sub.paid_until > m.paidUntilAtMost) return { moved: false, why: 'stale' };
  const change: repo.SubscriptionChange = { state: to };
  if (m.event === 'periodPaid') {
    if (m.periodEnd === undefined) throw new Error('a paid period needs its end');
    change.paid_until = Math.max(sub.paid_until, m.periodEnd);
  }
  if (m.event === 'cancelled') {
    change.cancel_at_period_end = 1;
    change.canceled_at = m.now;
  }
  if (!(await repo.changeSubscription(trx, sub.id, sub.state, change, m.now))) return { moved: false, why: 'stale' };
  await repo.insertEvent(trx, { subscription_id: sub.id, state: to, source: m.source, detail: m.detail, charge_id: m.chargeId ?? null, created_at: m.now });
  return { moved: true, from: sub.state, to };
}

/**
 * A paid period, granted by a charge's payment in its transaction (commerce's payables owner):
 * the subscription's paid time moves to the period's end and it is ACTIVE. False when the table
 * refuses (the subscription is EXPIRED: replaced, given up or over), so the payment grants
 * nothing and goes back.
 */
export async function grantPaidPeriod(trx: WriteTx, g: { subscriptionId: number; periodEnd: number; chargeId: number; detail: string; source: MoveSource; now: number }): Promise<boolean> {
  const r = await moveSubscription(trx, { id: g.subscriptionId, event: 'periodPaid', source: g.source, detail: g.detail, now: g.now, periodEnd: g.periodEnd, chargeId: g.chargeId });
  return r.moved;
}

/**
 * A refunded charge's subscription (commerce's refunds owner, in the refund's transaction):
 * `now` ends its access at once (accessEnded); `period_end` lets it run to the end of the period
 * already granted without renewing (cancelled). A subscription already over, or already set not
 * to renew, is left as it is.
 */
export async function endSubscriptionForRefund(trx: WriteTx, r: { subscriptionId: number; ending: 'now' | 'period_end'; detail: string; now: number }): Promise<MoveResult> {
  return moveSubscription(trx, { id: r.subscriptionId, event: r.ending === 'now' ? 'accessEnded' : 'cancelled', source: 'refund', detail: r.detail, now: r.now });
}
