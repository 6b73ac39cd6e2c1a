import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeOpenPix, type FakeOpenPix } from '../../../../tests/support/openpix-fake';
import { generateBrCode } from './brcode';
import { checkOpenPixSignature, createOpenPixProvider, eventFromOpenPix, webhookChecks, webhookKeys, WOOVI_SANDBOX_WEBHOOK_PUBLIC_KEY, WOOVI_WEBHOOK_PUBLIC_KEY, type OpenPixOptions } from './openpix.server';

const APP_ID = 'Q2xpZW50X0lkX3Rlc3Q6Q2xpZW50X1NlY3JldF90ZXN0';

/**
 * A local server that answers like Woovi's charge API for the calls the provider makes. It
 * records every request, keeps charges by correlationID, answers a repeated correlationID with a
 * 400 (as a PSP may), deletes an active charge (DELETE answers {status: 'OK', id}; the charge then
 * reads EXPIRED, as Woovi reports a deleted charge) and refuses, with a 400 and a message, to
 * delete a paid, expired or unknown one; and it can be told to fail, hang, answer nonsense or
 * refuse every delete.
 */
interface Recorded {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}
type Mode = 'ok' | 'fail' | 'hang' | 'not-json' | 'not-a-charge' | 'bad-brcode' | 'refuse-delete';
const psp = {
  requests: [] as Recorded[],
  charges: new Map<string, Record<string, unknown>>(),
  mode: 'ok' as Mode,
};
let server: http.Server;
let baseUrl: string;

function answer(res: http.ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

function handle(req: http.IncomingMessage, res: http.ServerResponse, body: string) {
  psp.requests.push({ method: req.method!, url: req.url!, headers: req.headers, body });
  if (psp.mode === 'hang') return; // never answers; the client's time-out must end the call
  if (psp.mode === 'fail') return answer(res, 500, { error: 'internal error' });
  if (psp.mode === 'not-json') return res.writeHead(200, { 'content-type': 'text/html' }).end('<html>maintenance</html>');
  if (req.headers.authorization !== APP_ID) return answer(res, 401, { error: 'appID inválido' });
  if (psp.mode === 'not-a-charge') return answer(res, 200, { charge: { correlationID: 'x', value: 'ten' } });

  if (req.method === 'POST' && req.url === '/api/v1/charge') {
    const input = JSON.parse(body) as { correlationID: string; value: number; expiresIn: number; comment?: string };
    if (psp.charges.has(input.correlationID)) return answer(res, 400, { error: 'Já existe uma cobrança com esse correlationID' });
    const transactionID = crypto.randomBytes(16).toString('hex');
    const charge = {
      correlationID: input.correlationID,
      value: input.value,
      comment: input.comment ?? '',
      status: 'ACTIVE',
      transactionID,
      identifier: transactionID,
      type: 'DYNAMIC',
      brCode:
        psp.mode === 'bad-brcode'
          ? 'https://api.openpix.com.br/openpix/testing'
          : generateBrCode({ account: { url: `api.woovi.test/qr/v1/${transactionID}` }, merchantName: 'Inkpass', merchantCity: 'Sao Paulo', amount: input.value, txid: transactionID.slice(0, 25), pointOfInitiation: 'one-time' }),
      expiresIn: input.expiresIn,
      expiresDate: new Date(Date.UTC(2030, 0, 1) + input.expiresIn * 1000).toISOString(),
      createdAt: new Date().toISOString(),
    };
    psp.charges.set(input.correlationID, charge);
    return answer(res, 200, { charge, correlationID: charge.correlationID, brCode: charge.brCode });
  }
  const get = /^\/api\/v1\/charge\/([^/?]+)$/.exec(req.url!);
  if (req.method === 'GET' && get) {
    const charge = psp.charges.get(decodeURIComponent(get[1]!));
    return charge ? answer(res, 200, { charge }) : answer(res, 404, { error: 'Cobrança não encontrada' });
  }
  if (req.method === 'DELETE' && get) {
    const id = decodeURIComponent(get[1]!);
    const charge = psp.charges.get(id);
    if (!charge) return answer(res, 400, { error: 'Cobrança não encontrada' });
    if (psp.mode === 'refuse-delete' || charge.status !== 'ACTIVE') return answer(res, 400, { error: 'Não é possível deletar esta cobrança' });
    charge.status = 'EXPIRED';
    return answer(res, 200, { status: 'OK', id });
  }
  answer(res, 404, { error: 'not found' });
}

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (c: string) => (body += c)).on('end', () => handle(req, res, body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  psp.requests.length = 0;
  psp.charges.clear();
  psp.mode = 'ok';
});

const rsa = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
const provider = (over: Partial<OpenPixOptions> = {}) =>
  createOpenPixProvider({ baseUrl, appId: APP_ID, webhook: { publicKeyPem: rsa.publicKey.export({ type: 'spki', format: 'pem' }).toString() }, ...over });

