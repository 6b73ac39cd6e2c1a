import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { log } from '~/server/observe.mjs';
import { startFakeBraintree, type FakeBraintree } from '../../../../tests/support/braintree-fake';
import { createBraintreeProvider, mapSale, mapVault, readMoney, toDecimal, type BraintreeOptions } from './braintree.server';

let fake: FakeBraintree;

beforeAll(async () => {
  fake = await startFakeBraintree();
});
afterAll(async () => {
  await fake.close();
});

function provider(overrides: Partial<BraintreeOptions> = {}) {
  return createBraintreeProvider({
    environment: fake.environment,
    merchantId: fake.merchantId,
    publicKey: fake.publicKey,
    privateKey: fake.privateKey,
    merchantAccountIds: { USD: 'inkpass_usd', BRL: 'inkpass_brl' },
    ...overrides,
  });
}

const usd = (amount: number) => ({ amount, currency: 'USD' });
const sale = (nonce: string, money = usd(499), orderId = 'ord_test_1') => ({ orderId, readerId: 1, money, nonce, deviceData: '{"correlation_id":"abc"}' });

/** The transaction part of the last request the fake received. */
function lastSent(): Record<string, unknown> {
  const last = fake.requests.at(-1)!;
  expect(last.path).toBe(`/merchants/${fake.merchantId}/transactions`);
  return (last.body as { transaction: Record<string, unknown> }).transaction;
}

describe('minor units and decimal strings', () => {
  it('writes integer minor units as the decimal Braintree takes, without floating point', () => {
    expect(toDecimal(499, 2)).toBe('4.99');
    expect(toDecimal(1990, 2)).toBe('19.90');
    expect(toDecimal(100000, 2)).toBe('1000.00');
    expect(toDecimal(5, 2)).toBe('0.05');
    expect(toDecimal(1, 2)).toBe('0.01');
    expect(toDecimal(500, 0)).toBe('500');
    // 0.1 + 0.2 style errors cannot happen: 2^53 - 1 cents still comes out exact.
    expect(toDecimal(Number.MAX_SAFE_INTEGER, 2)).toBe('90071992547409.91');
  });

  it('refuses amounts that are not positive safe integers', () => {
    for (const bad of [0, -1, 4.99, Number.NaN, Number.MAX_SAFE_INTEGER + 1]) expect(() => toDecimal(bad, 2)).toThrow(RangeError);
  });

  it('reads the gateway decimal back into minor units', () => {
    expect(readMoney('4.99', 'USD')).toEqual({ amount: 499, currency: 'USD' });
    expect(readMoney('19.9', 'brl')).toEqual({ amount: 1990, currency: 'BRL' });
    expect(readMoney('1000.00', 'USD')).toEqual({ amount: 100000, currency: 'USD' });
    expect(readMoney('1000', 'USD')).toEqual({ amount: 100000, currency: 'USD' });
    expect(readMoney('4.990', 'USD')).toEqual({ amount: 499, currency: 'USD' });
    expect(readMoney('500', 'JPY')).toEqual({ amount: 500, currency: 'JPY' });
    for (const [d, c] of [['4.999', 'USD'], ['-4.99', 'USD'], ['4,99', 'USD'], ['1e3', 'USD'], ['', 'USD'], ['4.99', ''], [4.99, 'USD']] as const) {
      expect(readMoney(d, c)).toBeNull();
    }
  });
});

