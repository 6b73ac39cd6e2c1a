/**
 * The local Pix sandbox: a stand-in PSP with the same calls as a real one (create a charge, read
 * it, close it, signed webhooks), so the Portuguese site takes Pix out of the box. Its
 * charges carry real BR Codes for the configured merchant (a bank app would read them; paying
 * one moves no money here). `npm run payments -- pay <correlationID>` plays the payer: it marks
 * the charge paid and delivers the webhook exactly as a PSP would (deliverWebhook).
 */
import crypto from 'node:crypto';
import type { DB } from '~/server/db';
import type { PaymentStatus, PixCharge, PixCloseResult, PixEvent, PixProvider, PixWebhook } from '../provider';
import { providerId } from '../ids';
import * as repo from '../repository.server';
import { findSandboxRefund, moneyFact, refundInSandbox, sandboxRefunded, timeFact } from '../sandbox-refunds.server';
import { signWebhook, verifyWebhookSignature } from '../webhook.server';
import { generateBrCode } from './brcode';

/** The header the sandbox's webhook deliveries carry their signature in. */
export const WEBHOOK_SIGNATURE_HEADER = 'x-inkpass-signature';

export interface SandboxPixOptions {
  /** The merchant's Pix key written into the BR Codes. */
  pixKey: string;
  merchantName: string;
  merchantCity: string;
  /** HMAC key for webhook signatures (derived from the install's root secret). */
  webhookKey: Buffer;
}

export type SandboxEventName = 'OPENPIX:CHARGE_COMPLETED' | 'OPENPIX:CHARGE_EXPIRED';

function chargeOf(row: repo.SandboxChargeRow): PixCharge {
  return { correlationID: row.correlation_id, value: row.value, status: row.status, brCode: row.br_code, expiresAt: row.expires_at, paymentId: row.payment_id };
}

/** The body a webhook delivery carries (the Woovi/OpenPix shape, so one parser reads both). */
export function sandboxEventBody(event: SandboxEventName, charge: PixCharge): string {
  return JSON.stringify({
    event,
    charge: { correlationID: charge.correlationID, value: charge.value, status: charge.status, brCode: charge.brCode, expiresDate: new Date(charge.expiresAt * 1000).toISOString() },
    pix: charge.paymentId ? { endToEndId: charge.paymentId, value: charge.value } : null,
  });
}

export function createSandboxPixProvider(getDb: () => Promise<DB>, opts: SandboxPixOptions, clock: () => number = () => Math.floor(Date.now() / 1000)): PixProvider {
  return {
    id: 'sandbox',
    async createCharge(input) {
      const db = await getDb();
      const now = clock();
      const brCode = generateBrCode({
        account: { key: opts.pixKey }, merchantName: opts.merchantName, merchantCity: opts.merchantCity, amount: input.value, pointOfInitiation: 'one-time',
        // BR Code txids are letters and digits, up to 25.
        txid: input.correlationID.replace(/[^A-Za-z0-9]/g, '').slice(0, 25),
      });
      await repo.insertCharge(db, { correlation_id: input.correlationID, value: input.value, br_code: brCode, expires_at: now + input.expiresIn, created_at: now });
      return chargeOf((await repo.findCharge(db, input.correlationID))!);
    },
    async getCharge(correlationID) {
      const db = await getDb();
      await repo.expireCharge(db, correlationID, clock());
      const row = await repo.findCharge(db, correlationID);
      return row ? chargeOf(row) : null;
    },
    /** Closes an active charge as Woovi deletes one: it becomes EXPIRED and `pay` can no longer pay it. */
    async closeCharge(correlationID): Promise<PixCloseResult> {
      const db = await getDb();
      await repo.closeCharge(db, correlationID);
      // Read after the guarded update: of a close and a payment racing, the row says which won.
      const row = await repo.findCharge(db, correlationID);
      if (!row) return 'unknown';
      return row.status === 'COMPLETED' ? 'paid' : 'closed';
    },
    verifyWebhook(rawBody, headers): PixWebhook {
      if (!verifyWebhookSignature(rawBody, headers.get(WEBHOOK_SIGNATURE_HEADER), opts.webhookKey)) return { verified: false };
      return { verified: true, event: parseEvent(rawBody) };
    },
    /** Refunds a paid charge (by its end-to-end id), in whole or in part, in BRL; Pix has no void. */
    async refund(input) {
      const db = await getDb();
      const charge = await repo.chargeOfPayment(db, input.paymentId);
      const payment = charge && charge.status === 'COMPLETED' && charge.paid_at != null
        ? { amount: charge.value, currency: 'BRL', paidAt: charge.paid_at, voidable: false }
        : null;
      return refundInSandbox(db, 'pix-sandbox', input, payment, clock());
    },
    async findRefund(input) {
      return findSandboxRefund(await getDb(), 'pix-sandbox', input);
    },
    async paymentStatus(input): Promise<PaymentStatus | null> {
      const db = await getDb();
      await repo.expireCharge(db, input.orderId, clock());
      const row = (await repo.findCharge(db, input.orderId)) ?? (input.paymentId ? await repo.chargeOfPayment(db, input.paymentId) : undefined);
      if (!row) return null;
      const facts: Record<string, string> = { correlationID: row.correlation_id, value: moneyFact(row.value, 'BRL'), created: timeFact(row.created_at), expires: timeFact(row.expires_at) };
      if (row.paid_at != null) facts['paid at'] = timeFact(row.paid_at);
      if (row.payment_id) {
        facts.endToEndId = row.payment_id;
        const refunded = await sandboxRefunded(db, 'pix-sandbox', row.payment_id);
        if (refunded.ids.length) {
          facts.refunded = moneyFact(refunded.amount, 'BRL');
          facts['refund ids'] = refunded.ids.join(', ');
        }
      }
      return { status: row.status, facts };
    },
  };
}

