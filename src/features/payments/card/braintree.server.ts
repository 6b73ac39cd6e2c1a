/**
 * Card-type methods (card, PayPal, Google Pay, Apple Pay) through Braintree, with its official
 * server SDK (`braintree`, docs/payments.md "Card payments (Braintree)"). The browser's Drop-in
 * turns what the reader enters into a single-use nonce; this module charges it.
 *
 * Nothing about a card is logged or stored here: only the brand and the last four digits leave
 * this module, for display. Errors are reduced to the SDK's error type and the gateway's
 * response texts, which carry no card data.
 */
import braintree from 'braintree';
import type { CardProvider, CardVaultResult, CardSale, CardSaleResult, CardWidgetConfig, Money, PaymentStatus, RefundOutcome, RefundRequest } from '~/features/payments/provider';
import { providerId } from '~/features/payments/ids';
import { log } from '~/server/observe.mjs';

export interface BraintreeOptions {
  /** A custom host is for tests (a local fake of the gateway); real ones are named. */
  environment: 'sandbox' | 'production' | { host: string; port: number; ssl: boolean };
  merchantId: string;
  publicKey: string;
  privateKey: string;
  /**
   * Currency (ISO 4217) -> merchant account id. Braintree charges in the merchant account's
   * currency and takes no currency on a sale, so when this map is given a sale in a currency
   * missing from it is refused before anything is sent; without it the merchant's default
   * account (one currency) takes every sale.
   */
  merchantAccountIds?: Record<string, string>;
  /** Per-request time-out in milliseconds; the SDK's own default is 60 s. */
  timeoutMs?: number;
}

/**
 * Validation error codes that are about the nonce or token itself (the SDK's
 * ValidationErrorCodes; Braintree's "All validation errors" reference): consumed, unknown or
 * expired, locked. A sale answers them in the Transaction group; a vaulting (customer.create)
 * under the payment method the nonce stands for: CreditCard, PayPalAccount, ApplePayCard or
 * PaymentMethod. A sale on a vaulted token that the gateway no longer knows (91518) is the same
 * for us: a new payment method is needed.
 */
const NONCE_ERRORS = new Set([
  '91564', '91565', '91566', // Transaction
  '91731', '91732', '91733', // CreditCard
  '92907', '92908', '92909', // PayPalAccount
  '93504', '93505', '93506', // ApplePayCard
  '93107', '93108', '93109', // PaymentMethod
  '91518', // Transaction: PaymentMethodTokenIsInvalid
]);
/**
 * The nonce is fine but this merchant account will not take or keep what it stands for: card type
 * not accepted (91567, 91734, 81703, 83518, and 91517 for a vaulted token), no valid instrument
 * type (91569), PayPal, Apple Pay or Google Pay not accepted (82904, 83501, 83708), or a PayPal
 * approval for one payment that cannot be vaulted (82902). Another method is needed, as for a
 * gateway rejection.
 */
const METHOD_REFUSED_ERRORS = new Set(['91567', '91569', '91517', '91734', '81703', '83518', '82902', '82904', '83501', '83708']);

/**
 * Transaction statuses under which the money was taken or will be without anything more from us
 * (Braintree's Transaction.Status): authorized (a sale we asked to settle may sit here briefly),
 * submitted for settlement, settling, settlement pending, settled. Declined, rejected, failed,
 * voided, expired and settlement-declined ones took nothing.
 */
const MONEY_TAKEN = new Set(['authorized', 'submitted_for_settlement', 'settling', 'settlement_pending', 'settled']);

/**
 * Sale statuses under which Braintree voids rather than refunds (Transaction: Void; PayPal's
 * settlement_pending too): the money has not begun to settle, so the whole sale is cancelled.
 */
const VOIDABLE = new Set(['authorized', 'submitted_for_settlement', 'settlement_pending']);
/** Sale statuses under which Braintree refunds (Transaction: Refund: "settled or settling"). */
const REFUNDABLE = new Set(['settling', 'settled']);
/** A refund (credit transaction) in one of these gave, or will give, the money back. */
const REFUND_STANDS = new Set(['submitted_for_settlement', 'settling', 'settlement_pending', 'settled']);

