/**
 * A type test, checked by `astro check` (the typecheck step of `npm test`) and never run: every
 * function that moves value takes the write transaction that only `writeTransaction` hands out
 * (`WriteTx`, src/server/db.ts), so calling one with a plain database handle, outside a
 * transaction, does not compile. Each `@ts-expect-error` below fails the check the day its call
 * compiles.
 */
import { writeTransaction, type DB } from '~/server/db';
import { creditPurchase, grantKeys, grantKeysIn, lockReader, post } from './ledger.server';
import * as repo from './repository.server';

export async function typeTest(db: DB): Promise<void> {
  const credit = { userId: 1, keys: 1, xtra: 0, key: 'order:x', reason: 'x', now: 0 };
  // @ts-expect-error a purchase credit outside a transaction
  await creditPurchase(db, credit);
  // @ts-expect-error a grant meant for the caller's transaction, given none
  await grantKeysIn(db, { userId: 1, keys: 1, xtra: 0, reason: 'r', key: 'k', now: 0 });
  // @ts-expect-error a ledger posting outside a transaction
  await post(db, { kind: 'grant', userId: 1, key: 'k', reason: 'r', postings: [], now: 0 });
  // @ts-expect-error locking a reader's accounts outside a transaction
  await lockReader(db, 1);
  // @ts-expect-error a balance moved outside a transaction
  await repo.applyDelta(db, 1, 1);
  // @ts-expect-error a chapter owned outside a transaction
  await repo.insertUnlock(db, { user_id: 1, chapter_id: 1, transaction_id: 1, price: 1, currency: 'keys', created_at: 0 });
  // The same calls inside one compile; a grant opens its own.
  await writeTransaction(db, (trx) => creditPurchase(trx, credit));
  await grantKeys(db, { userId: 1, keys: 1, xtra: 0, reason: 'r', key: 'k', now: 0 });
}
