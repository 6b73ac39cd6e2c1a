import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Frozen once landed. Subscriptions (docs/subscriptions.md): plans per site and currency, a
// reader's subscription and every change of it, the trial each reader may use once, the series a
// subscription holds in its slots, and the charges that pay its periods (confirmed by the same
// payment confirmation as key packs). Money in minor units; times in unix seconds.
export async function up(db: Kysely<any>): Promise<void> {
  const isPg = db.getExecutor().adapter instanceof PostgresAdapter;
  const id = (c: any) => (isPg ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement());

  await db.schema.createTable('plans')
    .addColumn('id', 'integer', id)
    .addColumn('site_id', 'integer', (c) => c.notNull())
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    // JSON array of short benefit lines, in the site's language.
    .addColumn('benefits', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('price', 'integer', (c) => c.notNull().check(sql`price > 0`))
    .addColumn('period_months', 'integer', (c) => c.notNull().defaultTo(1).check(sql`period_months between 1 and 12`))
    .addColumn('series_slots', 'integer', (c) => c.notNull().check(sql`series_slots >= 0`))
    .addColumn('rent_capacity', 'integer', (c) => c.notNull().defaultTo(0).check(sql`rent_capacity >= 0`))
    .addColumn('rent_ttl', 'integer', (c) => c.notNull().defaultTo(259200).check(sql`rent_ttl > 0`))
    .addColumn('trial_days', 'integer', (c) => c.notNull().defaultTo(0).check(sql`trial_days >= 0`))
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('plans_site_code_idx').on('plans').columns(['site_id', 'code']).unique().execute();

  await db.schema.createTable('subscriptions')
    .addColumn('id', 'integer', id)
    .addColumn('public_id', 'text', (c) => c.notNull().unique())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('restrict'))
    .addColumn('site_id', 'integer', (c) => c.notNull())
    .addColumn('plan_id', 'integer', (c) => c.notNull().references('plans.id').onDelete('restrict'))
    // PENDING (waiting for its first payment), TRIAL, ACTIVE, PAST_DUE (in grace), EXPIRED; a
    // cancelled one stays what it is until its paid period ends (cancel_at_period_end).
    .addColumn('state', 'text', (c) => c.notNull().check(sql`state in ('PENDING', 'TRIAL', 'ACTIVE', 'PAST_DUE', 'EXPIRED')`))
    // Periods are counted from here (subscriptions/periods.ts: Jan 31 → Feb 28 → Mar 31).
    .addColumn('anchor_at', 'bigint', (c) => c.notNull())
    // Access runs until here (the end of the paid period or the trial); grace comes after.
    .addColumn('paid_until', 'bigint', (c) => c.notNull())
    .addColumn('cancel_at_period_end', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('canceled_at', 'bigint')
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('provider', 'text', (c) => c.notNull())
    // The card provider's reusable payment method (a vault token) for renewals; never card data.
    .addColumn('payment_token', 'text')
    .addColumn('payer_name', 'text')
    .addColumn('payer_doc', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('subscriptions_user_idx').on('subscriptions').columns(['user_id', 'site_id', 'id']).execute();
  await db.schema.createIndex('subscriptions_state_idx').on('subscriptions').columns(['state', 'paid_until']).execute();

  await db.schema.createTable('subscription_events')
    .addColumn('id', 'integer', id)
    .addColumn('subscription_id', 'integer', (c) => c.notNull().references('subscriptions.id').onDelete('restrict'))
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('detail', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('subscription_events_sub_idx').on('subscription_events').columns(['subscription_id', 'id']).execute();

  // One trial per reader, ever: the primary key refuses a second, however many requests race.
  await db.schema.createTable('trial_uses')
    .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('restrict'))
    .addColumn('subscription_id', 'integer', (c) => c.notNull().references('subscriptions.id').onDelete('restrict'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  // The series a subscription holds in its slots.
  await db.schema.createTable('subscription_series')
    .addColumn('subscription_id', 'integer', (c) => c.notNull().references('subscriptions.id').onDelete('cascade'))
    .addColumn('series_id', 'integer', (c) => c.notNull().references('series.id').onDelete('cascade'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('subscription_series_pk', ['subscription_id', 'series_id'])
    .execute();

  // A charge for one period of a subscription (the first, or a renewal): at most one per period.
  await db.schema.createTable('subscription_charges')
    .addColumn('id', 'integer', id)
    // The check of the status call and the Pix correlationID.
    .addColumn('public_id', 'text', (c) => c.notNull().unique())
    .addColumn('subscription_id', 'integer', (c) => c.notNull().references('subscriptions.id').onDelete('restrict'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('restrict'))
    .addColumn('period_start', 'bigint', (c) => c.notNull())
    .addColumn('period_end', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('amount', 'integer', (c) => c.notNull().check(sql`amount > 0`))
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull().check(sql`state in ('PENDING', 'PAID', 'FAILED', 'EXPIRED')`))
    .addColumn('payment_id', 'text')
    .addColumn('br_code', 'text')
    .addColumn('expires_at', 'bigint')
    .addColumn('failure', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('paid_at', 'bigint')
    .addCheckConstraint('subscription_charges_paid', sql`(state = 'PAID') = (paid_at is not null and payment_id is not null)`)
    .execute();
  await db.schema.createIndex('subscription_charges_period_idx').on('subscription_charges').columns(['subscription_id', 'period_start']).unique().execute();
  await db.schema.createIndex('subscription_charges_payment_idx').on('subscription_charges').columns(['provider', 'payment_id']).unique().execute();
  await db.schema.createIndex('subscription_charges_state_idx').on('subscription_charges').columns(['state', 'created_at']).execute();

  // The card sandbox keeps reusable payment methods (vault tokens) for renewals.
  await db.schema.alterTable('sandbox_card_nonces').addColumn('vault_token', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('sandbox_card_nonces').dropColumn('vault_token').execute();
  for (const t of ['subscription_charges', 'subscription_series', 'trial_uses', 'subscription_events', 'subscriptions', 'plans']) {
    await db.schema.dropTable(t).ifExists().execute();
  }
}