/** The display name of each wallet; cards show their card type ("Visa"). */
const WALLET_BRAND: Record<string, string> = {
  paypal_account: 'PayPal',
  android_pay_card: 'Google Pay',
  apple_pay_card: 'Apple Pay',
};

/** The seam, plus an optional currency for the client token (the seam's call passes none). */
export interface BraintreeProvider extends CardProvider {
  widgetConfig(currency?: string): Promise<CardWidgetConfig>;
}

export function createBraintreeProvider(opts: BraintreeOptions): BraintreeProvider {
  const gateway = new braintree.BraintreeGateway({
    environment: environmentOf(opts.environment),
    merchantId: opts.merchantId,
    publicKey: opts.publicKey,
    privateKey: opts.privateKey,
  });
  // The SDK takes no time-out option; its config object is read on every request.
  if (opts.timeoutMs !== undefined) (gateway.config as { timeout: number }).timeout = opts.timeoutMs;
  const accounts = opts.merchantAccountIds;

  return {
    id: 'braintree',

    /**
     * A client token for the Drop-in. With a currency (and a merchant account for it) the token
     * is bound to that account, which PayPal and Google Pay need to show the right currency.
     * Throws when the gateway cannot be reached or refuses the keys: checkout cannot start.
     */
    async widgetConfig(currency?: string): Promise<CardWidgetConfig> {
      const merchantAccountId = currency ? accounts?.[currency] : undefined;
      let response;
      try {
        response = await gateway.clientToken.generate(merchantAccountId ? { merchantAccountId } : {});
      } catch (error) {
        throw new Error(`braintree: no client token (${describe(error)})`);
      }
      if (!response.success || typeof response.clientToken !== 'string') {
        throw new Error(`braintree: no client token (${response.message ?? 'refused'})`);
      }
      return { provider: 'braintree', clientToken: response.clientToken };
    },

    async sale(input: CardSale): Promise<CardSaleResult> {
      const { money } = input;
      const digits = minorDigits(money.currency);
      const merchantAccountId = accounts?.[money.currency];
      if (accounts && !merchantAccountId) {
        return { ok: false, code: 'unavailable', message: `no Braintree merchant account for ${money.currency}` };
      }
      let result;
      try {
        result = await gateway.transaction.sale({
          amount: toDecimal(money.amount, digits),
          ...paymentMethodOf(input),
          ...(input.deviceData ? { deviceData: input.deviceData } : {}),
          orderId: input.orderId,
          ...(merchantAccountId ? { merchantAccountId } : {}),
          options: { submitForSettlement: true, ...(input.vault && !input.token ? { storeInVaultOnSuccess: true } : {}) },
        });
      } catch (error) {
        // Network errors, time-outs, 401/403/5xx. A time-out may still have charged: the order id
        // we sent is how reconciliation finds such a sale at Braintree.
        return { ok: false, code: 'unavailable', message: describe(error) };
      }
      return mapSale(result, input);
    },

    /**
     * Vaults the nonce's payment method in a new Braintree customer, the card verified by the
     * bank first (a trial's renewals sell on the token). Braintree refuses a nonce it did not
     * issue, or one already used.
     */
    async vault(input): Promise<CardVaultResult> {
      let result;
      try {
        result = await gateway.customer.create({
          paymentMethodNonce: input.nonce,
          ...(input.deviceData ? { deviceData: input.deviceData } : {}),
          // Documented for customer.create; the SDK's types ask for a customer id the new customer does not have yet.
          creditCard: { options: { verifyCard: true } } as braintree.CreditCardCreateRequest,
        });
      } catch (error) {
        return { ok: false, code: 'unavailable', message: describe(error) };
      }
      return mapVault(result);
    },

    /**
     * Searches Braintree's transactions by our order id (the SDK's transaction search: one call
     * for the ids, then pages of transactions, read here as its object stream) and answers the
     * first sale of that order that took or will take the money, read like a successful sale.
     * Throws when the search cannot be made or read (network, keys, time-out, an unreadable
     * amount): that means "ask again later", never "no sale".
     */
    async findSale(orderId: string): Promise<Extract<CardSaleResult, { ok: true }> | null> {
      let found: braintree.Transaction | null = null;
      const stream = gateway.transaction.search((search) => search.orderId().is(orderId));
      try {
        for await (const item of stream as AsyncIterable<braintree.Transaction | null | undefined>) {
          // Refunds (type credit) carry the order id too; the text match is checked again here.
          if (item && item.type === 'sale' && item.orderId === orderId && MONEY_TAKEN.has(item.status)) {
            found = item;
            break;
          }
        }
      } catch (error) {
        throw new Error(`braintree: transaction search for order ${orderId} failed (${describe(error)})`);
      } finally {
        // The stream may still be fetching a page; an error it emits after we stopped listening
        // would otherwise be an unhandled 'error' event.
        stream.on('error', () => {});
        stream.destroy();
      }
      if (!found) return null;
      const money = readMoney(found.amount, found.currencyIsoCode);
      const paymentId = providerId(found.id);
      if (!paymentId || !money) {
        // Money was taken but we cannot say how much, or under which id: not a sale to confirm, nor "no sale".
        throw new Error(`braintree: sale ${JSON.stringify(found.id ?? null).slice(0, 120)} for order ${orderId} has no readable amount or id`);
      }
      return { ok: true, paymentId, money, display: displayOf(found) };
    },

    /**
     * Gives a sale back (docs/payments.md, "Refunds at the providers"): a refund already made
     * under our refund id (a credit among the sale's `refundIds` whose order id is it) or a sale
     * already voided is answered as confirmed, nothing sent; a sale not yet settling is voided
     * when the whole of it is asked (a part is refused: ask again once it settles); a settling or
     * settled one is refunded with our refund id as the refund's order id. Braintree has no
     * idempotency key on refunds, so the repeat is recognised by that order id.
     */
    async refund(input: RefundRequest): Promise<RefundOutcome> {
      const ids = refundIds(input);
      if (!ids) return { status: 'refused', message: 'malformed payment or refund id' };
      const seen = await lookUp(gateway, ids);
      if (seen.kind !== 'sale') return seen.outcome;
      const { sale } = seen;
      const money = readMoney(sale.amount, sale.currencyIsoCode);
      if (!money) return { status: 'unavailable', message: `sale ${ids.paymentId} has no readable amount` };
      if (money.currency !== input.money.currency) return { status: 'refused', message: `the sale was made in ${money.currency}, not ${input.money.currency}` };
      if (VOIDABLE.has(sale.status)) {
        if (!input.whole || input.money.amount !== money.amount) return { status: 'refused', message: 'Not settled yet: a part of this sale can be refunded once it settles.' };
        let result;
        try {
          result = await gateway.transaction.void(ids.paymentId);
        } catch (error) {
          return failure(error);
        }
        if (result.success) return { status: 'confirmed', providerRefundId: ids.paymentId, action: 'void' };
        return { status: 'refused', message: refusalMessage(result) };
      }
      if (!REFUNDABLE.has(sale.status)) return { status: 'refused', message: `Braintree cannot give back a sale whose status is ${sale.status}` };
      let result;
      try {
        // The SDK's types know only an amount; it sends any options object as the refund's fields.
        const refundCall = gateway.transaction.refund as unknown as (id: string, options: { amount: string; orderId: string }) => Promise<SaleResponse>;
        result = await refundCall.call(gateway.transaction, ids.paymentId, { amount: toDecimal(input.money.amount, minorDigits(money.currency)), orderId: ids.refundId });
      } catch (error) {
        // A time-out may have refunded: asking again finds that refund by its order id.
        return failure(error);
      }
      if (result.success) {
        const refundId = providerId(result.transaction?.id);
        if (!refundId) return { status: 'unavailable', message: 'the refund answered success without a readable transaction' };
        return { status: 'confirmed', providerRefundId: refundId, action: 'refund' };
      }
      return { status: 'refused', message: refusalMessage(result) };
    },

    /** What became of a refund asked before: found by its order id among the sale's refunds, or the sale voided; else null. */
    async findRefund(input: RefundRequest): Promise<RefundOutcome | null> {
      const ids = refundIds(input);
      if (!ids) return null;
      const seen = await lookUp(gateway, ids);
      if (seen.kind === 'sale') return null;
      if (seen.kind === 'unknown') return null;
      return seen.outcome;
    },

    /**
     * The sale as Braintree sees it now: by its payment id, else the latest sale of the order.
     * Throws when Braintree cannot be reached or answers nonsense (the desk shows that).
     */
    async paymentStatus(input): Promise<PaymentStatus | null> {
      const paymentId = providerId(input.paymentId);
      let sale: braintree.Transaction | null = null;
      if (paymentId) {
        try {
          sale = await gateway.transaction.find(paymentId);
        } catch (error) {
          if (!isNotFound(error)) throw new Error(`braintree: transaction ${paymentId} could not be read (${describe(error)})`);
        }
      }
      const orderId = providerId(input.orderId);
      if (!sale && orderId) sale = await latestSale(gateway, orderId);
      if (!sale) return null;
      return statusOf(sale);
    },
  };
}

