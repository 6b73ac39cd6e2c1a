/**
 * Every query of subscriptions: plans, a reader's subscription and its events, the trial each
 * reader may use once, the series in a subscription's slots. Rows in, rows out. A subscription's
 * state, paid time and cancel flag are changed only by `changeSubscription`, which only the
 * owner's guarded move calls (moves.server.ts).
 */
import type { SubscriptionState, SubscriptionTable } from '@db/schema';
import { isPostgres, preparedRead, type DB, type WriteTx } from '~/server/db';

const num = <T extends Record<string, unknown>>(row: T, ...keys: (keyof T)[]): T => {
  for (const k of keys) (row as Record<keyof T, unknown>)[k] = row[k] == null ? row[k] : Number(row[k]);
  return row;
};

const PLAN_NUMBERS = ['id', 'site_id', 'price', 'period_months', 'series_slots', 'rent_capacity', 'rent_ttl', 'trial_days', 'position', 'active', 'created_at', 'updated_at'] as const;
const SUB_NUMBERS = ['id', 'user_id', 'site_id', 'plan_id', 'anchor_at', 'paid_until', 'cancel_at_period_end', 'canceled_at', 'created_at', 'updated_at'] as const;

export async function plansOfSite(db: DB, siteId: number) {
  const rows = await db.selectFrom('plans').selectAll().where('site_id', '=', siteId).where('active', '=', 1).orderBy('position').orderBy('price').execute();
  return rows.map((r) => num(r, ...PLAN_NUMBERS));
}

export async function allPlans(db: DB) {
  const rows = await db.selectFrom('plans').selectAll().orderBy('site_id').orderBy('position').execute();
  return rows.map((r) => num(r, ...PLAN_NUMBERS));
}

export async function findPlan(db: DB, siteId: number, ref: { id: number } | { code: string }) {
  let q = db.selectFrom('plans').selectAll().where('site_id', '=', siteId);
  q = 'id' in ref ? q.where('id', '=', ref.id) : q.where('code', '=', ref.code);
  const row = await q.executeTakeFirst();
  return row && num(row, ...PLAN_NUMBERS);
}

export async function findPlanById(db: DB, id: number) {
  const row = await db.selectFrom('plans').selectAll().where('id', '=', id).executeTakeFirst();
  return row && num(row, ...PLAN_NUMBERS);
}

export interface PlanValues {
  site_id: number;
  code: string;
  name: string;
  benefits: string;
  currency: string;
  price: number;
  period_months: number;
  series_slots: number;
  rent_capacity: number;
  rent_ttl: number;
  trial_days: number;
  position: number;
  active: number;
}

export async function upsertPlan(db: DB, p: PlanValues, now: number): Promise<void> {
  const { site_id: _s, code: _c, ...change } = p;
  await db.insertInto('plans').values({ ...p, created_at: now, updated_at: now })
    .onConflict((oc) => oc.columns(['site_id', 'code']).doUpdateSet({ ...change, updated_at: now })).execute();
}

/** A new plan (the studio's create); its id. */
export async function insertPlan(trx: WriteTx, p: PlanValues, now: number): Promise<number> {
  const row = await trx.insertInto('plans').values({ ...p, created_at: now, updated_at: now }).returning('id').executeTakeFirstOrThrow();
  return Number(row.id);
}

/** Changes a plan's terms by id (its site and code stay). */
export async function updatePlan(trx: WriteTx, id: number, p: PlanValues, now: number): Promise<void> {
  const { site_id: _s, code: _c, ...change } = p;
  await trx.updateTable('plans').set({ ...change, updated_at: now }).where('id', '=', id).execute();
}

/**
 * Serialises a reader's subscription changes: on PostgreSQL the reader's row is locked for the
 * transaction (SQLite's write transaction already holds the database).
 */
export async function lockReaderRow(trx: WriteTx, userId: number): Promise<void> {
  if (isPostgres(trx)) await trx.selectFrom('users').select('id').where('id', '=', userId).forNoKeyUpdate().execute(); // see docs/postgres.md "Row locks"
}

