import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Frozen once landed. Buying keys (docs/payments.md): key packs and coupons as data, orders and
// every change of their state, coupon redemptions, the purchase favorite star, and the state of
// the two local sandbox providers (what a real gateway or PSP would keep on its side).
// Money is an integer in minor units (cents) with an ISO 4217 currency, everywhere.
export async function up(db: Kysely<any>): Promise<void> {
  const isPg = db.getExecutor().adapter instanceof PostgresAdapter;
  const id = (c: any) => (isPg ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement());

  await db.schema.createTable('key_packs')
    .addColumn('id', 'integer', id)
    .addColumn('site_id', 'integer', (c) => c.notNull())
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('price', 'integer', (c) => c.notNull().check(sql`price > 0`))
    .addColumn('keys', 'integer', (c) => c.notNull().check(sql`keys > 0`))
    .addColumn('xtra_keys', 'integer', (c) => c.notNull().defaultTo(0).check(sql`xtra_keys >= 0`))
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('key_packs_site_code_idx').on('key_packs').columns(['site_id', 'code']).unique().execute();

  await db.schema.createTable('coupons')
    .addColumn('id', 'integer', id)
    .addColumn('site_id', 'integer', (c) => c.notNull())
    // Upper case letters, digits, '-' and '_' (the checkout's own normalisation).
    .addColumn('code', 'text', (c) => c.notNull())
    // One of: a percentage (1-100) or an amount in the currency's minor units; or neither (a bonus-only coupon).
    .addColumn('percent_off', 'integer', (c) => c.check(sql`percent_off between 1 and 100`))
    .addColumn('amount_off', 'integer', (c) => c.check(sql`amount_off > 0`))
    .addColumn('currency', 'text')
    .addColumn('xtra_keys', 'integer', (c) => c.notNull().defaultTo(0).check(sql`xtra_keys >= 0`))
    .addColumn('starts_at', 'bigint')
    .addColumn('ends_at', 'bigint')
    .addColumn('max_redemptions', 'integer', (c) => c.check(sql`max_redemptions > 0`))
    .addColumn('per_reader_limit', 'integer', (c) => c.notNull().defaultTo(1).check(sql`per_reader_limit > 0`))
    // Orders holding the coupon now (pending or paid); a failed or expired order gives its use back.
    .addColumn('redemptions', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addCheckConstraint('coupons_one_discount', sql`percent_off is null or amount_off is null`)
    .addCheckConstraint('coupons_amount_currency', sql`amount_off is null or currency is not null`)
    .addCheckConstraint('coupons_within_limit', sql`redemptions >= 0 and (max_redemptions is null or redemptions <= max_redemptions)`)
    .execute();
  await db.schema.createIndex('coupons_site_code_idx').on('coupons').columns(['site_id', 'code']).unique().execute();

  await db.schema.createTable('orders')
    .addColumn('id', 'integer', id)
    // In URLs, in the provider's records (order id, Pix correlationID) and in the ledger's key.
    .addColumn('public_id', 'text', (c) => c.notNull().unique())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('restrict'))
    .addColumn('site_id', 'integer', (c) => c.notNull())
    .addColumn('pack_id', 'integer', (c) => c.notNull().references('key_packs.id').onDelete('restrict'))
    .addColumn('coupon_id', 'integer', (c) => c.references('coupons.id').onDelete('restrict'))
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('subtotal', 'integer', (c) => c.notNull().check(sql`subtotal > 0`))
    .addColumn('discount', 'integer', (c) => c.notNull().defaultTo(0).check(sql`discount >= 0`))
    .addColumn('total', 'integer', (c) => c.notNull().check(sql`total > 0`))
    .addColumn('keys', 'integer', (c) => c.notNull().check(sql`keys > 0`))
    .addColumn('xtra_keys', 'integer', (c) => c.notNull().defaultTo(0).check(sql`xtra_keys >= 0`))
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull().check(sql`state in ('PENDING', 'PAID', 'FAILED', 'EXPIRED')`))
    // The provider's id of the payment (its transaction id, the Pix end-to-end id) once paid.
    .addColumn('payment_id', 'text')
    // The checkout form's one-time key: the same form sent twice finds the first order.
    .addColumn('request_key', 'text')
    .addColumn('next_path', 'text')
    .addColumn('card_brand', 'text')
    .addColumn('card_last4', 'text')
    .addColumn('br_code', 'text')
    .addColumn('expires_at', 'bigint')
    .addColumn('failure', 'text')
    .addColumn('ledger_transaction_id', 'integer', (c) => c.unique().references('ledger_transactions.id').onDelete('restrict'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('paid_at', 'bigint')
    .addCheckConstraint('orders_total', sql`total = subtotal - discount`)
    .addCheckConstraint('orders_paid', sql`(state = 'PAID') = (paid_at is not null and ledger_transaction_id is not null and payment_id is not null)`)
    .execute();
  await db.schema.createIndex('orders_user_idx').on('orders').columns(['user_id', 'id']).execute();
  await db.schema.createIndex('orders_state_idx').on('orders').columns(['state', 'created_at']).execute();
  await db.schema.createIndex('orders_payment_idx').on('orders').columns(['provider', 'payment_id']).unique().execute();
  await db.schema.createIndex('orders_request_idx').on('orders').columns(['user_id', 'request_key']).unique().execute();

  // Every state an order has been in, with who said so (checkout, webhook, poll, reconcile).
  await db.schema.createTable('order_events')
    .addColumn('id', 'integer', id)
    .addColumn('order_id', 'integer', (c) => c.notNull().references('orders.id').onDelete('restrict'))
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('detail', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('order_events_order_idx').on('order_events').columns(['order_id', 'id']).execute();

  // A coupon held by an order; deleted (and the coupon's count given back) when the order fails or expires.
  await db.schema.createTable('coupon_redemptions')
    .addColumn('order_id', 'integer', (c) => c.primaryKey().references('orders.id').onDelete('restrict'))
    .addColumn('coupon_id', 'integer', (c) => c.notNull().references('coupons.id').onDelete('restrict'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('restrict'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('coupon_redemptions_reader_idx').on('coupon_redemptions').columns(['coupon_id', 'user_id']).execute();

  // The purchase favorite star: a reader's favorite key packs, shown first when buying again.
  await db.schema.createTable('pack_favorites')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('pack_id', 'integer', (c) => c.notNull().references('key_packs.id').onDelete('cascade'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('pack_favorites_pk', ['user_id', 'pack_id'])
    .execute();

  // The card sandbox's side: single-use nonces its widget issued, and the sale each paid for.
  await db.schema.createTable('sandbox_card_nonces')
    .addColumn('nonce', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('brand', 'text')
    .addColumn('last4', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .addColumn('order_id', 'text')
    .addColumn('payment_id', 'text')
    .addColumn('amount', 'integer')
    .addColumn('currency', 'text')
    .execute();
  await db.schema.createIndex('sandbox_card_nonces_order_idx').on('sandbox_card_nonces').column('order_id').execute();

  // The Pix sandbox's side: the charges it created and whether they were paid.
  await db.schema.createTable('sandbox_pix_charges')
    .addColumn('correlation_id', 'text', (c) => c.primaryKey())
    .addColumn('value', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('br_code', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('payment_id', 'text')
    .addColumn('paid_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['sandbox_pix_charges', 'sandbox_card_nonces', 'pack_favorites', 'coupon_redemptions', 'order_events', 'orders', 'coupons', 'key_packs']) {
    await db.schema.dropTable(t).ifExists().execute();
  }
}