describe('Braintree provider against a local fake of the gateway', () => {
  it('gets a client token for the Drop-in, with Basic auth and the API version the gateway wants', async () => {
    const config = await provider().widgetConfig();
    expect(config.provider).toBe('braintree');
    expect(config.clientToken).toMatch(/^[A-Za-z0-9+/]+=*$/);
    const token = JSON.parse(Buffer.from(config.clientToken!, 'base64').toString('utf8')) as { merchantId: string; merchantAccountId: string };
    expect(token.merchantId).toBe(fake.merchantId);
    const req = fake.requests.at(-1)!;
    expect(req).toMatchObject({ method: 'POST', path: `/merchants/${fake.merchantId}/client_token`, authOk: true, apiVersion: '6', gzipped: true, status: 201 });
  });

  it('binds the client token to the merchant account of a currency when asked', async () => {
    const config = await provider().widgetConfig('BRL');
    const token = JSON.parse(Buffer.from(config.clientToken!, 'base64').toString('utf8')) as { merchantAccountId: string };
    expect(token.merchantAccountId).toBe('inkpass_brl');
    expect(fake.requests.at(-1)!.body).toEqual({ client_token: { merchant_account_id: 'inkpass_brl', version: 2 } });
  });

  it('sells 4.99 USD from 499 cents, settles it, and reads back id, money, brand and last four', async () => {
    const result = await provider().sale(sale('fake-valid-nonce'));
    expect(lastSent()).toEqual({
      amount: '4.99',
      payment_method_nonce: 'fake-valid-nonce',
      device_data: '{"correlation_id":"abc"}',
      order_id: 'ord_test_1',
      merchant_account_id: 'inkpass_usd',
      options: { submit_for_settlement: true },
      type: 'sale',
    });
    expect(fake.requests.at(-1)).toMatchObject({ authOk: true, apiVersion: '6', status: 201 });
    expect(result).toEqual({ ok: true, paymentId: expect.any(String), money: { amount: 499, currency: 'USD' }, display: { brand: 'Visa', last4: '1111' } });
  });

  it('sends 19.90 for 1990 centavos on the BRL merchant account, and 1000.00 for 100000 cents', async () => {
    const brl = await provider().sale(sale('fake-valid-nonce', { amount: 1990, currency: 'BRL' }));
    expect(lastSent()).toMatchObject({ amount: '19.90', merchant_account_id: 'inkpass_brl' });
    expect(brl).toMatchObject({ ok: true, money: { amount: 1990, currency: 'BRL' } });

    const big = await provider().sale(sale('fake-valid-nonce', usd(100000)));
    expect(lastSent()).toMatchObject({ amount: '1000.00' });
    expect(big).toMatchObject({ ok: true, money: { amount: 100000, currency: 'USD' } });
  });

  it('leaves device data out when the widget gave none, and uses the default account without a map', async () => {
    const result = await provider({ merchantAccountIds: undefined }).sale({ ...sale('fake-valid-nonce'), deviceData: null });
    const sent = lastSent();
    expect(sent).not.toHaveProperty('device_data');
    expect(sent).not.toHaveProperty('merchant_account_id');
    expect(result).toMatchObject({ ok: true, money: { amount: 499, currency: 'USD' } });
  });

  it('refuses a currency with no merchant account without calling the gateway', async () => {
    const before = fake.requests.length;
    const result = await provider().sale(sale('fake-valid-nonce', { amount: 500, currency: 'EUR' }));
    expect(result).toEqual({ ok: false, code: 'unavailable', message: 'no Braintree merchant account for EUR' });
    expect(fake.requests.length).toBe(before);
  });

  it('maps a processor decline to declined with the processor text', async () => {
    expect(await provider().sale(sale('fake-processor-declined-visa-nonce'))).toEqual({ ok: false, code: 'declined', message: 'Do Not Honor' });
    expect(fake.requests.at(-1)!.status).toBe(422);
    // The sandbox also declines by amount: 2000.00–2999.99 with that response code.
    expect(await provider().sale(sale('fake-valid-nonce', usd(200100)))).toEqual({ ok: false, code: 'declined', message: 'Insufficient Funds' });
  });

  it('maps a gateway rejection to rejected with the reason', async () => {
    expect(await provider().sale(sale('fake-gateway-rejected-fraud-nonce'))).toEqual({ ok: false, code: 'rejected', message: 'fraud' });
    expect(await provider().sale(sale('fake-valid-nonce', usd(500100)))).toEqual({ ok: false, code: 'rejected', message: 'application_incomplete' });
  });

  it('maps a consumed or unknown nonce to nonce', async () => {
    expect(await provider().sale(sale('fake-consumed-nonce'))).toEqual({ ok: false, code: 'nonce', message: 'Cannot use a payment_method_nonce more than once.' });
    expect(await provider().sale(sale('not-a-nonce-the-gateway-knows'))).toEqual({ ok: false, code: 'nonce', message: 'Unknown or expired payment_method_nonce.' });
  });

  it('maps a processor failure (status failed) to unavailable', async () => {
    expect(await provider().sale(sale('fake-valid-nonce', usd(300000)))).toMatchObject({ ok: false, code: 'unavailable' });
  });

  it('shows the wallet methods by name', async () => {
    expect(await provider().sale(sale('fake-paypal-one-time-nonce'))).toMatchObject({ ok: true, display: { brand: 'PayPal', last4: null } });
    expect(await provider().sale(sale('fake-android-pay-visa-nonce'))).toMatchObject({ ok: true, display: { brand: 'Google Pay', last4: '1111' } });
    expect(await provider().sale(sale('fake-apple-pay-visa-nonce'))).toMatchObject({ ok: true, display: { brand: 'Apple Pay', last4: '1881' } });
  });

  it('is unavailable with wrong keys (the gateway answers 401, the SDK an authenticationError)', async () => {
    const wrong = provider({ privateKey: 'not-the-key' });
    expect(await wrong.sale(sale('fake-valid-nonce'))).toEqual({ ok: false, code: 'unavailable', message: 'authenticationError: Authentication Error' });
    expect(fake.requests.at(-1)).toMatchObject({ authOk: false, status: 401 });
    await expect(wrong.widgetConfig()).rejects.toThrow(/authenticationError/);
  });

  it('is unavailable when nothing listens on the port', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const down = provider({ environment: { host: '127.0.0.1', port, ssl: false } });
    const result = await down.sale(sale('fake-valid-nonce'));
    expect(result).toMatchObject({ ok: false, code: 'unavailable', message: expect.stringMatching(/ECONNREFUSED/) });
    await expect(down.widgetConfig()).rejects.toThrow(/ECONNREFUSED/);
  });

  it('is unavailable when the gateway answers later than the time-out', async () => {
    fake.latencyMs = 1_000;
    try {
      const started = Date.now();
      const result = await provider({ timeoutMs: 150 }).sale(sale('fake-valid-nonce'));
      expect(result).toEqual({ ok: false, code: 'unavailable', message: 'unexpectedError: Request timed out' });
      expect(Date.now() - started).toBeLessThan(900);
    } finally {
      fake.latencyMs = 0;
    }
  });

  it('never sends card details: only the nonce, device data and order reach the gateway', async () => {
    await provider().sale(sale('fake-valid-nonce'));
    expect(Object.keys(lastSent()).sort()).toEqual(['amount', 'device_data', 'merchant_account_id', 'options', 'order_id', 'payment_method_nonce', 'type']);
  });
});