/** The reader's newest subscription that is not over (PENDING, TRIAL, ACTIVE, PAST_DUE). */
// Prepared (every signed-in series page asks, for subscription access; see preparedRead), and the
// newest picked here: a reader has a handful of unexpired rows, and an ORDER BY the index cannot
// serve costs SQLite a sorter on every call.
const unexpiredSubscriptions = preparedRead((db, userId: number) => db.selectFrom('subscriptions').selectAll().where('user_id', '=', userId).where('state', '<>', 'EXPIRED'));
export async function currentSubscription(db: DB, userId: number) {
  const rows = (await unexpiredSubscriptions(db, userId)).map((r) => num(r, ...SUB_NUMBERS));
  return rows.reduce<(typeof rows)[number] | undefined>((newest, r) => (newest && newest.id > r.id ? newest : r), undefined);
}

export async function lockSubscription(trx: WriteTx, id: number) {
  let q = trx.selectFrom('subscriptions').selectAll().where('id', '=', id);
  if (isPostgres(trx)) q = q.forNoKeyUpdate(); // not FOR UPDATE: see docs/postgres.md "Row locks"
  const row = await q.executeTakeFirst();
  return row && num(row, ...SUB_NUMBERS);
}

export async function findSubscription(db: DB, id: number) {
  const row = await db.selectFrom('subscriptions').selectAll().where('id', '=', id).executeTakeFirst();
  return row && num(row, ...SUB_NUMBERS);
}

export async function readerSubscriptions(db: DB, userId: number) {
  const rows = await db.selectFrom('subscriptions').selectAll().where('user_id', '=', userId).orderBy('id', 'desc').limit(20).execute();
  return rows.map((r) => num(r, ...SUB_NUMBERS));
}

export type NewSubscription = Pick<SubscriptionTable, 'public_id' | 'user_id' | 'site_id' | 'plan_id' | 'state' | 'anchor_at' | 'paid_until' | 'method' | 'provider' | 'payer_name' | 'payer_doc'>;

export async function insertSubscription(trx: WriteTx, s: NewSubscription, now: number): Promise<number> {
  const row = await trx.insertInto('subscriptions').values({ ...s, created_at: now, updated_at: now }).returning('id').executeTakeFirstOrThrow();
  return Number(row.id);
}

/** What a move changes: the state, and for a paid period the paid time, for a cancellation the flag. */
export type SubscriptionChange = { state: SubscriptionState; paid_until?: number; cancel_at_period_end?: number; canceled_at?: number };

