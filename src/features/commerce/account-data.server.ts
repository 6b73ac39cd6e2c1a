/**
 * Commerce's part of a reader's own data (issue 32, docs/privacy.md): orders, subscription
 * charges and refunds for the data export. With the account only the starred packs go: orders,
 * charges, refunds and their events are financial records kept by law (LGPD art. 16, GDPR art.
 * 17(3)(b)) and read by the orders audit; they point at the anonymised account row.
 */
import type { DB, WriteTx } from '~/server/db';
import * as repo from './repository.server';

const num = (v: unknown) => (v === null ? null : Number(v));

export const commerceAccountData = {
  name: 'commerce',
  async exportOf(db: DB, userId: number) {
    const m = await repo.moneyForExport(db, userId);
    return {
      orders: m.orders.map((o) => ({
        id: o.public_id, site_id: Number(o.site_id), pack: o.pack, currency: o.currency, subtotal: Number(o.subtotal), discount: Number(o.discount), total: Number(o.total),
        keys: Number(o.keys), bonus_keys: Number(o.xtra_keys), method: o.method, provider: o.provider, state: o.state, card_brand: o.card_brand, card_last4: o.card_last4,
        created_at: Number(o.created_at), paid_at: num(o.paid_at),
      })),
      subscription_charges: m.charges.map((c) => ({
        id: c.public_id, period_start: Number(c.period_start), period_end: Number(c.period_end), currency: c.currency, amount: Number(c.amount),
        method: c.method, provider: c.provider, state: c.state, created_at: Number(c.created_at), paid_at: num(c.paid_at),
      })),
      refunds: m.refunds.map((r) => ({
        id: r.public_id, of: r.payable_kind, payable: r.payable_id, amount: Number(r.amount), currency: r.currency, keys: Number(r.keys), bonus_keys: Number(r.xtra_keys),
        state: r.state, origin: r.origin, created_at: Number(r.created_at), confirmed_at: num(r.confirmed_at),
      })),
    };
  },
  async eraseFor(tx: WriteTx, userId: number): Promise<Record<string, number>> {
    return { pack_favorites: await repo.erasePackFavoritesOf(tx, userId) };
  },
};
