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
