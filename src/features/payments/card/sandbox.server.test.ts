/**
 * The card sandbox against an in-memory database: a nonce pays (or vaults) once, for the reader
 * it was issued to, within its lifetime; the test cards answer as Braintree's test values do.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { migrateToLatest } from '@db/migrate';
import { createDb, type DB } from '~/server/db';
import type { CardProvider } from '../provider';
import { createSandboxCardProvider, issueNonce, SANDBOX_CARDS, SANDBOX_CONSUMED_NONCE, SANDBOX_REJECTED_CVV } from './sandbox.server';

const START = 1_800_000_000;
/** The sandbox's nonce lifetime (three hours), as a gateway's nonces expire. */
const TTL = 3 * 3600;

let db: DB;
let now = START;
let sandbox: CardProvider;
let alice: number;
let bob: number;

beforeAll(async () => {
  ({ db } = await createDb(':memory:'));
  await migrateToLatest(db);
  const reader = async (name: string) =>
    (await db.insertInto('users').values({ email: `${name}@example.test`, display_name: name, password_hash: 'x', is_staff: 0, created_at: START, password_changed_at: START }).returning('id').executeTakeFirstOrThrow()).id;
  alice = await reader('alice');
  bob = await reader('bob');
  sandbox = createSandboxCardProvider(async () => db, () => now);
});
afterAll(async () => {
  await db?.destroy();
});
beforeEach(() => {
  now = START;
});

/** A nonce for a test card, issued to `userId` at the current clock. */
async function nonceFor(userId: number, card: { number?: string; cvv?: string } = {}): Promise<string> {
  const issued = await issueNonce(db, { userId, method: 'card', number: card.number ?? SANDBOX_CARDS.visa, expiry: '12/30', cvv: card.cvv ?? '123', now });
  if (!issued.ok) throw new Error(`no nonce: ${issued.problem}`);
  return issued.nonce;
}

let orders = 0;
const sale = (readerId: number, nonce: string, extra: { vault?: boolean; token?: string } = {}) =>
  sandbox.sale({ orderId: `ord_sbx_${++orders}`, readerId, money: { amount: 499, currency: 'USD' }, nonce, deviceData: null, ...extra });
const vault = (readerId: number, nonce: string) => sandbox.vault({ readerId, nonce, deviceData: null });

const UNKNOWN = { ok: false, code: 'nonce', message: 'Unknown or expired payment_method_nonce.' };
const USED = { ok: false, code: 'nonce', message: 'Cannot use a payment_method_nonce more than once.' };

describe('vaulting a sandbox nonce (a card trial)', () => {
  it('keeps the card and answers its token and display; the token pays the renewals', async () => {
    const result = await vault(alice, await nonceFor(alice, { number: SANDBOX_CARDS.mastercard }));
    expect(result).toEqual({ ok: true, token: expect.stringMatching(/^vault-/), display: { brand: 'Mastercard', last4: '4444' } });
    const renewal = await sale(alice, '', { token: (result as { token: string }).token });
    expect(renewal).toEqual({ ok: true, paymentId: expect.stringMatching(/^sbx_/), money: { amount: 499, currency: 'USD' }, display: { brand: 'Mastercard', last4: '4444' } });
    expect(await sandbox.findSale(`ord_sbx_${orders}`)).toEqual(renewal);
  });

  it('refuses another reader\'s nonce like an unknown one, and leaves it to its reader', async () => {
    const nonce = await nonceFor(alice);
    expect(await vault(bob, nonce)).toEqual(UNKNOWN);
    expect(await vault(alice, nonce)).toMatchObject({ ok: true });
  });

  it('refuses a used nonce, whether a vaulting or a sale used it', async () => {
    const vaulted = await nonceFor(alice);
    expect(await vault(alice, vaulted)).toMatchObject({ ok: true });
    expect(await vault(alice, vaulted)).toEqual(USED);
    const sold = await nonceFor(alice);
    expect(await sale(alice, sold)).toMatchObject({ ok: true });
    expect(await vault(alice, sold)).toEqual(USED);
  });

  it('refuses a nonce past its lifetime (three hours), and takes one at its last second', async () => {
    const old = await nonceFor(alice);
    const edge = await nonceFor(alice);
    now = START + TTL;
    expect(await vault(alice, edge)).toMatchObject({ ok: true });
    now = START + TTL + 1;
    expect(await vault(alice, old)).toEqual(UNKNOWN);
  });

  it('refuses fake-consumed-nonce and a nonce it never issued', async () => {
    expect(await vault(alice, SANDBOX_CONSUMED_NONCE)).toEqual(USED);
    expect(await vault(alice, 'sandbox-0123456789abcdef0123456789abcdef')).toEqual(UNKNOWN);
    expect(await vault(alice, '')).toEqual(UNKNOWN);
  });

  it('answers declined for the declined test card and rejected for CVV 200, and the nonce is spent', async () => {
    const declined = await nonceFor(alice, { number: SANDBOX_CARDS.declined });
    expect(await vault(alice, declined)).toEqual({ ok: false, code: 'declined', message: 'Do Not Honor' });
    expect(await vault(alice, declined)).toEqual(USED);
    expect(await vault(alice, await nonceFor(alice, { cvv: SANDBOX_REJECTED_CVV }))).toEqual({ ok: false, code: 'rejected', message: 'cvv' });
  });
});

