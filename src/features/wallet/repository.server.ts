/**
 * Every query of the wallet: accounts and their balance rows, ledger transactions and entries,
 * ownership, rentals and ad views. Rows in, rows out; the ledger (ledger.server.ts) is the only
 * caller that writes balances. Functions that change money run inside writeTransaction.
 */
import { sql } from 'kysely';
import type { Currency } from '@db/schema';
import { isPostgres, preparedRead, type DB, type WriteTx } from '~/server/db';

/** `refunds_held`: keys taken from a reader while their refund is asked of the provider (docs/wallet.md). */
export type SystemCode = 'key_sales' | 'unlock_revenue' | 'bonus_issuance' | 'grants' | 'refunds_held';

export interface AccountRow {
  id: number;
  currency: Currency;
  balance: number;
}

const num = <T extends Record<string, unknown>>(row: T, ...keys: (keyof T)[]): T => {
  for (const k of keys) (row as Record<keyof T, unknown>)[k] = row[k] == null ? row[k] : Number(row[k]);
  return row;
};

/** Creates the reader's two accounts if missing (idempotent, safe under concurrency). */
export async function ensureUserAccounts(trx: WriteTx, userId: number): Promise<void> {
  await trx
    .insertInto('wallet_accounts')
    .values([
      { user_id: userId, system_code: null, currency: 'keys' },
      { user_id: userId, system_code: null, currency: 'xtra' },
    ])
    .onConflict((oc) => oc.columns(['user_id', 'currency']).doNothing())
    .execute();
}

/** A system account's id, created on first use. */
export async function systemAccountId(trx: WriteTx, code: SystemCode, currency: Currency): Promise<number> {
  await trx
    .insertInto('wallet_accounts')
    .values({ user_id: null, system_code: code, currency })
    .onConflict((oc) => oc.columns(['system_code', 'currency']).doNothing())
    .execute();
  const row = await trx.selectFrom('wallet_accounts').select('id').where('system_code', '=', code).where('currency', '=', currency).executeTakeFirstOrThrow();
  return Number(row.id);
}

/**
 * The reader's accounts, locked for the rest of the transaction on PostgreSQL (in id order, so
 * two transactions never wait on each other crosswise). On SQLite the transaction already holds
 * the database's write lock.
 */
export async function lockUserAccounts(trx: WriteTx, userId: number): Promise<AccountRow[]> {
  let q = trx.selectFrom('wallet_accounts').select(['id', 'currency', 'balance']).where('user_id', '=', userId).orderBy('id');
  if (isPostgres(trx)) q = q.forNoKeyUpdate(); // not FOR UPDATE: see docs/postgres.md "Row locks"
  return (await q.execute()).map((r) => num({ ...r }, 'id', 'balance'));
}

// Built and compiled once (preparedRead): every signed-in page asks. Synchronous on SQLite
// outside a transaction, Kysely inside one.
const balanceRows = preparedRead((db, userId: number) => db.selectFrom('wallet_accounts').select(['id', 'currency', 'balance']).where('user_id', '=', userId));
export async function userBalances(db: DB, userId: number): Promise<AccountRow[]> {
  const rows = await balanceRows(db, userId);
  return rows.map((r) => num({ ...r }, 'id', 'balance'));
}

export async function findTransaction(db: DB, key: string) {
  const row = await db.selectFrom('ledger_transactions').selectAll().where('idempotency_key', '=', key).executeTakeFirst();
  return row && num(row, 'id', 'user_id', 'chapter_id', 'created_at');
}

export async function insertTransaction(trx: WriteTx,
  t: { idempotency_key: string; kind: string; user_id: number | null; chapter_id: number | null; reason: string | null; created_at: number },
): Promise<number> {
  const row = await trx.insertInto('ledger_transactions').values(t).returning('id').executeTakeFirstOrThrow();
  return Number(row.id);
}

export async function insertEntries(trx: WriteTx, entries: readonly { transaction_id: number; account_id: number; currency: Currency; amount: number }[]): Promise<void> {
  if (entries.length) await trx.insertInto('ledger_entries').values([...entries]).execute();
}

/**
 * Adds `delta` to an account's balance, refusing to take a reader's balance below zero (the
 * database CHECK refuses it too). Returns false when refused.
 */
