/**
 * A local stand-in for Braintree's gateway, for tests only (the real sandbox cannot be reached
 * from this machine; docs/payments.md). It answers the two calls the `braintree` SDK makes for
 * us, in the wire format the SDK (3.x, lib/braintree/http.js) speaks:
 *
 * - the SDK POSTs JSON (snake_case keys) with `Accept: application/xml`, `X-ApiVersion: 6`,
 *   `Accept-Encoding: gzip` and Basic auth (public key : private key);
 * - it accepts 200, 201 and 422 (the last one with an `<api-error-response>`), turns 401 into an
 *   authenticationError, 426 into upgradeRequired and any other status into its own error;
 * - it parses `application/xml` bodies with xml2js (type="integer" | "boolean" | "array",
 *   nil="true") and gunzips them when `Content-Encoding: gzip`.
 *
 * Calls: `POST /merchants/{id}/client_token`, `POST /merchants/{id}/transactions` (a sale),
 * `POST /merchants/{id}/customers` (a customer made with a nonce, which vaults its payment
 * method) and the transaction search, which the SDK makes in two steps: `POST .../transactions/
 * advanced_search_ids` answers the matching ids and a page size (`<search-results>`), then
 * `POST .../transactions/advanced_search` with the same criteria plus one page of `ids` answers
 * those transactions (`<credit-card-transactions type="collection">`).
 * Sales answer by nonce like Braintree's documented test nonces (`FAKE_NONCES`) and, as the
 * sandbox does, by amount: 2000.00–2999.99 is declined by the processor with that code,
 * 3000.00–3000.99 fails (processor unavailable), 5001.00 is rejected (application incomplete).
 * A sale pays with a nonce or with a vaulted `payment_method_token` (an unknown token is
 * validation error 91518); `options.store_in_vault_on_success` vaults an approved sale's payment
 * method (not a one-time PayPal approval, as Braintree answers) and its token comes back in the
 * transaction. A customer made with `credit_card.options.verify_card` verifies a card nonce
 * first: the declined and fraud test nonces answer a failed `<verification>` (status
 * processor_declined or gateway_rejected) and vault nothing; a consumed or unknown nonce gets the
 * credit card group's nonce errors (91731, 91732), a one-time PayPal nonce 82902.
 * Every sale that made a transaction (approved, declined, rejected or failed; not one refused
 * by validation) is kept, oldest first, for the search. The search takes only the criteria
 * `id` and `order_id` (`is`) and `ids`, `status` and `type` (a list); anything else gets a 400
 * rather than a wrong answer.
 *
 * Refunds (docs/payments.md, "Refunds at the providers"): `GET .../transactions/{id}` (the SDK's
 * `transaction.find`; 404 for an unknown id), `PUT .../transactions/{id}/void` (authorized or
 * submitted_for_settlement only, else validation error 91504) and `POST .../transactions/{id}/
 * refund` with an optional `amount` and `order_id` (settling or settled only, else 91506; more
 * than is left 91521; nothing left 91512; a credit 91505). A refund is a transaction of type
 * `credit` (status submitted_for_settlement, `refunded-transaction-id` its sale, the order id
 * given or else the sale's), and its id joins the sale's `refund-ids`. Sales stay
 * submitted_for_settlement until a test calls `settle(id)` (as the nightly batch would);
 * `refuseNextRefund(code, message)` makes the next refund call fail with that validation error,
 * and `dropNextAnswer('/refund')` makes the next such call do its work and then cut the
 * connection without answering (the gateway refunded, the answer was lost). It supports no other call.
 *
 * Shared by the unit tests and, later, the integration suite (which runs the built server with
 * BRAINTREE_ENVIRONMENT pointing here), so it lives in tests/support/ and is never bundled.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import zlib from 'node:zlib';

const gzip = promisify(zlib.gzip);

export interface FakeBraintreeRequest {
  method: string;
  path: string;
  /** The Basic credentials were this fake's public and private key. */
  authOk: boolean;
  apiVersion: string | null;
  /** The answer was gzipped (the SDK asks for gzip). */
  gzipped: boolean;
  status: number;
  /** The JSON body as sent (snake_case keys), or null. */
  body: unknown;
}