describe('selling on a sandbox nonce', () => {
  it('charges the nonce once for its reader, and keeps the card when asked to vault it', async () => {
    const result = await sale(alice, await nonceFor(alice), { vault: true });
    expect(result).toEqual({ ok: true, paymentId: expect.stringMatching(/^sbx_/), money: { amount: 499, currency: 'USD' }, display: { brand: 'Visa', last4: '1111' }, vaultToken: expect.stringMatching(/^vault-/) });
    expect(await sale(alice, '', { token: (result as { vaultToken: string }).vaultToken })).toMatchObject({ ok: true, display: { brand: 'Visa', last4: '1111' } });
    expect(await sale(alice, '', { token: 'vault-unknown' })).toEqual({ ok: false, code: 'nonce', message: 'Unknown payment method token.' });
  });

  it('refuses another reader\'s nonce like an unknown one, and leaves it to its reader', async () => {
    const nonce = await nonceFor(alice);
    expect(await sale(bob, nonce)).toEqual(UNKNOWN);
    expect(await sale(alice, nonce)).toMatchObject({ ok: true });
  });

  it('refuses a used nonce, whether a sale or a vaulting used it', async () => {
    const sold = await nonceFor(alice);
    expect(await sale(alice, sold)).toMatchObject({ ok: true });
    expect(await sale(alice, sold)).toEqual(USED);
    const vaulted = await nonceFor(alice);
    expect(await vault(alice, vaulted)).toMatchObject({ ok: true });
    expect(await sale(alice, vaulted)).toEqual(USED);
  });

  it('takes a nonce once when two sales race with it', async () => {
    const nonce = await nonceFor(alice);
    const results = await Promise.all([sale(alice, nonce), sale(alice, nonce), sale(alice, nonce)]);
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok)).toEqual([USED, USED]);
  });

  it('refuses a nonce past its lifetime (three hours)', async () => {
    const nonce = await nonceFor(alice);
    now = START + TTL + 1;
    expect(await sale(alice, nonce)).toEqual(UNKNOWN);
  });

  it('refuses fake-consumed-nonce and a nonce it never issued', async () => {
    expect(await sale(alice, SANDBOX_CONSUMED_NONCE)).toEqual(USED);
    expect(await sale(alice, 'fake-valid-nonce')).toEqual(UNKNOWN);
  });

  it('answers declined for the declined test card and rejected for CVV 200, selling nothing', async () => {
    expect(await sale(alice, await nonceFor(alice, { number: SANDBOX_CARDS.declined }))).toEqual({ ok: false, code: 'declined', message: 'Do Not Honor' });
    expect(await sandbox.findSale(`ord_sbx_${orders}`)).toBeNull();
    expect(await sale(alice, await nonceFor(alice, { cvv: SANDBOX_REJECTED_CVV }))).toEqual({ ok: false, code: 'rejected', message: 'cvv' });
    expect(await sandbox.findSale(`ord_sbx_${orders}`)).toBeNull();
  });
});