/** The customer part of the last request the fake received (a vaulting). */
function lastCustomer(): Record<string, unknown> {
  const last = fake.requests.at(-1)!;
  expect(last).toMatchObject({ method: 'POST', path: `/merchants/${fake.merchantId}/customers`, authOk: true, apiVersion: '6' });
  return (last.body as { customer: Record<string, unknown> }).customer;
}

const closedPort = async () => {
  const closed = http.createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const { port } = closed.address() as AddressInfo;
  await new Promise<void>((resolve) => closed.close(() => resolve()));
  return port;
};

describe('vaulting a nonce without a charge (a card trial)', () => {
  const vault = (nonce: string, deviceData: string | null = '{"correlation_id":"abc"}') => provider().vault({ readerId: 1, nonce, deviceData });

  it('verifies the card, keeps it in a new customer and answers its token and display, charging nothing', async () => {
    const before = fake.transactions.length;
    const result = await vault('fake-valid-nonce');
    expect(lastCustomer()).toEqual({ payment_method_nonce: 'fake-valid-nonce', device_data: '{"correlation_id":"abc"}', credit_card: { options: { verify_card: true } } });
    expect(fake.requests.at(-1)!.status).toBe(201);
    expect(result).toEqual({ ok: true, token: expect.any(String), display: { brand: 'Visa', last4: '1111' } });
    const { token } = result as { token: string };
    expect(fake.vaulted.get(token)?.instrument).toMatchObject({ type: 'credit_card', last4: '1111' });
    expect(fake.transactions.length).toBe(before);
    // What renewals will do with it: a sale on the token.
    expect(await provider().sale({ ...sale('', usd(499), 'ord_after_trial'), token })).toMatchObject({ ok: true, display: { brand: 'Visa', last4: '1111' } });
  });

  it('leaves device data out when the widget gave none', async () => {
    await vault('fake-valid-nonce', null);
    expect(lastCustomer()).not.toHaveProperty('device_data');
  });

  it('shows vaulted wallets as a sale shows them, and vaults PayPal from its vault flow', async () => {
    expect(await vault('fake-paypal-billing-agreement-nonce')).toMatchObject({ ok: true, token: expect.any(String), display: { brand: 'PayPal', last4: null } });
    expect(await vault('fake-android-pay-visa-nonce')).toMatchObject({ ok: true, token: expect.any(String), display: { brand: 'Google Pay', last4: '1111' } });
    expect(await vault('fake-apple-pay-visa-nonce')).toMatchObject({ ok: true, token: expect.any(String), display: { brand: 'Apple Pay', last4: '1881' } });
  });

  it('maps a card the bank declines when verified to declined, and a fraud rejection to rejected, vaulting neither', async () => {
    const kept = fake.vaulted.size;
    expect(await vault('fake-processor-declined-visa-nonce')).toEqual({ ok: false, code: 'declined', message: 'Do Not Honor' });
    expect(fake.requests.at(-1)!.status).toBe(422);
    expect(await vault('fake-gateway-rejected-fraud-nonce')).toEqual({ ok: false, code: 'rejected', message: 'fraud' });
    expect(fake.vaulted.size).toBe(kept);
  });

  it('maps a consumed or unknown nonce to nonce', async () => {
    expect(await vault('fake-consumed-nonce')).toEqual({ ok: false, code: 'nonce', message: 'Cannot use a payment_method_nonce more than once.' });
    expect(await vault('not-a-nonce-the-gateway-knows')).toEqual({ ok: false, code: 'nonce', message: 'Unknown or expired payment_method_nonce.' });
  });

  it('refuses a PayPal approval for one payment, which Braintree will not vault, as rejected', async () => {
    expect(await vault('fake-paypal-one-time-nonce')).toEqual({ ok: false, code: 'rejected', message: 'Cannot vault one-time use PayPal Account.' });
  });

  it('is unavailable with wrong keys, a closed port or a time-out', async () => {
    expect(await provider({ privateKey: 'not-the-key' }).vault({ readerId: 1, nonce: 'fake-valid-nonce', deviceData: null })).toEqual({ ok: false, code: 'unavailable', message: 'authenticationError: Authentication Error' });
    const port = await closedPort();
    expect(await provider({ environment: { host: '127.0.0.1', port, ssl: false } }).vault({ readerId: 1, nonce: 'fake-valid-nonce', deviceData: null }))
      .toMatchObject({ ok: false, code: 'unavailable', message: expect.stringMatching(/ECONNREFUSED/) });
    fake.latencyMs = 1_000;
    try {
      expect(await provider({ timeoutMs: 150 }).vault({ readerId: 1, nonce: 'fake-valid-nonce', deviceData: null })).toEqual({ ok: false, code: 'unavailable', message: 'unexpectedError: Request timed out' });
    } finally {
      fake.latencyMs = 0;
    }
  });

  it('treats a success without a payment method as unavailable, never as vaulted', () => {
    expect(mapVault({ success: true, customer: { paymentMethods: [], creditCards: [] } } as unknown as Parameters<typeof mapVault>[0])).toEqual({ ok: false, code: 'unavailable', message: 'no payment method in the answer' });
  });
});