type Ids = { paymentId: string; refundId: string };

function refundIds(input: RefundRequest): Ids | null {
  const paymentId = providerId(input.paymentId);
  const refundId = providerId(input.refundId);
  return paymentId && refundId ? { paymentId, refundId } : null;
}

/**
 * Reads the sale and what was given back of it: `done` when our refund (a credit whose order id
 * is our refund id) or a void already stands, `sale` when nothing of ours did, `unknown` when
 * Braintree has no such sale, `failed` when it could not be asked.
 */
async function lookUp(gateway: braintree.BraintreeGateway, ids: Ids): Promise<
  | { kind: 'sale'; sale: braintree.Transaction }
  | { kind: 'done' | 'unknown' | 'failed'; outcome: RefundOutcome }
> {
  let sale: braintree.Transaction;
  try {
    sale = await gateway.transaction.find(ids.paymentId);
  } catch (error) {
    if (isNotFound(error)) return { kind: 'unknown', outcome: { status: 'refused', message: `Braintree has no transaction ${ids.paymentId}` } };
    return { kind: 'failed', outcome: failure(error) };
  }
  if (sale.type !== 'sale') return { kind: 'unknown', outcome: { status: 'refused', message: `transaction ${ids.paymentId} is not a sale` } };
  for (const id of sale.refundIds ?? []) {
    const refundId = providerId(id);
    if (!refundId) continue;
    let credit: braintree.Transaction;
    try {
      credit = await gateway.transaction.find(refundId);
    } catch (error) {
      return { kind: 'failed', outcome: failure(error) };
    }
    if (credit.orderId === ids.refundId && REFUND_STANDS.has(credit.status)) return { kind: 'done', outcome: { status: 'confirmed', providerRefundId: refundId, action: 'refund' } };
  }
  if (sale.status === 'voided') return { kind: 'done', outcome: { status: 'confirmed', providerRefundId: ids.paymentId, action: 'void' } };
  return { kind: 'sale', sale };
}