describe('the OpenPix provider: charges', () => {
  it('creates a charge with the right method, path, headers and body, and maps the answer', async () => {
    const charge = await provider().createCharge({ correlationID: 'ord_7f3a', value: 1990, expiresIn: 900, comment: 'Inkpass: 20 chaves' });
    expect(psp.requests).toHaveLength(1);
    const [req] = psp.requests;
    expect(req).toMatchObject({ method: 'POST', url: '/api/v1/charge' });
    expect(req!.headers.authorization).toBe(APP_ID);
    expect(req!.headers['content-type']).toBe('application/json');
    expect(JSON.parse(req!.body)).toEqual({ correlationID: 'ord_7f3a', value: 1990, expiresIn: 900, comment: 'Inkpass: 20 chaves' });
    const stored = psp.charges.get('ord_7f3a')!;
    expect(charge).toEqual({ correlationID: 'ord_7f3a', value: 1990, status: 'ACTIVE', brCode: stored.brCode, expiresAt: Date.UTC(2030, 0, 1) / 1000 + 900, paymentId: null });
    await provider().createCharge({ correlationID: 'ord_no_comment', value: 1, expiresIn: 60 });
    expect(JSON.parse(psp.requests[1]!.body)).toEqual({ correlationID: 'ord_no_comment', value: 1, expiresIn: 60 });
  });

  it('gives the same charge when created twice, and refuses one held for another amount', async () => {
    const first = await provider().createCharge({ correlationID: 'ord_twice', value: 990, expiresIn: 900 });
    const again = await provider().createCharge({ correlationID: 'ord_twice', value: 990, expiresIn: 900 });
    expect(again).toEqual(first);
    expect(psp.requests.map((r) => `${r.method} ${r.url}`)).toEqual(['POST /api/v1/charge', 'POST /api/v1/charge', 'GET /api/v1/charge/ord_twice']);
    await expect(provider().createCharge({ correlationID: 'ord_twice', value: 1990, expiresIn: 900 })).rejects.toThrow(/answered 400: Já existe|990 cents, not 1990/);
  });

  it('reads a charge back: ACTIVE, COMPLETED with the payment id, EXPIRED, and null when unknown', async () => {
    const openpix = provider();
    await openpix.createCharge({ correlationID: 'ord/1 ä', value: 4990, expiresIn: 900 });
    expect(await openpix.getCharge('ord/1 ä')).toMatchObject({ correlationID: 'ord/1 ä', status: 'ACTIVE', value: 4990, paymentId: null });
    expect(psp.requests.at(-1)).toMatchObject({ method: 'GET', url: '/api/v1/charge/ord%2F1%20%C3%A4' });
    expect(psp.requests.at(-1)!.headers.authorization).toBe(APP_ID);
    const stored = psp.charges.get('ord/1 ä')!;
    stored.status = 'COMPLETED';
    expect(await openpix.getCharge('ord/1 ä')).toMatchObject({ status: 'COMPLETED', paymentId: stored.transactionID });
    stored.status = 'EXPIRED';
    expect(await openpix.getCharge('ord/1 ä')).toMatchObject({ status: 'EXPIRED', paymentId: null });
    expect(await openpix.getCharge('ord_unknown')).toBeNull();
  });

  it('throws a clear error on a 500, a time-out, a network failure, nonsense and a refused app ID', async () => {
    const request = { correlationID: 'ord_x', value: 100, expiresIn: 60 };
    psp.mode = 'fail';
    await expect(provider().createCharge(request)).rejects.toThrow('OpenPix POST /api/v1/charge answered 500: internal error');
    await expect(provider().getCharge('ord_x')).rejects.toThrow('OpenPix GET /api/v1/charge/ord_x answered 500');
    psp.mode = 'hang';
    await expect(provider({ timeoutMs: 150 }).createCharge(request)).rejects.toThrow('OpenPix POST /api/v1/charge: no answer within 150 ms');
    await expect(provider({ timeoutMs: 150 }).getCharge('ord_x')).rejects.toThrow('no answer within 150 ms');
    psp.mode = 'not-json';
    await expect(provider().getCharge('ord_x')).rejects.toThrow('answered 200 with a body that is not JSON');
    psp.mode = 'not-a-charge';
    await expect(provider().getCharge('ord_x')).rejects.toThrow(/value is not cents/);
    psp.mode = 'bad-brcode';
    await expect(provider().createCharge(request)).rejects.toThrow(/invalid BR Code/);
    psp.mode = 'ok';
    await expect(provider({ appId: 'wrong' }).createCharge(request)).rejects.toThrow('answered 401: appID inválido');
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const deadUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise((resolve) => closed.close(resolve));
    await expect(provider({ baseUrl: deadUrl }).getCharge('ord_x')).rejects.toThrow(/OpenPix GET \/api\/v1\/charge\/ord_x: network failure/);
  });

  it('closes an active charge with DELETE, after which it reads EXPIRED and closing it again says closed', async () => {
    const openpix = provider();
    await openpix.createCharge({ correlationID: 'ord/2 ä', value: 990, expiresIn: 900 });
    psp.requests.length = 0;
    expect(await openpix.closeCharge('ord/2 ä')).toBe('closed');
    expect(psp.requests).toHaveLength(1);
    expect(psp.requests[0]).toMatchObject({ method: 'DELETE', url: '/api/v1/charge/ord%2F2%20%C3%A4', body: '' });
    expect(psp.requests[0]!.headers.authorization).toBe(APP_ID);
    expect(await openpix.getCharge('ord/2 ä')).toMatchObject({ status: 'EXPIRED', paymentId: null });
    // Woovi refuses to delete it twice; reading it back says it is closed all the same.
    psp.requests.length = 0;
    expect(await openpix.closeCharge('ord/2 ä')).toBe('closed');
    expect(psp.requests.map((r) => `${r.method} ${r.url}`)).toEqual(['DELETE /api/v1/charge/ord%2F2%20%C3%A4', 'GET /api/v1/charge/ord%2F2%20%C3%A4']);
  });

  it('says paid for a charge paid before it could be closed (it stays paid), and unknown for one the PSP does not know', async () => {
    const openpix = provider();
    await openpix.createCharge({ correlationID: 'ord_paid', value: 990, expiresIn: 900 });
    psp.charges.get('ord_paid')!.status = 'COMPLETED';
    expect(await openpix.closeCharge('ord_paid')).toBe('paid');
    expect(await openpix.getCharge('ord_paid')).toMatchObject({ status: 'COMPLETED', paymentId: psp.charges.get('ord_paid')!.transactionID });
    expect(await openpix.closeCharge('ord_never_made')).toBe('unknown');
  });

  it('throws when the PSP refuses to close a charge that is still payable', async () => {
    const openpix = provider();
    await openpix.createCharge({ correlationID: 'ord_kept', value: 990, expiresIn: 900 });
    psp.mode = 'refuse-delete';
    await expect(openpix.closeCharge('ord_kept')).rejects.toThrow('OpenPix DELETE /api/v1/charge/ord_kept answered 400: Não é possível deletar esta cobrança, and the charge is still ACTIVE');
    expect(psp.charges.get('ord_kept')!.status).toBe('ACTIVE');
  });

  it('throws on a 500, a time-out, a network failure, nonsense and a refused app ID when closing', async () => {
    psp.mode = 'fail';
    await expect(provider().closeCharge('ord_x')).rejects.toThrow('OpenPix DELETE /api/v1/charge/ord_x answered 500: internal error');
    psp.mode = 'hang';
    await expect(provider({ timeoutMs: 150 }).closeCharge('ord_x')).rejects.toThrow('OpenPix DELETE /api/v1/charge/ord_x: no answer within 150 ms');
    psp.mode = 'not-json';
    await expect(provider().closeCharge('ord_x')).rejects.toThrow('OpenPix DELETE /api/v1/charge/ord_x answered 200 with a body that is not JSON');
    psp.mode = 'not-a-charge';
    await expect(provider().closeCharge('ord_x')).rejects.toThrow('OpenPix DELETE /api/v1/charge/ord_x answered without status OK');
    psp.mode = 'ok';
    // A refused app ID is not a refusal to delete: no read-back, just the error.
    psp.requests.length = 0;
    await expect(provider({ appId: 'wrong' }).closeCharge('ord_x')).rejects.toThrow('OpenPix DELETE /api/v1/charge/ord_x answered 401: appID inválido');
    expect(psp.requests).toHaveLength(1);
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const deadUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise((resolve) => closed.close(resolve));
    await expect(provider({ baseUrl: deadUrl }).closeCharge('ord_x')).rejects.toThrow(/OpenPix DELETE \/api\/v1\/charge\/ord_x: network failure/);
  });

  it('refuses a request it cannot send before calling the PSP', async () => {
    await expect(provider().createCharge({ correlationID: 'o', value: 0, expiresIn: 60 })).rejects.toThrow(RangeError);
    await expect(provider().createCharge({ correlationID: 'o', value: 19.9, expiresIn: 60 })).rejects.toThrow(RangeError);
    await expect(provider().createCharge({ correlationID: '', value: 100, expiresIn: 60 })).rejects.toThrow(RangeError);
    await expect(provider().closeCharge('')).rejects.toThrow(RangeError);
    expect(psp.requests).toHaveLength(0);
  });
});