describe('a subscription\'s first sale vaults its payment method, and renewals sell on the token', () => {
  const first = (nonce: string, orderId: string, money = usd(499)) => provider().sale({ ...sale(nonce, money, orderId), vault: true });
  const renewal = (token: string, orderId: string, money = usd(499)) => provider().sale({ orderId, readerId: 1, money, nonce: '', token, deviceData: null });

  it('asks Braintree to keep the card on success, as the first of a recurring series, and answers its token', async () => {
    const result = await first('fake-valid-nonce', 'ord_sub_first');
    expect(lastSent()).toEqual({
      amount: '4.99',
      payment_method_nonce: 'fake-valid-nonce',
      transaction_source: 'recurring_first',
      device_data: '{"correlation_id":"abc"}',
      order_id: 'ord_sub_first',
      merchant_account_id: 'inkpass_usd',
      options: { submit_for_settlement: true, store_in_vault_on_success: true },
      type: 'sale',
    });
    expect(result).toEqual({ ok: true, paymentId: expect.any(String), money: { amount: 499, currency: 'USD' }, display: { brand: 'Visa', last4: '1111' }, vaultToken: expect.any(String) });
    const { vaultToken } = result as { vaultToken: string };
    expect(fake.vaulted.has(vaultToken)).toBe(true);
  });

  it('reads the vaulted token of each kind of payment method', async () => {
    for (const nonce of ['fake-paypal-billing-agreement-nonce', 'fake-android-pay-visa-nonce', 'fake-apple-pay-visa-nonce']) {
      const result = (await first(nonce, `ord_sub_${nonce}`)) as { ok: true; vaultToken: string };
      expect(result, nonce).toMatchObject({ ok: true, vaultToken: expect.any(String) });
      expect(fake.vaulted.get(result.vaultToken)?.instrument.type, nonce).toBe({ 'fake-paypal-billing-agreement-nonce': 'paypal_account', 'fake-android-pay-visa-nonce': 'android_pay_card', 'fake-apple-pay-visa-nonce': 'apple_pay_card' }[nonce]);
    }
  });

  it('answers a null token when Braintree took the money but kept nothing (a one-time PayPal approval)', async () => {
    // The server's logger (src/server/observe.mjs) says it.
    const warnings: string[] = [];
    const warn = vi.spyOn(log(), 'warn').mockImplementation((...args: unknown[]) => void warnings.push(args.join(' ')));
    try {
      expect(await first('fake-paypal-one-time-nonce', 'ord_sub_paypal_once')).toMatchObject({ ok: true, display: { brand: 'PayPal' }, vaultToken: null });
    } finally {
      warn.mockRestore();
    }
    expect(warnings).toEqual([expect.stringContaining('ord_sub_paypal_once was paid but its paypal_account was not vaulted')]);
  });

  it('vaults nothing when the first sale is declined', async () => {
    const kept = fake.vaulted.size;
    expect(await first('fake-processor-declined-visa-nonce', 'ord_sub_declined')).toEqual({ ok: false, code: 'declined', message: 'Do Not Honor' });
    expect(await first('fake-valid-nonce', 'ord_sub_declined_amount', usd(200000))).toEqual({ ok: false, code: 'declined', message: 'Do Not Honor' });
    expect(fake.vaulted.size).toBe(kept);
  });

  it('a renewal sends the token, not a nonce, as a recurring sale, and is paid without a new token', async () => {
    const { vaultToken } = (await first('fake-valid-nonce', 'ord_sub_r0')) as { vaultToken: string };
    const result = await renewal(vaultToken, 'ord_sub_r1');
    expect(lastSent()).toEqual({
      amount: '4.99',
      payment_method_token: vaultToken,
      transaction_source: 'recurring',
      order_id: 'ord_sub_r1',
      merchant_account_id: 'inkpass_usd',
      options: { submit_for_settlement: true },
      type: 'sale',
    });
    expect(result).toEqual({ ok: true, paymentId: expect.any(String), money: { amount: 499, currency: 'USD' }, display: { brand: 'Visa', last4: '1111' } });
    expect(fake.transactions.at(-1)).toMatchObject({ orderId: 'ord_sub_r1', token: vaultToken, source: 'recurring', status: 'submitted_for_settlement' });
    // The reconciler finds a renewal like any sale.
    expect(await provider().findSale('ord_sub_r1')).toEqual(result);
  });

  it('a renewal the bank declines is declined, and an unknown token needs a new payment method (nonce)', async () => {
    const { vaultToken } = (await first('fake-valid-nonce', 'ord_sub_d0')) as { vaultToken: string };
    expect(await renewal(vaultToken, 'ord_sub_d1', usd(200100))).toEqual({ ok: false, code: 'declined', message: 'Insufficient Funds' });
    expect(await renewal('no-such-token', 'ord_sub_d2')).toEqual({ ok: false, code: 'nonce', message: 'Payment method token is invalid.' });
  });

  it('a renewal is unavailable when the gateway is down', async () => {
    const port = await closedPort();
    const down = createBraintreeProvider({ environment: { host: '127.0.0.1', port, ssl: false }, merchantId: fake.merchantId, publicKey: fake.publicKey, privateKey: fake.privateKey });
    expect(await down.sale({ orderId: 'ord_sub_down', readerId: 1, money: usd(499), nonce: '', token: 'tok', deviceData: null })).toMatchObject({ ok: false, code: 'unavailable', message: expect.stringMatching(/ECONNREFUSED/) });
  });
});