export async function applyDelta(trx: WriteTx, accountId: number, delta: number): Promise<boolean> {
  const result = await trx
    .updateTable('wallet_accounts')
    .set({ balance: sql`balance + ${delta}` })
    .where('id', '=', accountId)
    .where((eb) => eb.or([eb('user_id', 'is', null), eb(sql`balance + ${delta}`, '>=', 0)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function entriesOf(db: DB, transactionId: number) {
  const rows = await db
    .selectFrom('ledger_entries')
    .innerJoin('wallet_accounts', 'wallet_accounts.id', 'ledger_entries.account_id')
    .select(['ledger_entries.account_id', 'ledger_entries.currency', 'ledger_entries.amount', 'wallet_accounts.user_id', 'wallet_accounts.system_code'])
    .where('ledger_entries.transaction_id', '=', transactionId)
    .orderBy('ledger_entries.id')
    .execute();
  return rows.map((r) => num({ ...r }, 'account_id', 'amount', 'user_id'));
}

// ---------------------------------------------------------------- ownership and rentals

export async function findUnlock(db: DB, userId: number, chapterId: number) {
  const row = await db.selectFrom('chapter_unlocks').selectAll().where('user_id', '=', userId).where('chapter_id', '=', chapterId).executeTakeFirst();
  return row && num(row, 'user_id', 'chapter_id', 'transaction_id', 'price', 'created_at');
}

export async function insertUnlock(trx: WriteTx, u: { user_id: number; chapter_id: number; transaction_id: number; price: number; currency: Currency; created_at: number }): Promise<void> {
  await trx.insertInto('chapter_unlocks').values(u).execute();
}

/** Which of these chapters the reader owns. */
export async function ownedAmong(db: DB, userId: number, chapterIds: readonly number[]): Promise<Set<number>> {
  if (!chapterIds.length) return new Set();
  const rows = await db.selectFrom('chapter_unlocks').select('chapter_id').where('user_id', '=', userId).where('chapter_id', 'in', [...chapterIds]).execute();
  return new Set(rows.map((r) => Number(r.chapter_id)));
}

/** Every chapter of a series the reader owns (ids). */
const ownedRows = preparedRead((db, userId: number, seriesId: number) => db
  .selectFrom('chapter_unlocks')
  .innerJoin('chapters', 'chapters.id', 'chapter_unlocks.chapter_id')
  .select('chapter_unlocks.chapter_id')
  .where('chapter_unlocks.user_id', '=', userId)
  .where('chapters.series_id', '=', seriesId));
export async function ownedInSeries(db: DB, userId: number, seriesId: number): Promise<Set<number>> {
  const rows = await ownedRows(db, userId, seriesId);
  return new Set(rows.map((r) => Number(r.chapter_id)));
}

export interface RentalRow {
  id: number;
  chapter_id: number;
  series_id: number;
  kind: 'daily_pass' | 'ad' | 'plan';
  created_at: number;
  expires_at: number;
}

/** The reader's rentals in a series, newest first (expired ones included: the pricing rule needs them). */
const rentalRows = preparedRead((db, userId: number, seriesId: number) => db
  .selectFrom('rentals')
  .select(['id', 'chapter_id', 'series_id', 'kind', 'created_at', 'expires_at'])
  .where('user_id', '=', userId)
  .where('series_id', '=', seriesId));
/** Newest first. Sorted here: an ORDER BY the index cannot serve costs SQLite a sorter on every signed-in series page. */
export async function rentalsInSeries(db: DB, userId: number, seriesId: number): Promise<RentalRow[]> {
  const rows = await rentalRows(db, userId, seriesId);
  return rows.map((r) => num({ ...r }, 'id', 'chapter_id', 'series_id', 'created_at', 'expires_at')).sort((a, b) => b.created_at - a.created_at || b.id - a.id);
}

/** Plan rentals the reader took in [from, until): the plan month's used capacity. */
export async function planRentalsBetween(db: DB, userId: number, from: number, until: number): Promise<number> {
  const row = await db.selectFrom('rentals').select((eb) => eb.fn.countAll().as('n'))
    .where('user_id', '=', userId).where('kind', '=', 'plan').where('created_at', '>=', from).where('created_at', '<', until).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Plan rentals the reader took in [from, until), oldest first: which chapters the plan month's capacity went to, and until when. */
export async function planRentalsListBetween(db: DB, userId: number, from: number, until: number): Promise<{ chapter_id: number; created_at: number; expires_at: number }[]> {
  const rows = await db.selectFrom('rentals').select(['id', 'chapter_id', 'created_at', 'expires_at'])
    .where('user_id', '=', userId).where('kind', '=', 'plan').where('created_at', '>=', from).where('created_at', '<', until)
    .orderBy('created_at').orderBy('id').execute();
  return rows.map((r) => ({ chapter_id: Number(r.chapter_id), created_at: Number(r.created_at), expires_at: Number(r.expires_at) }));
}

/** The reader's rentals of one chapter (the page image route's check). */
export async function rentalsOfChapter(db: DB, userId: number, chapterId: number): Promise<RentalRow[]> {
  const rows = await db
    .selectFrom('rentals')
    .select(['id', 'chapter_id', 'series_id', 'kind', 'created_at', 'expires_at'])
    .where('user_id', '=', userId)
    .where('chapter_id', '=', chapterId)
    .execute();
  return rows.map((r) => num({ ...r }, 'id', 'chapter_id', 'series_id', 'created_at', 'expires_at'));
}

export async function insertRental(trx: WriteTx,
  r: { user_id: number; chapter_id: number; series_id: number; kind: 'daily_pass' | 'ad' | 'plan'; transaction_id: number; created_at: number; expires_at: number },
): Promise<void> {
  await trx.insertInto('rentals').values(r).execute();
}

// ---------------------------------------------------------------- ad views

export async function insertAdView(trx: WriteTx,
  v: { token_hash: string; user_id: number; chapter_id: number; promoted_series_id: number | null; started_at: number; ready_at: number; expires_at: number },
): Promise<void> {
  await trx.insertInto('ad_views').values({ ...v, used_at: null }).execute();
}

export async function findAdView(db: DB, tokenHash: string) {
  const row = await db.selectFrom('ad_views').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
  return row ? num({ ...row }, 'user_id', 'chapter_id', 'started_at', 'ready_at', 'expires_at', 'used_at') : null;
}

/** Marks an ad view used, once: false when it was already used, unknown or not the reader's. */
export async function useAdView(trx: WriteTx, tokenHash: string, userId: number, now: number): Promise<{ chapter_id: number; ready_at: number; expires_at: number } | null> {
  const row = await trx
    .updateTable('ad_views')
    .set({ used_at: now })
    .where('token_hash', '=', tokenHash)
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .returning(['chapter_id', 'ready_at', 'expires_at'])
    .executeTakeFirst();
  return row ? num({ ...row }, 'chapter_id', 'ready_at', 'expires_at') : null;
}

// ---------------------------------------------------------------- history

/** The reader's transactions, newest first (keyless ones, the daily pass and ads, included). */
export async function transactionsOf(db: DB, userId: number, limit: number, offset: number) {
  const rows = await db.selectFrom('ledger_transactions').select(['id', 'kind', 'reason', 'created_at', 'chapter_id'])
    .where('user_id', '=', userId).orderBy('id', 'desc').limit(limit).offset(offset).execute();
  return rows.map((r) => num({ ...r }, 'id', 'created_at', 'chapter_id'));
}

export async function transactionCount(db: DB, userId: number): Promise<number> {
  const row = await db.selectFrom('ledger_transactions').select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', userId).executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** The reader's side of some transactions: what each did to their two balances. */
export async function readerEntriesOf(db: DB, userId: number, transactionIds: readonly number[]) {
  if (!transactionIds.length) return [];
  const rows = await db.selectFrom('ledger_entries').innerJoin('wallet_accounts', 'wallet_accounts.id', 'ledger_entries.account_id')
    .select(['ledger_entries.transaction_id', 'ledger_entries.currency', 'ledger_entries.amount'])
    .where('wallet_accounts.user_id', '=', userId).where('ledger_entries.transaction_id', 'in', [...transactionIds]).execute();
  return rows.map((r) => num({ ...r }, 'transaction_id', 'amount'));
}

// ---------------------------------------------------------------- audit

/** Transactions whose entries do not sum to zero in some currency. */
export async function unbalancedTransactions(db: DB) {
  return db
    .selectFrom('ledger_entries')
    .select(['transaction_id', 'currency', (eb) => eb.fn.sum<number>('amount').as('total')])
    .groupBy(['transaction_id', 'currency'])
    .having((eb) => eb.fn.sum('amount'), '<>', 0)
    .execute();
}

/** Accounts whose balance row differs from the sum of their entries. */
export async function driftedAccounts(db: DB) {
  return db
    .selectFrom('wallet_accounts')
    .leftJoin('ledger_entries', 'ledger_entries.account_id', 'wallet_accounts.id')
    .select(['wallet_accounts.id', 'wallet_accounts.user_id', 'wallet_accounts.system_code', 'wallet_accounts.currency', 'wallet_accounts.balance', (eb) => eb.fn.coalesce(eb.fn.sum<number>('ledger_entries.amount'), sql<number>`0`).as('total')])
    .groupBy(['wallet_accounts.id', 'wallet_accounts.user_id', 'wallet_accounts.system_code', 'wallet_accounts.currency', 'wallet_accounts.balance'])
    .having(sql<boolean>`wallet_accounts.balance <> coalesce(sum(ledger_entries.amount), 0)`)
    .execute();
}

export async function negativeUserAccounts(db: DB) {
  return db.selectFrom('wallet_accounts').select(['id', 'user_id', 'currency', 'balance']).where('user_id', 'is not', null).where('balance', '<', 0).execute();
}

/**
 * Unlocks whose transaction is not an unlock charging exactly the price, to the unlock revenue,
 * in the unlock's currency, from the same reader.
 */
export async function unlocksWithoutTheirCharge(db: DB) {
  return db
    .selectFrom('chapter_unlocks as u')
    .innerJoin('ledger_transactions as t', 't.id', 'u.transaction_id')
    .select(['u.user_id', 'u.chapter_id', 'u.transaction_id', 'u.price', 'u.currency', 't.kind', 't.user_id as t_user', 't.chapter_id as t_chapter'])
    .where((eb) =>
      eb.or([
        eb('t.kind', '<>', 'unlock'),
        eb('t.user_id', '<>', eb.ref('u.user_id')),
        eb('t.chapter_id', '<>', eb.ref('u.chapter_id')),
        eb.not(
          eb.exists(
            eb.selectFrom('ledger_entries as e')
              .innerJoin('wallet_accounts as a', 'a.id', 'e.account_id')
              .select(sql.lit(1).as('one'))
              .whereRef('e.transaction_id', '=', 'u.transaction_id')
              .whereRef('a.user_id', '=', 'u.user_id')
              .whereRef('e.currency', '=', 'u.currency')
              .where('e.amount', '=', eb.neg(eb.ref('u.price'))),
          ),
        ),
      ]),
    )
    .execute();
}

/** Unlock transactions with no ownership row (a charge that bought nothing). */
export async function chargesWithoutUnlock(db: DB) {
  return db
    .selectFrom('ledger_transactions as t')
    .select(['t.id', 't.user_id', 't.chapter_id'])
    .where('t.kind', '=', 'unlock')
    .where((eb) => eb.not(eb.exists(eb.selectFrom('chapter_unlocks as u').select(sql.lit(1).as('one')).whereRef('u.transaction_id', '=', 't.id'))))
    .execute();
}

/** Xtra keys given back to the buyer per unlock (0 when none), with its price. */
export async function unlockBonuses(db: DB) {
  const rows = await db
    .selectFrom('chapter_unlocks as u')
    .select((eb) => [
      'u.transaction_id',
      'u.price',
      'u.user_id',
      eb.fn.coalesce(
        eb.selectFrom('ledger_entries as e')
          .innerJoin('wallet_accounts as a', 'a.id', 'e.account_id')
          .select((sub) => sub.fn.sum<number>('e.amount').as('s'))
          .whereRef('e.transaction_id', '=', 'u.transaction_id')
          .whereRef('a.user_id', '=', 'u.user_id')
          .where('e.currency', '=', 'xtra')
          .where('e.amount', '>', 0),
        sql<number>`0`,
      ).as('bonus'),
    ])
    .execute();
  return rows.map((r) => num({ ...r }, 'transaction_id', 'price', 'user_id', 'bonus'));
}

/** Sum of every account per currency (0 in a balanced ledger). */
export async function totalsByCurrency(db: DB) {
  const rows = await db.selectFrom('wallet_accounts').select(['currency', (eb) => eb.fn.sum<number>('balance').as('total')]).groupBy('currency').execute();
  return rows.map((r) => ({ currency: r.currency, total: Number(r.total) }));
}

/** Rentals whose transaction is not one of their kind, for their reader and chapter. */
export async function rentalsWithoutTheirTransaction(db: DB) {
  return db
    .selectFrom('rentals as r')
    .innerJoin('ledger_transactions as t', 't.id', 'r.transaction_id')
    .select(['r.id', 'r.user_id', 'r.chapter_id', 'r.kind', 'r.transaction_id', 't.kind as t_kind'])
    .where((eb) => eb.or([
      eb('t.user_id', '<>', eb.ref('r.user_id')),
      eb('t.chapter_id', '<>', eb.ref('r.chapter_id')),
      eb.and([eb('r.kind', '=', 'daily_pass'), eb('t.kind', '<>', 'daily_pass')]),
      eb.and([eb('r.kind', '=', 'ad'), eb('t.kind', '<>', 'ad')]),
      eb.and([eb('r.kind', '=', 'plan'), eb('t.kind', '<>', 'plan_rental')]),
    ]))
    .execute();
}

/** Rental transactions that moved keys (they never should) or wrote no rental. */
export async function rentalTransactionsAmiss(db: DB) {
  return db
    .selectFrom('ledger_transactions as t')
    .select(['t.id', 't.kind', 't.user_id', 't.chapter_id'])
    .where('t.kind', 'in', ['daily_pass', 'ad', 'plan_rental'])
    .where((eb) => eb.or([
      eb.exists(eb.selectFrom('ledger_entries as e').select(sql.lit(1).as('one')).whereRef('e.transaction_id', '=', 't.id')),
      eb.not(eb.exists(eb.selectFrom('rentals as r').select(sql.lit(1).as('one')).whereRef('r.transaction_id', '=', 't.id'))),
    ]))
    .execute();
}

/** Every daily-pass rental, by reader and series in time order (the audit checks the recharge). */
export async function dailyPassRentals(db: DB) {
  const rows = await db.selectFrom('rentals').select(['id', 'user_id', 'series_id', 'created_at']).where('kind', '=', 'daily_pass')
    .orderBy('user_id').orderBy('series_id').orderBy('created_at').execute();
  return rows.map((r) => num({ ...r }, 'id', 'user_id', 'series_id', 'created_at'));
}

/** Records one run of the ledger audit (`npm run keys -- audit`). */
export async function insertLedgerAudit(db: DB, row: { at: number; failed_rules: number; rules_json: string }): Promise<void> {
  await db.insertInto('ledger_audits').values(row).execute();
}

/** The latest recorded run of the ledger audit, if any. */
export async function latestLedgerAudit(db: DB): Promise<{ at: number; failed_rules: number } | undefined> {
  const row = await db.selectFrom('ledger_audits').select(['at', 'failed_rules']).orderBy('id', 'desc').limit(1).executeTakeFirst();
  return row && { at: Number(row.at), failed_rules: Number(row.failed_rules) };
}

// ---------------------------------------------------------------- the reader's own data (export)

/** Every movement of the reader's own accounts, oldest first: what the data export lists (no idempotency keys). */
export function entriesForExport(db: DB, userId: number) {
  return db.selectFrom('ledger_entries as e').innerJoin('wallet_accounts as a', 'a.id', 'e.account_id').innerJoin('ledger_transactions as t', 't.id', 'e.transaction_id')
    .leftJoin('chapters as c', 'c.id', 't.chapter_id')
    .select(['t.id', 't.kind', 't.reason', 't.created_at', 'c.e4pid as chapter', 'e.currency', 'e.amount'])
    .where('a.user_id', '=', userId).orderBy('t.created_at').orderBy('t.id').orderBy('e.id').execute();
}

/** The reader's owned chapters and rentals, for the data export. */
export async function holdingsForExport(db: DB, userId: number) {
  const [unlocks, rentals] = await Promise.all([
    db.selectFrom('chapter_unlocks as u').innerJoin('chapters as c', 'c.id', 'u.chapter_id')
      .select(['c.e4pid', 'u.price', 'u.currency', 'u.created_at']).where('u.user_id', '=', userId).orderBy('u.created_at').execute(),
    db.selectFrom('rentals as r').innerJoin('chapters as c', 'c.id', 'r.chapter_id')
      .select(['c.e4pid', 'r.kind', 'r.created_at', 'r.expires_at']).where('r.user_id', '=', userId).orderBy('r.created_at').execute(),
  ]);
  return { unlocks, rentals };
}