export interface FakeBraintree {
  readonly host: '127.0.0.1';
  readonly port: number;
  readonly merchantId: string;
  readonly publicKey: string;
  readonly privateKey: string;
  /** Merchant account id -> its currency; the first one is the merchant's default. */
  readonly merchantAccounts: Readonly<Record<string, string>>;
  /** What createBraintreeProvider takes as `environment`. */
  readonly environment: { host: string; port: number; ssl: false };
  /** Every request, in order. */
  readonly requests: FakeBraintreeRequest[];
  /** Answers every later request this many milliseconds late (tests of the SDK's time-out). */
  latencyMs: number;
  /** Ids per search page (the gateway's is 50); a small one makes the SDK fetch several pages. */
  searchPageSize: number;
  /** The transactions the fake's sales made, oldest first (what the search looks through). */
  readonly transactions: readonly FakeTransaction[];
  /** The vault: payment method token -> the customer holding it and what it stands for. */
  readonly vaulted: ReadonlyMap<string, FakeVaultedMethod>;
  /**
   * Moves a kept transaction to another status, as settlement or a void would at the real
   * gateway. Throws for an unknown id.
   */
  setStatus(transactionId: string, status: string): void;
  /** Settles a transaction (status settled, with a settlement batch id), as the nightly batch would. Throws for an unknown id. */
  settle(transactionId: string): void;
  /** The next refund call is refused with this validation error (91506, 91512, …) and changes nothing. */
  refuseNextRefund(code: string, message: string): void;
  /**
   * The next request (or the next whose path ends with `pathEnd`, e.g. '/refund') is carried out,
   * then its connection is cut without an answer: the gateway acted, the answer was lost (crash tests).
   */
  dropNextAnswer(pathEnd?: string): void;
  close(): Promise<void>;
}

/** A transaction the fake made, as the search reads it. */
export interface FakeTransaction {
  readonly id: string;
  /** 'sale', or 'credit' for a refund. */
  readonly type: string;
  /** A sale's refunds (credit transaction ids), oldest first. */
  readonly refundIds: readonly string[];
  /** A refund's sale. */
  readonly refundedTransactionId: string | null;
  readonly orderId: string | null;
  readonly status: string;
  readonly amount: string;
  readonly currency: string;
  /** The vaulted token the sale paid with, or the one it vaulted; null for neither. */
  readonly token: string | null;
  /** `transaction_source` as sent (recurring_first, recurring, …), or null. */
  readonly source: string | null;
}

/** A payment method in the fake's vault. */
export interface FakeVaultedMethod {
  readonly customerId: string;
  readonly instrument: FakeInstrument;
}

/** What a test nonce stands for, as the sandbox answers it. */
type NonceOutcome =
  | { kind: 'success'; instrument: Instrument }
  | { kind: 'processor_declined'; code: string; text: string; instrument: Instrument }
  | { kind: 'gateway_rejected'; reason: string; instrument: Instrument }
  | { kind: 'validation'; code: string; message: string };

export type FakeInstrument =
  | { type: 'credit_card'; cardType: string; bin: string; last4: string }
  /** `oneTime`: approved for one payment only; Braintree will not vault it. */
  | { type: 'paypal_account'; payerEmail: string; oneTime?: true }
  | { type: 'android_pay_card'; sourceCardType: string; sourceLast4: string; virtualCardType: string; virtualLast4: string }
  | { type: 'apple_pay_card'; cardType: string; last4: string; cardholderName: string };

type Instrument = FakeInstrument;

const VISA: Instrument = { type: 'credit_card', cardType: 'Visa', bin: '411111', last4: '1111' };

/**
 * Braintree's documented test nonces (developer.paypal.com/braintree/docs/reference/general/
 * testing; the SDK's lib/braintree/test_values/nonces.js), with the details the sandbox gives
 * back: the wallet ones as Braintree's own client libraries' sandbox tests expect them (Apple
 * Pay Visa "Apple Pay - Visa" 1881; Google Pay Visa source card 1111, virtual card 1881). The
 * declined and fraud nonces carry the last four of the matching test card numbers
 * (4000111111111115, 4000111111111511).
 */
export const FAKE_NONCES: Readonly<Record<string, NonceOutcome>> = {
  'fake-valid-nonce': { kind: 'success', instrument: VISA },
  'fake-valid-visa-nonce': { kind: 'success', instrument: VISA },
  'fake-processor-declined-visa-nonce': {
    kind: 'processor_declined',
    code: '2000',
    text: 'Do Not Honor',
    instrument: { type: 'credit_card', cardType: 'Visa', bin: '400011', last4: '1115' },
  },
  'fake-gateway-rejected-fraud-nonce': {
    kind: 'gateway_rejected',
    reason: 'fraud',
    instrument: { type: 'credit_card', cardType: 'Visa', bin: '400011', last4: '1511' },
  },
  'fake-consumed-nonce': { kind: 'validation', code: '91564', message: 'Cannot use a payment_method_nonce more than once.' },
  'fake-paypal-one-time-nonce': { kind: 'success', instrument: { type: 'paypal_account', payerEmail: 'payer@example.com', oneTime: true } },
  // PayPal's vault flow (a billing agreement), which the Drop-in uses: this one can be vaulted.
  'fake-paypal-billing-agreement-nonce': { kind: 'success', instrument: { type: 'paypal_account', payerEmail: 'payer@example.com' } },
  'fake-android-pay-visa-nonce': {
    kind: 'success',
    instrument: { type: 'android_pay_card', sourceCardType: 'Visa', sourceLast4: '1111', virtualCardType: 'Visa', virtualLast4: '1881' },
  },
  'fake-apple-pay-visa-nonce': {
    kind: 'success',
    instrument: { type: 'apple_pay_card', cardType: 'Apple Pay - Visa', last4: '1881', cardholderName: 'Visa Apple Pay Cardholder' },
  },
};

