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
