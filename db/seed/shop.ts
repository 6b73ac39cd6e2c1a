/**
 * The shop's starting data: key packs for each site (USD on the English site, BRL on the
 * Portuguese one) and a few demo coupons. Written only into an empty shop, so packs and prices
 * changed with `npm run shop` survive every later start. Amounts in minor units.
 */
import type { DB } from '~/server/db';
import { seedShopRows, type ShopSeed } from '~/features/commerce/index.server';
import { seedPlans, type PlanValues } from '~/features/subscriptions/index.server';

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

const DAY = 86_400;
const plan = (p: Omit<PlanValues, 'period_months' | 'rent_ttl' | 'active' | 'benefits'> & { benefits: string[] }): PlanValues =>
  ({ period_months: 1, rent_ttl: 3 * DAY, active: 1, ...p, benefits: JSON.stringify(p.benefits) });

/** Subscription plans per site (docs/subscriptions.md); the trial is offered on the Portuguese site. */
export const PLANS: PlanValues[] = [
  plan({ site_id: 1, code: 'reader', name: 'Reader', currency: 'USD', price: 499, series_slots: 3, rent_capacity: 5, trial_days: 0, position: 1,
    benefits: ['Every subscription chapter of 3 series you pick', 'Rent 5 more chapters a month, each for 3 days', 'Cancel any time: you keep reading until the paid month ends'] }),
  plan({ site_id: 1, code: 'reader-plus', name: 'Reader Plus', currency: 'USD', price: 999, series_slots: 10, rent_capacity: 20, trial_days: 0, position: 2,
    benefits: ['Every subscription chapter of 10 series you pick', 'Rent 20 more chapters a month, each for 3 days', 'Cancel any time: you keep reading until the paid month ends'] }),
  plan({ site_id: 3, code: 'teste', name: 'Teste grátis', currency: 'BRL', price: 1490, series_slots: 3, rent_capacity: 5, trial_days: 7, position: 1,
    benefits: ['7 dias grátis, depois R$ 14,90 por mês', 'Todos os capítulos de assinatura de 3 séries à sua escolha', 'Alugue 5 capítulos por mês, cada um por 3 dias'] }),
  plan({ site_id: 3, code: 'leitor', name: 'Leitor', currency: 'BRL', price: 1490, series_slots: 3, rent_capacity: 5, trial_days: 0, position: 2,
    benefits: ['Todos os capítulos de assinatura de 3 séries à sua escolha', 'Alugue 5 capítulos por mês, cada um por 3 dias', 'Cancele quando quiser: você lê até o fim do mês pago'] }),
  plan({ site_id: 3, code: 'leitor-plus', name: 'Leitor Plus', currency: 'BRL', price: 2990, series_slots: 10, rent_capacity: 20, trial_days: 0, position: 3,
    benefits: ['Todos os capítulos de assinatura de 10 séries à sua escolha', 'Alugue 20 capítulos por mês, cada um por 3 dias', 'Cancele quando quiser: você lê até o fim do mês pago'] }),
];

/**
 * Seeds the shop if it has no packs yet, and the plans if there are none; returns how many packs
 * and plans it wrote. The demo coupons come only with `coupons` (a demo): production sells the
 * packs and plans at their prices until staff add coupons.
 */
export async function seedShop(db: DB, opts: { coupons: boolean }): Promise<number> {
  const now = Math.floor(Date.now() / 1000);
  const seed = opts.coupons ? SHOP : { ...SHOP, coupons: [] };
  return (await seedShopRows(db, seed, now)) + (await seedPlans(db, PLANS, now));
}
