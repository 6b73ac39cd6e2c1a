/**
 * The shop's data as staff change it (`npm run shop`): key packs and coupons. Orders keep the
 * amounts they were made with, so changing a price never changes what an order cost.
 */
import type { DB } from '~/server/db';
import { writeTransaction } from '~/server/db';
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

/** What is wrong with a pack, or null. */
export function packProblem(p: PackValues): string | null {
  if (p.site_id !== 1 && p.site_id !== 3) return 'site must be 1 (English) or 3 (Portuguese)';
  if (!PACK_CODE.test(p.code)) return 'code must be lower-case letters, digits and hyphens (up to 40)';
  if (!CURRENCIES.has(p.currency)) return 'currency must be USD or BRL';
  if (!Number.isSafeInteger(p.price) || p.price < 100) return 'price must be a whole number of minor units, at least 100';
  if (!Number.isSafeInteger(p.keys) || p.keys <= 0) return 'keys must be a whole number above 0';
  if (!Number.isSafeInteger(p.xtra_keys) || p.xtra_keys < 0) return 'Xtra keys must be a whole number, 0 or more';
  return null;
}

/** What is wrong with a coupon, or null. */
export function couponProblem(c: CouponValues): string | null {
  if (c.site_id !== 1 && c.site_id !== 3) return 'site must be 1 (English) or 3 (Portuguese)';
  if (!isCouponCode(c.code)) return 'code must be 3 to 32 upper-case letters, digits, hyphens or underscores';
  if (c.percent_off != null && c.amount_off != null) return 'a coupon takes a percentage or an amount off, not both';
  if (c.percent_off != null && (!Number.isSafeInteger(c.percent_off) || c.percent_off < 1 || c.percent_off > 100)) return 'percent off must be 1 to 100';
  if (c.amount_off != null && (!Number.isSafeInteger(c.amount_off) || c.amount_off <= 0 || !c.currency || !CURRENCIES.has(c.currency))) return 'an amount off is a whole number of minor units with a currency (USD or BRL)';
  if (!Number.isSafeInteger(c.xtra_keys) || c.xtra_keys < 0) return 'Xtra keys must be a whole number, 0 or more';
  if (c.percent_off == null && c.amount_off == null && c.xtra_keys === 0) return 'a coupon gives something: a percentage, an amount or Xtra keys';
  if (c.max_redemptions != null && (!Number.isSafeInteger(c.max_redemptions) || c.max_redemptions <= 0)) return 'the use limit must be a whole number above 0';
  if (!Number.isSafeInteger(c.per_reader_limit) || c.per_reader_limit <= 0) return 'uses per reader must be a whole number above 0';
  if (c.starts_at != null && c.ends_at != null && c.ends_at <= c.starts_at) return 'a coupon must end after it starts';
  return null;
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
