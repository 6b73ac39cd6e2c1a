/**
 * Subscriptions (docs/subscriptions.md): a reader subscribes to a plan (Pix on the Portuguese
 * site, a card-type method on either), may use one trial ever, puts series in the plan's slots,
 * rents chapters up to the plan's monthly capacity (the wallet writes those rentals), and keeps
 * access until the paid period ends — a grace after an unpaid renewal, none after a cancellation
 * or a trial (access.ts).
 * Money moves only through commerce's billing and its one payment confirmation.
 */
import crypto from 'node:crypto';
import type { T } from '~/lib/i18n';
import type { Site } from '~/lib/site';
import { formatMoney } from '~/lib/money';
import { findSeries, localizeSeriesRows } from '~/features/catalog/index.server';
import { isUniqueViolation, writeTransaction, type DB } from '~/server/db';
import * as repo from './repository.server';
import { beginSubscription, moveSubscription, type SubscriptionRow } from './moves.server';
import { addMonths, planMonth, trialEnd, type Period } from './periods';
import { accessEnd, isLive } from './access';

export { GRACE_DAYS, accessEnd, isLive } from './access';

const DAY = 86_400;
/** Renewals are charged this long before the paid period ends. */
export const RENEW_AHEAD_SECONDS = 3 * DAY;
/** A subscription still waiting for its first payment after this long is given up. */
export const PENDING_GIVE_UP_SECONDS = DAY;

export type { SubscriptionRow } from './moves.server';
export type PlanRow = NonNullable<Awaited<ReturnType<typeof repo.findPlan>>>;

/** The billing period that starts at `at`, on the subscription's anchor grid (Jan 31 → Feb 28 → Mar 31). */
export function periodStartingAt(anchor: number, months: number, at: number): Period {
  let k = 0;
  let start = anchor;
  while (start < at && k < 1200) start = addMonths(anchor, ++k * months);
  return start === at ? { start, end: addMonths(anchor, (k + 1) * months) } : { start: at, end: addMonths(at, months) };
}

function newSubscriptionId(): string {
  return `sbs${crypto.randomBytes(12).toString('hex')}`;
}

// ---------------------------------------------------------------- plans

export interface PlanView {
  id: number;
  code: string;
  name: string;
  benefits: string[];
  price: string;
  seriesSlots: number;
  rentCapacity: number;
  trialDays: number;
}

