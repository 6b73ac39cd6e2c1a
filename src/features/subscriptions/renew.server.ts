/**
 * What the renewal command (`npm run subscriptions -- renew`, commerce's `renewSubscriptions`)
 * asks of subscriptions: moving them along as their time runs out, and which periods are due to
 * be charged. A paid period over → PAST_DUE (the grace), the grace over → EXPIRED, a trial or a
 * cancelled one at its end → EXPIRED (no grace), a first payment never made → EXPIRED. Every
 * move is a guarded update recorded only by the run that made it, so two runs at once move each
 * once.
 */
import { writeTransaction, type DB } from '~/server/db';
import type { Period } from './periods';
import * as repo from './repository.server';
import { moveSubscription } from './moves.server';
import type { SubscriptionEvent } from './states';
import { accessEnd, renewalMove, type RenewalMove } from './access';
import { PENDING_GIVE_UP_SECONDS, periodStartingAt, RENEW_AHEAD_SECONDS, type PlanRow, type SubscriptionRow } from './subscriptions.server';

/** One move of the renewal command through the owner's guarded move, recorded only by the run that made it. */
async function move(db: DB, sub: SubscriptionRow, m: RenewalMove, now: number): Promise<boolean> {
  const event: SubscriptionEvent = sub.state === 'PENDING' ? 'givenUp' : m.to === 'PAST_DUE' ? 'periodEnded' : 'accessEnded';
  const r = await writeTransaction(db, (trx) => moveSubscription(trx, { id: sub.id, event, source: 'renew', detail: m.detail, now, paidUntilAtMost: m.paidUntilBefore }));
  return r.moved;
}

/** Moves every subscription whose time ran out (access.ts `renewalMove`); answers how many went past due and how many expired. */
export async function advanceSubscriptions(db: DB, now: number): Promise<{ pastDue: number; expired: number }> {
  let pastDue = 0;
  let expired = 0;
  for (const sub of await repo.stalePending(db, now - PENDING_GIVE_UP_SECONDS)) {
    if (await move(db, sub, { from: ['PENDING'], to: 'EXPIRED', detail: 'the first payment never arrived', paidUntilBefore: sub.paid_until }, now)) expired++;
  }
  for (const sub of await repo.liveSubscriptions(db)) {
    const m = renewalMove(sub, now);
    if (m && (await move(db, sub, m, now))) {
      if (m.to === 'EXPIRED') expired++;
      else pastDue++;
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
