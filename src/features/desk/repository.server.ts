/**
 * The support desk's reads (docs/staff.md, "Support desk: readers"): finding a reader by what
 * support is told (email, id, order, charge, provider payment id, coupon) and everything of one
 * reader's money that the desk shows. Read only: every write of the desk goes through the owning
 * feature's door (the wallet's grant, the accounts' sessions). Every id reaching these functions
 * has passed its shape check (rules.ts).
 */
import { sql } from 'kysely';
import { readRows, type DB } from '~/server/db';

/** PostgreSQL hands bigints and counts over as strings. */
function num<T extends Record<string, unknown>>(row: T, ...keys: (keyof T)[]): T {
  const out = { ...row } as Record<keyof T, unknown>;
  for (const k of keys) out[k] = row[k] == null ? row[k] : Number(row[k]);
  return out as T;
}

const prefixText = (text: string) => `${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export type ReaderMatchRow = {
  id: number;
  email: string;
  display_name: string;
  created_at: number;
};

const USER_COLUMNS = ['users.id', 'users.email', 'users.display_name', 'users.created_at'] as const;
const userRows = (rows: readonly { id: unknown; email: string; display_name: string; created_at: unknown }[]): ReaderMatchRow[] => rows.map((r) => ({ id: Number(r.id), email: r.email, display_name: r.display_name, created_at: Number(r.created_at) }));

export async function userById(db: DB, id: number): Promise<ReaderMatchRow | undefined> {
  const rows = await readRows(db, db.selectFrom('users').select(USER_COLUMNS).where('users.id', '=', id));
  return userRows(rows)[0];
}

export async function usersByEmail(db: DB, email: string): Promise<ReaderMatchRow[]> {
  return userRows(await readRows(db, db.selectFrom('users').select(USER_COLUMNS).where(sql<string>`lower(users.email)`, '=', email)));
}

export async function usersByEmailPrefix(db: DB, prefix: string, limit: number): Promise<ReaderMatchRow[]> {
  return userRows(await readRows(db, db.selectFrom('users').select(USER_COLUMNS)
    .where(sql<string>`lower(users.email)`, 'like', sql<string>`${prefixText(prefix)} escape '\\'`)
    .orderBy('users.email').limit(limit)));
}

export async function usersByOrder(db: DB, publicId: string): Promise<ReaderMatchRow[]> {
  return userRows(await readRows(db, db.selectFrom('orders').innerJoin('users', 'users.id', 'orders.user_id').select(USER_COLUMNS).where('orders.public_id', '=', publicId)));
}

export async function usersByCharge(db: DB, publicId: string): Promise<ReaderMatchRow[]> {
  return userRows(await readRows(db, db.selectFrom('subscription_charges').innerJoin('users', 'users.id', 'subscription_charges.user_id').select(USER_COLUMNS).where('subscription_charges.public_id', '=', publicId)));
}

export async function usersByPaymentId(db: DB, paymentId: string, limit: number): Promise<ReaderMatchRow[]> {
  const [orders, charges] = await Promise.all([
    readRows(db, db.selectFrom('orders').innerJoin('users', 'users.id', 'orders.user_id').select(USER_COLUMNS).where('orders.payment_id', '=', paymentId).limit(limit)),
    readRows(db, db.selectFrom('subscription_charges').innerJoin('users', 'users.id', 'subscription_charges.user_id').select(USER_COLUMNS).where('subscription_charges.payment_id', '=', paymentId).limit(limit)),
  ]);
  return userRows([...orders, ...charges]);
}

/** Readers who redeemed a coupon with this code (on any site), most recent redemption first. */
export async function usersByCoupon(db: DB, code: string, limit: number): Promise<ReaderMatchRow[]> {
  const rows = await readRows(db, db.selectFrom('coupon_redemptions')
    .innerJoin('coupons', 'coupons.id', 'coupon_redemptions.coupon_id')
    .innerJoin('users', 'users.id', 'coupon_redemptions.user_id')
    .select([...USER_COLUMNS, 'coupon_redemptions.created_at as redeemed_at'])
    .where('coupons.code', '=', code)
    .orderBy('coupon_redemptions.created_at', 'desc').limit(limit * 5));
  return userRows(rows);
}

// ---------------------------------------------------------------- one reader

export async function unlocksOf(db: DB, userId: number, limit: number) {
  const rows = await readRows(db, db.selectFrom('chapter_unlocks').select(['chapter_id', 'price', 'currency', 'created_at'])
    .where('user_id', '=', userId).orderBy('created_at', 'desc').orderBy('chapter_id', 'desc').limit(limit));
  return rows.map((r) => num(r, 'chapter_id', 'price', 'created_at'));
}

export async function unlockCount(db: DB, userId: number): Promise<number> {
  const row = await db.selectFrom('chapter_unlocks').select((eb) => eb.fn.countAll().as('n')).where('user_id', '=', userId).executeTakeFirst();
  return Number(row?.n ?? 0);
}

export async function rentalsOf(db: DB, userId: number, limit: number) {
  const rows = await readRows(db, db.selectFrom('rentals').select(['id', 'chapter_id', 'kind', 'created_at', 'expires_at'])
    .where('user_id', '=', userId).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit));
  return rows.map((r) => num(r, 'id', 'chapter_id', 'created_at', 'expires_at'));
}

export async function orderCount(db: DB, userId: number): Promise<number> {
  const row = await db.selectFrom('orders').select((eb) => eb.fn.countAll().as('n')).where('user_id', '=', userId).executeTakeFirst();
  return Number(row?.n ?? 0);
}

export async function ordersOf(db: DB, userId: number, limit: number, offset: number) {
  const rows = await readRows(db, db.selectFrom('orders')
    .leftJoin('key_packs', 'key_packs.id', 'orders.pack_id')
    .leftJoin('coupons', 'coupons.id', 'orders.coupon_id')
    .select([
      'orders.id', 'orders.public_id', 'orders.site_id', 'orders.state', 'orders.currency', 'orders.subtotal', 'orders.discount', 'orders.total',
      'orders.keys', 'orders.xtra_keys', 'orders.method', 'orders.provider', 'orders.payment_id', 'orders.card_brand', 'orders.failure',
      'orders.created_at', 'orders.paid_at', 'key_packs.code as pack_code', 'coupons.code as coupon_code',
    ])
    .where('orders.user_id', '=', userId).orderBy('orders.created_at', 'desc').orderBy('orders.id', 'desc').limit(limit).offset(offset));
  return rows.map((r) => num(r, 'id', 'site_id', 'subtotal', 'discount', 'total', 'keys', 'xtra_keys', 'created_at', 'paid_at'));
}

export async function orderEventsOf(db: DB, orderIds: readonly number[]) {
  if (!orderIds.length) return [];
  const rows = await readRows(db, db.selectFrom('order_events').select(['order_id', 'state', 'source', 'detail', 'created_at'])
    .where('order_id', 'in', [...orderIds]).orderBy('created_at').orderBy('id'));
  return rows.map((r) => num(r, 'order_id', 'created_at'));
}

export async function subscriptionsOf(db: DB, userId: number) {
  const rows = await readRows(db, db.selectFrom('subscriptions').leftJoin('plans', 'plans.id', 'subscriptions.plan_id')
    .select([
      'subscriptions.id', 'subscriptions.public_id', 'subscriptions.site_id', 'subscriptions.state', 'subscriptions.anchor_at', 'subscriptions.paid_until',
      'subscriptions.cancel_at_period_end', 'subscriptions.canceled_at', 'subscriptions.method', 'subscriptions.provider', 'subscriptions.created_at',
      'plans.name as plan_name', 'plans.code as plan_code',
    ])
    .where('subscriptions.user_id', '=', userId).orderBy('subscriptions.created_at', 'desc').orderBy('subscriptions.id', 'desc').limit(50));
  return rows.map((r) => num(r, 'id', 'site_id', 'anchor_at', 'paid_until', 'cancel_at_period_end', 'canceled_at', 'created_at'));
}

export async function subscriptionEventsOf(db: DB, subscriptionIds: readonly number[]) {
  if (!subscriptionIds.length) return [];
  const rows = await readRows(db, db.selectFrom('subscription_events').select(['subscription_id', 'state', 'source', 'detail', 'created_at'])
    .where('subscription_id', 'in', [...subscriptionIds]).orderBy('created_at').orderBy('id').limit(2000));
  return rows.map((r) => num(r, 'subscription_id', 'created_at'));
}

export async function chargesOf(db: DB, subscriptionIds: readonly number[]) {
  if (!subscriptionIds.length) return [];
  const rows = await readRows(db, db.selectFrom('subscription_charges')
    .select(['id', 'subscription_id', 'public_id', 'state', 'currency', 'amount', 'method', 'provider', 'payment_id', 'period_start', 'period_end', 'failure', 'created_at', 'paid_at'])
    .where('subscription_id', 'in', [...subscriptionIds]).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(500));
  return rows.map((r) => num(r, 'id', 'subscription_id', 'amount', 'period_start', 'period_end', 'created_at', 'paid_at'));
}

export async function couponsUsedBy(db: DB, userId: number) {
  const rows = await readRows(db, db.selectFrom('coupon_redemptions')
    .innerJoin('coupons', 'coupons.id', 'coupon_redemptions.coupon_id')
    .leftJoin('orders', 'orders.id', 'coupon_redemptions.order_id')
    .select(['coupons.code', 'coupons.percent_off', 'coupons.amount_off', 'coupons.currency', 'coupons.xtra_keys', 'orders.public_id as order_public_id', 'orders.state as order_state', 'coupon_redemptions.created_at'])
    .where('coupon_redemptions.user_id', '=', userId).orderBy('coupon_redemptions.created_at', 'desc').limit(200));
  return rows.map((r) => num(r, 'percent_off', 'amount_off', 'xtra_keys', 'created_at'));
}

export async function refundsDueOf(db: DB, userId: number) {
  const rows = await readRows(db, db.selectFrom('refunds_due')
    .select(['id', 'payable_kind', 'payable_id', 'provider', 'payment_id', 'amount', 'currency', 'reason', 'created_at', 'resolved_at', 'resolution'])
    .where('user_id', '=', userId).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(200));
  return rows.map((r) => num(r, 'id', 'amount', 'created_at', 'resolved_at'));
}

export async function refundsOf(db: DB, userId: number) {
  const rows = await readRows(db, db.selectFrom('refunds')
    .select(['id', 'public_id', 'payable_kind', 'payable_id', 'provider', 'amount', 'currency', 'keys', 'xtra_keys', 'state', 'origin', 'reason', 'failure', 'created_at', 'confirmed_at'])
    .where('user_id', '=', userId).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(200));
  return rows.map((r) => num(r, 'id', 'amount', 'keys', 'xtra_keys', 'created_at', 'confirmed_at'));
}
