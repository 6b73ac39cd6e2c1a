/**
 * Every query of buying keys and paying subscriptions: key packs, coupons and their redemptions,
 * orders, subscription charges and their events, payments to refund, the purchase favorite star,
 * and the checks the audit runs. Rows in, rows out. Functions that change money or a payable's
 * state take the write transaction (`WriteTx`); an order's or charge's state is changed only by
 * `changeOrder`/`changeCharge`, which only the payables' owner calls (payables.server.ts).
 */
import { sql } from 'kysely';
import type { OrderState, OrderTable, RefundState, RefundTable, SubscriptionChargeTable } from '@db/schema';
import type { CouponTerms } from './rules';
import { isPostgres, type DB, type WriteTx } from '~/server/db';

/** States of a record that was paid (and may since have been refunded): its payment and what it granted stand. */
const PAID_LIKE: OrderState[] = ['PAID', 'REFUNDED', 'PARTIALLY_REFUNDED'];

/** PostgreSQL hands bigints and counts over as strings. */
const num = <T extends Record<string, unknown>>(row: T, ...keys: (keyof T)[]): T => {
  for (const k of keys) (row as Record<keyof T, unknown>)[k] = row[k] == null ? row[k] : Number(row[k]);
  return row;
};

// ---------------------------------------------------------------- packs

const PACK_NUMBERS = ['id', 'site_id', 'price', 'keys', 'xtra_keys', 'position', 'active', 'created_at', 'updated_at'] as const;

export async function packsOfSite(db: DB, siteId: number, activeOnly = true) {
  let q = db.selectFrom('key_packs').selectAll().where('site_id', '=', siteId);
  if (activeOnly) q = q.where('active', '=', 1);
  const rows = await q.orderBy('position').orderBy('price').execute();
  return rows.map((r) => num(r, ...PACK_NUMBERS));
}

/** Paid orders per pack of a site since `since` (the packs page's "most popular"). */
export async function packSalesSince(db: DB, siteId: number, since: number): Promise<Map<number, number>> {
  const rows = await db.selectFrom('orders').select(['pack_id', (eb) => eb.fn.countAll().as('n')])
    .where('state', '=', 'PAID').where('created_at', '>=', since).where('site_id', '=', siteId)
    .groupBy('pack_id').execute();
  return new Map(rows.map((r) => [Number(r.pack_id), Number(r.n)]));
}

export async function allPacks(db: DB) {
  const rows = await db.selectFrom('key_packs').selectAll().orderBy('site_id').orderBy('position').orderBy('price').execute();
  return rows.map((r) => num(r, ...PACK_NUMBERS));
}

export async function findPack(db: DB, siteId: number, code: string) {
  const row = await db.selectFrom('key_packs').selectAll().where('site_id', '=', siteId).where('code', '=', code).executeTakeFirst();
  return row && num(row, ...PACK_NUMBERS);
}

export async function findPackById(db: DB, id: number) {
  const row = await db.selectFrom('key_packs').selectAll().where('id', '=', id).executeTakeFirst();
  return row && num(row, ...PACK_NUMBERS);
}

export interface PackValues {
  site_id: number;
  code: string;
  currency: string;
  price: number;
  keys: number;
  xtra_keys: number;
  position: number;
  active: number;
}

/** Creates or changes a pack (by site and code); orders keep the amounts they were made with. */
export async function upsertPack(db: DB, p: PackValues, now: number): Promise<void> {
  await db.insertInto('key_packs').values({ ...p, created_at: now, updated_at: now })
    .onConflict((oc) => oc.columns(['site_id', 'code']).doUpdateSet({ currency: p.currency, price: p.price, keys: p.keys, xtra_keys: p.xtra_keys, position: p.position, active: p.active, updated_at: now }))
    .execute();
}

/** A new pack (the studio's create); its id. */
export async function insertPack(trx: WriteTx, p: PackValues, now: number): Promise<number> {
  const row = await trx.insertInto('key_packs').values({ ...p, created_at: now, updated_at: now }).returning('id').executeTakeFirstOrThrow();
  return Number(row.id);
}

/** Changes a pack's terms by id (its site and code stay). */
export async function updatePack(trx: WriteTx, id: number, p: Omit<PackValues, 'site_id' | 'code'>, now: number): Promise<void> {
  await trx.updateTable('key_packs').set({ currency: p.currency, price: p.price, keys: p.keys, xtra_keys: p.xtra_keys, position: p.position, active: p.active, updated_at: now }).where('id', '=', id).execute();
}

// ---------------------------------------------------------------- coupons

const COUPON_NUMBERS = ['id', 'site_id', 'percent_off', 'amount_off', 'xtra_keys', 'starts_at', 'ends_at', 'max_redemptions', 'per_reader_limit', 'redemptions', 'active', 'created_at'] as const;

export async function findCoupon(db: DB, siteId: number, code: string) {
  const row = await db.selectFrom('coupons').selectAll().where('site_id', '=', siteId).where('code', '=', code).executeTakeFirst();
  return row && num(row, ...COUPON_NUMBERS);
}

/** The coupon, locked for the rest of the transaction on PostgreSQL (SQLite's write lock covers it). */
export async function lockCoupon(trx: WriteTx, id: number) {
  let q = trx.selectFrom('coupons').selectAll().where('id', '=', id);
  if (isPostgres(trx)) q = q.forNoKeyUpdate(); // not FOR UPDATE: see docs/postgres.md "Row locks"
  const row = await q.executeTakeFirst();
  return row && num(row, ...COUPON_NUMBERS);
}

export async function allCoupons(db: DB) {
  const rows = await db.selectFrom('coupons').selectAll().orderBy('site_id').orderBy('code').execute();
  return rows.map((r) => num(r, ...COUPON_NUMBERS));
}

/** A coupon as staff write it: its terms (rules.ts) without the live count, and its code. */
export type CouponValues = Omit<CouponTerms, 'redemptions' | 'active'> & { code: string; active: number };

export async function upsertCoupon(db: DB, c: CouponValues, now: number): Promise<void> {
  const { site_id: _s, code: _c, ...change } = c;
  await db.insertInto('coupons').values({ ...c, created_at: now })
    .onConflict((oc) => oc.columns(['site_id', 'code']).doUpdateSet(change))
    .execute();
}

export async function findCouponById(db: DB, id: number) {
  const row = await db.selectFrom('coupons').selectAll().where('id', '=', id).executeTakeFirst();
  return row && num(row, ...COUPON_NUMBERS);
}

