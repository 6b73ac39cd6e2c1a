/**
 * The shop's data as staff change it, from the command line (`npm run shop`) or the studio
 * (`/studio/shop/`): key packs and coupons, one set of rules for both. Orders keep the amounts
 * they were made with, so changing a price never changes what an order cost. Checkout reads
 * packs and coupons from the database on every request (no cache), so a change reaches it at once.
 */
import type { DB } from '~/server/db';
import { writeTransaction } from '~/server/db';
import { writeAudit, type AuditActor } from '~/server/audit';
import * as repo from './repository.server';
import { isCouponCode } from './rules';

export type PackValues = repo.PackValues;
export type CouponValues = repo.CouponValues;
export interface ShopSeed {
  packs: PackValues[];
  coupons: CouponValues[];
}

const CURRENCIES = new Set(['USD', 'BRL']);
export const PACK_CODE = /^[a-z0-9][a-z0-9-]{0,39}$/;

/**
 * The shop's bounds, the same for the command line and the studio. The upper ones keep every
 * number inside the columns (PostgreSQL's `integer` stops at 2,147,483,647) and a slip of the
 * keyboard (an extra zero or three) out of checkout.
 */
export const SHOP_LIMITS = {
  /** Minor units: 1.00 to 10,000.00 of the site's currency. */
  minPrice: 100,
  maxPrice: 1_000_000,
  maxKeys: 1_000_000,
  maxPosition: 10_000,
  maxUses: 1_000_000,
  maxPerReader: 1_000,
} as const;

/** The currency a site sells in: USD on the English site (1), BRL on the Portuguese one (3). */
export const siteCurrency = (siteId: number): 'USD' | 'BRL' => (siteId === 3 ? 'BRL' : 'USD');

/**
 * One thing wrong with a pack or coupon: the field it belongs to, a code (the studio's message
 * is `studio.shop.error.{code}` with `params`) and the command line's English text.
 */
export interface ShopProblem {
  field: string;
  code: string;
  params?: Record<string, number | string>;
  message: string;
}

const whole = (v: number, min: number, max: number) => Number.isSafeInteger(v) && v >= min && v <= max;

/** Everything wrong with a pack (empty: none). The command line prints the first; the studio shows each beside its field. */
export function packProblems(p: PackValues): ShopProblem[] {
  const out: ShopProblem[] = [];
  const L = SHOP_LIMITS;
  if (p.site_id !== 1 && p.site_id !== 3) return [{ field: 'site', code: 'site', message: 'site must be 1 (English) or 3 (Portuguese)' }];
  if (!PACK_CODE.test(p.code)) out.push({ field: 'code', code: 'packCode', message: 'code must be lower-case letters, digits and hyphens (up to 40)' });
  if (!CURRENCIES.has(p.currency) || p.currency !== siteCurrency(p.site_id)) out.push({ field: 'currency', code: 'currency', params: { currency: siteCurrency(p.site_id) }, message: `currency must be ${siteCurrency(p.site_id)}: site ${p.site_id} sells in it` });
  if (!whole(p.price, L.minPrice, L.maxPrice)) out.push({ field: 'price', code: 'price', params: { min: L.minPrice, max: L.maxPrice }, message: `price must be a whole number of minor units, at least ${L.minPrice} and at most ${L.maxPrice}` });
  if (!whole(p.keys, 1, L.maxKeys)) out.push({ field: 'keys', code: 'keys', params: { max: L.maxKeys }, message: `keys must be a whole number from 1 to ${L.maxKeys}` });
  if (!whole(p.xtra_keys, 0, L.maxKeys)) out.push({ field: 'xtra_keys', code: 'xtraKeys', params: { max: L.maxKeys }, message: `Xtra keys must be a whole number from 0 to ${L.maxKeys}` });
  if (!whole(p.position, 0, L.maxPosition)) out.push({ field: 'position', code: 'position', params: { max: L.maxPosition }, message: `position must be a whole number from 0 to ${L.maxPosition}` });
  return out;
}

/** What is wrong with a pack, or null (the command line's one line). */
export function packProblem(p: PackValues): string | null {
  return packProblems(p)[0]?.message ?? null;
}

