/**
 * The keys ledger: the only code that moves keys (docs/wallet.md). Every movement is one
 * transaction with a unique idempotency key and entries that sum to zero per currency; a
 * reader's side can never go below zero (guarded update plus a database CHECK). Callers run
 * `post` inside writeTransaction, after locking the reader's accounts, with no network call
 * in between.
 */
import type { Currency } from '@db/schema';
import { writeTransaction, type DB, type WriteTx } from '~/server/db';
import * as repo from './repository.server';
import type { SystemCode } from './repository.server';

export type { SystemCode };

/** One side of a movement: a reader's account or a system account. */
export type Party = { user: number } | { system: SystemCode };

export interface Posting {
  party: Party;
  currency: Currency;
  /** Signed whole keys: positive credits the party. */
  amount: number;
}

export interface Balances {
  keys: number;
  xtra: number;
}

export class InsufficientKeys extends Error {
  constructor() {
    super('the balance does not cover the amount');
  }
}

export interface PostInput {
  key: string;
  kind: string;
  userId: number | null;
  chapterId?: number | null;
  reason?: string | null;
  now: number;
  postings: readonly Posting[];
}

/**
 * Writes one transaction unless its key already exists; returns its id and whether it was
 * written now. Throws InsufficientKeys (the caller's transaction rolls back) when a reader's
 * balance would go negative, and an Error when the postings do not balance.
 */
export async function post(trx: WriteTx, input: PostInput): Promise<{ id: number; created: boolean }> {
  const existing = await repo.findTransaction(trx, input.key);
  if (existing) return { id: existing.id, created: false };
  for (const currency of ['keys', 'xtra'] as const) {
    const sum = input.postings.filter((p) => p.currency === currency).reduce((s, p) => s + p.amount, 0);
    if (sum !== 0) throw new Error(`ledger: ${input.kind} does not balance in ${currency} (${sum})`);
  }
  if (input.postings.some((p) => !Number.isSafeInteger(p.amount) || p.amount === 0)) throw new Error(`ledger: ${input.kind} has an amount that is not a whole, non-zero number of keys`);
  const id = await repo.insertTransaction(trx, {
    idempotency_key: input.key,
    kind: input.kind,
    user_id: input.userId,
    chapter_id: input.chapterId ?? null,
    reason: input.reason ?? null,
    created_at: input.now,
  });
  const entries = [];
  for (const p of input.postings) {
    const accountId = await accountIdOf(trx, p.party, p.currency);
    if (!(await repo.applyDelta(trx, accountId, p.amount))) throw new InsufficientKeys();
    entries.push({ transaction_id: id, account_id: accountId, currency: p.currency, amount: p.amount });
  }
  await repo.insertEntries(trx, entries);
  return { id, created: true };
}

async function accountIdOf(trx: WriteTx, party: Party, currency: Currency): Promise<number> {
  if ('system' in party) return repo.systemAccountId(trx, party.system, currency);
  const rows = await repo.userBalances(trx, party.user);
  const row = rows.find((r) => r.currency === currency);
  if (!row) throw new Error(`ledger: reader ${party.user} has no ${currency} account (lockReader first)`);
  return row.id;
}

/**
 * Creates the reader's accounts if needed and locks them for this transaction; returns the
 * balances as they are now. Call first in every write transaction that moves the reader's keys.
 */
export async function lockReader(trx: WriteTx, userId: number): Promise<Balances> {
  await repo.ensureUserAccounts(trx, userId);
  return balancesFrom(await repo.lockUserAccounts(trx, userId));
}

/** The reader's balances (0 and 0 before their first movement). */
export async function balancesOf(db: DB, userId: number): Promise<Balances> {
  return balancesFrom(await repo.userBalances(db, userId));
}

function balancesFrom(rows: readonly { currency: Currency; balance: number }[]): Balances {
  return {
    keys: rows.find((r) => r.currency === 'keys')?.balance ?? 0,
    xtra: rows.find((r) => r.currency === 'xtra')?.balance ?? 0,
  };
}

export interface Grant {
  userId: number;
  keys: number;
  xtra: number;
  reason: string;
  /** The idempotency key; a repeated grant with the same key credits nothing more. */
  key: string;
  now: number;
  /** 'welcome' for the sign-up gift (its own line in the key history); staff grants are 'grant'. */
  kind?: 'grant' | 'welcome';
}

