/**
 * What the renewal command (`npm run subscriptions -- renew`, commerce's `renewSubscriptions`)
 * asks of subscriptions: moving them along as their time runs out, and which periods are due to
 * be charged. A paid period over → PAST_DUE (the grace), the grace over → EXPIRED, a cancelled
 * one at its period's end → EXPIRED, a first payment never made → EXPIRED. Every move is a
 * guarded update recorded only by the run that made it, so two runs at once move each once.
 */
import { writeTransaction, type DB } from '~/server/db';
import type { SubscriptionState } from '@db/schema';
import type { Period } from './periods';
import * as repo from './repository.server';
import { accessEnd, PENDING_GIVE_UP_SECONDS, periodStartingAt, RENEW_AHEAD_SECONDS, type PlanRow, type SubscriptionRow } from './subscriptions.server';

async function move(db: DB, sub: SubscriptionRow, from: SubscriptionState[], to: SubscriptionState, detail: string, now: number, paidUntilBefore?: number): Promise<boolean> {
  return writeTransaction(db, async (trx) => {
    const moved = await repo.moveSubscription(trx, sub.id, from, to, now, paidUntilBefore);
    if (moved) await repo.insertEvent(trx, { subscription_id: sub.id, state: to, source: 'renew', detail, created_at: now });
    return moved;
  });
}

/** Moves every subscription whose time ran out; answers how many went past due and how many expired. */
export async function advanceSubscriptions(db: DB, now: number): Promise<{ pastDue: number; expired: number }> {
  let pastDue = 0;
  let expired = 0;
  for (const sub of await repo.stalePending(db, now - PENDING_GIVE_UP_SECONDS)) {
    if (await move(db, sub, ['PENDING'], 'EXPIRED', 'the first payment never arrived', now)) expired++;
  }
  for (const sub of await repo.liveSubscriptions(db)) {
    if (sub.cancel_at_period_end) {
      if (sub.paid_until <= now && (await move(db, sub, ['TRIAL', 'ACTIVE', 'PAST_DUE'], 'EXPIRED', 'cancelled: the paid period ended', now, now))) expired++;
    } else if (now >= accessEnd(sub)) {
      if (await move(db, sub, ['TRIAL', 'ACTIVE', 'PAST_DUE'], 'EXPIRED', 'the renewal was not paid within the grace', now)) expired++;
    } else if (sub.paid_until <= now && sub.state !== 'PAST_DUE') {
      if (await move(db, sub, ['TRIAL', 'ACTIVE'], 'PAST_DUE', 'the paid period ended: grace until the renewal is paid', now, now)) pastDue++;
    }
  }
  return { pastDue, expired };
}

export interface DueRenewal {
  sub: SubscriptionRow;
  plan: PlanRow;
  period: Period;
  /** Until when the renewal may still be paid (the grace's end). */
  payableUntil: number;
}

/** Live, not cancelled subscriptions whose paid time ends within RENEW_AHEAD_SECONDS, with the period to charge. */
export async function dueRenewals(db: DB, now: number): Promise<DueRenewal[]> {
  const out: DueRenewal[] = [];
  for (const sub of await repo.liveSubscriptions(db)) {
    if (sub.cancel_at_period_end || now >= accessEnd(sub) || sub.paid_until - now > RENEW_AHEAD_SECONDS) continue;
    const plan = await repo.findPlanById(db, sub.plan_id);
    if (!plan || !plan.active) continue;
    out.push({ sub, plan, period: periodStartingAt(sub.anchor_at, plan.period_months, sub.paid_until), payableUntil: accessEnd(sub) });
  }
  return out;
}