describe('finding the sale of an order (the reconciler)', () => {
  it('finds a successful sale by its order id through both search calls, read back like the sale', async () => {
    const sold = await provider().sale(sale('fake-valid-nonce', usd(1234), 'ord_find_ok'));
    expect(sold).toMatchObject({ ok: true });
    const before = fake.requests.length;
    const found = await provider().findSale('ord_find_ok');
    expect(found).toEqual({ ok: true, paymentId: (sold as { paymentId: string }).paymentId, money: { amount: 1234, currency: 'USD' }, display: { brand: 'Visa', last4: '1111' } });
    expect(fake.requests.slice(before).map((r) => ({ path: r.path, body: r.body, authOk: r.authOk, status: r.status }))).toEqual([
      { path: `/merchants/${fake.merchantId}/transactions/advanced_search_ids`, body: { search: { order_id: { is: 'ord_find_ok' } } }, authOk: true, status: 200 },
      { path: `/merchants/${fake.merchantId}/transactions/advanced_search`, body: { search: { order_id: { is: 'ord_find_ok' }, ids: [found!.paymentId] } }, authOk: true, status: 200 },
    ]);
  });

  it('reads money and display as the sale does for BRL and for a wallet', async () => {
    const brl = await provider().sale(sale('fake-valid-nonce', { amount: 1990, currency: 'BRL' }, 'ord_find_brl'));
    expect(await provider().findSale('ord_find_brl')).toEqual(brl);
    const gpay = await provider().sale(sale('fake-android-pay-visa-nonce', usd(499), 'ord_find_gpay'));
    expect(await provider().findSale('ord_find_gpay')).toEqual(gpay);
    expect(gpay).toMatchObject({ display: { brand: 'Google Pay', last4: '1111' } });
  });

  it('answers null for an order whose only sales were declined, rejected or failed', async () => {
    await provider().sale(sale('fake-processor-declined-visa-nonce', usd(499), 'ord_find_declined'));
    await provider().sale(sale('fake-gateway-rejected-fraud-nonce', usd(499), 'ord_find_declined'));
    await provider().sale(sale('fake-valid-nonce', usd(300000), 'ord_find_declined'));
    const kept = fake.transactions.filter((t) => t.orderId === 'ord_find_declined').map((t) => t.status);
    expect(kept).toEqual(['processor_declined', 'gateway_rejected', 'failed']);
    const before = fake.requests.length;
    expect(await provider().findSale('ord_find_declined')).toBeNull();
    // The search did find the three transactions; it is their status that makes the answer null.
    const page = fake.requests.slice(before).find((r) => r.path.endsWith('/advanced_search'));
    expect((page?.body as { search: { ids: string[] } }).search.ids).toHaveLength(3);
  });

  it('answers null for an order the gateway has never seen, after the ids call alone', async () => {
    const before = fake.requests.length;
    expect(await provider().findSale('ord_find_unknown')).toBeNull();
    expect(fake.requests.slice(before).map((r) => r.path)).toEqual([`/merchants/${fake.merchantId}/transactions/advanced_search_ids`]);
  });

  it('finds the approved sale after earlier declines of the same order, across pages', async () => {
    await provider().sale(sale('fake-processor-declined-visa-nonce', usd(499), 'ord_find_retry'));
    await provider().sale(sale('fake-valid-nonce', usd(200100), 'ord_find_retry'));
    const sold = await provider().sale(sale('fake-paypal-one-time-nonce', usd(499), 'ord_find_retry'));
    fake.searchPageSize = 1;
    const before = fake.requests.length;
    try {
      expect(await provider().findSale('ord_find_retry')).toEqual(sold);
    } finally {
      fake.searchPageSize = 50;
    }
    // One ids call, then one call per page of one transaction.
    expect(fake.requests.slice(before).filter((r) => r.path.endsWith('/advanced_search'))).toHaveLength(3);
  });

  it('follows the transaction status: settled still counts, voided does not', async () => {
    const sold = (await provider().sale(sale('fake-valid-nonce', usd(499), 'ord_find_status'))) as { ok: true; paymentId: string };
    fake.setStatus(sold.paymentId, 'settled');
    expect(await provider().findSale('ord_find_status')).toMatchObject({ ok: true, paymentId: sold.paymentId });
    fake.setStatus(sold.paymentId, 'voided');
    expect(await provider().findSale('ord_find_status')).toBeNull();
  });

  it('throws, rather than answering no sale, with wrong keys, a closed port or a time-out', async () => {
    await expect(provider({ privateKey: 'not-the-key' }).findSale('ord_find_ok')).rejects.toThrow(/authenticationError/);
    expect(fake.requests.at(-1)).toMatchObject({ authOk: false, status: 401 });

    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    await expect(provider({ environment: { host: '127.0.0.1', port, ssl: false } }).findSale('ord_find_ok')).rejects.toThrow(/ECONNREFUSED/);

    fake.latencyMs = 1_000;
    try {
      await expect(provider({ timeoutMs: 150 }).findSale('ord_find_ok')).rejects.toThrow(/Request timed out/);
    } finally {
      fake.latencyMs = 0;
    }
  });
});