const completed = (over: Record<string, unknown> = {}) =>
  Buffer.from(
    JSON.stringify({
      event: 'OPENPIX:CHARGE_COMPLETED',
      charge: { correlationID: 'ord_7f3a', value: 1990, status: 'COMPLETED', transactionID: '9f1c0b6de2a84a0f9b5e3c2d1a0f9e8d', brCode: '000201…' },
      pix: { value: 1990, endToEndId: 'E18236120202611251200s0000000001', transactionID: '9f1c0b6de2a84a0f9b5e3c2d1a0f9e8d', time: '2026-11-25T12:00:00.000Z' },
      company: { id: '624f46f9e93f9f521c8308d7', name: 'Inkpass' },
      ...over,
    }),
  );
/** Signed as Woovi signs x-webhook-signature: RSA-SHA256 (PKCS #1 v1.5) over the raw body, in base64. */
const rsaSign = (body: Buffer, key: crypto.KeyObject = rsa.privateKey) => crypto.sign('sha256', body, key).toString('base64');
const hmacSign = (body: Buffer, secret: string) => crypto.createHmac('sha1', secret).update(body).digest('base64');
/** Woovi's documented webhook example, signed with its production key (WOOVI_WEBHOOK_PUBLIC_KEY). */
const WOOVI_EXAMPLE = Buffer.from(
  '{ "pixQrCode": null, "charge": { "status": "COMPLETED", "customer": { "name": "Antonio Victor", "taxID": { "taxID": "12345678976", "type": "BR:CPF" }, "email": "antoniocliente@example.com", "correlationID": "4979ceba-2132-4292-bd90-bee7fb2125e4" }, "value": 1000, "comment": "Pagamento OpenPix", "transactionID": "ea83401ed4834b3ea6f1f283b389af29", "correlationID": "417bae21-3d08-4cdb-9c2d-fee63c89e9e4", "paymentLinkID": "34697ed2-3790-4b60-8512-e7465b142d84", "createdAt": "2021-03-12T12:43:54.528Z", "updatedAt": "2021-03-12T12:44:09.360Z", "brCode": "https://api.openpix.com.br/openpix/openpix/testing?transactionID=ea83401ed4834b3ea6f1f283b389af29" }, "pix": { "charge": { "status": "COMPLETED", "customer": { "name": "Antonio Victor", "taxID": { "taxID": "12345678976", "type": "BR:CPF" }, "email": "antoniocliente@example.com", "correlationID": "4979ceba-2132-4292-bd90-bee7fb2125e4" }, "value": 1000, "comment": "Pagamento OpenPix", "transactionID": "ea83401ed4834b3ea6f1f283b389af29", "correlationID": "417bae21-3d08-4cdb-9c2d-fee63c89e9e4", "paymentLinkID": "34697ed2-3790-4b60-8512-e7465b142d84", "createdAt": "2021-03-12T12:43:54.528Z", "updatedAt": "2021-03-12T12:44:09.360Z" }, "customer": { "correlationID": "9134e286-6f71-427a-bf00-241681624586", "email": "email1@example.com", "name": "Loma", "phone": "+5511999999999", "taxID": { "taxID": "47043622050", "type": "BR:CPF" } }, "payer": { "correlationID": "9134e286-6f71-427a-bf00-241681624586", "email": "email1@example.com", "name": "Loma", "phone": "+5511999999999", "taxID": { "taxID": "47043622050", "type": "BR:CPF" } }, "time": "2021-03-12T12:44:09.269Z", "value": 1, "transactionID": "ea83401ed4834b3ea6f1f283b389af29", "infoPagador": "OpenPix testing" }, "company": { "id": "624f46f9e93f9f521c8308d7", "name": "Pizzaria do José", "taxID": "4722767300014" }, "account": { "clientId": "ZOJ64B9B-ZM1W-89MI-4UCI-OP2LVIU6NY75" } }',
);
const WOOVI_EXAMPLE_SIGNATURE = 'lL2nnXgmLFGgxJ8+jCDguqouU4ucrIxYJcU5SPrJFaNcJajTJHYVldqc/z4YFIjAjtPEALe699WosgPY08W7CLpidvtm06Qwa4YMB0l/DcTS93O91NdSH/adjugEKiOb76Zj/0jB8mqOmWCFYbweOBa17bssuEkd5Lw7Q5L314Y=';
/** What verifyWebhook answers a delivery it cannot show to be the PSP's. */
const REFUSED = { verified: false };

