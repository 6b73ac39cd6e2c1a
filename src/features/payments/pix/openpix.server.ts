/**
 * The Pix provider for Woovi (formerly OpenPix), a Pix PSP with a charge API
 * (docs/payments.md, "OpenPix / Woovi"):
 *
 *   POST   {baseUrl}/api/v1/charge                  {correlationID, value, expiresIn, comment} -> {charge}
 *   GET    {baseUrl}/api/v1/charge/{correlationID}  -> {charge}, 404 when unknown
 *   DELETE {baseUrl}/api/v1/charge/{correlationID}  -> {status: 'OK', id}, 400 {error} when it cannot
 *   POST   {baseUrl}/api/v1/refund                  {correlationID, transactionEndToEndId, value} -> {refund}
 *   GET    {baseUrl}/api/v1/refund/{correlationID}  -> {refund}, 404 when unknown
 *
 * with the app ID as the `Authorization` header. Every failure to get a usable answer (network,
 * time-out, non-2xx, JSON that is not a charge) throws an Error whose message says which call
 * failed and how: callers treat any of them as "provider unavailable". No call here may run
 * inside a database transaction.
 *
 * Webhooks: Woovi signs every delivery over its raw body. `x-webhook-signature` is an RSA-SHA256
 * (PKCS #1 v1.5) signature in base64, checked with Woovi's published public key; a webhook may
 * also carry `X-OpenPix-Signature`, an HMAC-SHA1 in base64 keyed with that webhook's own secret
 * (Woovi calls it deprecated). Whichever of the two keys is configured must verify; both when both
 * are. An install always checks the RSA signature, and the HMAC too when it has the secret
 * (`webhookChecks`).
 */
import crypto from 'node:crypto';
import { decimalAmount } from '~/lib/money';
import type { PaymentStatus, PixCharge, PixChargeRequest, PixCloseResult, PixEvent, PixProvider, PixStatus, PixWebhook, RefundOutcome, RefundRequest } from '../provider';
import { providerId } from '../ids';
import { parseBrCode } from './brcode';

/**
 * Woovi's production key for `x-webhook-signature` (RSA 1024), as published in its developer
 * documentation ("Validando Webhook payload usando x-webhook-signature") and served by
 * `GET /api/v1/webhook/public-keys`; key_identifier (SHA-256 of the DER) 9dce6187…2311c.
 */
export const WOOVI_WEBHOOK_PUBLIC_KEY = `-----BEGIN PUBLIC KEY-----
MIGfMA0GCSqGSIb3DQEBAQUAA4GNADCBiQKBgQC/+NtIkjzevvqD+I3MMv3bLXDt
pvxBjY4BsRrSdca3rtAwMcRYYvxSnd7jagVLpctMiOxQO8ieUCKLSWHpsMAjO/zZ
WMKbqoG8MNpi/u3fp6zz0mcHCOSqYsPUUG19buW8bis5ZZ2IZgBObWSpTvJ0cnj6
HKBAA82Jln+lGwS1MwIDAQAB
-----END PUBLIC KEY-----
`;

/** Woovi's sandbox key (api.woovi-sandbox.com, RSA 2048); key_identifier 7c8efa31…d6e91. */
export const WOOVI_SANDBOX_WEBHOOK_PUBLIC_KEY = `-----BEGIN PUBLIC KEY-----
MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAoZwBaFwmstKqy9VAqqxi
SbCWgJR3dd5CTtDi6Fwthtd2owFkZIMqTqKg3Bq5ExjuOxE+v/1gIWFqR9jNjbtY
umwPq+wXQhvx9TrQgrrFMVZ6tMPcwzj8Nknw182N/HMIQsV6B+8JWWzf/cN4ZZVS
sRZfQvoVgFM7PSvSvc/h6v0X2Lkzjypvw7ZRkfxoc+z7B0p3vdQmLSKxPRpLzdLL
VlJ+CJA2aATKVQR5feiuWHKdOlvCT7IRhal0hxUAjc7rxho5eHgaxWO5rITke8wS
IjYIpuw38vMobYSxXb6iuj5Zrjpe2GV8vwuGud8H2dngYhkqbGuY5f4j1kfcN7gC
8QIDAQAB
-----END PUBLIC KEY-----
`;

export interface OpenPixOptions {
  /** Scheme and host, e.g. https://api.woovi.com (https://api.woovi-sandbox.com for tests). */
  baseUrl: string;
  /** The application's app ID (a secret: from configuration, never logged). */
  appId: string;
  /** At least one: the PEM that checks `x-webhook-signature`, the secret of `X-OpenPix-Signature`. */
  webhook: { publicKeyPem?: string; hmacSecret?: string };
  /** Milliseconds a call may take, body included; 10 s by default. */
  timeoutMs?: number;
}