describe('odd answers', () => {
  const failure = (...codes: string[]) =>
    ({ success: false, message: 'm', errors: { deepErrors: () => codes.map((code) => ({ code, attribute: 'payment_method_nonce', message: `error ${code}` })) } }) as unknown as Parameters<typeof mapSale>[0];

  it('sorts validation errors: a locked nonce needs a new nonce, a refused card type another method', () => {
    expect(mapSale(failure('91566'), { orderId: 'o' })).toEqual({ ok: false, code: 'nonce', message: 'error 91566' });
    expect(mapSale(failure('91567'), { orderId: 'o' })).toEqual({ ok: false, code: 'rejected', message: 'error 91567' });
    expect(mapSale(failure('91569'), { orderId: 'o' })).toEqual({ ok: false, code: 'rejected', message: 'error 91569' });
    expect(mapSale(failure('81503'), { orderId: 'o' })).toEqual({ ok: false, code: 'unavailable', message: 'm' });
  });

  it('treats a success whose transaction id or vault token is not an id (a NUL, markup, 200 characters) as unavailable, never as paid', () => {
    const silence = vi.spyOn(log(), 'error').mockImplementation(() => {});
    try {
      for (const bad of ['abc\u0000', '<b>1</b>', 'a b', 'x'.repeat(200), 42]) {
        const sale = { success: true, transaction: { id: bad, amount: '4.99', currencyIsoCode: 'USD' } } as unknown as Parameters<typeof mapSale>[0];
        expect(mapSale(sale, { orderId: 'ord_x' }), JSON.stringify(bad)).toEqual({ ok: false, code: 'unavailable', message: 'unreadable transaction' });
        const vault = { success: true, customer: { creditCards: [{ token: bad, cardType: 'Visa', last4: '1111' }] } } as unknown as Parameters<typeof mapVault>[0];
        expect(mapVault(vault), JSON.stringify(bad)).toEqual({ ok: false, code: 'unavailable', message: 'no payment method in the answer' });
      }
      const good = { success: true, transaction: { id: 'kq9w8r2n', amount: '4.99', currencyIsoCode: 'USD' } } as unknown as Parameters<typeof mapSale>[0];
      expect(mapSale(good, { orderId: 'ord_x' })).toMatchObject({ ok: true, paymentId: 'kq9w8r2n', money: { amount: 499, currency: 'USD' } });
      const vaulted = { success: true, customer: { creditCards: [{ token: 'tok_4f1c', cardType: 'Visa', last4: '1111' }] } } as unknown as Parameters<typeof mapVault>[0];
      expect(mapVault(vaulted)).toEqual({ ok: true, token: 'tok_4f1c', display: { brand: 'Visa', last4: '1111' } });
    } finally {
      silence.mockRestore();
    }
  });

  it('treats a success without a readable amount as unavailable, never as paid', () => {
    const silence = vi.spyOn(log(), 'error').mockImplementation(() => {});
    try {
      const answer = { success: true, transaction: { id: 'abc', amount: 'lots', currencyIsoCode: 'USD' } } as unknown as Parameters<typeof mapSale>[0];
      expect(mapSale(answer, { orderId: 'ord_x' })).toEqual({ ok: false, code: 'unavailable', message: 'unreadable transaction' });
    } finally {
      silence.mockRestore();
    }
  });
});