/** Everything wrong with a coupon (empty: none). */
export function couponProblems(c: CouponValues): ShopProblem[] {
  const out: ShopProblem[] = [];
  const L = SHOP_LIMITS;
  if (c.site_id !== 1 && c.site_id !== 3) return [{ field: 'site', code: 'site', message: 'site must be 1 (English) or 3 (Portuguese)' }];
  if (!isCouponCode(c.code)) out.push({ field: 'code', code: 'couponCode', message: 'code must be 3 to 32 upper-case letters, digits, hyphens or underscores' });
  if (c.percent_off != null && c.amount_off != null) out.push({ field: 'percent_off', code: 'bothDiscounts', message: 'a coupon takes a percentage or an amount off, not both' });
  if (c.percent_off != null && !whole(c.percent_off, 1, 100)) out.push({ field: 'percent_off', code: 'percent', message: 'percent off must be 1 to 100' });
  if (c.amount_off != null && !whole(c.amount_off, 1, L.maxPrice)) out.push({ field: 'amount_off', code: 'amount', params: { max: L.maxPrice }, message: `an amount off is a whole number of minor units from 1 to ${L.maxPrice}` });
  else if (c.amount_off != null && c.currency !== siteCurrency(c.site_id)) out.push({ field: 'currency', code: 'currency', params: { currency: siteCurrency(c.site_id) }, message: `an amount off is in ${siteCurrency(c.site_id)}: site ${c.site_id} sells in it` });
  if (c.amount_off == null && c.currency != null) out.push({ field: 'currency', code: 'currencyAlone', message: 'a currency goes only with an amount off' });
  if (!whole(c.xtra_keys, 0, L.maxKeys)) out.push({ field: 'xtra_keys', code: 'xtraKeys', params: { max: L.maxKeys }, message: `Xtra keys must be a whole number from 0 to ${L.maxKeys}` });
  else if (c.percent_off == null && c.amount_off == null && c.xtra_keys === 0) out.push({ field: 'percent_off', code: 'givesNothing', message: 'a coupon gives something: a percentage, an amount or Xtra keys' });
  if (c.max_redemptions != null && !whole(c.max_redemptions, 1, L.maxUses)) out.push({ field: 'max_redemptions', code: 'maxUses', params: { max: L.maxUses }, message: `the use limit must be a whole number from 1 to ${L.maxUses}` });
  if (!whole(c.per_reader_limit, 1, L.maxPerReader)) out.push({ field: 'per_reader_limit', code: 'perReader', params: { max: L.maxPerReader }, message: `uses per reader must be a whole number from 1 to ${L.maxPerReader}` });
  if (c.starts_at != null && c.ends_at != null && c.ends_at <= c.starts_at) out.push({ field: 'ends_at', code: 'window', message: 'a coupon must end after it starts' });
  return out;
}

/** What is wrong with a coupon, or null (the command line's one line). */
export function couponProblem(c: CouponValues): string | null {
  return couponProblems(c)[0]?.message ?? null;
}

export async function listPacks(db: DB) {
  return repo.allPacks(db);
}

export async function savePack(db: DB, p: PackValues, now: number): Promise<void> {
  const problem = packProblem(p);
  if (problem) throw new Error(problem);
  await repo.upsertPack(db, p, now);
}

export async function listCoupons(db: DB) {
  return repo.allCoupons(db);
}

export async function saveCoupon(db: DB, c: CouponValues, now: number): Promise<void> {
  const problem = couponProblem(c);
  if (problem) throw new Error(problem);
  await repo.upsertCoupon(db, c, now);
}

/** Writes the starting packs and coupons into an empty shop; returns how many packs it wrote (0 when the shop had some). */
export async function seedShopRows(db: DB, seed: ShopSeed, now: number): Promise<number> {
  return writeTransaction(db, async (trx) => {
    if ((await repo.allPacks(trx)).length > 0) return 0;
    for (const p of seed.packs) await savePack(trx, p, now);
    for (const c of seed.coupons) await saveCoupon(trx, c, now);
    return seed.packs.length;
  });
}

/**
 * Where a change goes: `new` creates (a code the site has is refused), `{ id }` changes that
 * row (its site and code stay: readers and links know a pack and a coupon by them), `upsert`
 * changes the site's row with that code or creates it (the command line).
 */
export type ShopTarget = 'new' | 'upsert' | { id: number };

export type ShopSaveResult =
  | { outcome: 'created' | 'saved' | 'unchanged'; id: number }
  | { outcome: 'invalid'; problems: ShopProblem[] }
  | { outcome: 'not-found' };

/** The audit summary's fields that differ between two summaries (before and after), or null when none do. */
function changed<T extends Record<string, unknown>>(before: T, after: T): { before: Partial<T>; after: Partial<T> } | null {
  const keys = (Object.keys(after) as (keyof T)[]).filter((k) => before[k] !== after[k]);
  if (!keys.length) return null;
  const pick = (o: T) => Object.fromEntries(keys.map((k) => [k, o[k]])) as Partial<T>;
  return { before: pick(before), after: pick(after) };
}