const UNKNOWN_NONCE = { code: '91565', message: 'Unknown or expired payment_method_nonce.' };
/** The same two refusals when a customer is made with the nonce (the CreditCard group's codes). */
const VAULT_UNKNOWN_NONCE = { code: '91732', message: 'Unknown or expired payment_method_nonce.' };
const VAULT_CONSUMED_NONCE = { code: '91731', message: 'Cannot use a payment_method_nonce more than once.' };

/** Processor response texts for the sandbox's decline amounts (2000.00–2999.99). */
const DECLINE_TEXT: Record<string, string> = {
  '2000': 'Do Not Honor',
  '2001': 'Insufficient Funds',
  '2004': 'Expired Card',
};

/** The X-ApiVersion the SDK sends (lib/braintree/config.js); anything else gets 426. */
const API_VERSION = '6';

export async function startFakeBraintree(
  options: { merchantId?: string; publicKey?: string; privateKey?: string; merchantAccounts?: Record<string, string> } = {},
): Promise<FakeBraintree> {
  const merchantId = options.merchantId ?? 'fake_merchant';
  const publicKey = options.publicKey ?? 'fake_public_key';
  const privateKey = options.privateKey ?? 'fake_private_key';
  const merchantAccounts = options.merchantAccounts ?? { inkpass_usd: 'USD', inkpass_brl: 'BRL' };
  const defaultAccount = Object.keys(merchantAccounts)[0];
  if (!defaultAccount) throw new Error('the fake needs at least one merchant account');
  const expectedAuth = `Basic ${Buffer.from(`${publicKey}:${privateKey}`).toString('base64')}`;
  const requests: FakeBraintreeRequest[] = [];
  const transactions: TransactionXml[] = [];
  const vaulted = new Map<string, FakeVaultedMethod>();
  let sequence = 0;
  let refusal: ValidationErrorXml | null = null;
  let dropNext: string | null = null;
  const nextId = () => (++sequence).toString(36).padStart(8, 'f');
  /** Keeps a payment method in a new customer; answers its token (Braintree's are short and random). */
  const vault = (instrument: Instrument): { token: string; customerId: string } => {
    const token = `tok${nextId()}`;
    const customerId = String(100000 + sequence);
    vaulted.set(token, { customerId, instrument });
    return { token, customerId };
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: unknown = null;
      try {
        body = raw ? JSON.parse(raw) : null;
      } catch {
        body = null;
      }
      const record: FakeBraintreeRequest = {
        method: req.method ?? '',
        path: req.url ?? '',
        authOk: req.headers.authorization === expectedAuth,
        apiVersion: typeof req.headers['x-apiversion'] === 'string' ? req.headers['x-apiversion'] : null,
        gzipped: false,
        status: 0,
        body,
      };
      requests.push(record);
      const answer = route(record, raw);
      const drop = dropNext !== null && record.path.endsWith(dropNext);
      if (drop) dropNext = null;
      const send = async () => {
        record.status = answer.status;
        if (drop) {
          res.destroy();
          return;
        }
        if (answer.xml === null) {
          res.writeHead(answer.status, { 'Content-Length': '0' });
          res.end();
          return;
        }
        const xml = Buffer.from(`<?xml version="1.0" encoding="UTF-8"?>\n${answer.xml}\n`);
        const headers: http.OutgoingHttpHeaders = { 'Content-Type': 'application/xml; charset=utf-8' };
        let payload = xml;
        if (/\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''))) {
          payload = await gzip(xml);
          headers['Content-Encoding'] = 'gzip';
          record.gzipped = true;
        }
        headers['Content-Length'] = String(payload.length);
        res.writeHead(answer.status, headers);
        res.end(payload);
      };
      const go = () => void send().catch(() => res.destroy());
      if (fake.latencyMs > 0) setTimeout(go, fake.latencyMs);
      else go();
    });
  });

  function route(record: FakeBraintreeRequest, raw: string): { status: number; xml: string | null } {
    if (!record.authOk) return { status: 401, xml: null };
    if (record.apiVersion !== API_VERSION) return { status: 426, xml: null };
    const one = /^\/merchants\/([^/?]+)\/transactions\/([^/?]+)(\/void|\/refund)?$/.exec(record.path);
    if (one && !/^advanced_search/.test(one[2]!)) {
      if (decodeURIComponent(one[1]!) !== merchantId) return { status: 403, xml: null };
      if (raw && record.body === null) return { status: 400, xml: null };
      const tx = transactions.find((t) => t.id === decodeURIComponent(one[2]!));
      const action = `${record.method} ${one[3] ?? ''}`;
      if (action !== 'GET ' && action !== 'PUT /void' && action !== 'POST /refund') return { status: 404, xml: null };
      if (!tx) return { status: 404, xml: null };
      if (action === 'GET ') return { status: 200, xml: transactionXml(tx) };
      if (action === 'PUT /void') return voidTransaction(tx);
      return refund(tx, (record.body ?? {}) as Record<string, unknown>);
    }
    const m = /^\/merchants\/([^/?]+)\/(client_token|customers|transactions|transactions\/advanced_search_ids|transactions\/advanced_search)$/.exec(record.path);
    if (record.method !== 'POST' || !m) return { status: 404, xml: null };
    // Keys belong to one merchant: another merchant's path is not theirs to call.
    if (decodeURIComponent(m[1]!) !== merchantId) return { status: 403, xml: null };
    if (raw && record.body === null) return { status: 400, xml: null };
    const body = (record.body ?? {}) as Record<string, unknown>;
    switch (m[2]) {
      case 'client_token':
        return clientToken(body);
      case 'transactions':
        return sale(body);
      case 'customers':
        return createCustomer(body);
      case 'transactions/advanced_search_ids':
        return searchIds(body);
      default:
        return searchPage(body);
    }
  }

  /** The ids of every kept transaction that meets the criteria, and the page size. */
  function searchIds(body: Record<string, unknown>): { status: number; xml: string | null } {
    const found = search(body);
    if (!found) return { status: 400, xml: null };
    const ids = found.map((t) => el('item', t.id)).join('');
    return {
      status: 200,
      xml: `<search-results>\n  <page-size type="integer">${fake.searchPageSize}</page-size>\n  <ids type="array">${ids}</ids>\n</search-results>`,
    };
  }

  /** The transactions of one page: the criteria again, narrowed to the page's `ids`. */
  function searchPage(body: Record<string, unknown>): { status: number; xml: string | null } {
    const criteria = (body.search ?? {}) as Record<string, unknown>;
    if (!Array.isArray(criteria.ids)) return { status: 400, xml: null };
    const found = search(body);
    if (!found) return { status: 400, xml: null };
    return {
      status: 200,
      xml: [
        '<credit-card-transactions type="collection">',
        '<current-page-number type="integer">1</current-page-number>',
        `<page-size type="integer">${fake.searchPageSize}</page-size>`,
        `<total-items type="integer">${found.length}</total-items>`,
        ...found.map(transactionXml),
        '</credit-card-transactions>',
      ].join('\n'),
    };
  }

  /** The kept transactions meeting every criterion, oldest first; null for a criterion not taken. */
  function search(body: Record<string, unknown>): TransactionXml[] | null {
    const criteria = body.search;
    if (typeof criteria !== 'object' || criteria === null || Array.isArray(criteria)) return null;
    const tests: ((t: TransactionXml) => boolean)[] = [];
    for (const [field, value] of Object.entries(criteria as Record<string, unknown>)) {
      if (field === 'id' || field === 'order_id') {
        const is = (value as { is?: unknown } | null)?.is;
        if (typeof is !== 'string' || Object.keys(value as object).length !== 1) return null;
        tests.push(field === 'id' ? (t) => t.id === is : (t) => t.orderId === is);
      } else if (field === 'ids' || field === 'status' || field === 'type') {
        if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) return null;
        const values = new Set(value);
        tests.push(field === 'ids' ? (t) => values.has(t.id) : field === 'status' ? (t) => values.has(t.status) : (t) => values.has(t.type));
      } else {
        return null;
      }
    }
    return transactions.filter((t) => tests.every((test) => test(t)));
  }

  function clientToken(body: Record<string, unknown>): { status: number; xml: string | null } {
    const params = (body.client_token ?? {}) as Record<string, unknown>;
    const account = params.merchant_account_id;
    if (account !== undefined && (typeof account !== 'string' || !(account in merchantAccounts))) {
      return errorResponse('Merchant account does not exist', ['client-token'], [{ code: '92807', attribute: 'merchant_account_id', message: 'Merchant account does not exist' }]);
    }
    // A real client token is base64 JSON the browser SDK reads; this one has the same outline.
    const token = Buffer.from(
      JSON.stringify({
        version: 2,
        authorizationFingerprint: `fake-fingerprint-${++sequence}`,
        configUrl: `http://127.0.0.1:${fake.port}/merchants/${merchantId}/client_api/v1/configuration`,
        environment: 'development',
        merchantId,
        merchantAccountId: typeof account === 'string' ? account : defaultAccount,
      }),
    ).toString('base64');
    return { status: 201, xml: `<client-token>\n  <value>${token}</value>\n</client-token>` };
  }

  function sale(body: Record<string, unknown>): { status: number; xml: string | null } {
    const t = (body.transaction ?? {}) as Record<string, unknown>;
    const options = (t.options ?? {}) as Record<string, unknown>;
    const amount = t.amount;
    const nonce = t.payment_method_nonce;
    const token = t.payment_method_token;
    const accountId = t.merchant_account_id ?? defaultAccount;
    const orderId = typeof t.order_id === 'string' ? t.order_id : null;
    const errors: ValidationErrorXml[] = [];
    if (amount === undefined || amount === null || amount === '') errors.push({ code: '81502', attribute: 'amount', message: 'Amount is required.' });
    else if (typeof amount !== 'string' || !/^\d+(\.\d{1,2})?$/.test(amount)) errors.push({ code: '81503', attribute: 'amount', message: 'Amount is an invalid format.' });
    else if (/^0+(\.0+)?$/.test(amount)) errors.push({ code: '81531', attribute: 'amount', message: 'Amount must be greater than zero.' });
    if (typeof accountId !== 'string' || !(accountId in merchantAccounts)) errors.push({ code: '91513', attribute: 'merchant_account_id', message: 'Merchant account ID is invalid.' });
    if (orderId !== null && orderId.length > 255) errors.push({ code: '91501', attribute: 'order_id', message: 'Order ID is too long.' });
    let outcome: NonceOutcome | undefined;
    const stored = typeof token === 'string' ? vaulted.get(token) : undefined;
    if (nonce !== undefined && token !== undefined) errors.push({ code: '91515', attribute: 'base', message: 'Cannot provide more than one payment method.' });
    else if (token !== undefined) {
      if (!stored) errors.push({ code: '91518', attribute: 'payment_method_token', message: 'Payment method token is invalid.' });
      // A vaulted method sells as a valid one; declines come from the amount rules below.
      else outcome = { kind: 'success', instrument: stored.instrument };
    } else {
      outcome = typeof nonce === 'string' ? FAKE_NONCES[nonce] : undefined;
      if (typeof nonce !== 'string' || nonce === '') errors.push({ code: '91508', attribute: 'base', message: 'Cannot determine payment method.' });
      else if (!outcome) errors.push({ ...UNKNOWN_NONCE, attribute: 'payment_method_nonce' });
      else if (outcome.kind === 'validation') errors.push({ code: outcome.code, attribute: 'payment_method_nonce', message: outcome.message });
    }
    if (errors.length > 0 || !outcome || outcome.kind === 'validation') {
      return errorResponse(errors[0]?.message ?? 'Validation failed', ['transaction'], errors);
    }

    const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
    const tx: TransactionXml = {
      id: nextId(),
      type: 'sale',
      refundIds: [],
      refundedTransactionId: null,
      settlementBatchId: null,
      history: [],
      createdAt: now,
      updatedAt: now,
      amount: amount as string,
      currency: merchantAccounts[accountId as string]!,
      merchantAccountId: accountId as string,
      orderId,
      status: options.submit_for_settlement === true ? 'submitted_for_settlement' : 'authorized',
      responseCode: '1000',
      responseText: 'Approved',
      rejection: null,
      instrument: outcome.instrument,
      token: stored ? (token as string) : null,
      customerId: stored?.customerId ?? null,
      source: typeof t.transaction_source === 'string' ? t.transaction_source : null,
    };
    // The sandbox's amount rules apply to every valid nonce, as on the real sandbox.
    const whole = Number((amount as string).split('.')[0]);
    if (outcome.kind === 'processor_declined') Object.assign(tx, { status: 'processor_declined', responseCode: outcome.code, responseText: outcome.text });
    else if (outcome.kind === 'gateway_rejected') Object.assign(tx, { status: 'gateway_rejected', responseCode: null, responseText: null, rejection: outcome.reason });
    else if (whole >= 2000 && whole <= 2999) Object.assign(tx, { status: 'processor_declined', responseCode: String(whole), responseText: DECLINE_TEXT[String(whole)] ?? 'Processor Declined' });
    else if (whole === 3000) Object.assign(tx, { status: 'failed', responseCode: '3000', responseText: 'Processor Network Unavailable - Try Again' });
    else if (amount === '5001.00' || amount === '5001') Object.assign(tx, { status: 'gateway_rejected', responseCode: null, responseText: null, rejection: 'application_incomplete' });
    const approved = tx.status === 'authorized' || tx.status === 'submitted_for_settlement';
    // Only an approved sale is vaulted, and never a PayPal approval for one payment (its token stays null).
    if (approved && !stored && options.store_in_vault_on_success === true && !(tx.instrument.type === 'paypal_account' && tx.instrument.oneTime)) {
      const kept = vault(tx.instrument);
      Object.assign(tx, { token: kept.token, customerId: kept.customerId });
    }
    tx.history.push({ status: tx.status, amount: tx.amount, timestamp: now });
    transactions.push(tx);

    if (approved) return { status: 201, xml: transactionXml(tx) };
    // A declined or rejected sale is still a transaction: it comes back inside the error response.
    const message = tx.status === 'gateway_rejected' ? `Gateway Rejected: ${tx.rejection}` : (tx.responseText ?? 'Failed');
    return errorResponse(message, ['transaction'], [], transactionXml(tx), { amount: tx.amount, orderId, type: 'sale' });
  }

  /** Voids a sale that has not begun settling (Braintree: authorized or submitted_for_settlement). */
  function voidTransaction(tx: TransactionXml): { status: number; xml: string | null } {
    if (tx.type !== 'sale' || !['authorized', 'submitted_for_settlement'].includes(tx.status)) {
      const error = { code: '91504', attribute: 'base', message: 'Transaction can only be voided if status is authorized, submitted_for_settlement, or - for PayPal - settlement_pending.' };
      return errorResponse(error.message, ['transaction'], [error]);
    }
    moveTo(tx, 'voided');
    return { status: 200, xml: transactionXml(tx) };
  }

  /** Refunds a settling or settled sale, in whole (no amount) or in part, as a new credit transaction. */
  function refund(sale: TransactionXml, body: Record<string, unknown>): { status: number; xml: string | null } {
    const t = (body.transaction ?? {}) as Record<string, unknown>;
    const refuse = (error: ValidationErrorXml) => errorResponse(error.message, ['transaction'], [error]);
    if (refusal) {
      const error = refusal;
      refusal = null;
      return refuse(error);
    }
    if (sale.type !== 'sale') return refuse({ code: '91505', attribute: 'base', message: 'Cannot refund credit' });
    if (!['settling', 'settled'].includes(sale.status)) return refuse({ code: '91506', attribute: 'base', message: 'Cannot refund transaction unless it is settled.' });
    const refunded = sale.refundIds.map((id) => transactions.find((c) => c.id === id)!).filter((c) => !['voided', 'failed', 'processor_declined'].includes(c.status)).reduce((sum, c) => sum + cents(c.amount), 0);
    const left = cents(sale.amount) - refunded;
    if (left <= 0) return refuse({ code: '91512', attribute: 'base', message: 'Transaction has already been fully refunded.' });
    const amount = t.amount;
    if (amount !== undefined && (typeof amount !== 'string' || !/^\d+(\.\d{1,2})?$/.test(amount))) return refuse({ code: '81503', attribute: 'amount', message: 'Amount is an invalid format.' });
    const wanted = amount === undefined ? left : cents(amount);
    if (wanted <= 0) return refuse({ code: '81531', attribute: 'amount', message: 'Amount must be greater than zero.' });
    if (wanted > left) return refuse({ code: '91521', attribute: 'amount', message: 'Refund amount is too large.' });
    const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
    const credit: TransactionXml = {
      ...sale,
      id: nextId(),
      type: 'credit',
      createdAt: now,
      updatedAt: now,
      amount: decimal(wanted),
      orderId: typeof t.order_id === 'string' ? t.order_id : sale.orderId,
      status: 'submitted_for_settlement',
      responseCode: '1002',
      responseText: 'Processed',
      refundIds: [],
      refundedTransactionId: sale.id,
      settlementBatchId: null,
      history: [{ status: 'submitted_for_settlement', amount: decimal(wanted), timestamp: now }],
      source: null,
    };
    sale.refundIds.push(credit.id);
    transactions.push(credit);
    return { status: 201, xml: transactionXml(credit) };
  }

  function moveTo(tx: TransactionXml, status: string): void {
    tx.status = status;
    tx.updatedAt = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
    tx.history.push({ status, amount: tx.amount, timestamp: tx.updatedAt });
  }

  /**
   * A customer made with a nonce: its payment method is vaulted (a card verified first when
   * `credit_card.options.verify_card` is set). No nonce makes a customer without payment methods.
   */
  function createCustomer(body: Record<string, unknown>): { status: number; xml: string | null } {
    const c = (body.customer ?? {}) as Record<string, unknown>;
    const verify = ((c.credit_card as { options?: { verify_card?: unknown } } | undefined)?.options?.verify_card) === true;
    const nonce = c.payment_method_nonce;
    const customerId = String(100000 + ++sequence);
    const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
    if (nonce === undefined) return { status: 201, xml: customerXml(customerId, now, null) };
    const outcome = typeof nonce === 'string' ? FAKE_NONCES[nonce] : undefined;
    if (!outcome || outcome.kind === 'validation') {
      const error = !outcome ? VAULT_UNKNOWN_NONCE : VAULT_CONSUMED_NONCE;
      return errorResponse(error.message, ['customer', 'credit-card'], [{ ...error, attribute: 'payment_method_nonce' }]);
    }
    const instrument = outcome.instrument;
    if (instrument.type === 'paypal_account' && instrument.oneTime) {
      const error = { code: '82902', attribute: 'base', message: 'Cannot vault one-time use PayPal Account.' };
      return errorResponse(error.message, ['customer', 'paypal-account'], [error]);
    }
    const verifying = verify && instrument.type === 'credit_card';
    if (verifying && outcome.kind !== 'success') {
      const failed: VerificationXml = outcome.kind === 'processor_declined'
        ? { status: 'processor_declined', responseCode: outcome.code, responseText: outcome.text, rejection: null }
        : { status: 'gateway_rejected', responseCode: null, responseText: null, rejection: outcome.reason };
      const message = failed.status === 'gateway_rejected' ? `Gateway Rejected: ${failed.rejection}` : failed.responseText!;
      return errorResponse(message, ['customer'], [], verificationXml(failed, instrument, now));
    }
    const token = `tok${nextId()}`;
    vaulted.set(token, { customerId, instrument });
    const verification: VerificationXml | null = verifying ? { status: 'verified', responseCode: '1000', responseText: 'Approved', rejection: null } : null;
    return { status: 201, xml: customerXml(customerId, now, { token, instrument, verification }) };
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const fake: FakeBraintree = {
    host: '127.0.0.1',
    port,
    merchantId,
    publicKey,
    privateKey,
    merchantAccounts,
    environment: { host: '127.0.0.1', port, ssl: false },
    requests,
    latencyMs: 0,
    searchPageSize: 50,
    transactions,
    vaulted,
    setStatus(transactionId, status) {
      const tx = transactions.find((t) => t.id === transactionId);
      if (!tx) throw new Error(`the fake has no transaction ${transactionId}`);
      moveTo(tx, status);
    },
    settle(transactionId) {
      const tx = transactions.find((t) => t.id === transactionId);
      if (!tx) throw new Error(`the fake has no transaction ${transactionId}`);
      moveTo(tx, 'settled');
      tx.settlementBatchId = `${tx.updatedAt.slice(0, 10)}_${merchantId}_batch`;
    },
    refuseNextRefund(code, message) {
      refusal = { code, attribute: 'base', message };
    },
    dropNextAnswer(pathEnd = '') {
      dropNext = pathEnd;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return fake;
}

interface ValidationErrorXml {
  code: string;
  attribute: string;
  message: string;
}

interface TransactionXml {
  id: string;
  type: 'sale' | 'credit';
  refundIds: string[];
  refundedTransactionId: string | null;
  settlementBatchId: string | null;
  /** Every status it entered, oldest first. */
  history: { status: string; amount: string; timestamp: string }[];
  createdAt: string;
  updatedAt: string;
  amount: string;
  currency: string;
  merchantAccountId: string;
  orderId: string | null;
  status: string;
  responseCode: string | null;
  responseText: string | null;
  rejection: string | null;
  instrument: Instrument;
  token: string | null;
  customerId: string | null;
  source: string | null;
}

interface VerificationXml {
  status: 'verified' | 'processor_declined' | 'gateway_rejected';
  responseCode: string | null;
  responseText: string | null;
  rejection: string | null;
}

/** "4.99" -> 499 (the fake's amounts have at most two places). */
function cents(decimal: string): number {
  const [whole, fraction = ''] = decimal.split('.');
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
}

function decimal(minor: number): string {
  return `${Math.floor(minor / 100)}.${String(minor % 100).padStart(2, '0')}`;
}

function escapeXml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);
}

