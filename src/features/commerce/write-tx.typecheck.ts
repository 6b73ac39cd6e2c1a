/**
 * A type test, checked by `astro check` and never run (see src/features/wallet/write-tx.typecheck.ts):
 * a payable's state, a coupon's count and a payment to refund change only inside a write
 * transaction.
 */
import { writeTransaction, type DB } from '~/server/db';
import * as repo from './repository.server';

export async function typeTest(db: DB): Promise<void> {
  // @ts-expect-error an order's state changed outside a transaction
  await repo.changeOrder(db, 1, 'PENDING', { state: 'PAID' }, 0);
  // @ts-expect-error a charge's state changed outside a transaction
  await repo.changeCharge(db, 1, 'PENDING', { state: 'PAID' }, 0);
  // @ts-expect-error a coupon use taken outside a transaction
  await repo.takeCouponUse(db, 1);
  // @ts-expect-error a payment to refund recorded outside a transaction
  await repo.insertRefundDue(db, { user_id: 1, payable_kind: 'order', payable_id: 'o', provider: 'p', payment_id: 'x', amount: 1, currency: 'BRL', reason: 'r', created_at: 0 });
  await writeTransaction(db, (trx) => repo.changeOrder(trx, 1, 'PENDING', { state: 'PAID' }, 0));
}