describe('the OpenPix provider: webhooks', () => {
  it('accepts a delivery signed with the PSP key and reads the charge event', () => {
    const body = completed();
    expect(provider().verifyWebhook(body, new Headers({ 'x-webhook-signature': rsaSign(body) }))).toEqual({
      verified: true,
      event: { correlationID: 'ord_7f3a', status: 'COMPLETED', value: 1990, paymentId: '9f1c0b6de2a84a0f9b5e3c2d1a0f9e8d' },
    });
  });

  it('refuses a missing, malformed or wrong signature, and a body changed by one byte', () => {
    const body = completed();
    const signature = rsaSign(body);
    const openpix = provider();
    expect(openpix.verifyWebhook(body, new Headers())).toEqual(REFUSED);
    expect(openpix.verifyWebhook(body, new Headers({ 'x-webhook-signature': '' }))).toEqual(REFUSED);
    expect(openpix.verifyWebhook(body, new Headers({ 'x-webhook-signature': 'not base64!' }))).toEqual(REFUSED);
    expect(openpix.verifyWebhook(body, new Headers({ 'x-webhook-signature': Buffer.from('short').toString('base64') }))).toEqual(REFUSED);
    expect(openpix.verifyWebhook(body, new Headers({ 'x-webhook-signature': rsaSign(body, crypto.generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey) }))).toEqual(REFUSED);
    // An HMAC where the RSA signature is expected proves nothing.
    expect(openpix.verifyWebhook(body, new Headers({ 'x-openpix-signature': hmacSign(body, 's') }))).toEqual(REFUSED);
    for (const at of [0, 40, body.length - 1]) {
      const changed = Buffer.from(body);
      changed[at] = changed[at]! ^ 0x01;
      expect(openpix.verifyWebhook(changed, new Headers({ 'x-webhook-signature': signature })), `byte ${at}`).toEqual(REFUSED);
    }
  });

  it('checks the HMAC (X-OpenPix-Signature) when configured with a secret, and both signatures when both are', () => {
    const body = completed();
    const hmacOnly = provider({ webhook: { hmacSecret: 'webhook-secret' } });
    expect(hmacOnly.verifyWebhook(body, new Headers({ 'X-OpenPix-Signature': hmacSign(body, 'webhook-secret') }))).toMatchObject({ verified: true, event: { status: 'COMPLETED' } });
    expect(hmacOnly.verifyWebhook(body, new Headers())).toEqual(REFUSED);
    expect(hmacOnly.verifyWebhook(body, new Headers({ 'X-OpenPix-Signature': hmacSign(body, 'another secret') }))).toEqual(REFUSED);
    expect(hmacOnly.verifyWebhook(Buffer.concat([body, Buffer.from('\n')]), new Headers({ 'X-OpenPix-Signature': hmacSign(body, 'webhook-secret') }))).toEqual(REFUSED);

    const both = provider({ webhook: { publicKeyPem: rsa.publicKey.export({ type: 'spki', format: 'pem' }).toString(), hmacSecret: 'webhook-secret' } });
    expect(both.verifyWebhook(body, new Headers({ 'x-webhook-signature': rsaSign(body), 'x-openpix-signature': hmacSign(body, 'webhook-secret') }))).toMatchObject({ verified: true, event: { status: 'COMPLETED' } });
    expect(both.verifyWebhook(body, new Headers({ 'x-webhook-signature': rsaSign(body) }))).toEqual(REFUSED);
    expect(both.verifyWebhook(body, new Headers({ 'x-openpix-signature': hmacSign(body, 'webhook-secret') }))).toEqual(REFUSED);
  });

  it('an install with a webhook secret still checks Woovi\'s RSA signature: a valid HMAC with no or a forged RSA signature is refused', () => {
    const secret = 'webhook-secret';
    // As configured by OPENPIX_WEBHOOK_SECRET alone: Woovi's published key, and the HMAC on top.
    expect(webhookChecks({ webhookPublicKey: null, webhookSecret: secret })).toEqual({ publicKeyPem: WOOVI_WEBHOOK_PUBLIC_KEY, hmacSecret: secret });
    expect(webhookChecks({ webhookPublicKey: null, webhookSecret: null })).toEqual({ publicKeyPem: WOOVI_WEBHOOK_PUBLIC_KEY, hmacSecret: undefined });
    const installed = provider({ webhook: webhookChecks({ webhookPublicKey: null, webhookSecret: secret }) });
    const hmac = hmacSign(WOOVI_EXAMPLE, secret);
    expect(installed.verifyWebhook(WOOVI_EXAMPLE, new Headers({ 'x-openpix-signature': hmac }))).toEqual(REFUSED);
    expect(installed.verifyWebhook(WOOVI_EXAMPLE, new Headers({ 'x-openpix-signature': hmac, 'x-webhook-signature': rsaSign(WOOVI_EXAMPLE) }))).toEqual(REFUSED);
    expect(installed.verifyWebhook(WOOVI_EXAMPLE, new Headers({ 'x-webhook-signature': WOOVI_EXAMPLE_SIGNATURE }))).toEqual(REFUSED);
    expect(installed.verifyWebhook(WOOVI_EXAMPLE, new Headers({ 'x-openpix-signature': hmac, 'x-webhook-signature': WOOVI_EXAMPLE_SIGNATURE }))).toMatchObject({ verified: true, event: { status: 'COMPLETED' } });

    // With a configured key and a secret: both, always.
    const pem = rsa.publicKey.export({ type: 'spki', format: 'pem' }).toString();
    expect(webhookChecks({ webhookPublicKey: pem, webhookSecret: secret })).toEqual({ publicKeyPem: pem, hmacSecret: secret });
    const both = provider({ webhook: webhookChecks({ webhookPublicKey: pem, webhookSecret: secret }) });
    const body = completed();
    const forged = rsaSign(body, crypto.generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey);
    expect(both.verifyWebhook(body, new Headers({ 'x-openpix-signature': hmacSign(body, secret) }))).toEqual(REFUSED);
    expect(both.verifyWebhook(body, new Headers({ 'x-openpix-signature': hmacSign(body, secret), 'x-webhook-signature': forged }))).toEqual(REFUSED);
    expect(both.verifyWebhook(body, new Headers({ 'x-openpix-signature': hmacSign(body, secret), 'x-webhook-signature': rsaSign(body) }))).toMatchObject({ verified: true, event: { correlationID: 'ord_7f3a' } });
  });

  it('verifies the signed example in Woovi\'s documentation with its published key, and the HMAC example', () => {
    // Both from Woovi's developer documentation: a webhook body and its x-webhook-signature, and
    // the HMAC-SHA1 example of X-OpenPix-Signature (secret "hmac-secret-key").
    const body = WOOVI_EXAMPLE;
    const signature = WOOVI_EXAMPLE_SIGNATURE;
    const woovi = provider({ webhook: { publicKeyPem: WOOVI_WEBHOOK_PUBLIC_KEY } });
    // The older format has no `event`; the charge says COMPLETED, and the pix says 1 cent was paid.
    expect(woovi.verifyWebhook(body, new Headers({ 'x-webhook-signature': signature }))).toEqual({ verified: true, event: { correlationID: '417bae21-3d08-4cdb-9c2d-fee63c89e9e4', status: 'COMPLETED', value: 1, paymentId: 'ea83401ed4834b3ea6f1f283b389af29' } });
    expect(woovi.verifyWebhook(Buffer.from(body.toString().replace('"value": 1,', '"value": 9,')), new Headers({ 'x-webhook-signature': signature }))).toEqual(REFUSED);

    const hmacBody = Buffer.from('{"data_criacao":"2021-08-10T20:32:14.429Z","evento":"teste_webhook"}');
    const keys = webhookKeys({ hmacSecret: 'hmac-secret-key' });
    expect(checkOpenPixSignature(hmacBody, new Headers({ 'X-OpenPix-Signature': 'jgR2XF0PKDiAwHP1s+TryvxMySQ=' }), keys)).toBe(true);
    expect(checkOpenPixSignature(hmacBody, new Headers({ 'X-OpenPix-Signature': 'kgR2XF0PKDiAwHP1s+TryvxMySQ=' }), keys)).toBe(false);
    // The same bytes spelled another way (unused low bits of the last character) are refused too.
    expect(checkOpenPixSignature(hmacBody, new Headers({ 'X-OpenPix-Signature': 'jgR2XF0PKDiAwHP1s+TryvxMySR=' }), keys)).toBe(false);
  });

  it('ships the published keys intact (their SHA-256 fingerprints are the documented key identifiers)', () => {
    const fingerprint = (pem: string) => crypto.createHash('sha256').update(crypto.createPublicKey(pem).export({ type: 'spki', format: 'der' })).digest('hex');
    expect(fingerprint(WOOVI_WEBHOOK_PUBLIC_KEY)).toBe('9dce618794f8986c603915a51b7029126c260e5cfdb2aa47e131d837fd62311c');
    expect(fingerprint(WOOVI_SANDBOX_WEBHOOK_PUBLIC_KEY)).toBe('7c8efa31466209cf247d23f6198a61643b8c322a0d80ea6d0a7a54073b2d6e91');
  });

  it('maps charge events and ignores the rest', () => {
    const charge = { correlationID: 'ord_1', value: 990, status: 'ACTIVE', transactionID: 'tx1' };
    expect(eventFromOpenPix({ event: 'OPENPIX:CHARGE_CREATED', charge })).toEqual({ correlationID: 'ord_1', status: 'ACTIVE', value: 990, paymentId: null });
    expect(eventFromOpenPix({ event: 'OPENPIX:CHARGE_EXPIRED', charge: { ...charge, status: 'EXPIRED' } })).toEqual({ correlationID: 'ord_1', status: 'EXPIRED', value: 990, paymentId: null });
    expect(eventFromOpenPix({ event: 'OPENPIX:TRANSACTION_RECEIVED', charge: { ...charge, status: 'COMPLETED' }, pix: { value: 990 } })).toEqual({ correlationID: 'ord_1', status: 'COMPLETED', value: 990, paymentId: 'tx1' });
    // A payment with no id anywhere cannot be confirmed idempotently: left to the status poll.
    expect(eventFromOpenPix({ event: 'OPENPIX:CHARGE_COMPLETED', charge: { correlationID: 'ord_1', value: 990, status: 'COMPLETED' }, pix: { endToEndId: 'E1' } })).toBeNull();
    expect(eventFromOpenPix({ event: 'OPENPIX:TRANSACTION_RECEIVED', charge: null, pix: { value: 990 } })).toBeNull();
    expect(eventFromOpenPix({ event: 'OPENPIX:TRANSACTION_REFUND_RECEIVED', charge: { ...charge, status: 'COMPLETED' } })).toBeNull();
    expect(eventFromOpenPix({ event: 'OPENPIX:MOVEMENT_CONFIRMED', transfer: { correlationID: 'p1' } })).toBeNull();
    expect(eventFromOpenPix({ evento: 'teste_webhook' })).toBeNull();
    expect(eventFromOpenPix({ event: 'OPENPIX:CHARGE_COMPLETED', charge: { ...charge, status: 'PAID' } })).toBeNull();
    expect(eventFromOpenPix({ event: 'OPENPIX:CHARGE_COMPLETED', charge: { ...charge, value: '9.90' } })).toBeNull();
    expect(eventFromOpenPix([charge])).toBeNull();
    // Signed by the PSP but not JSON: acknowledged, nothing to act on.
    const body = Buffer.from('{"event":"OPENPIX:CHARGE_COMPLETED",');
    expect(provider().verifyWebhook(body, new Headers({ 'x-webhook-signature': rsaSign(body) }))).toEqual({ verified: true, event: null });
  });

  it('reads only ids of an id\'s shape: a signed event whose correlationID or transactionID holds a NUL, markup or 200 characters is acknowledged and ignored', () => {
    for (const bad of ['ord_7f3a\u0000', '\u0000', '<b>ord</b>', 'ord 7f3a', 'x'.repeat(200)]) {
      const withCorrelation = completed({ charge: { correlationID: bad, value: 1990, status: 'COMPLETED', transactionID: '9f1c0b6de2a84a0f9b5e3c2d1a0f9e8d' } });
      expect(provider().verifyWebhook(withCorrelation, new Headers({ 'x-webhook-signature': rsaSign(withCorrelation) })), JSON.stringify(bad)).toEqual({ verified: true, event: null });
      const withTransaction = completed({ charge: { correlationID: 'ord_7f3a', value: 1990, status: 'COMPLETED', transactionID: bad }, pix: { value: 1990, transactionID: bad } });
      expect(provider().verifyWebhook(withTransaction, new Headers({ 'x-webhook-signature': rsaSign(withTransaction) })), JSON.stringify(bad)).toEqual({ verified: true, event: null });
      expect(eventFromOpenPix({ event: 'OPENPIX:CHARGE_EXPIRED', charge: { correlationID: bad, value: 990, status: 'EXPIRED' } })).toBeNull();
    }
  });

  it('treats an API answer with a malformed id as the provider being unavailable', async () => {
    const openpix = provider();
    await openpix.createCharge({ correlationID: 'ord_paid', value: 990, expiresIn: 900 });
    psp.charges.get('ord_paid')!.status = 'COMPLETED';
    psp.charges.get('ord_paid')!.transactionID = 'tx\u0000';
    await expect(openpix.getCharge('ord_paid')).rejects.toThrow(/without a well-formed transactionID/);
  });

  it('will not start without a webhook key, or with a key that is not RSA', () => {
    expect(() => provider({ webhook: {} })).toThrow(/public key .* or an HMAC secret/);
    const ec = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ type: 'spki', format: 'pem' }).toString();
    expect(() => provider({ webhook: { publicKeyPem: ec } })).toThrow(/must be RSA/);
    expect(() => provider({ webhook: { publicKeyPem: 'not a key' } })).toThrow();
  });
});

