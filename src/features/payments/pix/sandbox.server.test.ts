/**
 * The Pix sandbox's charges against an in-memory database: closing a charge (a reader abandoned
 * it) makes it unpayable by `npm run payments -- pay` (paySandboxCharge), as Woovi's delete does;
 * a paid charge stays paid.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { migrateToLatest } from '@db/migrate';
import { createDb, type DB } from '~/server/db';
import type { PixProvider } from '../provider';
import { createSandboxPixProvider, paySandboxCharge } from './sandbox.server';

const START = 1_800_000_000;

let db: DB;
let now = START;
let sandbox: PixProvider;
let charges = 0;

beforeAll(async () => {
  ({ db } = await createDb(':memory:'));
  await migrateToLatest(db);
  sandbox = createSandboxPixProvider(async () => db, { pixKey: 'pix@inkpass.example', merchantName: 'Inkpass', merchantCity: 'Sao Paulo', webhookKey: Buffer.alloc(32, 7) }, () => now);
});
afterAll(async () => {
  await db?.destroy();
});
beforeEach(() => {
  now = START;
});

async function newCharge(): Promise<string> {
  const correlationID = `pix_sbx_${++charges}`;
  await sandbox.createCharge({ correlationID, value: 1990, expiresIn: 900 });
  return correlationID;
}

describe('closing a sandbox Pix charge', () => {
  it('makes an active charge EXPIRED before its expiry, so paying it no longer works', async () => {
    const id = await newCharge();
    expect(await sandbox.closeCharge(id)).toBe('closed');
    expect(await sandbox.getCharge(id)).toMatchObject({ correlationID: id, status: 'EXPIRED', paymentId: null });
    const paid = await paySandboxCharge(db, id, START + 1);
    expect(paid).toMatchObject({ paidNow: false, charge: { status: 'EXPIRED', paymentId: null } });
  });

  it('says closed again for a closed or expired charge', async () => {
    const id = await newCharge();
    await sandbox.closeCharge(id);
    expect(await sandbox.closeCharge(id)).toBe('closed');
    const lapsed = await newCharge();
    now = START + 901;
    expect(await sandbox.closeCharge(lapsed)).toBe('closed');
    expect(await sandbox.getCharge(lapsed)).toMatchObject({ status: 'EXPIRED' });
  });

  it('leaves a paid charge paid and says so', async () => {
    const id = await newCharge();
    const paid = await paySandboxCharge(db, id, START + 5);
    expect(paid).toMatchObject({ paidNow: true, charge: { status: 'COMPLETED' } });
    expect(await sandbox.closeCharge(id)).toBe('paid');
    expect(await sandbox.getCharge(id)).toEqual(paid!.charge);
  });

  it('answers unknown for a charge it never made', async () => {
    expect(await sandbox.closeCharge('pix_sbx_never')).toBe('unknown');
  });

  it('a close and a payment racing end as one of the two, and the close says which', async () => {
    const id = await newCharge();
    const [closed, paid] = await Promise.all([sandbox.closeCharge(id), paySandboxCharge(db, id, START + 1)]);
    const charge = await sandbox.getCharge(id);
    if (paid!.paidNow) {
      expect(closed).toBe('paid');
      expect(charge).toMatchObject({ status: 'COMPLETED' });
    } else {
      expect(closed).toBe('closed');
      expect(charge).toMatchObject({ status: 'EXPIRED', paymentId: null });
    }
  });
});

describe('refunding a sandbox Pix payment', () => {
  let refunds = 0;
  async function paidCharge(): Promise<{ orderId: string; paymentId: string }> {
    const id = await newCharge();
    const paid = await paySandboxCharge(db, id, START + 5);
    return { orderId: id, paymentId: paid!.charge.paymentId! };
  }
  const ask = (paymentId: string, amount: number, whole: boolean, refundId = `rfd_pix_${++refunds}`, currency = 'BRL') =>
    ({ refundId, paymentId, money: { amount, currency }, whole });

  it('refunds a paid charge in parts at once (Pix has no void), up to what was paid', async () => {
    const { orderId, paymentId } = await paidCharge();
    const first = await sandbox.refund(ask(paymentId, 990, false));
    expect(first).toEqual({ status: 'confirmed', providerRefundId: expect.stringMatching(/^sbr_/), action: 'refund' });
    expect(await sandbox.refund(ask(paymentId, 1001, false))).toEqual({ status: 'refused', message: 'Only 10.00 BRL is left to refund.' });
    const second = await sandbox.refund(ask(paymentId, 1000, false));
    expect(second).toMatchObject({ status: 'confirmed', action: 'refund' });
    const status = await sandbox.paymentStatus({ orderId, paymentId: null });
    expect(status).toEqual({ status: 'COMPLETED', facts: expect.objectContaining({ value: '19.90 BRL', endToEndId: paymentId, refunded: '19.90 BRL', 'paid at': new Date((START + 5) * 1000).toISOString() }) });
    expect(status!.facts['refund ids']).toContain((second as { providerRefundId: string }).providerRefundId);
  });

  it('refuses an unpaid charge, an unknown payment and another currency', async () => {
    const id = await newCharge();
    expect(await sandbox.refund(ask('E2E_NEVER_PAID', 100, false))).toEqual({ status: 'refused', message: 'Unknown payment.' });
    const { paymentId } = await paidCharge();
    expect(await sandbox.refund(ask(paymentId, 1990, true, undefined, 'USD'))).toEqual({ status: 'refused', message: 'The payment was made in BRL, not USD.' });
    expect(await sandbox.paymentStatus({ orderId: id, paymentId: null })).toMatchObject({ status: 'ACTIVE' });
    expect(await sandbox.paymentStatus({ orderId: 'pix_never', paymentId: null })).toBeNull();
  });

  it('answers the first refund again for its refund id, concurrent or later, and findRefund finds it', async () => {
    const { paymentId } = await paidCharge();
    const request = ask(paymentId, 1990, true);
    expect(await sandbox.findRefund(request)).toBeNull();
    // Started a few microtasks apart, so some requests look while others are between their look and their insert.
    const outcomes = await Promise.all(Array.from({ length: 20 }, async (_, i) => {
      for (let tick = 0; tick < i; tick++) await null;
      return sandbox.refund(request);
    }));
    expect(new Set(outcomes.map((o) => JSON.stringify(o))).size).toBe(1);
    expect(outcomes[0]).toMatchObject({ status: 'confirmed' });
    expect(await db.selectFrom('sandbox_refunds').select('id').where('payment_id', '=', paymentId).execute()).toHaveLength(1);
    expect(await sandbox.findRefund(request)).toEqual(outcomes[0]);
  });
});
