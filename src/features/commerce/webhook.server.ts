/** The Pix webhook (docs/payments.md): a PSP's signed event, applied through the one confirmation. */
import { paymentsOffered, pixProvider } from '~/features/payments/index.server';
import type { DB } from '~/server/db';
import { countWebhook } from '~/server/observe.mjs';
import { closePayable, confirmPayment, findPayable } from './payables.server';

type Input = { rawBody: Buffer; headers: Headers; now: number };
type Answer = { status: number; body: Record<string, unknown> };

/**
 * POST /webhooks/pix/: a PSP's signed event about a charge, applied through the one confirmation.
 * Each delivery's outcome is counted on /metrics (inkpass_webhook_events_total): `unverified`
 * and `error` are what an operator is alerted on (docs/operations.md, "Alerts").
 */
export async function pixWebhookAnswer(db: DB, input: Input): Promise<Answer> {
  try {
    const { outcome, ...answer } = await pixWebhook(db, input);
    countWebhook('pix', outcome);
    return answer;
  } catch (error) {
    countWebhook('pix', 'error');
    throw error;
  }
}

async function pixWebhook(db: DB, input: Input): Promise<Answer & { outcome: string }> {
  if (!paymentsOffered().pix) return { status: 404, body: { detail: 'no Pix provider is configured' }, outcome: 'not_configured' };
  const delivery = pixProvider().verifyWebhook(input.rawBody, input.headers);
  if (!delivery.verified) return { status: 401, body: { detail: 'invalid signature' }, outcome: 'unverified' };
  const event = delivery.event;
  // A key-pack order or a subscription charge; anything else (another integration on the same
  // PSP account, an event we do not act on, an id of a shape ours never have) is acknowledged so
  // it is not retried.
  if (!event) return { status: 200, body: { ok: true, ignored: true }, outcome: 'ignored' };
  const payable = await findPayable(db, event.correlationID);
  if (!payable || payable.method !== 'pix') return { status: 200, body: { ok: true, ignored: true }, outcome: 'ignored' };
  const id = payable.public_id;
  if (event.status === 'COMPLETED') {
    const r = await confirmPayment(db, { orderId: id, paymentId: event.paymentId ?? `pix:${id}`, amount: event.value, currency: 'BRL', source: 'webhook', now: input.now });
    return { status: 200, body: { ok: true, result: r.kind }, outcome: `completed_${r.kind}` };
  }
  if (event.status === 'EXPIRED') {
    const after = await closePayable(db, { id, state: 'EXPIRED', source: 'webhook', reason: 'the charge expired', now: input.now });
    return { status: 200, body: { ok: true, state: after?.state ?? null }, outcome: 'expired' };
  }
  return { status: 200, body: { ok: true }, outcome: 'other' };
}