/**
 * Reads a webhook body in the Woovi/OpenPix shape; null for anything that is not a charge event,
 * and for ids no charge or payment has (`providerId`): such an event cannot be about one of ours.
 */
export function parseEvent(rawBody: Buffer): PixEvent | null {
  let body: unknown;
  try {
    body = JSON.parse(rawBody.toString('utf8'));
  } catch {
    return null;
  }
  const b = body as { event?: unknown; charge?: { correlationID?: unknown; value?: unknown; status?: unknown }; pix?: { endToEndId?: unknown; value?: unknown } | null } | null;
  const charge = b?.charge;
  if (!b || !charge || typeof charge !== 'object' || !Number.isSafeInteger(charge.value)) return null;
  const correlationID = providerId(charge.correlationID);
  if (!correlationID) return null;
  const status = charge.status === 'COMPLETED' || b.event === 'OPENPIX:CHARGE_COMPLETED' ? 'COMPLETED' : charge.status === 'EXPIRED' || b.event === 'OPENPIX:CHARGE_EXPIRED' ? 'EXPIRED' : null;
  if (!status) return null;
  const e2e = b.pix?.endToEndId;
  const paymentId = typeof e2e === 'string' ? providerId(e2e) : null;
  if (typeof e2e === 'string' && !paymentId) return null;
  const paid = b.pix && Number.isSafeInteger(b.pix.value) ? (b.pix.value as number) : (charge.value as number);
  return { correlationID, status, value: paid, paymentId };
}

/**
 * Plays the payer: marks an active sandbox charge paid. Answers the charge as it is afterwards
 * (COMPLETED, or unchanged when it was not payable: expired or paid already) and whether this
 * call paid it, or null if unknown.
 */
export async function paySandboxCharge(db: DB, correlationID: string, now: number): Promise<{ charge: PixCharge; paidNow: boolean } | null> {
  const paid = await repo.payCharge(db, correlationID, `E2E${crypto.randomBytes(12).toString('hex').toUpperCase()}`, now);
  await repo.expireCharge(db, correlationID, now);
  const row = await repo.findCharge(db, correlationID);
  return row ? { charge: chargeOf(row), paidNow: !!paid } : null;
}

/** Delivers a signed webhook for the charge to `url`, as the PSP would; answers the HTTP status. */
export async function deliverWebhook(url: string, charge: PixCharge, key: Buffer): Promise<number> {
  const body = Buffer.from(sandboxEventBody(charge.status === 'EXPIRED' ? 'OPENPIX:CHARGE_EXPIRED' : 'OPENPIX:CHARGE_COMPLETED', charge));
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [WEBHOOK_SIGNATURE_HEADER]: signWebhook(body, key) },
    body,
    signal: AbortSignal.timeout(10_000),
  });
  await res.arrayBuffer().catch(() => undefined);
  return res.status;
}