/** Credits a reader from the grants account (staff, demos). Idempotent on `key`. */
export async function grantKeys(db: DB, g: Grant): Promise<{ created: boolean; balances: Balances }> {
  if (!Number.isSafeInteger(g.keys) || !Number.isSafeInteger(g.xtra) || g.keys < 0 || g.xtra < 0 || g.keys + g.xtra === 0) {
    throw new Error('a grant credits a whole, positive number of keys or Xtra keys');
  }
  return writeTransaction(db, async (trx) => {
    await lockReader(trx, g.userId);
    const postings: Posting[] = [];
    if (g.keys) postings.push({ party: { user: g.userId }, currency: 'keys', amount: g.keys }, { party: { system: 'grants' }, currency: 'keys', amount: -g.keys });
    if (g.xtra) postings.push({ party: { user: g.userId }, currency: 'xtra', amount: g.xtra }, { party: { system: 'grants' }, currency: 'xtra', amount: -g.xtra });
    const { created } = await post(trx, { key: g.key, kind: g.kind ?? 'grant', userId: g.userId, reason: g.reason, now: g.now, postings });
    return { created, balances: balancesFrom(await repo.userBalances(trx, g.userId)) };
  });
}

export interface PurchaseCredit {
  userId: number;
  keys: number;
  xtra: number;
  /** The idempotency key (`order:{public id}`): a second credit for the same order writes nothing. */
  key: string;
  reason: string;
  now: number;
}

/**
 * Credits a paid order's keys (from key sales) and Xtra keys (from bonus issuance) inside the
 * caller's write transaction, which also moves the order to PAID: both happen, or neither.
 */
export async function creditPurchase(trx: WriteTx, c: PurchaseCredit): Promise<{ id: number; created: boolean }> {
  if (!Number.isSafeInteger(c.keys) || !Number.isSafeInteger(c.xtra) || c.keys <= 0 || c.xtra < 0) {
    throw new Error('a purchase credits a whole, positive number of keys and a whole number of Xtra keys');
  }
  await lockReader(trx, c.userId);
  const postings: Posting[] = [
    { party: { user: c.userId }, currency: 'keys', amount: c.keys },
    { party: { system: 'key_sales' }, currency: 'keys', amount: -c.keys },
  ];
  if (c.xtra) postings.push({ party: { user: c.userId }, currency: 'xtra', amount: c.xtra }, { party: { system: 'bonus_issuance' }, currency: 'xtra', amount: -c.xtra });
  return post(trx, { key: c.key, kind: 'purchase', userId: c.userId, reason: c.reason, now: c.now, postings });
}

export interface RefundKeys {
  userId: number;
  /** Paid keys and Xtra keys the refund takes back. */
  keys: number;
  xtra: number;
  /** The refund's public id: each step's idempotency key is made from it. */
  refundId: string;
  now: number;
}

/**
 * A refund's three ledger steps (docs/wallet.md, "Refunds"), each inside the caller's write
 * transaction, which also moves the refund. `hold`: the keys leave the reader for the
 * `refunds_held` account before the provider is asked, so an unlock racing the refund finds them
 * gone (InsufficientKeys when the reader no longer has them: the refund is refused, nothing
 * moves). `reverse`: once the provider confirmed, the held keys go back where the purchase took
 * them from (key sales, bonus issuance). `release`: the provider refused, the keys go back to the
 * reader.
 */
export async function refundKeys(trx: WriteTx, step: 'hold' | 'reverse' | 'release', r: RefundKeys): Promise<{ id: number; created: boolean } | null> {
  if (r.keys === 0 && r.xtra === 0) return null;
  if (step !== 'reverse') await lockReader(trx, r.userId);
  const held: Party = { system: 'refunds_held' };
  const [from, toKeys, toXtra]: [Party, Party, Party] =
    step === 'hold' ? [{ user: r.userId }, held, held]
      : step === 'reverse' ? [held, { system: 'key_sales' }, { system: 'bonus_issuance' }]
        : [held, { user: r.userId }, { user: r.userId }];
  const postings: Posting[] = [];
  if (r.keys) postings.push({ party: from, currency: 'keys', amount: -r.keys }, { party: toKeys, currency: 'keys', amount: r.keys });
  if (r.xtra) postings.push({ party: from, currency: 'xtra', amount: -r.xtra }, { party: toXtra, currency: 'xtra', amount: r.xtra });
  const kind = { hold: 'refund_hold', reverse: 'refund', release: 'refund_release' }[step];
  // The reversal touches no reader account: it is the shop's (the reader saw the keys leave at the hold).
  return post(trx, { key: `${kind}:${r.refundId}`, kind, userId: step === 'reverse' ? null : r.userId, reason: `refund ${r.refundId}`, now: r.now, postings });
}
