/**
 * A type test, checked by `astro check` and never run (see src/features/wallet/write-tx.typecheck.ts):
 * a subscription moves only inside a write transaction, through its owner.
 */
import { writeTransaction, type DB } from '~/server/db';
import { grantPaidPeriod, moveSubscription } from './moves.server';
import * as repo from './repository.server';

export async function typeTest(db: DB): Promise<void> {
  // @ts-expect-error a subscription moved outside a transaction
  await moveSubscription(db, { id: 1, event: 'accessEnded', source: 'renew', detail: 'd', now: 0 });
  // @ts-expect-error a paid period granted outside a transaction
  await grantPaidPeriod(db, { subscriptionId: 1, periodEnd: 1, chargeId: 1, detail: 'd', source: 'webhook', now: 0 });
  // @ts-expect-error a subscription's row changed outside a transaction
  await repo.changeSubscription(db, 1, 'ACTIVE', { state: 'EXPIRED' }, 0);
  await writeTransaction(db, (trx) => moveSubscription(trx, { id: 1, event: 'accessEnded', source: 'renew', detail: 'd', now: 0 }));
}