/** `<name>text</name>`, or `<name nil="true"/>` for null. */
function el(name: string, value: string | null): string {
  return value === null ? `<${name} nil="true"/>` : `<${name}>${escapeXml(value)}</${name}>`;
}

/** The payment method as a transaction carries it: `<credit-card>`, `<paypal>`, `<android-pay-card>`, `<apple-pay>`. */
function instrumentXml(i: Instrument, token: string | null): string {
  const [name, fields] = methodFields(i, token);
  return `<${name}>${fields}</${name}>`;
}

/** The element name in a transaction and the fields of a payment method (with its token, when vaulted). */
function methodFields(i: Instrument, token: string | null): [string, string] {
  switch (i.type) {
    case 'credit_card':
      return ['credit-card', `${el('bin', i.bin)}${el('last-4', i.last4)}${el('card-type', i.cardType)}${el('masked-number', `${i.bin}******${i.last4}`)}${el('token', token)}`];
    case 'paypal_account':
      return ['paypal', `${el('payer-email', i.payerEmail)}${el('payment-id', 'PAY-FAKE')}${el('authorization-id', 'AUTH-FAKE')}${el('token', token)}`];
    case 'android_pay_card':
      return ['android-pay-card', `${el('source-card-type', i.sourceCardType)}${el('source-card-last-4', i.sourceLast4)}${el('virtual-card-type', i.virtualCardType)}${el('virtual-card-last-4', i.virtualLast4)}${el('source-description', `${i.sourceCardType} ${i.sourceLast4}`)}${el('token', token)}`];
    case 'apple_pay_card':
      return ['apple-pay', `${el('card-type', i.cardType)}${el('last-4', i.last4)}${el('cardholder-name', i.cardholderName)}${el('token', token)}`];
  }
}