describe('refunding a sandbox sale', () => {
  const DAY = 24 * 3600;
  /** A fresh 4.99 USD sale by alice, at the current clock. */
  async function paid(): Promise<{ orderId: string; paymentId: string }> {
    const result = await sale(alice, await nonceFor(alice));
    if (!result.ok) throw new Error('the sale failed');
    return { orderId: `ord_sbx_${orders}`, paymentId: result.paymentId };
  }
  let refunds = 0;
  const ask = (paymentId: string, amount: number, whole: boolean, refundId = `rfd_sbx_${++refunds}`, currency = 'USD') =>
    ({ refundId, paymentId, money: { amount, currency }, whole });
  const count = async (paymentId: string) => (await db.selectFrom('sandbox_refunds').select('id').where('payment_id', '=', paymentId).execute()).length;

  it('voids a whole sale that has not settled, and the sale reads voided', async () => {
    const { orderId, paymentId } = await paid();
    now = START + DAY - 1;
    const outcome = await sandbox.refund(ask(paymentId, 499, true));
    expect(outcome).toEqual({ status: 'confirmed', providerRefundId: expect.stringMatching(/^sbr_[0-9a-f]{16}$/), action: 'void' });
    const status = await sandbox.paymentStatus({ orderId, paymentId: null });
    expect(status).toEqual({ status: 'voided', facts: expect.objectContaining({ amount: '4.99 USD', refunded: '4.99 USD', 'refund ids': (outcome as { providerRefundId: string }).providerRefundId, brand: 'Visa', last4: '1111' }) });
    expect(await sandbox.refund(ask(paymentId, 100, false))).toEqual({ status: 'refused', message: 'The payment was voided.' });
  });

  it('refuses a part of a sale that has not settled, and refunds it once it settled (a day later)', async () => {
    const { orderId, paymentId } = await paid();
    expect(await sandbox.paymentStatus({ orderId, paymentId })).toMatchObject({ status: 'submitted_for_settlement' });
    expect(await sandbox.refund(ask(paymentId, 100, false))).toEqual({ status: 'refused', message: 'The sale has not settled yet; refund it once it settles.' });
    expect(await count(paymentId)).toBe(0);
    now = START + DAY;
    expect(await sandbox.paymentStatus({ orderId, paymentId })).toMatchObject({ status: 'settled' });
    expect(await sandbox.refund(ask(paymentId, 100, false))).toMatchObject({ status: 'confirmed', action: 'refund' });
    expect(await sandbox.paymentStatus({ orderId, paymentId })).toMatchObject({ status: 'partially_refunded', facts: { refunded: '1.00 USD' } });
    expect(await sandbox.refund(ask(paymentId, 400, false))).toEqual({ status: 'refused', message: 'Only 3.99 USD is left to refund.' });
    expect(await sandbox.refund(ask(paymentId, 399, false))).toMatchObject({ status: 'confirmed', action: 'refund' });
    expect(await sandbox.paymentStatus({ orderId: 'ord_other', paymentId })).toMatchObject({ status: 'refunded', facts: { refunded: '4.99 USD' } });
    expect(await sandbox.refund(ask(paymentId, 1, false))).toEqual({ status: 'refused', message: 'The payment was already refunded in full.' });
  });

  it('refunds (not voids) a whole settled sale', async () => {
    const { paymentId } = await paid();
    now = START + 2 * DAY;
    expect(await sandbox.refund(ask(paymentId, 499, true))).toMatchObject({ status: 'confirmed', action: 'refund' });
  });

  it('refuses an unknown payment, another currency and more than was paid, recording nothing', async () => {
    const { paymentId } = await paid();
    now = START + DAY;
    expect(await sandbox.refund(ask('sbx_0000000000000000', 499, true))).toEqual({ status: 'refused', message: 'Unknown payment.' });
    expect(await sandbox.refund(ask(paymentId, 499, true, undefined, 'BRL'))).toEqual({ status: 'refused', message: 'The payment was made in USD, not BRL.' });
    expect(await sandbox.refund(ask(paymentId, 500, true))).toEqual({ status: 'refused', message: 'Only 4.99 USD is left to refund.' });
    expect(await count(paymentId)).toBe(0);
    expect(await sandbox.paymentStatus({ orderId: 'ord_none', paymentId: null })).toBeNull();
  });

  it('answers the first refund when asked again with its refund id, even twenty at once, and findRefund finds it', async () => {
    const { paymentId } = await paid();
    const request = ask(paymentId, 499, true);
    expect(await sandbox.findRefund(request)).toBeNull();
    // Started a few microtasks apart, so some requests look while others are between their look and their insert.
    const outcomes = await Promise.all(Array.from({ length: 20 }, async (_, i) => {
      for (let tick = 0; tick < i; tick++) await null;
      return sandbox.refund(request);
    }));
    expect(new Set(outcomes.map((o) => JSON.stringify(o))).size).toBe(1);
    expect(outcomes[0]).toMatchObject({ status: 'confirmed', action: 'void' });
    expect(await count(paymentId)).toBe(1);
    now = START + 3 * DAY;
    expect(await sandbox.refund(request)).toEqual(outcomes[0]);
    expect(await sandbox.findRefund(request)).toEqual(outcomes[0]);
    expect(await sandbox.refund({ ...request, paymentId: 'sbx_another' })).toEqual({ status: 'refused', message: 'This refund id was used for another payment.' });
  });
});
