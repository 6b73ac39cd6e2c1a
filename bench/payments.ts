/**
 * The payment rows of `npm run bench`, on a fresh SQLite file and a fresh PostgreSQL database
 * with only the shop seeded (packs and coupons; no catalogue is needed):
 * - checkout order creation: POST /my/purchase/pix/ on the Portuguese site (order, coupon-free
 *   quote, sandbox charge, BR Code and its QR drawn as SVG), distinct readers, 25 connections;
 * - webhook confirmation: signed sandbox webhooks, one per paid charge, delivered at once
 *   (25 connections), each moving an order to PAID and crediting its keys through the ledger.
 * Afterwards every order must be PAID and the keys and order audits must hold.
 */
import type { ChildProcess } from 'node:child_process';
import { createDb, type DB } from '~/server/db';
import { migrateToLatest } from '@db/migrate';
import { seedShop } from '@db/seed/shop';
import { auditLedger } from '~/features/wallet/index.server';
import { auditOrders } from '~/features/commerce/index.server';
import { paySandboxCharge, sandboxEventBody, sandboxWebhookKey, signWebhook, WEBHOOK_SIGNATURE_HEADER } from '~/features/payments/sandbox.server';
import { makeReaders, scratchDatabase, serve, timedRun } from './keys';

/**
 * One Pix order per reader: a reader has one payable charge at a time (a new one closes the one
 * they abandoned, at the PSP too), and new charges are limited to 10 an hour per reader.
 */
const READERS = 2000;
const PER_READER = 1;
const CONNECTIONS = 25;

export interface PaymentRows {
  orders: { name: string; rps: number; p50: number; p99: number; errors: number };
  webhooks: { name: string; rps: number; p50: number; p99: number; errors: number };
}

function line(row: { name: string; rps: number; p50: number; p99: number; errors: number }, unit: string, note: string) {
  console.log(`${row.name.padEnd(34)} ${String(row.rps).padStart(6)} ${unit}   p50 ${String(row.p50).padStart(4)} ms   p99 ${String(row.p99).padStart(4)} ms   errors ${row.errors}   (${note})`);
}

async function countOrders(db: DB, state: string): Promise<number> {
  const r = await db.selectFrom('orders').select((eb) => eb.fn.countAll().as('n')).where('state', '=', state as 'PAID').executeTakeFirstOrThrow();
  return Number(r.n);
}

export async function benchPayments(dialect: 'sqlite' | 'postgres', port: number, mediaDir: string): Promise<PaymentRows> {
  const scratch = await scratchDatabase(dialect);
  const { db } = await createDb(scratch.url);
  let server: ChildProcess | null = null;
  try {
    await migrateToLatest(db);
    await seedShop(db, { coupons: true });
    const readers = await makeReaders(db, READERS, 1, `pay-${dialect}`);
    server = await serve(port, scratch.url, mediaDir);
    const total = READERS * PER_READER;
    let next = 0;
    const { result: created, seconds: createdSeconds } = await timedRun({
      url: `http://127.0.0.1:${port}`,
      connections: CONNECTIONS,
      amount: total,
      headers: { host: `br.localhost:${port}`, origin: `http://br.localhost:${port}`, 'content-type': 'application/x-www-form-urlencoded' },
      requests: [{
        method: 'POST',
        setupRequest: (req: any) => {
          const reader = readers[next++ % readers.length]!;
          return { ...req, path: '/my/purchase/pix/', headers: { ...req.headers, cookie: reader.cookie }, body: 'pack=popular' };
        },
      }],
    });
    const pending = await db.selectFrom('orders').select(['public_id']).where('state', '=', 'PENDING').execute();
    const orders = {
      name: `checkout order (Pix charge), ${dialect}`,
      rps: Math.round(pending.length / createdSeconds),
      p50: created.latency.p50,
      p99: created.latency.p99,
      errors: created.errors + created.non2xx + (pending.length === total ? 0 : 1),
    };
    line(orders, 'orders/s ', `${pending.length} orders`);

    // The payer pays every charge at the sandbox; then the PSP's webhooks arrive all at once.
    const now = Math.floor(Date.now() / 1000);
    const key = sandboxWebhookKey();
    const deliveries: { body: Buffer; signature: string }[] = [];
    for (const o of pending) {
      const paid = await paySandboxCharge(db, o.public_id, now);
      if (!paid) throw new Error(`no sandbox charge for ${o.public_id}`);
      const body = Buffer.from(sandboxEventBody('OPENPIX:CHARGE_COMPLETED', paid.charge));
      deliveries.push({ body, signature: signWebhook(body, key) });
    }
    let d = 0;
    const { result: hooks, seconds: hookSeconds } = await timedRun({
      url: `http://127.0.0.1:${port}`,
      connections: CONNECTIONS,
      amount: deliveries.length,
      headers: { host: `localhost:${port}`, 'content-type': 'application/json' },
      requests: [{
        method: 'POST',
        setupRequest: (req: any) => {
          const one = deliveries[d++]!;
          return { ...req, path: '/webhooks/pix/', headers: { ...req.headers, [WEBHOOK_SIGNATURE_HEADER]: one.signature }, body: one.body };
        },
      }],
    });
    const paidCount = await countOrders(db, 'PAID');
    const findings = [...(await auditLedger(db)), ...(await auditOrders(db))];
    const webhooks = {
      name: `webhook confirmation, ${dialect}`,
      rps: Math.round(paidCount / hookSeconds),
      p50: hooks.latency.p50,
      p99: hooks.latency.p99,
      errors: hooks.errors + hooks.non2xx + (paidCount === deliveries.length ? 0 : 1) + findings.length,
    };
    line(webhooks, 'paid/s   ', `${paidCount} orders paid, audit ${findings.length ? 'FAILED' : 'ok'}`);
    return { orders, webhooks };
  } finally {
    server?.kill('SIGTERM');
    await db.destroy();
    await scratch.drop();
  }
}