/** A card verification: inside a vaulted card (`verifications`), or alone in a failed answer. */
function verificationXml(v: VerificationXml, card: Instrument, at: string): string {
  const details = card.type === 'credit_card' ? `<credit-card>${el('bin', card.bin)}${el('last-4', card.last4)}${el('card-type', card.cardType)}</credit-card>` : '';
  return [
    '<verification>',
    el('id', `ver${at.replace(/\D/g, '')}`),
    el('status', v.status),
    el('processor-response-code', v.responseCode),
    el('processor-response-text', v.responseText),
    el('gateway-rejection-reason', v.rejection),
    `<created-at type="datetime">${at}</created-at>`,
    details,
    '</verification>',
  ].join('');
}

/** Braintree's customer: every kind of payment method in its own list, each with its token. */
function customerXml(id: string, at: string, method: { token: string; instrument: Instrument; verification: VerificationXml | null } | null): string {
  const lists: Record<Instrument['type'], [string, string]> = {
    credit_card: ['credit-cards', 'credit-card'],
    paypal_account: ['paypal-accounts', 'paypal-account'],
    android_pay_card: ['android-pay-cards', 'android-pay-card'],
    apple_pay_card: ['apple-pay-cards', 'apple-pay-card'],
  };
  const body = Object.entries(lists).map(([type, [list, item]]) => {
    if (!method || method.instrument.type !== type) return `<${list} type="array"/>`;
    const [, fields] = methodFields(method.instrument, method.token);
    const verifications = method.instrument.type === 'credit_card'
      ? `<verifications type="array">${method.verification ? verificationXml(method.verification, method.instrument, at) : ''}</verifications>`
      : '';
    return `<${list} type="array"><${item}>${fields}${el('customer-id', id)}<default type="boolean">true</default>${verifications}</${item}></${list}>`;
  });
  return [
    '<customer>',
    el('id', id),
    el('first-name', null),
    el('last-name', null),
    el('email', null),
    `<created-at type="datetime">${at}</created-at>`,
    `<updated-at type="datetime">${at}</updated-at>`,
    ...body,
    '<addresses type="array"/>',
    '</customer>',
  ].join('\n');
}