/** The latest sale Braintree holds for an order (any status), or null. */
async function latestSale(gateway: braintree.BraintreeGateway, orderId: string): Promise<braintree.Transaction | null> {
  let latest: braintree.Transaction | null = null;
  const stream = gateway.transaction.search((search) => search.orderId().is(orderId));
  try {
    for await (const item of stream as AsyncIterable<braintree.Transaction | null | undefined>) {
      if (item && item.type === 'sale' && item.orderId === orderId) latest = item;
    }
  } catch (error) {
    throw new Error(`braintree: transaction search for order ${orderId} failed (${describe(error)})`);
  } finally {
    stream.on('error', () => {});
    stream.destroy();
  }
  return latest;
}

/** A sale's status and the facts the desk shows, in Braintree's terms. */
function statusOf(sale: braintree.Transaction): PaymentStatus {
  const facts: Record<string, string> = {};
  const id = providerId(sale.id);
  if (id) facts['transaction id'] = id;
  const money = readMoney(sale.amount, sale.currencyIsoCode);
  if (money) facts.amount = `${toDecimal(money.amount, minorDigits(money.currency))} ${money.currency}`;
  const display = displayOf(sale);
  if (display.brand) facts.brand = display.brand;
  if (display.last4) facts.last4 = display.last4;
  if (sale.createdAt) facts.created = String(sale.createdAt);
  const last = sale.statusHistory?.at(-1);
  if (last?.status) facts['last status change'] = `${last.status} at ${String(last.timestamp)}`;
  const refunds = (sale.refundIds ?? []).map((r) => providerId(r)).filter((r): r is string => !!r);
  if (refunds.length) facts['refund ids'] = refunds.join(', ');
  const batch = providerId(sale.settlementBatchId);
  if (batch) facts['settlement batch'] = batch;
  return { status: String(sale.status), facts };
}

