/**
 * Signatures of our own webhooks (the local Pix sandbox delivers its events like a PSP would):
 * HMAC-SHA256 over the raw body, sent as `sha256=<64 hex digits>`. The key is the server's
 * `keyFor('payment-webhook')` (src/server/secrets.ts), so a signature can be forged neither from
 * the source code nor with a key made for another purpose.
 */
import crypto from 'node:crypto';

const HEADER = /^sha256=([0-9a-f]{64})$/i;

/** The header value for this body: `sha256=` and the HMAC-SHA256 in lower-case hex. */
export function signWebhook(rawBody: Buffer, key: Buffer): string {
  if (key.length === 0) throw new RangeError('webhook signing key is empty');
  return `sha256=${crypto.createHmac('sha256', key).update(rawBody).digest('hex')}`;
}

/**
 * Whether the header signs exactly these bytes with this key. A missing or malformed header is
 * false, never an exception; the comparison takes the same time wherever the first wrong byte
 * is (timingSafeEqual, on two 32-byte digests), so the answer leaks nothing of the right one.
 */
export function verifyWebhookSignature(rawBody: Buffer, header: string | null | undefined, key: Buffer): boolean {
  if (key.length === 0) throw new RangeError('webhook signing key is empty');
  const m = HEADER.exec(header?.trim() ?? '');
  if (!m) return false;
  const given = Buffer.from(m[1]!, 'hex');
  const expected = crypto.createHmac('sha256', key).update(rawBody).digest();
  return given.length === expected.length && crypto.timingSafeEqual(given, expected);
}
