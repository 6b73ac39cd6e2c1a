import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signWebhook, verifyWebhookSignature } from './webhook.server';

const key = Buffer.from('0123456789abcdef0123456789abcdef');
const body = Buffer.from('{"event":"CHARGE_COMPLETED","correlationID":"ord_1","value":1990}');

describe('our webhook signatures', () => {
  it('signs with HMAC-SHA256 in hex as sha256=<hex>, and accepts its own signature', () => {
    const header = signWebhook(body, key);
    expect(header).toBe(`sha256=${crypto.createHmac('sha256', key).update(body).digest('hex')}`);
    expect(header).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(verifyWebhookSignature(body, header, key)).toBe(true);
    expect(verifyWebhookSignature(body, header.toUpperCase().replace('SHA256=', 'sha256='), key)).toBe(true);
    expect(verifyWebhookSignature(Buffer.alloc(0), signWebhook(Buffer.alloc(0), key), key)).toBe(true);
  });

  it('refuses a missing or malformed header', () => {
    const hex = signWebhook(body, key).slice('sha256='.length);
    for (const bad of [undefined, null, '', 'sha256=', hex, `sha1=${hex}`, `sha256=${hex.slice(2)}`, `sha256=${hex}00`, `sha256=${hex.slice(1)}g`, `sha256=${Buffer.from(hex, 'hex').toString('base64')}`]) {
      expect(verifyWebhookSignature(body, bad, key), String(bad)).toBe(false);
    }
  });

  it('refuses a wrong signature, another key, and a body changed by one byte', () => {
    const header = signWebhook(body, key);
    const flipped = header.slice(0, -1) + (header.endsWith('0') ? '1' : '0');
    expect(verifyWebhookSignature(body, flipped, key)).toBe(false);
    expect(verifyWebhookSignature(body, header, Buffer.from('another key of 32 bytes, exactly'))).toBe(false);
    for (const at of [0, 10, body.length - 1]) {
      const changed = Buffer.from(body);
      changed[at] = changed[at]! ^ 0x01;
      expect(verifyWebhookSignature(changed, header, key), `byte ${at}`).toBe(false);
    }
    expect(verifyWebhookSignature(Buffer.concat([body, Buffer.from(' ')]), header, key)).toBe(false);
  });

  it('refuses to sign or check with an empty key', () => {
    expect(() => signWebhook(body, Buffer.alloc(0))).toThrow(RangeError);
    expect(() => verifyWebhookSignature(body, 'sha256=' + '0'.repeat(64), Buffer.alloc(0))).toThrow(RangeError);
  });
});
