/**
 * The shop's starting data: key packs for each site (USD on the English site, BRL on the
 * Portuguese one) and a few demo coupons. Written only into an empty shop, so packs and prices
 * changed with `npm run shop` survive every later start. Amounts in minor units.
 */
import type { DB } from '~/server/db';
import { seedShopRows, type ShopSeed } from '~/features/commerce/index.server';

export const SHOP: ShopSeed = {
  packs: [
    { site_id: 1, code: 'starter', currency: 'USD', price: 499, keys: 50, xtra_keys: 0, position: 1, active: 1 },
    { site_id: 1, code: 'popular', currency: 'USD', price: 999, keys: 100, xtra_keys: 10, position: 2, active: 1 },
    { site_id: 1, code: 'value', currency: 'USD', price: 1999, keys: 210, xtra_keys: 30, position: 3, active: 1 },
    { site_id: 1, code: 'mega', currency: 'USD', price: 4999, keys: 550, xtra_keys: 100, position: 4, active: 1 },
    { site_id: 3, code: 'starter', currency: 'BRL', price: 1990, keys: 50, xtra_keys: 0, position: 1, active: 1 },
    { site_id: 3, code: 'popular', currency: 'BRL', price: 3990, keys: 100, xtra_keys: 10, position: 2, active: 1 },
    { site_id: 3, code: 'value', currency: 'BRL', price: 7990, keys: 210, xtra_keys: 30, position: 3, active: 1 },
    { site_id: 3, code: 'mega', currency: 'BRL', price: 19990, keys: 550, xtra_keys: 100, position: 4, active: 1 },
  ],
  coupons: [1, 3].flatMap((site_id) => [
    // 10 % off once per reader.
    { site_id, code: 'WELCOME10', percent_off: 10, amount_off: null, currency: null, xtra_keys: 0, starts_at: null, ends_at: null, max_redemptions: null, per_reader_limit: 1, active: 1 },
    // 20 Xtra keys on top of any pack, once per reader.
    { site_id, code: 'BONUS20', percent_off: null, amount_off: null, currency: null, xtra_keys: 20, starts_at: null, ends_at: null, max_redemptions: null, per_reader_limit: 1, active: 1 },
  ]),
};

/** Seeds the shop if it has no packs yet; returns how many packs it wrote. */
export function seedShop(db: DB): Promise<number> {
  return seedShopRows(db, SHOP, Math.floor(Date.now() / 1000));
}