function isNotFound(error: unknown): boolean {
  return (error as { type?: unknown } | null)?.type === 'notFoundError';
}

/** A call that could not be made or read: whether Braintree acted is unknown. */
function failure(error: unknown): RefundOutcome {
  return { status: 'unavailable', message: describe(error) };
}

/** Why Braintree refused a void or refund: its validation errors ("91506: Cannot refund …"), else its message. */
function refusalMessage(result: SaleResponse): string | null {
  const errors = result.errors?.deepErrors().map((e) => `${e.code}: ${e.message}`) ?? [];
  if (errors.length) return errors.join('; ');
  const tx = result.transaction as braintree.Transaction | undefined;
  return result.message || tx?.processorResponseText || tx?.status || null;
}

type SaleResponse = braintree.ValidatedResponse<braintree.Transaction>;

/**
 * What a sale pays with. A renewal sells the vaulted token as a merchant-initiated recurring
 * payment (`transactionSource: recurring`); a first payment that keeps its method for renewals is
 * the first of the series (`recurring_first`), so card networks treat the renewals as such.
 */
function paymentMethodOf(input: CardSale): Pick<braintree.TransactionRequest, 'paymentMethodNonce' | 'paymentMethodToken' | 'transactionSource'> {
  if (input.token) return { paymentMethodToken: input.token, transactionSource: 'recurring' };
  return { paymentMethodNonce: input.nonce, ...(input.vault ? { transactionSource: 'recurring_first' as const } : {}) };
}

/** What a sale's answer means for checkout (exported for tests of odd answers). */
export function mapSale(result: SaleResponse, input: Pick<CardSale, 'orderId' | 'vault' | 'token'>): CardSaleResult {
  const tx = result.transaction as braintree.Transaction | undefined;
  if (result.success) {
    const money = tx ? readMoney(tx.amount, tx.currencyIsoCode) : null;
    // The transaction id becomes the order's payment id: only one of an id's shape goes further.
    const paymentId = providerId(tx?.id);
    if (!tx || !paymentId || !money) {
      // Success without a readable transaction is nonsense we cannot settle on; its id (if any)
      // and our order id let someone find and void it.
      log().error(`[braintree] sale for order ${input.orderId} answered success without a readable transaction (id ${JSON.stringify(tx?.id ?? null).slice(0, 120)})`);
      return { ok: false, code: 'unavailable', message: 'unreadable transaction' };
    }
    const paid = { ok: true as const, paymentId, money, display: displayOf(tx) };
    if (!input.vault || input.token) return paid;
    const vaultToken = vaultTokenOf(tx);
    // The money is taken either way; without a token the subscription cannot renew by itself.
    if (!vaultToken) log().warn(`[braintree] sale ${tx.id} for order ${input.orderId} was paid but its ${tx.paymentInstrumentType ?? 'payment method'} was not vaulted`);
    return { ...paid, vaultToken };
  }
  if (tx?.status === 'processor_declined') return { ok: false, code: 'declined', message: tx.processorResponseText || null };
  if (tx?.status === 'gateway_rejected') return { ok: false, code: 'rejected', message: tx.gatewayRejectionReason ?? null };
  return refusalOf(result);
}