export interface OpenPixWebhookKeys {
  publicKey?: crypto.KeyObject;
  hmacSecret?: string;
}

const DEFAULT_TIMEOUT_MS = 10_000;
const STATUSES: readonly string[] = ['ACTIVE', 'COMPLETED', 'EXPIRED'] satisfies PixStatus[];
/**
 * The deliveries that say where a charge stands. Refund, dispute and payout events also carry a
 * `charge` (often COMPLETED) but are not a payment of it, so they are ignored by name.
 */
const CHARGE_EVENTS = new Set([
  'OPENPIX:CHARGE_CREATED',
  'OPENPIX:CHARGE_COMPLETED',
  'OPENPIX:CHARGE_COMPLETED_NOT_SAME_CUSTOMER_PAYER',
  'OPENPIX:CHARGE_EXPIRED',
  'OPENPIX:TRANSACTION_RECEIVED',
]);
/**
 * What a PSP may answer a repeated correlationID with, instead of the charge; and a delete it
 * will not do (a paid, expired or unknown charge: Woovi documents only a 400 with a message).
 */
const REFUSED_STATUSES = new Set([400, 404, 409, 422]);

export function createOpenPixProvider(options: OpenPixOptions): PixProvider {
  const base = new URL(options.baseUrl.endsWith('/') ? options.baseUrl : `${options.baseUrl}/`);
  if (base.protocol !== 'https:' && base.protocol !== 'http:') throw new Error(`OpenPix baseUrl must be http(s), got ${options.baseUrl}`);
  if (!options.appId) throw new Error('OpenPix needs an app ID');
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const keys = webhookKeys(options.webhook);

  async function call(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<{ status: number; json: unknown }> {
    const what = `OpenPix ${method} /${path}`;
    let text: string;
    let status: number;
    try {
      const res = await fetch(new URL(path, base), {
        method,
        headers: { Authorization: options.appId, Accept: 'application/json', ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
        // The time-out covers reading the body too; an API has no reason to redirect.
        signal: AbortSignal.timeout(timeoutMs),
        redirect: 'error',
      });
      status = res.status;
      text = await res.text();
    } catch (e) {
      const timedOut = e instanceof Error && e.name === 'TimeoutError';
      // fetch says only "fetch failed"; the reason (ECONNREFUSED, a TLS error…) is in its cause.
      const reason = e instanceof Error ? (e.cause instanceof Error ? `${e.message}: ${e.cause.message}` : e.message) : String(e);
      throw new Error(`${what}: ${timedOut ? `no answer within ${timeoutMs} ms` : `network failure (${reason})`}`, { cause: e });
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    if (status === 404 && method === 'GET') return { status, json };
    if (status < 200 || status > 299) throw new OpenPixHttpError(status, `${what} answered ${status}: ${errorText(json, text)}`);
    if (json === undefined) throw new Error(`${what} answered ${status} with a body that is not JSON`);
    return { status, json };
  }

  async function getCharge(correlationID: string): Promise<PixCharge | null> {
    const path = `api/v1/charge/${encodeURIComponent(correlationID)}`;
    const { status, json } = await call('GET', path);
    if (status === 404) return null;
    const charge = chargeFrom(json, `OpenPix GET /${path}`);
    if (charge.correlationID !== correlationID) throw new Error(`OpenPix GET /${path} answered the charge ${charge.correlationID}`);
    return charge;
  }

  /** The refund Woovi holds under our refund id, or null when it has none; throws when it cannot be read. */
  async function getRefund(refundId: string): Promise<RefundOutcome | null> {
    const path = `api/v1/refund/${encodeURIComponent(refundId)}`;
    const { status, json } = await call('GET', path);
    if (status === 404) return null;
    return refundOutcome(json, refundId, `OpenPix GET /${path}`);
  }

  return {
    id: 'openpix',

    async createCharge(input: PixChargeRequest): Promise<PixCharge> {
      if (!input.correlationID) throw new RangeError('a Pix charge needs a correlationID');
      if (!Number.isSafeInteger(input.value) || input.value <= 0) throw new RangeError(`a Pix charge value must be a positive number of cents, got ${input.value}`);
      if (!Number.isSafeInteger(input.expiresIn) || input.expiresIn <= 0) throw new RangeError(`a Pix charge expiresIn must be a positive number of seconds, got ${input.expiresIn}`);
      const body = { correlationID: input.correlationID, value: input.value, expiresIn: input.expiresIn, ...(input.comment ? { comment: input.comment } : {}) };
      let charge: PixCharge;
      try {
        charge = chargeFrom((await call('POST', 'api/v1/charge', body)).json, 'OpenPix POST /api/v1/charge');
      } catch (e) {
        // The seam promises that creating a charge twice gives the same charge; the PSP may answer
        // a repeated correlationID with a 4xx rather than the charge, so read it back then.
        if (!(e instanceof OpenPixHttpError && REFUSED_STATUSES.has(e.status))) throw e;
        const existing = await getCharge(input.correlationID).catch(() => null);
        if (!existing) throw e;
        charge = existing;
      }
      if (charge.correlationID !== input.correlationID) throw new Error(`OpenPix created the charge ${charge.correlationID} for ${input.correlationID}`);
      if (charge.value !== input.value) throw new Error(`OpenPix holds the charge ${input.correlationID} for ${charge.value} cents, not ${input.value}`);
      // The payer scans this code: refuse one their bank would refuse, or that names another amount.
      const code = parseBrCode(charge.brCode);
      if (!code.ok) throw new Error(`OpenPix answered an invalid BR Code for ${input.correlationID}: ${code.message}`);
      if (code.fields.amount !== null && code.fields.amount !== input.value) throw new Error(`OpenPix's BR Code for ${input.correlationID} asks ${code.fields.amount} cents, not ${input.value}`);
      return charge;
    },

    getCharge,

    /**
     * Deletes the charge (Woovi's "Delete a charge", by correlation ID): its BR Code stops being
     * payable, and Woovi reports it as EXPIRED afterwards. Woovi will not delete a paid charge and
     * answers a refused delete with a 400 whose message is not documented, so a refusal is read
     * back with getCharge, which says what the charge is: paid, already closed, or unknown. A
     * refusal for a charge that is still ACTIVE, like a network failure or a time-out, throws.
     */
    async closeCharge(correlationID: string): Promise<PixCloseResult> {
      if (!correlationID) throw new RangeError('closing a Pix charge needs its correlationID');
      const path = `api/v1/charge/${encodeURIComponent(correlationID)}`;
      let refusal: OpenPixHttpError;
      try {
        const { json } = await call('DELETE', path);
        if (isObject(json) && json.status === 'OK') return 'closed';
        throw new Error(`OpenPix DELETE /${path} answered without status OK: ${errorText(json, JSON.stringify(json))}`);
      } catch (e) {
        if (!(e instanceof OpenPixHttpError && REFUSED_STATUSES.has(e.status))) throw e;
        refusal = e;
      }
      const charge = await getCharge(correlationID);
      if (!charge) return 'unknown';
      if (charge.status === 'COMPLETED') return 'paid';
      if (charge.status === 'EXPIRED') return 'closed';
      throw new Error(`${refusal.message}, and the charge is still ACTIVE`, { cause: refusal });
    },

    verifyWebhook(rawBody: Buffer, headers: Headers): PixWebhook {
      if (!checkOpenPixSignature(rawBody, headers, keys)) return { verified: false };
      let body: unknown;
      try {
        body = JSON.parse(rawBody.toString('utf8'));
      } catch {
        return { verified: true, event: null };
      }
      return { verified: true, event: eventFromOpenPix(body) };
    },

    /**
     * Woovi's refund of a received Pix (docs/payments.md, "Refunds at the providers"), keyed by
     * our refund id as its correlationID, Woovi's idempotency key for refunds. The payment is named
     * by the id we hold for it, the charge's transactionID (Woovi's `transactionEndToEndId` takes
     * "your transaction ID, or endToEnd ID"). CONFIRMED is confirmed, IN_PROCESSING pending (ask
     * findRefund later), REJECTED refused. A 4xx with an error is refused, unless a refund under
     * this correlationID exists (a repeat): that refund is the answer. Anything else (a network
     * failure, a time-out, a 5xx, wrong keys, nonsense) is unavailable.
     */
    async refund(input: RefundRequest): Promise<RefundOutcome> {
      const refundId = providerId(input.refundId);
      const paymentId = providerId(input.paymentId);
      if (!refundId || !paymentId) return { status: 'refused', message: 'malformed payment or refund id' };
      if (input.money.currency !== 'BRL') return { status: 'refused', message: `Pix pays in BRL, not ${input.money.currency}` };
      if (!isCents(input.money.amount) || input.money.amount <= 0) return { status: 'refused', message: 'the refund value must be a positive number of cents' };
      const body = { correlationID: refundId, transactionEndToEndId: paymentId, value: input.money.amount };
      try {
        return refundOutcome((await call('POST', 'api/v1/refund', body)).json, refundId, 'OpenPix POST /api/v1/refund');
      } catch (e) {
        if (!(e instanceof OpenPixHttpError && REFUSED_STATUSES.has(e.status))) return { status: 'unavailable', message: messageOf(e) };
        let existing: RefundOutcome | null;
        try {
          existing = await getRefund(refundId);
        } catch (again) {
          return { status: 'unavailable', message: `${e.message}; reading the refund back: ${messageOf(again)}` };
        }
        return existing ?? { status: 'refused', message: e.message };
      }
    },

    /** The refund under our refund id (its state now), or null when Woovi never received it. */
    async findRefund(input: RefundRequest): Promise<RefundOutcome | null> {
      const refundId = providerId(input.refundId);
      if (!refundId) return null;
      try {
        return await getRefund(refundId);
      } catch (e) {
        return { status: 'unavailable', message: messageOf(e) };
      }
    },

    /** The charge of the order (its correlationID) as Woovi sees it now; throws when it cannot be read. */
    async paymentStatus(input): Promise<PaymentStatus | null> {
      const charge = await getCharge(input.orderId);
      if (!charge) return null;
      const facts: Record<string, string> = {
        correlationID: charge.correlationID,
        value: `${decimalAmount(charge.value)} BRL`,
        expires: new Date(charge.expiresAt * 1000).toISOString(),
      };
      if (charge.paymentId) facts.transactionID = charge.paymentId;
      return { status: charge.status, facts };
    },
  };
}

/**
 * A refund answer (`{refund}`) as an outcome; throws on one that is not a refund of ours or has
 * a status Woovi does not document (the caller says unavailable).
 */
function refundOutcome(json: unknown, refundId: string, what: string): RefundOutcome {
  const refund = isObject(json) ? json.refund : undefined;
  if (!isObject(refund)) throw new Error(`${what} answered without a refund`);
  if (refund.correlationID !== refundId) throw new Error(`${what} answered the refund ${String(refund.correlationID).slice(0, 120)}`);
  // Woovi's id for it when it gives one, else the refund Pix's end-to-end id, else our own key
  // (which Woovi reads it back by).
  const providerRefundId = providerId(refund.refundId) ?? providerId(refund.endToEndId) ?? refundId;
  switch (refund.status) {
    case 'CONFIRMED':
      return { status: 'confirmed', providerRefundId, action: 'refund' };
    case 'IN_PROCESSING':
      return { status: 'pending', providerRefundId };
    case 'REJECTED':
      return { status: 'refused', message: 'Woovi rejected the refund' };
    default:
      throw new Error(`${what} answered a refund with the unknown status ${JSON.stringify(refund.status).slice(0, 60)}`);
  }
}

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/**
 * The webhook checks an install's configuration asks for. Woovi signs every delivery with its
 * key, so the RSA check always applies (the configured key, or Woovi's published one); a
 * webhook secret adds the HMAC check on top and never replaces it (issue 24: with a secret set,
 * the RSA check was skipped, so the secret alone, which Woovi calls deprecated, let a delivery in).
 */
export function webhookChecks(configured: { webhookPublicKey?: string | null; webhookSecret?: string | null }): OpenPixOptions['webhook'] {
  return { publicKeyPem: configured.webhookPublicKey || WOOVI_WEBHOOK_PUBLIC_KEY, hmacSecret: configured.webhookSecret || undefined };
}

/** The configured webhook keys, read once (a bad PEM fails at start-up, not at the first payment). */
export function webhookKeys(webhook: OpenPixOptions['webhook']): OpenPixWebhookKeys {
  const keys: OpenPixWebhookKeys = {};
  if (webhook.publicKeyPem) {
    keys.publicKey = crypto.createPublicKey(webhook.publicKeyPem);
    if (keys.publicKey.asymmetricKeyType !== 'rsa') throw new Error(`the OpenPix webhook key must be RSA, got ${keys.publicKey.asymmetricKeyType}`);
  }
  if (webhook.hmacSecret) keys.hmacSecret = webhook.hmacSecret;
  // Never accept unsigned deliveries: with no key, anyone could mark a charge paid.
  if (!keys.publicKey && !keys.hmacSecret) throw new Error('OpenPix webhooks need a public key (x-webhook-signature) or an HMAC secret (X-OpenPix-Signature)');
  return keys;
}

/** Whether every configured signature of this delivery verifies over exactly these bytes. */
export function checkOpenPixSignature(rawBody: Buffer, headers: Headers, keys: OpenPixWebhookKeys): boolean {
  if (keys.publicKey) {
    const signature = base64(headers.get('x-webhook-signature'));
    if (!signature) return false;
    try {
      if (!crypto.verify('sha256', rawBody, keys.publicKey, signature)) return false;
    } catch {
      return false;
    }
  }
  if (keys.hmacSecret) {
    const signature = base64(headers.get('x-openpix-signature'));
    if (!signature) return false;
    const expected = crypto.createHmac('sha1', keys.hmacSecret).update(rawBody).digest();
    if (signature.length !== expected.length || !crypto.timingSafeEqual(signature, expected)) return false;
  }
  return true;
}

/**
 * A delivery's body as a PixEvent, or null when it is not about a charge's state or its ids are
 * not ids (`providerId`). Deliveries without an `event` name (Woovi's older format) are read by
 * the charge's own status.
 */
export function eventFromOpenPix(body: unknown): PixEvent | null {
  if (!isObject(body)) return null;
  if (body.event !== undefined && !(typeof body.event === 'string' && CHARGE_EVENTS.has(body.event))) return null;
  const charge = body.charge;
  if (!isObject(charge)) return null;
  const { status, value } = charge;
  const correlationID = providerId(charge.correlationID);
  if (!correlationID || !isStatus(status) || !isCents(value)) return null;
  if (status !== 'COMPLETED') return { correlationID, status, value, paymentId: null };
  const pix = isObject(body.pix) ? body.pix : {};
  const paymentId = paymentIdOf(charge) ?? paymentIdOf(pix);
  // A payment with no id cannot be confirmed idempotently; the status poll will see it instead.
  if (!paymentId) return null;
  return { correlationID, status, value: isCents(pix.value) ? pix.value : value, paymentId };
}

/** A non-2xx answer (the status lets createCharge tell a repeated correlationID from an outage). */
export class OpenPixHttpError extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.name = 'OpenPixHttpError';
    this.status = status;
  }
}

function chargeFrom(json: unknown, what: string): PixCharge {
  const charge = isObject(json) ? json.charge : undefined;
  if (!isObject(charge)) throw new Error(`${what} answered without a charge`);
  // The answer's correlationID is only compared with the one we asked about (ours); the payment
  // id is new to us and is stored, so it is checked for shape (providerId).
  const { correlationID, value, status, brCode, expiresDate } = charge;
  const expiresMs = typeof expiresDate === 'string' ? Date.parse(expiresDate) : Number.NaN;
  if (typeof correlationID !== 'string' || !correlationID) throw new Error(`${what} answered a charge without correlationID`);
  if (!isCents(value)) throw new Error(`${what} answered a charge whose value is not cents: ${JSON.stringify(value)}`);
  if (!isStatus(status)) throw new Error(`${what} answered a charge with the unknown status ${JSON.stringify(status)}`);
  if (typeof brCode !== 'string' || !brCode) throw new Error(`${what} answered a charge without brCode`);
  if (Number.isNaN(expiresMs)) throw new Error(`${what} answered a charge without a valid expiresDate`);
  const paymentId = status === 'COMPLETED' ? paymentIdOf(charge) : null;
  if (status === 'COMPLETED' && !paymentId) throw new Error(`${what} answered a COMPLETED charge without a well-formed transactionID`);
  return { correlationID, value, status, brCode, expiresAt: Math.floor(expiresMs / 1000), paymentId };
}

/**
 * The payment's id: the charge's `transactionID`, which both the webhook and the status poll
 * carry, so the two paths confirm the same payment under the same id. (A dynamic charge is paid
 * at most once; the `pix` object's `endToEndId`, the Central Bank's id, is not documented in
 * the poll's answer.)
 */
function paymentIdOf(o: Record<string, unknown>): string | null {
  return providerId(o.transactionID);
}

function errorText(json: unknown, text: string): string {
  if (isObject(json) && typeof json.error === 'string') return json.error;
  return text.length > 200 ? `${text.slice(0, 200)}…` : text || '(empty body)';
}

/** The bytes of a base64 header, only in its one canonical spelling (Node's decoder ignores stray
 * characters and the unused bits of the last one, so "…MySR=" would pass for "…MySQ="). */
function base64(header: string | null): Buffer | null {
  const value = header?.trim();
  if (!value) return null;
  const bytes = Buffer.from(value, 'base64');
  return bytes.length > 0 && bytes.toString('base64') === value ? bytes : null;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isStatus(v: unknown): v is PixStatus {
  return typeof v === 'string' && STATUSES.includes(v);
}

function isCents(v: unknown): v is number {
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
}