/** Changes a subscription only if it is still in `from`; false when it had moved on. Only the owner's move calls it. */
export async function changeSubscription(trx: WriteTx, id: number, from: SubscriptionState, change: SubscriptionChange, now: number): Promise<boolean> {
  const r = await trx.updateTable('subscriptions').set({ ...change, updated_at: now }).where('id', '=', id).where('state', '=', from).executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export async function setPaymentToken(db: WriteTx, id: number, token: string, now: number): Promise<void> {
  await db.updateTable('subscriptions').set({ payment_token: token, updated_at: now }).where('id', '=', id).execute();
}

export async function insertEvent(trx: WriteTx, e: { subscription_id: number; state: string; source: string; detail: string | null; charge_id: number | null; created_at: number }): Promise<void> {
  await trx.insertInto('subscription_events').values(e).execute();
}

export async function eventsOf(db: DB, subscriptionId: number) {
  const rows = await db.selectFrom('subscription_events').selectAll().where('subscription_id', '=', subscriptionId).orderBy('id').execute();
  return rows.map((r) => num(r, 'id', 'subscription_id', 'charge_id', 'created_at'));
}

/** Records the reader's one trial; false when they had one (the primary key refuses a second). */
export async function takeTrial(trx: WriteTx, userId: number, subscriptionId: number, now: number): Promise<boolean> {
  const r = await trx.insertInto('trial_uses').values({ user_id: userId, subscription_id: subscriptionId, created_at: now })
    .onConflict((oc) => oc.column('user_id').doNothing()).executeTakeFirst();
  return Number(r.numInsertedOrUpdatedRows ?? 0) === 1;
}

export async function hasUsedTrial(db: DB, userId: number): Promise<boolean> {
  return !!(await db.selectFrom('trial_uses').select('user_id').where('user_id', '=', userId).executeTakeFirst());
}

export async function slotSeries(db: DB, subscriptionId: number): Promise<number[]> {
  const rows = await db.selectFrom('subscription_series').select('series_id').where('subscription_id', '=', subscriptionId).orderBy('created_at').execute();
  return rows.map((r) => Number(r.series_id));
}

export async function addSlot(trx: WriteTx, subscriptionId: number, seriesId: number, now: number): Promise<void> {
  await trx.insertInto('subscription_series').values({ subscription_id: subscriptionId, series_id: seriesId, created_at: now })
    .onConflict((oc) => oc.columns(['subscription_id', 'series_id']).doNothing()).execute();
}

/** Subscriptions the renewal command looks at: not over, not pending. */
export async function liveSubscriptions(db: DB) {
  const rows = await db.selectFrom('subscriptions').selectAll().where('state', 'in', ['TRIAL', 'ACTIVE', 'PAST_DUE']).orderBy('id').execute();
  return rows.map((r) => num(r, ...SUB_NUMBERS));
}

/** Subscriptions still waiting for a first payment, made before `before`. */
export async function stalePending(db: DB, before: number) {
  const rows = await db.selectFrom('subscriptions').selectAll().where('state', '=', 'PENDING').where('created_at', '<=', before).execute();
  return rows.map((r) => num(r, ...SUB_NUMBERS));
}

/** Readers holding more series than their plan's slots (the audit's check). */
export async function slotsOverCapacity(db: DB) {
  const rows = await db.selectFrom('subscription_series').innerJoin('subscriptions', 'subscriptions.id', 'subscription_series.subscription_id')
    .innerJoin('plans', 'plans.id', 'subscriptions.plan_id')
    .select((eb) => ['subscriptions.id', 'plans.series_slots', eb.fn.countAll().as('n')])
    .groupBy(['subscriptions.id', 'plans.series_slots']).execute();
  return rows.map((r) => ({ id: Number(r.id), slots: Number(r.series_slots), n: Number(r.n) })).filter((r) => r.n > r.slots);
}

// ---------------------------------------------------------------- the reader's own data (export, account deletion)

/** Every subscription of the reader with its plan and slots, for the data export (never the provider's payment token). */
export async function subscriptionsForExport(db: DB, userId: number) {
  const subs = await db.selectFrom('subscriptions as s').innerJoin('plans as p', 'p.id', 's.plan_id')
    .select(['s.id', 's.public_id', 's.site_id', 'p.code as plan', 'p.name as plan_name', 's.state', 's.anchor_at', 's.paid_until', 's.cancel_at_period_end', 's.canceled_at', 's.method', 's.provider', 's.payer_name', 's.payer_doc', 's.created_at'])
    .where('s.user_id', '=', userId).orderBy('s.created_at').orderBy('s.id').execute();
  const slots = subs.length
    ? await db.selectFrom('subscription_series as x').innerJoin('series as se', 'se.id', 'x.series_id').select(['x.subscription_id', 'se.e4pid', 'x.created_at'])
      .where('x.subscription_id', 'in', subs.map((s) => s.id)).orderBy('x.created_at').execute()
    : [];
  return { subs, slots };
}

/** Forgets the provider's vaulted payment method on every subscription of the reader (account deletion). */
export async function forgetPaymentTokens(trx: WriteTx, userId: number, now: number): Promise<void> {
  await trx.updateTable('subscriptions').set({ payment_token: null, updated_at: now }).where('user_id', '=', userId).where('payment_token', 'is not', null).execute();
}