function transactionXml(t: TransactionXml): string {
  return [
    '<transaction>',
    el('id', t.id),
    el('status', t.status),
    el('type', t.type),
    el('currency-iso-code', t.currency),
    el('amount', t.amount),
    el('merchant-account-id', t.merchantAccountId),
    el('order-id', t.orderId),
    `<created-at type="datetime">${t.createdAt}</created-at>`,
    `<updated-at type="datetime">${t.updatedAt}</updated-at>`,
    el('processor-response-code', t.responseCode),
    el('processor-response-text', t.responseText),
    el('gateway-rejection-reason', t.rejection),
    el('payment-instrument-type', t.instrument.type),
    el('transaction-source', t.source),
    instrumentXml(t.instrument, t.token),
    t.customerId ? `<customer>${el('id', t.customerId)}</customer>` : '<customer><id nil="true"/></customer>',
    `<refund-ids type="array">${t.refundIds.map((id) => el('item', id)).join('')}</refund-ids>`,
    el('refunded-transaction-id', t.refundedTransactionId),
    el('settlement-batch-id', t.settlementBatchId),
    `<status-history type="array">${t.history.map((h) => `<status-event>${el('status', h.status)}${el('amount', h.amount)}<timestamp type="datetime">${h.timestamp}</timestamp></status-event>`).join('')}</status-history>`,
    '</transaction>',
  ].join('\n');
}