/** A new coupon (the studio's create); its id. */
export async function insertCoupon(trx: WriteTx, c: CouponValues, now: number): Promise<number> {
  const row = await trx.insertInto('coupons').values({ ...c, created_at: now }).returning('id').executeTakeFirstOrThrow();
  return Number(row.id);
}

/** Changes a coupon's terms by id (its site, code and live count stay). */
export async function updateCoupon(trx: WriteTx, id: number, c: CouponValues): Promise<void> {
  const { site_id: _s, code: _c, ...change } = c;
  await trx.updateTable('coupons').set(change).where('id', '=', id).execute();
}

/** Orders of this reader holding the coupon now (pending or paid). */
export async function readerCouponUses(db: DB, couponId: number, userId: number): Promise<number> {
  const row = await db.selectFrom('coupon_redemptions').select((eb) => eb.fn.countAll().as('n'))
    .where('coupon_id', '=', couponId).where('user_id', '=', userId).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Takes one use of the coupon unless it has none left; false when refused. */
export async function takeCouponUse(trx: WriteTx, couponId: number): Promise<boolean> {
  const r = await trx.updateTable('coupons').set({ redemptions: sql`redemptions + 1` })
    .where('id', '=', couponId)
    .where((eb) => eb.or([eb('max_redemptions', 'is', null), eb('redemptions', '<', eb.ref('max_redemptions'))]))
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export async function insertRedemption(trx: WriteTx, r: { order_id: number; coupon_id: number; user_id: number; created_at: number }): Promise<void> {
  await trx.insertInto('coupon_redemptions').values(r).execute();
}

/** Gives an order's coupon use back (its order failed or expired). */
export async function releaseRedemption(trx: WriteTx, orderId: number): Promise<void> {
  const held = await trx.deleteFrom('coupon_redemptions').where('order_id', '=', orderId).returning('coupon_id').executeTakeFirst();
  if (held) await trx.updateTable('coupons').set({ redemptions: sql`redemptions - 1` }).where('id', '=', Number(held.coupon_id)).execute();
}

// ---------------------------------------------------------------- orders

const ORDER_NUMBERS = ['id', 'user_id', 'site_id', 'pack_id', 'coupon_id', 'subtotal', 'discount', 'total', 'keys', 'xtra_keys', 'expires_at', 'ledger_transaction_id', 'created_at', 'updated_at', 'paid_at'] as const;

/** What an order is made with (the rest is its state, filled as it moves). */
export type NewOrder = Pick<OrderTable, 'public_id' | 'user_id' | 'site_id' | 'pack_id' | 'coupon_id' | 'currency' | 'subtotal' | 'discount' | 'total' | 'keys' | 'xtra_keys' | 'method' | 'provider' | 'request_key' | 'next_path' | 'expires_at'>;

export async function insertOrder(trx: WriteTx, o: NewOrder, now: number): Promise<number> {
  const row = await trx.insertInto('orders').values({ ...o, state: 'PENDING', created_at: now, updated_at: now }).returning('id').executeTakeFirstOrThrow();
  return Number(row.id);
}

export async function findOrder(db: DB, publicId: string) {
  const row = await db.selectFrom('orders').selectAll().where('public_id', '=', publicId).executeTakeFirst();
  return row && num(row, ...ORDER_NUMBERS);
}

/** A reader's own order: another reader's answers nothing. */
export async function findReaderOrder(db: DB, userId: number, publicId: string) {
  const row = await db.selectFrom('orders').selectAll().where('public_id', '=', publicId).where('user_id', '=', userId).executeTakeFirst();
  return row && num(row, ...ORDER_NUMBERS);
}

export async function findOrderByRequest(db: DB, userId: number, requestKey: string) {
  const row = await db.selectFrom('orders').selectAll().where('user_id', '=', userId).where('request_key', '=', requestKey).executeTakeFirst();
  return row && num(row, ...ORDER_NUMBERS);
}

/** The order, locked for the rest of the transaction on PostgreSQL. */
export async function lockOrder(trx: WriteTx, publicId: string) {
  let q = trx.selectFrom('orders').selectAll().where('public_id', '=', publicId);
  if (isPostgres(trx)) q = q.forNoKeyUpdate(); // not FOR UPDATE: see docs/postgres.md "Row locks"
  const row = await q.executeTakeFirst();
  return row && num(row, ...ORDER_NUMBERS);
}

export type OrderChange = Partial<Pick<OrderTable, 'state' | 'payment_id' | 'card_brand' | 'card_last4' | 'br_code' | 'expires_at' | 'failure' | 'ledger_transaction_id' | 'paid_at'>>;

/** Changes an order only if it is still in `from`; false when it had moved on. */
export async function changeOrder(trx: WriteTx, id: number, from: OrderState, change: OrderChange, now: number): Promise<boolean> {
  const r = await trx.updateTable('orders').set({ ...change, updated_at: now }).where('id', '=', id).where('state', '=', from).executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export async function insertOrderEvent(trx: WriteTx, e: { order_id: number; state: string; source: string; detail: string | null; created_at: number }): Promise<void> {
  await trx.insertInto('order_events').values(e).execute();
}

export async function orderEvents(db: DB, orderId: number) {
  const rows = await db.selectFrom('order_events').selectAll().where('order_id', '=', orderId).orderBy('id').execute();
  return rows.map((r) => num(r, 'id', 'order_id', 'created_at'));
}

/** A reader's orders, newest first, with their pack's code. */
export async function readerOrders(db: DB, userId: number, limit: number, offset: number) {
  const rows = await db.selectFrom('orders').innerJoin('key_packs', 'key_packs.id', 'orders.pack_id')
    .select(['orders.id', 'orders.public_id', 'orders.pack_id', 'orders.state', 'orders.currency', 'orders.total', 'orders.keys', 'orders.xtra_keys',
      'orders.method', 'orders.card_brand', 'orders.card_last4', 'orders.created_at', 'orders.paid_at', 'key_packs.code as pack_code'])
    .where('orders.user_id', '=', userId).orderBy('orders.id', 'desc').limit(limit).offset(offset).execute();
  return rows.map((r) => num(r, 'id', 'pack_id', 'total', 'keys', 'xtra_keys', 'created_at', 'paid_at'));
}

export async function readerOrderCount(db: DB, userId: number): Promise<number> {
  const row = await db.selectFrom('orders').select((eb) => eb.fn.countAll().as('n')).where('user_id', '=', userId).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Pending orders created before `before`, oldest first (the reconciler's work list). */
export async function pendingOrders(db: DB, before: number, limit: number) {
  const rows = await db.selectFrom('orders').selectAll().where('state', '=', 'PENDING').where('created_at', '<=', before).orderBy('created_at').limit(limit).execute();
  return rows.map((r) => num(r, ...ORDER_NUMBERS));
}

/**
 * Pending Pix orders past their expiry, oldest first: all of them, or those holding a use of one
 * coupon. The expiry step asks the PSP about each.
 */
export async function dueOrders(db: DB, now: number, only: { coupon?: { siteId: number; code: string } }, limit: number) {
  let q = db.selectFrom('orders').select(['orders.public_id', 'orders.expires_at'])
    .where('orders.state', '=', 'PENDING').where('orders.method', '=', 'pix').where('orders.expires_at', '<=', now);
  if (only.coupon) {
    const { siteId, code } = only.coupon;
    q = q.where('orders.coupon_id', 'in', (sub) => sub.selectFrom('coupons').select('id').where('site_id', '=', siteId).where('code', '=', code));
  }
  const rows = await q.orderBy('orders.expires_at').limit(limit).execute();
  return rows.map((r) => num(r, 'expires_at'));
}

/** A reader's pending Pix orders (a new one replaces them), with their request keys. */
export async function pendingPixOrdersOf(db: DB, userId: number) {
  const rows = await db.selectFrom('orders').select(['public_id', 'expires_at', 'request_key']).where('user_id', '=', userId).where('state', '=', 'PENDING').where('method', '=', 'pix').execute();
  return rows.map((r) => num(r, 'expires_at'));
}

/**
 * A reader's pending Pix first charges: those of subscriptions still waiting for their first
 * payment, which a new subscription replaces (a live subscription's renewal charge is not one).
 */
export async function pendingFirstPixChargesOf(db: DB, userId: number) {
  const rows = await db.selectFrom('subscription_charges').innerJoin('subscriptions', 'subscriptions.id', 'subscription_charges.subscription_id')
    .select(['subscription_charges.public_id', 'subscription_charges.expires_at'])
    .where('subscription_charges.user_id', '=', userId).where('subscription_charges.state', '=', 'PENDING').where('subscription_charges.method', '=', 'pix')
    .where('subscriptions.state', '=', 'PENDING').execute();
  return rows.map((r) => num(r, 'expires_at'));
}

/** Pending Pix subscription charges past their expiry, oldest first. */
export async function dueCharges(db: DB, now: number, limit: number) {
  const rows = await db.selectFrom('subscription_charges').select(['public_id', 'expires_at']).where('state', '=', 'PENDING').where('method', '=', 'pix')
    .where('expires_at', '<=', now).orderBy('expires_at').limit(limit).execute();
  return rows.map((r) => num(r, 'expires_at'));
}

// ---------------------------------------------------------------- the purchase favorite star

export async function favoritePackIds(db: DB, userId: number): Promise<Set<number>> {
  const rows = await db.selectFrom('pack_favorites').select('pack_id').where('user_id', '=', userId).execute();
  return new Set(rows.map((r) => Number(r.pack_id)));
}

export async function addPackFavorite(db: DB, userId: number, packId: number, now: number): Promise<void> {
  await db.insertInto('pack_favorites').values({ user_id: userId, pack_id: packId, created_at: now }).onConflict((oc) => oc.columns(['user_id', 'pack_id']).doNothing()).execute();
}

export async function removePackFavorite(db: DB, userId: number, packId: number): Promise<void> {
  await db.deleteFrom('pack_favorites').where('user_id', '=', userId).where('pack_id', '=', packId).execute();
}

// ---------------------------------------------------------------- audit

/** Paid orders whose purchase transaction is missing, is not theirs, or credited other amounts. */
export async function paidOrdersMiscredited(db: DB) {
  const rows = await db.selectFrom('orders')
    .leftJoin('ledger_transactions as t', 't.id', 'orders.ledger_transaction_id')
    .select((eb) => [
      'orders.id', 'orders.public_id', 'orders.user_id', 'orders.keys', 'orders.xtra_keys', 't.id as transaction_id', 't.kind', 't.user_id as tx_user', 't.idempotency_key',
      eb.selectFrom('ledger_entries as e').innerJoin('wallet_accounts as a', 'a.id', 'e.account_id')
        .select((e) => e.fn.coalesce(e.fn.sum('e.amount'), sql.lit(0)).as('s'))
        .whereRef('e.transaction_id', '=', 't.id').whereRef('a.user_id', '=', 'orders.user_id').where('e.currency', '=', 'keys').as('credited_keys'),
      eb.selectFrom('ledger_entries as e').innerJoin('wallet_accounts as a', 'a.id', 'e.account_id')
        .select((e) => e.fn.coalesce(e.fn.sum('e.amount'), sql.lit(0)).as('s'))
        .whereRef('e.transaction_id', '=', 't.id').whereRef('a.user_id', '=', 'orders.user_id').where('e.currency', '=', 'xtra').as('credited_xtra'),
    ])
    .where('orders.state', 'in', PAID_LIKE)
    .execute();
  return rows
    .map((r) => num(r, 'id', 'user_id', 'keys', 'xtra_keys', 'transaction_id', 'tx_user', 'credited_keys', 'credited_xtra'))
    .filter((r) => r.transaction_id == null || r.kind !== 'purchase' || r.tx_user !== r.user_id || r.idempotency_key !== `order:${r.public_id}`
      || r.credited_keys !== r.keys || r.credited_xtra !== r.xtra_keys);
}

/** Purchase transactions that no paid order points at (keys credited twice, or for nothing). */
export async function purchasesWithoutPaidOrder(db: DB) {
  const rows = await db.selectFrom('ledger_transactions as t')
    .leftJoin('orders', 'orders.ledger_transaction_id', 't.id')
    .select(['t.id', 't.idempotency_key', 't.user_id', 'orders.state'])
    .where('t.kind', '=', 'purchase')
    .where((eb) => eb.or([eb('orders.id', 'is', null), eb('orders.state', 'not in', PAID_LIKE)]))
    .execute();
  return rows.map((r) => num(r, 'id', 'user_id'));
}

/** Coupons whose count differs from the orders holding them, or that went past their limits. */
export async function couponCountsAmiss(db: DB) {
  const rows = await db.selectFrom('coupons')
    .select((eb) => ['coupons.id', 'coupons.code', 'coupons.redemptions', 'coupons.max_redemptions',
      eb.selectFrom('coupon_redemptions').select((c) => c.fn.countAll().as('n')).whereRef('coupon_redemptions.coupon_id', '=', 'coupons.id').as('held')])
    .execute();
  return rows.map((r) => num(r, 'id', 'redemptions', 'max_redemptions', 'held')).filter((r) => Number(r.redemptions) !== Number(r.held) || (r.max_redemptions != null && Number(r.held) > Number(r.max_redemptions)));
}

/** Coupon uses held by orders that failed, expired or were refunded whole (they should have been given back). */
export async function redemptionsOfClosedOrders(db: DB) {
  const rows = await db.selectFrom('coupon_redemptions').innerJoin('orders', 'orders.id', 'coupon_redemptions.order_id')
    .select(['orders.id', 'orders.public_id', 'orders.state', 'coupon_redemptions.coupon_id'])
    .where('orders.state', 'in', ['FAILED', 'EXPIRED', 'REFUNDED']).execute();
  return rows.map((r) => num(r, 'id', 'coupon_id'));
}

/** Readers holding a coupon more often than it allows. */
export async function readerLimitsExceeded(db: DB) {
  const rows = await db.selectFrom('coupon_redemptions').innerJoin('coupons', 'coupons.id', 'coupon_redemptions.coupon_id')
    .select((eb) => ['coupon_redemptions.coupon_id', 'coupon_redemptions.user_id', 'coupons.per_reader_limit', eb.fn.countAll().as('n')])
    .groupBy(['coupon_redemptions.coupon_id', 'coupon_redemptions.user_id', 'coupons.per_reader_limit']).execute();
  return rows.map((r) => num(r, 'coupon_id', 'user_id', 'per_reader_limit', 'n')).filter((r) => Number(r.n) > Number(r.per_reader_limit));
}

// ---------------------------------------------------------------- subscription charges

const CHARGE_NUMBERS = ['id', 'subscription_id', 'user_id', 'period_start', 'period_end', 'amount', 'expires_at', 'created_at', 'updated_at', 'paid_at'] as const;

export type NewCharge = Pick<SubscriptionChargeTable, 'public_id' | 'subscription_id' | 'user_id' | 'period_start' | 'period_end' | 'currency' | 'amount' | 'method' | 'provider' | 'expires_at'>;

/** Inserts the period's charge unless it exists; answers the period's charge either way, and whether this call made it. */
export async function insertChargeOnce(trx: WriteTx, c: NewCharge, now: number) {
  const made = await trx.insertInto('subscription_charges').values({ ...c, state: 'PENDING', created_at: now, updated_at: now })
    .onConflict((oc) => oc.columns(['subscription_id', 'period_start']).doNothing()).executeTakeFirst();
  const row = await trx.selectFrom('subscription_charges').selectAll().where('subscription_id', '=', c.subscription_id).where('period_start', '=', c.period_start).executeTakeFirstOrThrow();
  return { row: num(row, ...CHARGE_NUMBERS), created: Number(made.numInsertedOrUpdatedRows ?? 0) === 1 };
}

export async function findCharge(db: DB, publicId: string) {
  const row = await db.selectFrom('subscription_charges').selectAll().where('public_id', '=', publicId).executeTakeFirst();
  return row && num(row, ...CHARGE_NUMBERS);
}

export async function lockCharge(trx: WriteTx, publicId: string) {
  let q = trx.selectFrom('subscription_charges').selectAll().where('public_id', '=', publicId);
  if (isPostgres(trx)) q = q.forNoKeyUpdate(); // not FOR UPDATE: see docs/postgres.md "Row locks"
  const row = await q.executeTakeFirst();
  return row && num(row, ...CHARGE_NUMBERS);
}

/** Changes a charge only if it is still in `from`; false when it had moved on. Orders' own columns (ledger, card) are not a charge's. */
export async function changeCharge(trx: WriteTx, id: number, from: OrderState, change: OrderChange, now: number): Promise<boolean> {
  const { ledger_transaction_id: _l, card_brand: _b, card_last4: _c, ...own } = change;
  const r = await trx.updateTable('subscription_charges').set({ ...own, updated_at: now }).where('id', '=', id).where('state', '=', from).executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export async function insertChargeEvent(trx: WriteTx, e: { charge_id: number; state: string; source: string; detail: string | null; created_at: number }): Promise<void> {
  await trx.insertInto('charge_events').values(e).execute();
}

export async function chargeEvents(db: DB, chargeId: number) {
  const rows = await db.selectFrom('charge_events').selectAll().where('charge_id', '=', chargeId).orderBy('id').execute();
  return rows.map((r) => num(r, 'id', 'charge_id', 'created_at'));
}

// ---------------------------------------------------------------- payments to refund

/** Records a payment to give back, once per provider payment (a repeated webhook adds nothing). */
export async function insertRefundDue(trx: WriteTx, r: { user_id: number; payable_kind: 'order' | 'charge'; payable_id: string; provider: string; payment_id: string; amount: number; currency: string; reason: string; created_at: number }): Promise<void> {
  await trx.insertInto('refunds_due').values(r).onConflict((oc) => oc.columns(['provider', 'payment_id']).doNothing()).execute();
}

export async function refundsDue(db: DB) {
  const rows = await db.selectFrom('refunds_due').selectAll().orderBy('id').execute();
  return rows.map((r) => num(r, 'id', 'user_id', 'amount', 'created_at', 'resolved_at'));
}

export async function chargesOfSubscription(db: DB, subscriptionId: number) {
  const rows = await db.selectFrom('subscription_charges').selectAll().where('subscription_id', '=', subscriptionId).orderBy('period_start', 'desc').orderBy('id', 'desc').execute();
  return rows.map((r) => num(r, ...CHARGE_NUMBERS));
}

export async function pendingCharges(db: DB, before: number, limit: number) {
  const rows = await db.selectFrom('subscription_charges').selectAll().where('state', '=', 'PENDING').where('created_at', '<=', before).orderBy('created_at').limit(limit).execute();
  return rows.map((r) => num(r, ...CHARGE_NUMBERS));
}

/** Paid charges whose subscription's access does not reach the end of their period. */
export async function paidChargesNotGranted(db: DB) {
  const rows = await db.selectFrom('subscription_charges').innerJoin('subscriptions', 'subscriptions.id', 'subscription_charges.subscription_id')
    .select(['subscription_charges.public_id', 'subscription_charges.period_end', 'subscriptions.paid_until'])
    .where('subscription_charges.state', '=', 'PAID')
    .whereRef('subscriptions.paid_until', '<', 'subscription_charges.period_end').execute();
  return rows.map((r) => num(r, 'period_end', 'paid_until'));
}

/** Readers holding more than one live subscription (PENDING, TRIAL, ACTIVE, PAST_DUE). */
export async function readersWithSeveralLive(db: DB) {
  const rows = await db.selectFrom('subscriptions').select((eb) => ['user_id', eb.fn.countAll().as('n')])
    .where('state', 'in', ['PENDING', 'TRIAL', 'ACTIVE', 'PAST_DUE']).groupBy('user_id').having((eb) => eb.fn.countAll(), '>', 1).execute();
  return rows.map((r) => num(r, 'user_id', 'n'));
}

/** Paid charges whose "period paid" event is missing, repeated, or on another subscription. */
export async function paidChargesGrantedAmiss(db: DB) {
  const rows = await db.selectFrom('subscription_charges as c')
    .select((eb) => ['c.id', 'c.public_id', 'c.subscription_id',
      eb.selectFrom('subscription_events as e').select((e) => e.fn.countAll().as('n')).whereRef('e.charge_id', '=', 'c.id').whereRef('e.subscription_id', '=', 'c.subscription_id').where('e.state', '=', 'ACTIVE').as('own'),
      eb.selectFrom('subscription_events as e').select((e) => e.fn.countAll().as('n')).whereRef('e.charge_id', '=', 'c.id').whereRef('e.subscription_id', '<>', 'c.subscription_id').as('other'),
    ])
    .where('c.state', 'in', PAID_LIKE).execute();
  return rows.map((r) => num(r, 'id', 'subscription_id', 'own', 'other')).filter((r) => r.own !== 1 || r.other !== 0);
}

/** Closed (failed or expired) charges that granted a period anyway. */
export async function closedChargesGranted(db: DB) {
  const rows = await db.selectFrom('subscription_charges as c').innerJoin('subscription_events as e', 'e.charge_id', 'c.id')
    .select(['c.public_id', 'c.state', 'e.id as event_id']).where('c.state', 'in', ['FAILED', 'EXPIRED']).where('e.state', '=', 'ACTIVE').execute();
  return rows.map((r) => num(r, 'event_id'));
}

/** Closed (failed or expired) orders that point at a credit. */
export async function closedOrdersCredited(db: DB) {
  const rows = await db.selectFrom('orders').select(['public_id', 'state', 'ledger_transaction_id'])
    .where('state', 'in', ['FAILED', 'EXPIRED']).where('ledger_transaction_id', 'is not', null).execute();
  return rows.map((r) => num(r, 'ledger_transaction_id'));
}

/** Subscriptions in a live state, with what pays for them: their paid charges' latest period end and their trial. */
export async function liveSubscriptionsWithCover(db: DB) {
  const rows = await db.selectFrom('subscriptions as s')
    .select((eb) => ['s.id', 's.public_id', 's.user_id', 's.state', 's.anchor_at', 's.paid_until', 's.cancel_at_period_end',
      eb.selectFrom('subscription_charges as c').select((c) => c.fn.max('c.period_end').as('m')).whereRef('c.subscription_id', '=', 's.id').where('c.state', 'in', PAID_LIKE).as('paid_end'),
      eb.selectFrom('trial_uses as t').select((t) => t.fn.countAll().as('n')).whereRef('t.subscription_id', '=', 's.id').as('trials'),
    ])
    .where('s.state', 'in', ['TRIAL', 'ACTIVE', 'PAST_DUE']).execute();
  return rows.map((r) => num(r, 'id', 'user_id', 'anchor_at', 'paid_until', 'cancel_at_period_end', 'paid_end', 'trials'));
}

/**
 * Payments to refund that match no payment we know of: no order or charge of that id and reader,
 * no amount, or (for the sandboxes, whose side is in this database) no card sale of that payment
 * id and amount, or no Pix charge of that order or charge at the sandbox.
 */
export async function refundsWithoutTheirPayment(db: DB) {
  const rows = await db.selectFrom('refunds_due as r')
    .select((eb) => ['r.id', 'r.payable_kind', 'r.payable_id', 'r.user_id', 'r.provider', 'r.payment_id', 'r.amount',
      eb.selectFrom('orders as o').select((o) => o.fn.countAll().as('n')).whereRef('o.public_id', '=', 'r.payable_id').whereRef('o.user_id', '=', 'r.user_id').as('orders'),
      eb.selectFrom('subscription_charges as c').select((c) => c.fn.countAll().as('n')).whereRef('c.public_id', '=', 'r.payable_id').whereRef('c.user_id', '=', 'r.user_id').as('charges'),
      eb.selectFrom('sandbox_card_nonces as n').select((n) => n.fn.countAll().as('n')).whereRef('n.payment_id', '=', 'r.payment_id').whereRef('n.amount', '=', 'r.amount').as('card_sales'),
      // The Pix sandbox's charge for this order or charge (a payment after it expired is exactly what a refund is for).
      eb.selectFrom('sandbox_pix_charges as x').select((x) => x.fn.countAll().as('n')).whereRef('x.correlation_id', '=', 'r.payable_id').as('pix_payments'),
    ]).execute();
  return rows.map((r) => num(r, 'id', 'user_id', 'amount', 'orders', 'charges', 'card_sales', 'pix_payments')).filter((r) => {
    const payable = r.payable_kind === 'order' ? r.orders : r.charges;
    const sandboxPaid = r.provider === 'sandbox' ? Number(r.card_sales) > 0 : r.provider === 'pix-sandbox' ? Number(r.pix_payments) > 0 : true;
    return Number(payable) !== 1 || !(Number(r.amount) > 0) || !r.payment_id || !sandboxPaid;
  });
}

/**
 * Claims a pending card charge for one sale: the first caller marks it (expires_at, unused for
 * card charges) and sells; a concurrent caller (a second renewal run, a double submit) finds it
 * claimed and does not charge the card again.
 */
export async function claimCardCharge(trx: WriteTx, id: number, now: number): Promise<boolean> {
  const r = await trx.updateTable('subscription_charges').set({ expires_at: now, updated_at: now }).where('id', '=', id).where('state', '=', 'PENDING').where('expires_at', 'is', null).executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

// ---------------------------------------------------------------- refunds

const REFUND_NUMBERS = ['id', 'user_id', 'amount', 'keys', 'xtra_keys', 'whole', 'actor_id', 'hold_transaction_id', 'ledger_transaction_id', 'created_at', 'updated_at', 'confirmed_at'] as const;

export type NewRefund = Pick<RefundTable, 'public_id' | 'user_id' | 'payable_kind' | 'payable_id' | 'provider' | 'payment_id' | 'amount' | 'currency' | 'keys' | 'xtra_keys' | 'whole' | 'origin' | 'reason' | 'actor_id' | 'ending'>;

/** Inserts a PENDING refund; null when the payable already has a live one (the partial unique index). */
export async function insertRefund(trx: WriteTx, r: NewRefund, now: number): Promise<number | null> {
  const row = await trx.insertInto('refunds').values({ ...r, state: 'PENDING', created_at: now, updated_at: now })
    // The index's own predicate, literally: SQLite matches a partial index's conflict target by its text.
    .onConflict((oc) => oc.columns(['payable_kind', 'payable_id']).where(sql.ref('state'), 'in', [sql.lit('PENDING'), sql.lit('CONFIRMED')]).doNothing())
    .returning('id').executeTakeFirst();
  return row ? Number(row.id) : null;
}

export async function lockRefund(trx: WriteTx, publicId: string) {
  let q = trx.selectFrom('refunds').selectAll().where('public_id', '=', publicId);
  if (isPostgres(trx)) q = q.forNoKeyUpdate();
  const row = await q.executeTakeFirst();
  return row && num(row, ...REFUND_NUMBERS);
}

export async function findRefund(db: DB, publicId: string) {
  const row = await db.selectFrom('refunds').selectAll().where('public_id', '=', publicId).executeTakeFirst();
  return row && num(row, ...REFUND_NUMBERS);
}

/** The payable's refund that is under way or done (at most one: the partial unique index). */
export async function liveRefundOf(db: DB, kind: RefundTable['payable_kind'], payableId: string) {
  const row = await db.selectFrom('refunds').selectAll().where('payable_kind', '=', kind).where('payable_id', '=', payableId).where('state', 'in', ['PENDING', 'CONFIRMED']).executeTakeFirst();
  return row && num(row, ...REFUND_NUMBERS);
}

/** The live refund's state of each of these orders (at most one each). */
export async function refundStatesOf(db: DB, orderIds: string[]): Promise<Map<string, RefundState>> {
  if (orderIds.length === 0) return new Map();
  const rows = await db.selectFrom('refunds').select(['payable_id', 'state']).where('payable_kind', '=', 'order').where('payable_id', 'in', orderIds).where('state', 'in', ['PENDING', 'CONFIRMED']).execute();
  return new Map(rows.map((r) => [r.payable_id, r.state]));
}

/** Every refund of a payable, newest first (refused ones included). */
export async function refundsOf(db: DB, kind: RefundTable['payable_kind'], payableId: string) {
  const rows = await db.selectFrom('refunds').selectAll().where('payable_kind', '=', kind).where('payable_id', '=', payableId).orderBy('id', 'desc').execute();
  return rows.map((r) => num(r, ...REFUND_NUMBERS));
}

export type RefundChange = Partial<Pick<RefundTable, 'state' | 'provider_action' | 'provider_refund_id' | 'hold_transaction_id' | 'ledger_transaction_id' | 'failure' | 'confirmed_at'>>;

/** Changes a refund only if it is still in `from`; only the refunds' owner calls it (refunds.server.ts). */
export async function changeRefund(trx: WriteTx, id: number, from: RefundState, change: RefundChange, now: number): Promise<boolean> {
  const r = await trx.updateTable('refunds').set({ ...change, updated_at: now }).where('id', '=', id).where('state', '=', from).executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export async function insertRefundEvent(trx: WriteTx, e: { refund_id: number; state: string; source: string; detail: string | null; created_at: number }): Promise<void> {
  await trx.insertInto('refund_events').values(e).execute();
}

export async function refundEvents(db: DB, refundId: number) {
  const rows = await db.selectFrom('refund_events').selectAll().where('refund_id', '=', refundId).orderBy('id').execute();
  return rows.map((r) => num(r, 'id', 'refund_id', 'created_at'));
}

/** Refunds still waiting for their provider, made before `before`, oldest first. */
export async function pendingRefunds(db: DB, before: number, limit: number) {
  const rows = await db.selectFrom('refunds').selectAll().where('state', '=', 'PENDING').where('created_at', '<=', before).orderBy('created_at').limit(limit).execute();
  return rows.map((r) => num(r, ...REFUND_NUMBERS));
}

export async function lockRefundDue(trx: WriteTx, id: number) {
  let q = trx.selectFrom('refunds_due').selectAll().where('id', '=', id);
  if (isPostgres(trx)) q = q.forNoKeyUpdate();
  const row = await q.executeTakeFirst();
  return row && num(row, 'id', 'user_id', 'amount', 'created_at', 'resolved_at', 'resolved_by', 'refund_id');
}

export async function findRefundDue(db: DB, id: number) {
  const row = await db.selectFrom('refunds_due').selectAll().where('id', '=', id).executeTakeFirst();
  return row && num(row, 'id', 'user_id', 'amount', 'created_at', 'resolved_at', 'resolved_by', 'refund_id');
}

/** Resolves an open payment to refund (refunded, or dismissed with a reason); false when it was resolved already. */
export async function resolveRefundDue(trx: WriteTx, id: number, r: { resolution: string; resolved_by: number | null; refund_id: number | null; resolved_at: number }): Promise<boolean> {
  const done = await trx.updateTable('refunds_due').set(r).where('id', '=', id).where('resolved_at', 'is', null).executeTakeFirst();
  return Number(done.numUpdatedRows) === 1;
}

/** Payments to refund, the open ones first (oldest first), then the latest resolved. */
export async function refundsDueQueue(db: DB, limit: number) {
  const open = await db.selectFrom('refunds_due').selectAll().where('resolved_at', 'is', null).orderBy('id').limit(limit).execute();
  const resolved = await db.selectFrom('refunds_due').selectAll().where('resolved_at', 'is not', null).orderBy('resolved_at', 'desc').orderBy('id', 'desc').limit(20).execute();
  const n = (r: (typeof open)[number]) => num(r, 'id', 'user_id', 'amount', 'created_at', 'resolved_at', 'resolved_by', 'refund_id');
  return { open: open.map(n), resolved: resolved.map(n) };
}

/** Pending orders and charges whose expiry passed (the reconciliation page's first list). */
export async function overduePayables(db: DB, now: number, limit: number) {
  const orders = await db.selectFrom('orders').select(['public_id', 'user_id', 'method', 'provider', 'currency', 'total as amount', 'created_at', 'expires_at'])
    .where('state', '=', 'PENDING').where((eb) => eb.or([eb('expires_at', '<=', now), eb.and([eb('expires_at', 'is', null), eb('created_at', '<=', now - 1800)])]))
    .orderBy('created_at').limit(limit).execute();
  const charges = await db.selectFrom('subscription_charges').select(['public_id', 'user_id', 'method', 'provider', 'currency', 'amount', 'created_at', 'expires_at'])
    .where('state', '=', 'PENDING').where((eb) => eb.or([eb('expires_at', '<=', now), eb.and([eb('expires_at', 'is', null), eb('created_at', '<=', now - 1800)])]))
    .orderBy('created_at').limit(limit).execute();
  return [...orders, ...charges].map((r) => num(r, 'user_id', 'amount', 'created_at', 'expires_at')).sort((a, b) => a.created_at - b.created_at).slice(0, limit);
}

/** Orders and charges whose provider reported another amount: their "does not match" events. */
export async function mismatchEvents(db: DB, limit: number) {
  const orders = await db.selectFrom('order_events').innerJoin('orders', 'orders.id', 'order_events.order_id')
    .select(['orders.public_id', 'orders.user_id', 'orders.state', 'order_events.detail', 'order_events.created_at'])
    .where('order_events.detail', 'like', '% does not match %').orderBy('order_events.id', 'desc').limit(limit).execute();
  const charges = await db.selectFrom('charge_events').innerJoin('subscription_charges as c', 'c.id', 'charge_events.charge_id')
    .select(['c.public_id', 'c.user_id', 'c.state', 'charge_events.detail', 'charge_events.created_at'])
    .where('charge_events.detail', 'like', '% does not match %').orderBy('charge_events.id', 'desc').limit(limit).execute();
  return [...orders, ...charges].map((r) => num(r, 'user_id', 'created_at')).sort((a, b) => b.created_at - a.created_at).slice(0, limit);
}

/** The reversal and hold transactions' entries per refund: what each moved in and out of `refunds_held`. */
export async function refundLedgerAmiss(db: DB) {
  const held = (tx: 'hold_transaction_id' | 'ledger_transaction_id', currency: 'keys' | 'xtra') => (eb: any) =>
    eb.selectFrom('ledger_entries as e').innerJoin('wallet_accounts as a', 'a.id', 'e.account_id')
      .select((e: any) => e.fn.coalesce(e.fn.sum('e.amount'), sql.lit(0)).as('s'))
      .whereRef('e.transaction_id', '=', `r.${tx}`).where('a.system_code', '=', 'refunds_held').where('e.currency', '=', currency);
  const rows = await db.selectFrom('refunds as r')
    .leftJoin('orders as o', (j) => j.onRef('o.public_id', '=', 'r.payable_id').on('r.payable_kind', '=', 'order'))
    .leftJoin('subscription_charges as c', (j) => j.onRef('c.public_id', '=', 'r.payable_id').on('r.payable_kind', '=', 'charge'))
    .select((eb) => ['r.public_id', 'r.state', 'r.payable_kind', 'r.payable_id', 'r.amount', 'r.keys', 'r.xtra_keys', 'r.whole', 'r.provider_refund_id', 'r.hold_transaction_id', 'r.ledger_transaction_id',
      'o.state as order_state', 'o.total as order_total', 'o.keys as order_keys', 'o.xtra_keys as order_xtra', 'o.user_id as order_user',
      'c.state as charge_state', 'c.amount as charge_amount', 'r.user_id',
      held('hold_transaction_id', 'keys')(eb).as('hold_keys'), held('hold_transaction_id', 'xtra')(eb).as('hold_xtra'),
      held('ledger_transaction_id', 'keys')(eb).as('reversed_keys'), held('ledger_transaction_id', 'xtra')(eb).as('reversed_xtra'),
    ]).execute();
  return rows.map((r) => num(r, 'amount', 'keys', 'xtra_keys', 'whole', 'hold_transaction_id', 'ledger_transaction_id', 'order_total', 'order_keys', 'order_xtra', 'order_user', 'charge_amount', 'user_id', 'hold_keys', 'hold_xtra', 'reversed_keys', 'reversed_xtra'));
}

/** Refunded orders and charges, with how many confirmed refunds each has and whether whole. */
export async function refundedPayables(db: DB) {
  const count = (kind: 'order' | 'charge', whole: 0 | 1, ref: string) => (eb: any) =>
    eb.selectFrom('refunds as r').select((r: any) => r.fn.countAll().as('n')).where('r.payable_kind', '=', kind).whereRef('r.payable_id', '=', ref).where('r.state', '=', 'CONFIRMED').where('r.whole', '=', whole);
  const orders = await db.selectFrom('orders as o').select((eb) => ['o.public_id', 'o.state', count('order', 1, 'o.public_id')(eb).as('whole'), count('order', 0, 'o.public_id')(eb).as('part')])
    .where('o.state', 'in', ['PAID', 'REFUNDED', 'PARTIALLY_REFUNDED']).execute();
  const charges = await db.selectFrom('subscription_charges as c').select((eb) => ['c.public_id', 'c.state', count('charge', 1, 'c.public_id')(eb).as('whole'), count('charge', 0, 'c.public_id')(eb).as('part')])
    .where('c.state', 'in', ['PAID', 'REFUNDED', 'PARTIALLY_REFUNDED']).execute();
  return [...orders, ...charges].map((r) => num(r, 'whole', 'part'));
}

/** Ledger transactions of the refund kinds, with the refund that names them (none: a reversal without a confirmed refund). */
export async function refundTransactions(db: DB) {
  const rows = await db.selectFrom('ledger_transactions as t')
    .leftJoin('refunds as h', 'h.hold_transaction_id', 't.id')
    .leftJoin('refunds as v', 'v.ledger_transaction_id', 't.id')
    .select(['t.id', 't.kind', 't.idempotency_key', 'h.public_id as hold_of', 'v.public_id as reversal_of', 'v.state as reversal_state', 'v.provider_refund_id'])
    .where('t.kind', 'in', ['refund_hold', 'refund', 'refund_release']).execute();
  return rows.map((r) => num(r, 'id'));
}

/** What the refunds_held account holds per currency. */
export async function heldForRefunds(db: DB) {
  const rows = await db.selectFrom('wallet_accounts').select(['currency', 'balance']).where('system_code', '=', 'refunds_held').execute();
  return rows.map((r) => num(r, 'balance'));
}

// ---------------------------------------------------------------- receipts

/** An order as its receipt shows it: with its pack's code, its coupon's code and its reader's email. */
export async function receiptOrder(db: DB, publicId: string) {
  const row = await db.selectFrom('orders').innerJoin('key_packs', 'key_packs.id', 'orders.pack_id').innerJoin('users', 'users.id', 'orders.user_id')
    .leftJoin('coupons', 'coupons.id', 'orders.coupon_id')
    .select(['orders.id', 'orders.public_id', 'orders.user_id', 'orders.state', 'orders.currency', 'orders.subtotal', 'orders.discount', 'orders.total',
      'orders.keys', 'orders.xtra_keys', 'orders.method', 'orders.provider', 'orders.payment_id', 'orders.card_brand', 'orders.card_last4',
      'orders.created_at', 'orders.paid_at', 'key_packs.code as pack_code', 'coupons.code as coupon_code', 'users.email'])
    .where('orders.public_id', '=', publicId).executeTakeFirst();
  return row && num(row, 'id', 'user_id', 'subtotal', 'discount', 'total', 'keys', 'xtra_keys', 'created_at', 'paid_at');
}

/** A subscription charge as its receipt shows it: with its reader's email. */
export async function receiptCharge(db: DB, publicId: string) {
  const row = await db.selectFrom('subscription_charges').innerJoin('users', 'users.id', 'subscription_charges.user_id')
    .select(['subscription_charges.id', 'subscription_charges.public_id', 'subscription_charges.subscription_id', 'subscription_charges.user_id',
      'subscription_charges.state', 'subscription_charges.currency', 'subscription_charges.amount', 'subscription_charges.method',
      'subscription_charges.provider', 'subscription_charges.payment_id', 'subscription_charges.period_start', 'subscription_charges.period_end',
      'subscription_charges.created_at', 'subscription_charges.paid_at', 'users.email'])
    .where('subscription_charges.public_id', '=', publicId).executeTakeFirst();
  return row && num(row, 'id', 'subscription_id', 'user_id', 'amount', 'period_start', 'period_end', 'created_at', 'paid_at');
}

// --- /metrics: figures read at scrape time (src/server/observe.mjs caches them for 15 s) ---

/** Key-pack orders counted by state. */
export async function ordersByState(db: DB): Promise<{ state: OrderState; n: number }[]> {
  const rows = await db.selectFrom('orders').select((eb) => ['state', eb.fn.countAll<number>().as('n')]).groupBy('state').execute();
  return rows.map((r) => ({ state: r.state, n: Number(r.n) }));
}

/** When the oldest PENDING order and subscription charge were created (null: none). */
export async function oldestPendingCreatedAt(db: DB): Promise<{ order: number | null; charge: number | null }> {
  const [order, charge] = await Promise.all([
    db.selectFrom('orders').select((eb) => eb.fn.min<number>('created_at').as('at')).where('state', '=', 'PENDING').executeTakeFirst(),
    db.selectFrom('subscription_charges').select((eb) => eb.fn.min<number>('created_at').as('at')).where('state', '=', 'PENDING').executeTakeFirst(),
  ]);
  const at = (v: unknown) => (v === null || v === undefined ? null : Number(v));
  return { order: at(order?.at), charge: at(charge?.at) };
}

/**
 * Live subscriptions that renew (not cancelled at the period's end) whose paid time has ended
 * with no charge for the next period: the renewal job (`npm run subscriptions -- renew`, which
 * charges ahead of the period's end) did not run or did not reach them.
 */
export async function renewalsOverdue(db: DB, now: number): Promise<number> {
  const row = await db
    .selectFrom('subscriptions as s')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('s.state', 'in', ['ACTIVE', 'PAST_DUE', 'TRIAL'])
    .where('s.cancel_at_period_end', '=', 0)
    .where('s.paid_until', '<=', now)
    .where(({ not, exists, selectFrom }) => not(exists(selectFrom('subscription_charges as c').select('c.id').whereRef('c.subscription_id', '=', 's.id').whereRef('c.period_start', '>=', 's.paid_until'))))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

// ---------------------------------------------------------------- the reader's own data (export, account deletion)

/** The reader's orders, subscription charges and refunds, for the data export (no provider tokens or Pix codes). */
export async function moneyForExport(db: DB, userId: number) {
  const [orders, charges, refunds] = await Promise.all([
    db.selectFrom('orders as o').leftJoin('key_packs as p', 'p.id', 'o.pack_id')
      .select(['o.public_id', 'o.site_id', 'p.code as pack', 'o.currency', 'o.subtotal', 'o.discount', 'o.total', 'o.keys', 'o.xtra_keys', 'o.method', 'o.provider', 'o.state', 'o.card_brand', 'o.card_last4', 'o.created_at', 'o.paid_at'])
      .where('o.user_id', '=', userId).orderBy('o.created_at').orderBy('o.id').execute(),
    db.selectFrom('subscription_charges').select(['public_id', 'period_start', 'period_end', 'currency', 'amount', 'method', 'provider', 'state', 'created_at', 'paid_at'])
      .where('user_id', '=', userId).orderBy('created_at').orderBy('id').execute(),
    db.selectFrom('refunds').select(['public_id', 'payable_kind', 'payable_id', 'amount', 'currency', 'keys', 'xtra_keys', 'state', 'origin', 'created_at', 'confirmed_at'])
      .where('user_id', '=', userId).orderBy('created_at').orderBy('id').execute(),
  ]);
  return { orders, charges, refunds };
}

/** Deletes the reader's starred key packs (account deletion; orders and refunds are kept). */
export async function erasePackFavoritesOf(tx: WriteTx, userId: number): Promise<number> {
  const r = await tx.deleteFrom('pack_favorites').where('user_id', '=', userId).executeTakeFirst();
  return Number(r.numDeletedRows);
}

// --- receipts by email (receipt-mail.server.ts) ---

/** An order as its receipt email tells it: its reader's email and name, its site, its pack. */
export async function receiptMailOrder(db: DB, publicId: string) {
  const row = await db.selectFrom('orders').innerJoin('key_packs', 'key_packs.id', 'orders.pack_id').innerJoin('users', 'users.id', 'orders.user_id')
    .select(['orders.public_id', 'orders.site_id', 'orders.currency', 'orders.total', 'orders.keys', 'orders.xtra_keys', 'key_packs.code as pack_code', 'users.email', 'users.display_name'])
    .where('orders.public_id', '=', publicId).executeTakeFirst();
  return row && num(row, 'site_id', 'total', 'keys', 'xtra_keys');
}

/** A subscription charge as its receipt email tells it: its reader, its subscription's site and plan. */
export async function receiptMailCharge(db: DB, publicId: string) {
  const row = await db.selectFrom('subscription_charges').innerJoin('users', 'users.id', 'subscription_charges.user_id')
    .innerJoin('subscriptions', 'subscriptions.id', 'subscription_charges.subscription_id').innerJoin('plans', 'plans.id', 'subscriptions.plan_id')
    .select(['subscription_charges.public_id', 'subscriptions.site_id', 'subscription_charges.currency', 'subscription_charges.amount',
      'subscription_charges.period_start', 'subscription_charges.period_end', 'plans.name as plan_name', 'users.email', 'users.display_name'])
    .where('subscription_charges.public_id', '=', publicId).executeTakeFirst();
  return row && num(row, 'site_id', 'amount', 'period_start', 'period_end');
}