describe('the OpenPix provider: refunds (against tests/support/openpix-fake)', () => {
  let woovi: FakeOpenPix;
  let charges = 0;
  let refunds = 0;
  beforeAll(async () => {
    woovi = await startFakeOpenPix();
  });
  afterAll(async () => {
    await woovi.close();
  });
  beforeEach(() => {
    woovi.refundStatus = 'CONFIRMED';
  });
  const pix = (over: Partial<OpenPixOptions> = {}) =>
    createOpenPixProvider({ baseUrl: woovi.baseUrl, appId: woovi.appId, webhook: { publicKeyPem: rsa.publicKey.export({ type: 'spki', format: 'pem' }).toString() }, ...over });
  /** A paid 19.90 BRL charge: its correlationID (our order id) and the transactionID we hold as its payment id. */
  function paid(): { orderId: string; paymentId: string } {
    const orderId = `ord_pix_${++charges}`;
    woovi.addCharge(orderId, 1990);
    return { orderId, paymentId: woovi.pay(orderId) };
  }
  const ask = (paymentId: string, amount: number, whole: boolean, refundId = `rfd_pix_${++refunds}`) => ({ refundId, paymentId, money: { amount, currency: 'BRL' }, whole });
  const given = (paymentId: string) => [...woovi.refunds.values()].filter((r) => r.transactionID === paymentId);

  it('asks for the refund keyed by our refund id, and a CONFIRMED one is confirmed', async () => {
    const { paymentId } = paid();
    const request = ask(paymentId, 1990, true);
    const outcome = await pix().refund(request);
    const sent = woovi.requests.at(-1)!;
    expect(sent).toMatchObject({ method: 'POST', url: '/api/v1/refund' });
    expect(JSON.parse(sent.body)).toEqual({ correlationID: request.refundId, transactionEndToEndId: paymentId, value: 1990 });
    expect(outcome).toEqual({ status: 'confirmed', providerRefundId: woovi.refunds.get(request.refundId)!.refundId, action: 'refund' });
    expect(await pix().findRefund(request)).toEqual(outcome);
  });

  it('refunds a part, and another part up to what was paid; more is refused with Woovi\'s message', async () => {
    const { paymentId } = paid();
    expect(await pix().refund(ask(paymentId, 990, false))).toMatchObject({ status: 'confirmed' });
    expect(await pix().refund(ask(paymentId, 1001, false))).toEqual({ status: 'refused', message: 'OpenPix POST /api/v1/refund answered 400: Valor do reembolso maior que o valor disponível da transação' });
    expect(await pix().refund(ask(paymentId, 1000, false))).toMatchObject({ status: 'confirmed' });
    expect(given(paymentId).map((r) => r.value)).toEqual([990, 1000]);
  });

  it('an IN_PROCESSING refund is pending, and findRefund later says confirmed', async () => {
    const { paymentId } = paid();
    woovi.refundStatus = 'IN_PROCESSING';
    const request = ask(paymentId, 1990, true);
    const refundId = () => woovi.refunds.get(request.refundId)!.refundId;
    expect(await pix().refund(request)).toEqual({ status: 'pending', providerRefundId: refundId() });
    expect(await pix().findRefund(request)).toEqual({ status: 'pending', providerRefundId: refundId() });
    woovi.finishRefund(request.refundId, 'CONFIRMED');
    expect(await pix().findRefund(request)).toEqual({ status: 'confirmed', providerRefundId: refundId(), action: 'refund' });
  });

  it('a REJECTED refund is refused and gives nothing back: the whole value can be refunded under a new refund id', async () => {
    const { paymentId } = paid();
    woovi.refundStatus = 'IN_PROCESSING';
    const request = ask(paymentId, 1990, true);
    expect(await pix().refund(request)).toMatchObject({ status: 'pending' });
    woovi.finishRefund(request.refundId, 'REJECTED');
    expect(await pix().findRefund(request)).toEqual({ status: 'refused', message: 'Woovi rejected the refund' });
    // Woovi keeps the rejected refund under its correlationID: asking again with it answers the same.
    expect(await pix().refund(request)).toEqual({ status: 'refused', message: 'Woovi rejected the refund' });
    woovi.refundStatus = 'CONFIRMED';
    expect(await pix().refund(ask(paymentId, 1990, true))).toMatchObject({ status: 'confirmed' });
  });

  it('a refund Woovi refuses (4xx with an error) is refused and creates nothing; findRefund says it never arrived', async () => {
    const { paymentId } = paid();
    woovi.refuseNextRefund(400, 'Saldo insuficiente para realizar o reembolso');
    const request = ask(paymentId, 1990, true);
    expect(await pix().refund(request)).toEqual({ status: 'refused', message: 'OpenPix POST /api/v1/refund answered 400: Saldo insuficiente para realizar o reembolso' });
    expect(given(paymentId)).toEqual([]);
    expect(await pix().findRefund(request)).toBeNull();
    expect(await pix().refund(ask('0123456789abcdef0123456789abcdef', 100, false))).toEqual({ status: 'refused', message: 'OpenPix POST /api/v1/refund answered 400: Transação não encontrada' });
  });

  it('refuses another currency and malformed ids without calling Woovi', async () => {
    const { paymentId } = paid();
    const before = woovi.requests.length;
    expect(await pix().refund({ ...ask(paymentId, 1990, true), money: { amount: 1990, currency: 'USD' } })).toEqual({ status: 'refused', message: 'Pix pays in BRL, not USD' });
    expect(await pix().refund(ask('../charge', 1990, true))).toEqual({ status: 'refused', message: 'malformed payment or refund id' });
    expect(await pix().refund(ask(paymentId, 1990, true, 'rfd\u0000'))).toEqual({ status: 'refused', message: 'malformed payment or refund id' });
    expect(woovi.requests.length).toBe(before);
  });

  it('a repeat with the same refund id reads the first refund back instead of failing, and refunds once', async () => {
    const { paymentId } = paid();
    const request = ask(paymentId, 500, false);
    const first = await pix().refund(request);
    expect(first).toMatchObject({ status: 'confirmed' });
    expect(await pix().refund(request)).toEqual(first);
    expect(woovi.requests.slice(-2).map((r) => `${r.method} ${r.url}`)).toEqual(['POST /api/v1/refund', `GET /api/v1/refund/${request.refundId}`]);
    expect(given(paymentId)).toHaveLength(1);
  });

  it('is unavailable on a 500, a time-out, HTML, wrong keys, a closed port and a lost answer; a lost answer is found afterwards', async () => {
    const { paymentId } = paid();
    const request = ask(paymentId, 100, false);
    woovi.failNext('500');
    expect(await pix().refund(request)).toEqual({ status: 'unavailable', message: 'OpenPix POST /api/v1/refund answered 500: internal error' });
    woovi.failNext('hang');
    expect(await pix({ timeoutMs: 150 }).refund(request)).toEqual({ status: 'unavailable', message: 'OpenPix POST /api/v1/refund: no answer within 150 ms' });
    woovi.failNext('not-json');
    expect(await pix().refund(request)).toEqual({ status: 'unavailable', message: 'OpenPix POST /api/v1/refund answered 200 with a body that is not JSON' });
    expect(await pix({ appId: 'wrong' }).refund(request)).toEqual({ status: 'unavailable', message: 'OpenPix POST /api/v1/refund answered 401: appID inválido' });
    woovi.failNext('500');
    expect(await pix().findRefund(request)).toEqual({ status: 'unavailable', message: 'OpenPix GET /api/v1/refund/' + request.refundId + ' answered 500: internal error' });
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const deadUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise((resolve) => closed.close(resolve));
    expect(await pix({ baseUrl: deadUrl }).refund(request)).toMatchObject({ status: 'unavailable', message: expect.stringMatching(/network failure/) });
    expect(given(paymentId)).toEqual([]);

    woovi.failNext('drop');
    expect(await pix().refund(request)).toMatchObject({ status: 'unavailable' });
    expect(given(paymentId)).toHaveLength(1);
    const found = await pix().findRefund(request);
    expect(found).toEqual({ status: 'confirmed', providerRefundId: given(paymentId)[0]!.refundId, action: 'refund' });
    expect(await pix().refund(request)).toEqual(found);
    expect(given(paymentId)).toHaveLength(1);
  });

  it('shows the charge behind an order, paid or not, and null for one Woovi does not know', async () => {
    const { orderId, paymentId } = paid();
    expect(await pix().paymentStatus({ orderId, paymentId })).toEqual({
      status: 'COMPLETED',
      facts: { correlationID: orderId, value: '19.90 BRL', expires: expect.stringMatching(/^\d{4}-/), transactionID: paymentId },
    });
    woovi.addCharge('ord_pix_unpaid', 500);
    expect(await pix().paymentStatus({ orderId: 'ord_pix_unpaid', paymentId: null })).toMatchObject({ status: 'ACTIVE', facts: { value: '5.00 BRL' } });
    expect(await pix().paymentStatus({ orderId: 'ord_pix_never', paymentId: null })).toBeNull();
    woovi.failNext('500');
    await expect(pix().paymentStatus({ orderId, paymentId })).rejects.toThrow(/answered 500/);
  });
});
