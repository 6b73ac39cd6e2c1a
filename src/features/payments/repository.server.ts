/**
 * The state the two local sandbox providers keep on "their side": what a real gateway or PSP
 * would hold (issued nonces and the sales they paid for; Pix charges and whether they were paid).
 * Kept in the database so every server process and the `npm run payments` command agree.
 */
import type { DB } from '~/server/db';

const num = <T extends Record<string, unknown>>(row: T, ...keys: (keyof T)[]): T => {
  for (const k of keys) (row as Record<keyof T, unknown>)[k] = row[k] == null ? row[k] : Number(row[k]);
  return row;
};

export async function insertNonce(db: DB, n: { nonce: string; user_id: number; method: string; outcome: string; brand: string | null; last4: string | null; created_at: number }): Promise<void> {
  await db.insertInto('sandbox_card_nonces').values(n).execute();
}

/** What a nonce was used for: a sale (order, payment, amount) or a vaulting (all null but the time). */
export interface NonceUse { order_id: string | null; payment_id: string | null; amount: number | null; currency: string | null; used_at: number }

/** Uses a reader's nonce once: the first sale to ask gets it, every later one (or another reader) gets null. */
export async function useNonce(db: DB, nonce: string, userId: number, use: NonceUse) {
  const row = await db.updateTable('sandbox_card_nonces').set(use).where('nonce', '=', nonce).where('user_id', '=', userId).where('used_at', 'is', null).returningAll().executeTakeFirst();
  return row && num(row, 'user_id', 'created_at', 'used_at', 'amount');
}

export async function findNonce(db: DB, nonce: string) {
  const row = await db.selectFrom('sandbox_card_nonces').selectAll().where('nonce', '=', nonce).executeTakeFirst();
  return row && num(row, 'user_id', 'created_at', 'used_at', 'amount');
}

/** Vaults the payment method a used nonce paid with, for later sales (renewals). */
export async function vaultNonce(db: DB, nonce: string, token: string): Promise<void> {
  await db.updateTable('sandbox_card_nonces').set({ vault_token: token }).where('nonce', '=', nonce).execute();
}

/** The vaulted payment method behind a token (its first nonce's row). */
export async function findVaulted(db: DB, token: string) {
  const row = await db.selectFrom('sandbox_card_nonces').selectAll().where('vault_token', '=', token).orderBy('created_at').executeTakeFirst();
  return row && num(row, 'user_id', 'created_at', 'used_at', 'amount');
}

export async function saleOfOrder(db: DB, orderId: string) {
  const row = await db.selectFrom('sandbox_card_nonces').selectAll().where('order_id', '=', orderId).where('outcome', '=', 'success').executeTakeFirst();
  return row && num(row, 'user_id', 'created_at', 'used_at', 'amount');
}

export type SandboxChargeRow = NonNullable<Awaited<ReturnType<typeof findCharge>>>;

/** Creates the charge unless one with this correlationID exists (a PSP's idempotency). */
export async function insertCharge(db: DB, c: { correlation_id: string; value: number; br_code: string; expires_at: number; created_at: number }): Promise<void> {
  await db.insertInto('sandbox_pix_charges').values({ ...c, status: 'ACTIVE' }).onConflict((oc) => oc.column('correlation_id').doNothing()).execute();
}

export async function findCharge(db: DB, correlationId: string) {
  const row = await db.selectFrom('sandbox_pix_charges').selectAll().where('correlation_id', '=', correlationId).executeTakeFirst();
  return row && num(row, 'value', 'expires_at', 'paid_at', 'created_at');
}

/** Marks an active, unexpired charge paid; null when it was not payable. */
export async function payCharge(db: DB, correlationId: string, paymentId: string, now: number) {
  const row = await db.updateTable('sandbox_pix_charges').set({ status: 'COMPLETED', payment_id: paymentId, paid_at: now })
    .where('correlation_id', '=', correlationId).where('status', '=', 'ACTIVE').where('expires_at', '>', now).returningAll().executeTakeFirst();
  return row && num(row, 'value', 'expires_at', 'paid_at', 'created_at');
}

/** An active charge past its expiry becomes EXPIRED (as the PSP would report it). */
export async function expireCharge(db: DB, correlationId: string, now: number): Promise<void> {
  await db.updateTable('sandbox_pix_charges').set({ status: 'EXPIRED' }).where('correlation_id', '=', correlationId).where('status', '=', 'ACTIVE').where('expires_at', '<=', now).execute();
}

/** An active charge becomes EXPIRED whatever its expiry (closed at the PSP); a paid one stays paid. */
export async function closeCharge(db: DB, correlationId: string): Promise<void> {
  await db.updateTable('sandbox_pix_charges').set({ status: 'EXPIRED' }).where('correlation_id', '=', correlationId).where('status', '=', 'ACTIVE').execute();
}

/** The sale a card-sandbox payment id stands for (a successful, used nonce). */
export async function saleOfPayment(db: DB, paymentId: string) {
  const row = await db.selectFrom('sandbox_card_nonces').selectAll().where('payment_id', '=', paymentId).where('outcome', '=', 'success').executeTakeFirst();
  return row && num(row, 'user_id', 'created_at', 'used_at', 'amount');
}

/** The paid (or other) Pix sandbox charge a payment (end-to-end) id belongs to. */
export async function chargeOfPayment(db: DB, paymentId: string) {
  const row = await db.selectFrom('sandbox_pix_charges').selectAll().where('payment_id', '=', paymentId).executeTakeFirst();
  return row && num(row, 'value', 'expires_at', 'paid_at', 'created_at');
}

export type SandboxRefundRow = NonNullable<Awaited<ReturnType<typeof findSandboxRefund>>>;

/**
 * Records a sandbox's refund unless one with this correlation id exists for the provider (the
 * unique index decides, so concurrent identical requests make one row); answers the row that
 * stands, this one or the earlier.
 */
export async function insertSandboxRefund(db: DB, r: { provider: string; payment_id: string; correlation_id: string; refund_id: string; amount: number; currency: string; action: string; created_at: number }): Promise<SandboxRefundRow> {
  await db.insertInto('sandbox_refunds').values(r).onConflict((oc) => oc.columns(['provider', 'correlation_id']).doNothing()).execute();
  return (await findSandboxRefund(db, r.provider, r.correlation_id))!;
}

export async function findSandboxRefund(db: DB, provider: string, correlationId: string) {
  const row = await db.selectFrom('sandbox_refunds').selectAll().where('provider', '=', provider).where('correlation_id', '=', correlationId).executeTakeFirst();
  return row && num(row, 'id', 'amount', 'created_at');
}

/** A payment's sandbox refunds, oldest first. */
export async function sandboxRefundsOf(db: DB, provider: string, paymentId: string) {
  const rows = await db.selectFrom('sandbox_refunds').selectAll().where('provider', '=', provider).where('payment_id', '=', paymentId).orderBy('id').execute();
  return rows.map((row) => num(row, 'id', 'amount', 'created_at'));
}