/**
 * Braintree's 422 answer: validation errors nested under the objects they are about (`transaction`,
 * `client-token`, `customer` > `credit-card`…, each level with its own list), a message, the
 * params echoed (for a sale), and a declined or rejected transaction, or a failed verification,
 * when there is one.
 */
function errorResponse(
  message: string,
  about: readonly string[],
  errors: ValidationErrorXml[],
  extra = '',
  params: Record<string, string | null> = {},
): { status: number; xml: string } {
  const errorList = errors
    .map((e) => `<error>${el('code', e.code)}<attribute type="symbol">${escapeXml(e.attribute)}</attribute>${el('message', e.message)}</error>`)
    .join('');
  let nested = '';
  if (errors.length > 0) {
    nested = `<errors type="array">${errorList}</errors>`;
    for (let i = about.length - 1; i >= 0; i--) nested = `<${about[i]}>${i === about.length - 1 ? '' : '<errors type="array"/>'}${nested}</${about[i]}>`;
  }
  const echoed = Object.entries(params)
    .filter((entry): entry is [string, string] => entry[1] !== null)
    .map(([k, v]) => el(k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`), v))
    .join('');
  const xml = [
    '<api-error-response>',
    `<errors><errors type="array"/>${nested}</errors>`,
    `<params>${about[0] === 'transaction' ? `<transaction>${echoed}</transaction>` : ''}</params>`,
    el('message', message),
    extra,
    '</api-error-response>',
  ].join('\n');
  return { status: 422, xml };
}