function benefitsOf(json: string): string[] {
  try {
    const v: unknown = JSON.parse(json);
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}

export function planView(p: PlanRow, locale: string): PlanView {
  return { id: p.id, code: p.code, name: p.name, benefits: benefitsOf(p.benefits), price: formatMoney(p.price, p.currency, locale), seriesSlots: p.series_slots, rentCapacity: p.rent_capacity, trialDays: p.trial_days };
}

/** The plans page: this site's plans, the one preselected by the URL, and whether the reader's trial is used. */
export async function plansPage(db: DB, input: { site: Site; userId: number | null; tier: string | null; now: number }) {
  const plans = (await repo.plansOfSite(db, input.site.id)).map((p) => planView(p, input.site.locale));
  const selected = input.tier ? plans.find((p) => p.code === input.tier || String(p.id) === input.tier) ?? null : null;
  const [trialUsed, current] = input.userId == null ? [false, null] : await Promise.all([repo.hasUsedTrial(db, input.userId), repo.currentSubscription(db, input.userId)]);
  return { plans, selected, trialUsed, subscribed: current != null && isLive(current, input.now) };
}

// ---------------------------------------------------------------- subscribing

// ---------------------------------------------------------------- starting a subscription

class TrialUsed extends Error {}

export type Started = { kind: 'trial'; sub: SubscriptionRow } | { kind: 'pending'; sub: SubscriptionRow } | { kind: 'live' } | { kind: 'trialUsed' };

/**
 * Starts a subscription for the reader in one transaction: refuses a second live one, replaces a
 * pending one that was never paid (its first charge is closed first, by commerce, at the PSP
 * too), takes the plan's trial (once per reader, ever: the trial's primary key decides between
 * concurrent requests) or waits for the first payment. A live-looking one whose access already
 * ended (the renewal command has not moved it yet) is expired first: a reader holds at most one
 * live subscription, which a partial unique index enforces.
 */
export async function startSubscription(db: DB, input: { userId: number; siteId: number; plan: PlanRow; method: string; provider: string; payerName: string | null; payerDoc: string | null; now: number }): Promise<Started> {
  const { userId, plan, now } = input;
  try {
    return await writeTransaction(db, async (trx): Promise<Started> => {
      await repo.lockReaderRow(trx, userId);
      const trial = plan.trial_days > 0;
      // Asking for a trial again gets the trial notice, even while that trial runs (two requests
      // at once: one trial, one notice), never "already subscribed".
      if (trial && (await repo.hasUsedTrial(trx, userId))) return { kind: 'trialUsed' };
      const current = await repo.currentSubscription(trx, userId);
      if (current && isLive(current, now)) return { kind: 'live' };
      if (current?.state === 'PENDING') {
        await moveSubscription(trx, { id: current.id, event: 'replaced', source: 'checkout', detail: 'replaced by a new subscription before its first payment', now });
      } else if (current) {
        await moveSubscription(trx, { id: current.id, event: 'accessEnded', source: 'checkout', detail: 'its access had ended when the reader subscribed again', now });
      }
      const anchor = trial ? trialEnd(now, plan.trial_days) : now;
      const sub = await beginSubscription(trx, {
        public_id: newSubscriptionId(), user_id: userId, site_id: input.siteId, plan_id: plan.id, anchor_at: anchor, paid_until: trial ? anchor : now,
        method: input.method, provider: input.provider, payer_name: input.payerName, payer_doc: input.payerDoc,
      }, trial ? 'trial' : 'awaitingPayment', trial ? `trial of ${plan.trial_days} days on ${plan.code}` : `waiting for the first payment of ${plan.code}`, now);
      if (trial && !(await repo.takeTrial(trx, userId, sub.id, now))) throw new TrialUsed();
      return trial ? { kind: 'trial', sub } : { kind: 'pending', sub };
    });
  } catch (error) {
    // A second trial, found under the lock or by the primary key when two requests raced.
    if (error instanceof TrialUsed) return { kind: 'trialUsed' };
    // Two requests at once: the one-live-subscription index refused the second (PostgreSQL, where
    // the reader's row lock orders them but a trial's key may decide first).
    if (isUniqueViolation(error)) return plan.trial_days > 0 ? { kind: 'trialUsed' } : { kind: 'live' };
    throw error;
  }
}

/** Closes a subscription that never got its first payment (the payment failed or could not be made). */
export async function giveUpSubscription(db: DB, sub: SubscriptionRow, reason: string, now: number): Promise<void> {
  await writeTransaction(db, (trx) => moveSubscription(trx, { id: sub.id, event: 'givenUp', source: 'checkout', detail: reason, now }));
}

export async function planFor(db: DB, site: Site, tier: string): Promise<PlanRow | null> {
  const t = tier.trim();
  const plan = /^\d{1,9}$/.test(t) ? await repo.findPlan(db, site.id, { id: Number(t) }) : /^[a-z0-9-]{1,40}$/.test(t) ? await repo.findPlan(db, site.id, { code: t }) : undefined;
  return plan && plan.active ? plan : null;
}

/** Keeps the card provider's vaulted payment method for the subscription's renewals. */
export async function keepPaymentToken(db: DB, subscriptionId: number, token: string, now: number): Promise<void> {
  await writeTransaction(db, (trx) => repo.setPaymentToken(trx, subscriptionId, token, now));
}

// ---------------------------------------------------------------- series slots

export interface AddComicBody {
  success: boolean;
  error: string | null;
  slots_left: number;
}

/**
 * The subscribe button: puts a series in the reader's subscription slots. Under the reader's
 * lock, so concurrent requests never take more slots than the plan has.
 */
export async function addComic(db: DB, input: { userId: number; comicId: unknown; now: number }, t: T): Promise<{ status: number; body: AddComicBody }> {
  const ref = typeof input.comicId === 'number' && Number.isSafeInteger(input.comicId) ? String(input.comicId) : typeof input.comicId === 'string' ? input.comicId.trim() : '';
  if (!ref || ref.length > 80) return { status: 422, body: { success: false, error: t('subscribe.error.missing'), slots_left: 0 } };
  const series = await findSeries(db, ref);
  if (!series || series.state !== 'ACTIVE') return { status: 404, body: { success: false, error: t('subscribe.error.series'), slots_left: 0 } };
  return writeTransaction(db, async (trx) => {
    await repo.lockReaderRow(trx, input.userId);
    const current = await repo.currentSubscription(trx, input.userId);
    if (!current || !isLive(current, input.now)) return { status: 402, body: { success: false, error: t('subscribe.error.noPlan'), slots_left: 0 } };
    const sub = (await repo.lockSubscription(trx, current.id))!;
    const plan = (await repo.findPlanById(trx, sub.plan_id))!;
    const held = await repo.slotSeries(trx, sub.id);
    const seriesId = Number(series.id);
    if (held.includes(seriesId)) return { status: 200, body: { success: true, error: null, slots_left: Math.max(0, plan.series_slots - held.length) } };
    if (held.length >= plan.series_slots) return { status: 409, body: { success: false, error: t('subscribe.error.noSlots', { slots: plan.series_slots }), slots_left: 0 } };
    await repo.addSlot(trx, sub.id, seriesId, input.now);
    // A note on the subscription's history, not a move: the state stays as it is.
    await repo.insertEvent(trx, { subscription_id: sub.id, state: sub.state, source: 'reader', detail: `series ${series.e4pid} in a slot`, charge_id: null, created_at: input.now });
    return { status: 200, body: { success: true, error: null, slots_left: plan.series_slots - held.length - 1 } };
  });
}

// ---------------------------------------------------------------- access (for the wallet's pricing)

export interface SubscriptionAccess {
  /** The reader subscribes to this series (it is in a live subscription's slots). */
  series: boolean;
  /** The live subscription's rentals: capacity, the plan month and how long a rental lasts; null without one. */
  plan: { rentCapacity: number; month: Period; rentTtl: number } | null;
}

/** What a reader's subscription gives in one series now (the pricing rule's `subscription`). */
export async function subscriptionAccess(db: DB, userId: number, seriesId: number, now: number): Promise<SubscriptionAccess | null> {
  const sub = await repo.currentSubscription(db, userId);
  if (!sub || !isLive(sub, now)) return null;
  const [plan, slots] = await Promise.all([repo.findPlanById(db, sub.plan_id), repo.slotSeries(db, sub.id)]);
  if (!plan) return null;
  return { series: slots.includes(seriesId), plan: { rentCapacity: plan.rent_capacity, month: planMonth(sub.anchor_at, now), rentTtl: plan.rent_ttl } };
}

// ---------------------------------------------------------------- the reader's page and cancelling

export async function mySubscriptions(db: DB, input: { userId: number; site: Site; now: number }) {
  const current = await repo.currentSubscription(db, input.userId);
  if (!current) return { current: null };
  const plan = (await repo.findPlanById(db, current.plan_id))!;
  const slots = await repo.slotSeries(db, current.id);
  const found = (await Promise.all(slots.map((id) => findSeries(db, String(id))))).filter((s) => s != null);
  // Named as the site names them (issue 26: English names on the Portuguese site).
  const series = await localizeSeriesRows(db, input.site.language, found);
  return {
    current: {
      /** The internal id, for the payment history (commerce's `subscriptionPage`). */
      subscriptionId: current.id,
      id: current.public_id, state: current.state, live: isLive(current, input.now), canceled: current.cancel_at_period_end === 1,
      paidUntil: current.paid_until, accessEnd: accessEnd(current), plan: planView(plan, input.site.locale),
      slotsLeft: Math.max(0, plan.series_slots - slots.length), series: series.map((s) => ({ id: Number(s.id), name: s.name, slug: s.slug })),
      rentMonth: planMonth(current.anchor_at, input.now),
    },
  };
}

/**
 * The plan a subscription was taken on (its name as the plan's site writes it today) and the
 * payer a Pix subscription named: what commerce's receipts say of a subscription charge.
 */
export async function subscriptionPlanOf(db: DB, subscriptionId: number): Promise<{ code: string; name: string; periodMonths: number; payerName: string | null } | null> {
  const sub = await repo.findSubscription(db, subscriptionId);
  const plan = sub ? await repo.findPlanById(db, sub.plan_id) : undefined;
  return sub && plan ? { code: plan.code, name: plan.name, periodMonths: plan.period_months, payerName: sub.payer_name } : null;
}

/** Cancels the reader's subscription at the end of its paid period (access until then, no grace). */
export async function cancelSubscription(db: DB, input: { userId: number; now: number }): Promise<boolean> {
  return writeTransaction(db, async (trx) => {
    await repo.lockReaderRow(trx, input.userId);
    const current = await repo.currentSubscription(trx, input.userId);
    if (!current || current.state === 'PENDING') return false;
    // Cancelled once already (a second press) is still "cancelled": the move says stale, nothing more is recorded.
    const m = await moveSubscription(trx, { id: current.id, event: 'cancelled', source: 'reader', detail: `cancelled: access until ${new Date(current.paid_until * 1000).toISOString()}`, now: input.now });
    return m.moved || m.why === 'stale';
  });
}