/** What a vaulting's answer means (exported for tests of odd answers). */
export function mapVault(result: braintree.ValidatedResponse<braintree.Customer>): CardVaultResult {
  if (result.success) {
    const method = result.customer ? vaultedMethodOf(result.customer) : null;
    if (!method) return { ok: false, code: 'unavailable', message: 'no payment method in the answer' };
    return { ok: true, ...method };
  }
  // A failed verification comes back beside the errors, as a plain object (ErrorResponse copies it).
  const verification = (result as { verification?: { status?: string; processorResponseText?: string; gatewayRejectionReason?: string } }).verification;
  if (verification?.status === 'processor_declined') return { ok: false, code: 'declined', message: verification.processorResponseText || null };
  if (verification?.status === 'gateway_rejected') return { ok: false, code: 'rejected', message: verification.gatewayRejectionReason || null };
  return refusalOf(result);
}

/** A refusal by validation errors: the nonce or token, the kind of method, or anything else (unavailable). */
function refusalOf(result: braintree.ValidatedResponse<braintree.Transaction> | braintree.ValidatedResponse<braintree.Customer>): { ok: false; code: 'nonce' | 'rejected' | 'unavailable'; message: string | null } {
  const codes = result.errors?.deepErrors().map((e) => ({ code: String(e.code), message: e.message })) ?? [];
  const nonce = codes.find((e) => NONCE_ERRORS.has(e.code));
  if (nonce) return { ok: false, code: 'nonce', message: nonce.message };
  const refused = codes.find((e) => METHOD_REFUSED_ERRORS.has(e.code));
  if (refused) return { ok: false, code: 'rejected', message: refused.message };
  // Status "failed" (processor unavailable), our own invalid parameters, anything unforeseen.
  return { ok: false, code: 'unavailable', message: result.message || null };
}

type Display = { brand: string | null; last4: string | null };

/** Brand and last four for the receipt; never more (no BIN, no expiry, no name). */
function displayOf(tx: braintree.Transaction): Display {
  switch (tx.paymentInstrumentType) {
    case 'credit_card':
      return { brand: tx.creditCard?.cardType || null, last4: tx.creditCard?.last4 || null };
    case 'paypal_account':
      return walletDisplay('paypal_account', undefined);
    case 'android_pay_card':
      return walletDisplay('android_pay_card', tx.androidPayCard);
    case 'apple_pay_card':
      return walletDisplay('apple_pay_card', tx.applePayCard);
    default:
      return { brand: null, last4: null };
  }
}

/** A wallet shows its name and the last four its owner knows it by (none for PayPal). */
function walletDisplay(type: 'paypal_account' | 'android_pay_card' | 'apple_pay_card', card: { sourceCardLast4?: string; last4?: string } | undefined): Display {
  switch (type) {
    case 'paypal_account':
      return { brand: WALLET_BRAND.paypal_account!, last4: null };
    case 'android_pay_card':
      // Google Pay reports the card on file (source) and a virtual number; the reader knows the
      // first. The SDK's own `last4` is the virtual one.
      return { brand: WALLET_BRAND.android_pay_card!, last4: card?.sourceCardLast4 || null };
    case 'apple_pay_card':
      // Apple Pay reports only the device account number, which Wallet also shows.
      return { brand: WALLET_BRAND.apple_pay_card!, last4: card?.last4 || null };
  }
}