describe('giving a sale back (void before settlement, refund after)', () => {
  let orders = 0;
  let refunds = 0;
  /** A fresh 4.99 USD sale (submitted for settlement, as every sale of ours). */
  async function paid(): Promise<{ orderId: string; paymentId: string }> {
    const orderId = `ord_rfd_${++orders}`;
    const result = await provider().sale(sale('fake-valid-nonce', usd(499), orderId));
    if (!result.ok) throw new Error('the sale failed');
    return { orderId, paymentId: result.paymentId };
  }
  const ask = (paymentId: string, amount: number, whole: boolean, refundId = `rfd_bt_${++refunds}`) => ({ refundId, paymentId, money: usd(amount), whole });
  const tx = (id: string) => fake.transactions.find((t) => t.id === id)!;
  const credits = (paymentId: string) => fake.transactions.filter((t) => t.type === 'credit' && t.refundedTransactionId === paymentId);
  /** The requests after `from` that changed something at the gateway (voids and refunds). */
  const writes = (from: number) => fake.requests.slice(from).filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path.replace(/^\/merchants\/[^/]+/, '')}`);

  it('voids the whole of a sale that has not settled, and asking again sends nothing more', async () => {
    const { orderId, paymentId } = await paid();
    const before = fake.requests.length;
    const outcome = await provider().refund(ask(paymentId, 499, true, 'rfd_bt_void'));
    expect(outcome).toEqual({ status: 'confirmed', providerRefundId: paymentId, action: 'void' });
    expect(writes(before)).toEqual([`PUT /transactions/${paymentId}/void`]);
    expect(tx(paymentId).status).toBe('voided');
    const again = fake.requests.length;
    expect(await provider().refund(ask(paymentId, 499, true, 'rfd_bt_void'))).toEqual(outcome);
    expect(writes(again)).toEqual([]);
    expect(await provider().findRefund(ask(paymentId, 499, true, 'rfd_bt_void'))).toEqual(outcome);
    expect(await provider().paymentStatus({ orderId, paymentId: null })).toMatchObject({ status: 'voided', facts: { amount: '4.99 USD', 'last status change': expect.stringMatching(/^voided at /) } });
  });

  it('refuses a part of a sale that has not settled without touching it, and refunds that part once it settled', async () => {
    const { orderId, paymentId } = await paid();
    const before = fake.requests.length;
    expect(await provider().refund(ask(paymentId, 100, false))).toEqual({ status: 'refused', message: 'Not settled yet: a part of this sale can be refunded once it settles.' });
    expect(writes(before)).toEqual([]);
    expect(tx(paymentId).status).toBe('submitted_for_settlement');

    fake.settle(paymentId);
    const request = ask(paymentId, 100, false);
    const outcome = await provider().refund(request);
    expect(outcome).toEqual({ status: 'confirmed', providerRefundId: expect.any(String), action: 'refund' });
    const sent = fake.requests.at(-1)!;
    expect(sent).toMatchObject({ method: 'POST', path: `/merchants/${fake.merchantId}/transactions/${paymentId}/refund`, status: 201 });
    expect(sent.body).toEqual({ transaction: { amount: '1.00', order_id: request.refundId } });
    expect(credits(paymentId)).toEqual([expect.objectContaining({ id: (outcome as { providerRefundId: string }).providerRefundId, amount: '1.00', orderId: request.refundId })]);

    const status = await provider().paymentStatus({ orderId: 'ord_not_this_one', paymentId });
    expect(status).toEqual({
      status: 'settled',
      facts: expect.objectContaining({ 'transaction id': paymentId, amount: '4.99 USD', brand: 'Visa', last4: '1111', 'refund ids': credits(paymentId)[0]!.id, 'settlement batch': expect.stringMatching(/_fake_merchant_batch$/) }),
    });
    // The sale's order finds the sale, never its refund (whose order id is the refund id).
    expect(await provider().paymentStatus({ orderId, paymentId: null })).toMatchObject({ status: 'settled', facts: { 'transaction id': paymentId } });
  });

  it('refunds (not voids) the whole of a settled sale, and a settling one', async () => {
    const settled = await paid();
    fake.settle(settled.paymentId);
    expect(await provider().refund(ask(settled.paymentId, 499, true))).toMatchObject({ status: 'confirmed', action: 'refund' });
    expect(credits(settled.paymentId)).toEqual([expect.objectContaining({ amount: '4.99' })]);
    const settling = await paid();
    fake.setStatus(settling.paymentId, 'settling');
    expect(await provider().refund(ask(settling.paymentId, 499, true))).toMatchObject({ status: 'confirmed', action: 'refund' });
  });

  it('a refund the gateway refuses changes nothing, and is answered with its code and message', async () => {
    const { paymentId } = await paid();
    fake.settle(paymentId);
    fake.refuseNextRefund('91512', 'Transaction has already been fully refunded.');
    const request = ask(paymentId, 499, true);
    expect(await provider().refund(request)).toEqual({ status: 'refused', message: '91512: Transaction has already been fully refunded.' });
    expect(credits(paymentId)).toEqual([]);
    expect(tx(paymentId).status).toBe('settled');
    expect(await provider().findRefund(request)).toBeNull();
    // The gateway's own rule: more than is left.
    expect(await provider().refund(ask(paymentId, 500, false))).toEqual({ status: 'refused', message: '91521: Refund amount is too large.' });
    expect(credits(paymentId)).toEqual([]);
  });

  it('refuses another currency, an unknown sale and malformed ids, and a sale that took no money', async () => {
    const { paymentId } = await paid();
    expect(await provider().refund({ ...ask(paymentId, 499, true), money: { amount: 499, currency: 'BRL' } })).toEqual({ status: 'refused', message: 'the sale was made in USD, not BRL' });
    expect(await provider().refund(ask('zzzzzzzz', 499, true))).toEqual({ status: 'refused', message: 'Braintree has no transaction zzzzzzzz' });
    expect(await provider().findRefund(ask('zzzzzzzz', 499, true))).toBeNull();
    const before = fake.requests.length;
    expect(await provider().refund(ask('../void', 499, true))).toEqual({ status: 'refused', message: 'malformed payment or refund id' });
    expect(await provider().refund(ask(paymentId, 499, true, 'rfd\u0000x'))).toEqual({ status: 'refused', message: 'malformed payment or refund id' });
    expect(fake.requests.length).toBe(before);
    fake.setStatus(paymentId, 'settlement_declined');
    expect(await provider().refund(ask(paymentId, 499, true))).toEqual({ status: 'refused', message: 'Braintree cannot give back a sale whose status is settlement_declined' });
  });

  it('answers a repeat of a refund with the first one, sending no second refund', async () => {
    const { paymentId } = await paid();
    fake.settle(paymentId);
    const request = ask(paymentId, 200, false);
    const first = await provider().refund(request);
    expect(first).toMatchObject({ status: 'confirmed', action: 'refund' });
    const before = fake.requests.length;
    expect(await provider().refund(request)).toEqual(first);
    expect(writes(before)).toEqual([]);
    expect(credits(paymentId)).toHaveLength(1);
    // Another refund id is another refund.
    expect(await provider().refund(ask(paymentId, 200, false))).toMatchObject({ status: 'confirmed', action: 'refund' });
    expect(credits(paymentId)).toHaveLength(2);
  });

  it('after a crash (the refund went through, its answer was lost) findRefund and a repeat find it', async () => {
    const { paymentId } = await paid();
    fake.settle(paymentId);
    const request = ask(paymentId, 499, true);
    expect(await provider().findRefund(request)).toBeNull();
    fake.dropNextAnswer('/refund');
    expect(await provider().refund(request)).toMatchObject({ status: 'unavailable' });
    expect(credits(paymentId)).toHaveLength(1);
    const found = await provider().findRefund(request);
    expect(found).toEqual({ status: 'confirmed', providerRefundId: credits(paymentId)[0]!.id, action: 'refund' });
    expect(await provider().refund(request)).toEqual(found);
    expect(credits(paymentId)).toHaveLength(1);
  });

  it('is unavailable with wrong keys, a closed port or a time-out, and paymentStatus throws', async () => {
    const { paymentId } = await paid();
    const request = ask(paymentId, 499, true);
    expect(await provider({ privateKey: 'not-the-key' }).refund(request)).toEqual({ status: 'unavailable', message: 'authenticationError: Authentication Error' });
    const down = provider({ environment: { host: '127.0.0.1', port: await closedPort(), ssl: false } });
    expect(await down.refund(request)).toMatchObject({ status: 'unavailable', message: expect.stringMatching(/ECONNREFUSED/) });
    expect(await down.findRefund(request)).toMatchObject({ status: 'unavailable' });
    await expect(down.paymentStatus({ orderId: 'ord_x', paymentId })).rejects.toThrow(/ECONNREFUSED/);
    fake.latencyMs = 1_000;
    try {
      expect(await provider({ timeoutMs: 150 }).refund(request)).toEqual({ status: 'unavailable', message: 'unexpectedError: Request timed out' });
    } finally {
      fake.latencyMs = 0;
    }
    expect(tx(paymentId).status).toBe('submitted_for_settlement');
  });

  it('answers null for the status of an order Braintree never saw', async () => {
    expect(await provider().paymentStatus({ orderId: 'ord_never_sold', paymentId: null })).toBeNull();
    expect(await provider().paymentStatus({ orderId: 'ord_never_sold', paymentId: 'zzzzzzzz' })).toBeNull();
  });
});
