import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signWebhook } from '../webhook.server';
import { createSandboxPixProvider, parseEvent, sandboxEventBody, WEBHOOK_SIGNATURE_HEADER } from './sandbox.server';

const key = crypto.randomBytes(32);
const sandbox = createSandboxPixProvider(() => Promise.reject(new Error('no database in a unit test')), { pixKey: 'pix@inkpass.example', merchantName: 'Inkpass', merchantCity: 'Sao Paulo', webhookKey: key });
const charge = { correlationID: 'ord4f1c2b3a4d5e6f708192a3b4', value: 1990, status: 'COMPLETED' as const, brCode: '000201…', expiresAt: 1_800_000_000, paymentId: 'E2E4F1C2B3A4D5E6F708192A3' };
const signed = (body: Buffer) => new Headers({ [WEBHOOK_SIGNATURE_HEADER]: signWebhook(body, key) });

describe('the Pix sandbox\'s webhooks', () => {
  it('reads a signed charge event, and refuses an unsigned or wrongly signed one', () => {
    const body = Buffer.from(sandboxEventBody('OPENPIX:CHARGE_COMPLETED', charge));
    expect(sandbox.verifyWebhook(body, signed(body))).toEqual({ verified: true, event: { correlationID: charge.correlationID, status: 'COMPLETED', value: 1990, paymentId: charge.paymentId } });
    expect(sandbox.verifyWebhook(body, new Headers())).toEqual({ verified: false });
    expect(sandbox.verifyWebhook(body, new Headers({ [WEBHOOK_SIGNATURE_HEADER]: signWebhook(body, crypto.randomBytes(32)) }))).toEqual({ verified: false });
  });

  it('ignores a signed event whose correlationID or end-to-end id is not an id (a NUL reached PostgreSQL as a 500)', () => {
    for (const bad of ['ord\u0000', '\u0000', 'ord 1', '<i>ord</i>', 'x'.repeat(101)]) {
      for (const body of [
        Buffer.from(sandboxEventBody('OPENPIX:CHARGE_COMPLETED', { ...charge, correlationID: bad })),
        Buffer.from(sandboxEventBody('OPENPIX:CHARGE_EXPIRED', { ...charge, status: 'EXPIRED', paymentId: null, correlationID: bad })),
        Buffer.from(sandboxEventBody('OPENPIX:CHARGE_COMPLETED', { ...charge, paymentId: bad })),
      ]) {
        expect(parseEvent(body), JSON.stringify(bad)).toBeNull();
        expect(sandbox.verifyWebhook(body, signed(body))).toEqual({ verified: true, event: null });
      }
    }
  });

  it('ignores signed bodies that are no charge event', () => {
    for (const text of ['', 'null', '[]', '{"charge":null}', '{"charge":"x"}', '{"charge":{"correlationID":1,"value":1}}', '{"event":"OPENPIX:CHARGE_COMPLETED",']) {
      const body = Buffer.from(text);
      expect(sandbox.verifyWebhook(body, signed(body)), text).toEqual({ verified: true, event: null });
    }
  });
});