/** The token of the payment method a sale vaulted (`storeInVaultOnSuccess`), null when none was kept. */
function vaultTokenOf(tx: braintree.Transaction): string | null {
  const method = {
    credit_card: tx.creditCard,
    paypal_account: tx.paypalAccount,
    android_pay_card: tx.androidPayCard,
    apple_pay_card: tx.applePayCard,
  }[tx.paymentInstrumentType as string] as { token?: string | null } | undefined;
  // The token is stored for the renewals: only one of an id's shape goes further.
  return providerId(method?.token);
}

/** The payment method a new customer holds (one nonce makes one), with the same display as a sale's. */
function vaultedMethodOf(customer: braintree.Customer): { token: string; display: Display } | null {
  const found = (() => {
    const card = customer.creditCards?.[0];
    if (card?.token) return { token: card.token, display: { brand: card.cardType || null, last4: card.last4 || null } };
    const paypal = customer.paypalAccounts?.[0];
    if (paypal?.token) return { token: paypal.token, display: walletDisplay('paypal_account', undefined) };
    const googlePay = customer.androidPayCards?.[0];
    if (googlePay?.token) return { token: googlePay.token, display: walletDisplay('android_pay_card', googlePay) };
    const applePay = customer.applePayCards?.[0];
    if (applePay?.token) return { token: applePay.token, display: walletDisplay('apple_pay_card', applePay) };
    return null;
  })();
  // The token is stored for the renewals: only one of an id's shape goes further.
  const token = providerId(found?.token);
  return found && token ? { token, display: found.display } : null;
}

function environmentOf(env: BraintreeOptions['environment']): braintree.Environment {
  if (env === 'sandbox') return braintree.Environment.Sandbox;
  if (env === 'production') return braintree.Environment.Production;
  // The SDK connects to `server:port` over http or https (lib/braintree/http.js); the auth and
  // GraphQL URLs are not used by the calls made here.
  return new braintree.Environment(env.host, String(env.port), `http://${env.host}:${env.port}`, env.ssl, env.host, String(env.port));
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    const type = (error as Error & { type?: string }).type;
    return type && type !== error.message ? `${type}: ${error.message}` : error.message;
  }
  // The SDK's ErrorResponse (a 422 to a search) is not an Error but carries a message.
  const message = (error as { message?: unknown } | null)?.message;
  return typeof message === 'string' && message ? message : 'unknown error';
}

/** Decimal places of a currency's minor unit (USD and BRL 2, JPY 0), as Intl knows them. */
export function minorDigits(currency: string): number {
  return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
}

/** 499 (2 digits) -> "4.99"; integer string work only, no floating point. */
export function toDecimal(amount: number, digits: number): string {
  if (!Number.isSafeInteger(amount) || amount <= 0) throw new RangeError(`amount must be a positive integer in minor units, got ${amount}`);
  if (digits === 0) return String(amount);
  const s = String(amount).padStart(digits + 1, '0');
  return `${s.slice(0, -digits)}.${s.slice(-digits)}`;
}

/** "4.99" + "USD" -> { amount: 499, currency: 'USD' }; null when it is not a plain decimal. */
export function readMoney(decimal: unknown, currency: unknown): Money | null {
  if (typeof decimal !== 'string' || typeof currency !== 'string' || !/^[A-Za-z]{3}$/.test(currency)) return null;
  const code = currency.toUpperCase();
  const m = /^(\d+)(?:\.(\d+))?$/.exec(decimal.trim());
  if (!m) return null;
  const digits = minorDigits(code);
  let fraction = m[2] ?? '';
  // More places than the currency has are fine only when they are zeros ("4.990").
  if (fraction.length > digits) {
    if (!/^0*$/.test(fraction.slice(digits))) return null;
    fraction = fraction.slice(0, digits);
  }
  const amount = Number(m[1]! + fraction.padEnd(digits, '0'));
  return Number.isSafeInteger(amount) ? { amount, currency: code } : null;
}