const packSummary = (p: PackValues) => ({ code: p.code, currency: p.currency, price: Number(p.price), keys: Number(p.keys), xtra_keys: Number(p.xtra_keys), position: Number(p.position), active: Number(p.active) });

/**
 * Checks and writes a pack with its audit record (`pack.create`, `pack.update`: before and after
 * of the fields that changed) in one transaction. A save that changes nothing writes nothing.
 */
export async function changePack(db: DB, target: ShopTarget, p: PackValues, actor: AuditActor, now: number): Promise<ShopSaveResult> {
  return writeTransaction(db, async (tx): Promise<ShopSaveResult> => {
    const row = typeof target === 'object' ? await repo.findPackById(tx, target.id) : await repo.findPack(tx, p.site_id, p.code);
    if (typeof target === 'object' && (!row || row.site_id !== p.site_id)) return { outcome: 'not-found' };
    const values: PackValues = row ? { ...p, site_id: row.site_id, code: row.code } : p;
    const problems = packProblems(values);
    if (target === 'new' && row) problems.push({ field: 'code', code: 'codeTaken', message: `site ${p.site_id} already has a pack ${p.code}` });
    if (problems.length) return { outcome: 'invalid', problems };
    if (!row) {
      const id = await repo.insertPack(tx, values, now);
      await writeAudit(tx, actor, { action: 'pack.create', object: { table: 'key_packs', id }, after: { site_id: values.site_id, ...packSummary(values) } }, now);
      return { outcome: 'created', id };
    }
    const diff = changed(packSummary(row), packSummary(values));
    if (!diff) return { outcome: 'unchanged', id: row.id };
    await repo.updatePack(tx, row.id, values, now);
    await writeAudit(tx, actor, { action: 'pack.update', object: { table: 'key_packs', id: row.id }, ...diff }, now);
    return { outcome: 'saved', id: row.id };
  });
}

const couponSummary = (c: CouponValues) => ({
  code: c.code, percent_off: c.percent_off, amount_off: c.amount_off, currency: c.currency, xtra_keys: Number(c.xtra_keys), starts_at: c.starts_at, ends_at: c.ends_at,
  max_redemptions: c.max_redemptions, per_reader_limit: Number(c.per_reader_limit), active: Number(c.active),
});

/**
 * Checks and writes a coupon with its audit record (`coupon.create`, `coupon.update`), as
 * changePack. The use limit cannot go below the uses already taken (orders hold them).
 */
export async function changeCoupon(db: DB, target: ShopTarget, c: CouponValues, actor: AuditActor, now: number): Promise<ShopSaveResult> {
  return writeTransaction(db, async (tx): Promise<ShopSaveResult> => {
    const row = typeof target === 'object' ? await repo.findCouponById(tx, target.id) : await repo.findCoupon(tx, c.site_id, c.code);
    if (typeof target === 'object' && (!row || row.site_id !== c.site_id)) return { outcome: 'not-found' };
    const values: CouponValues = row ? { ...c, site_id: row.site_id, code: row.code } : c;
    const problems = couponProblems(values);
    if (target === 'new' && row) problems.push({ field: 'code', code: 'codeTaken', message: `site ${c.site_id} already has a coupon ${c.code}` });
    if (row && target !== 'new' && values.max_redemptions != null && values.max_redemptions < row.redemptions && !problems.some((p) => p.field === 'max_redemptions')) {
      problems.push({ field: 'max_redemptions', code: 'belowUses', params: { n: row.redemptions }, message: `the use limit cannot go below the ${row.redemptions} uses already taken` });
    }
    if (problems.length) return { outcome: 'invalid', problems };
    if (!row) {
      const id = await repo.insertCoupon(tx, values, now);
      await writeAudit(tx, actor, { action: 'coupon.create', object: { table: 'coupons', id }, after: { site_id: values.site_id, ...couponSummary(values) } }, now);
      return { outcome: 'created', id };
    }
    const diff = changed(couponSummary(row), couponSummary(values));
    if (!diff) return { outcome: 'unchanged', id: row.id };
    await repo.updateCoupon(tx, row.id, values);
    await writeAudit(tx, actor, { action: 'coupon.update', object: { table: 'coupons', id: row.id }, ...diff }, now);
    return { outcome: 'saved', id: row.id };
  });
}

/** One pack by id (the studio's form), or undefined. */
export function packById(db: DB, id: number) {
  return repo.findPackById(db, id);
}

/** One coupon by id (the studio's form), or undefined. */
export function couponById(db: DB, id: number) {
  return repo.findCouponById(db, id);
}
