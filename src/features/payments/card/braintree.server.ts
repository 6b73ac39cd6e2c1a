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
import type { CardProvider, CardVaultResult, CardSale, CardSaleResult, CardWidgetConfig, Money } from '~/features/payments/provider';
import { providerId } from '~/features/payments/ids';

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
 * Validation error codes on a sale that are about the nonce itself (the SDK's
 * ValidationErrorCodes.Transaction; Braintree's "All validation errors" reference): consumed,
 * unknown or expired, locked. A fresh nonce from the widget can fix these.
 */
const NONCE_ERRORS = new Set(['91564', '91565', '91566']);
/**
 * The nonce is fine but this merchant account will not take what it stands for (card type not
 * accepted, no valid instrument type): another method is needed, as for a gateway rejection.
 */
const METHOD_REFUSED_ERRORS = new Set(['91567', '91569']);

/**
 * Transaction statuses under which the money was taken or will be without anything more from us
 * (Braintree's Transaction.Status): authorized (a sale we asked to settle may sit here briefly),
 * submitted for settlement, settling, settlement pending, settled. Declined, rejected, failed,
 * voided, expired and settlement-declined ones took nothing.
 */
const MONEY_TAKEN = new Set(['authorized', 'submitted_for_settlement', 'settling', 'settlement_pending', 'settled']);

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
          paymentMethodNonce: input.nonce,
          ...(input.deviceData ? { deviceData: input.deviceData } : {}),
          orderId: input.orderId,
          ...(merchantAccountId ? { merchantAccountId } : {}),
          options: { submitForSettlement: true },
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
  };
}

type SaleResponse = braintree.ValidatedResponse<braintree.Transaction>;

/** What a sale's answer means for checkout (exported for tests of odd answers). */
export function mapSale(result: SaleResponse, input: Pick<CardSale, 'orderId'>): CardSaleResult {
  const tx = result.transaction as braintree.Transaction | undefined;
  if (result.success) {
    const money = tx ? readMoney(tx.amount, tx.currencyIsoCode) : null;
    // The transaction id becomes the order's payment id: only one of an id's shape goes further.
    const paymentId = providerId(tx?.id);
    if (!tx || !paymentId || !money) {
      // Success without a readable transaction is nonsense we cannot settle on; its id (if any)
      // and our order id let someone find and void it.
      console.error(`[braintree] sale for order ${input.orderId} answered success without a readable transaction (id ${JSON.stringify(tx?.id ?? null).slice(0, 120)})`);
      return { ok: false, code: 'unavailable', message: 'unreadable transaction' };
    }
    return { ok: true, paymentId, money, display: displayOf(tx) };
  }
  if (tx?.status === 'processor_declined') return { ok: false, code: 'declined', message: tx.processorResponseText || null };
  if (tx?.status === 'gateway_rejected') return { ok: false, code: 'rejected', message: tx.gatewayRejectionReason ?? null };
  const codes = result.errors?.deepErrors().map((e) => ({ code: String(e.code), message: e.message })) ?? [];
  const nonce = codes.find((e) => NONCE_ERRORS.has(e.code));
  if (nonce) return { ok: false, code: 'nonce', message: nonce.message };
  const refused = codes.find((e) => METHOD_REFUSED_ERRORS.has(e.code));
  if (refused) return { ok: false, code: 'rejected', message: refused.message };
  // Status "failed" (processor unavailable), our own invalid parameters, anything unforeseen.
  return { ok: false, code: 'unavailable', message: result.message || null };
}

/** What a vaulting's answer means (exported for tests of odd answers). */
export function mapVault(result: braintree.ValidatedResponse<braintree.Customer>): CardVaultResult {
  if (result.success) {
    const method = result.customer?.paymentMethods?.[0] as { token?: string; cardType?: string; last4?: string; email?: string } | undefined;
    // The token is stored for the renewals: only one of an id's shape goes further.
    const token = providerId(method?.token);
    if (!method || !token) return { ok: false, code: 'unavailable', message: 'no payment method in the answer' };
    return { ok: true, token, display: { brand: method.cardType ?? (method.email ? 'PayPal' : null), last4: method.last4 ?? null } };
  }
  const verification = (result as { verification?: { status?: string; processorResponseText?: string; gatewayRejectionReason?: string } }).verification;
  if (verification?.status === 'processor_declined') return { ok: false, code: 'declined', message: verification.processorResponseText ?? null };
  if (verification?.status === 'gateway_rejected') return { ok: false, code: 'rejected', message: verification.gatewayRejectionReason ?? null };
  const codes = result.errors?.deepErrors().map((e) => ({ code: String(e.code), message: e.message })) ?? [];
  const nonce = codes.find((e) => NONCE_ERRORS.has(e.code));
  if (nonce) return { ok: false, code: 'nonce', message: nonce.message };
  const refused = codes.find((e) => METHOD_REFUSED_ERRORS.has(e.code));
  if (refused) return { ok: false, code: 'rejected', message: refused.message };
  return { ok: false, code: 'unavailable', message: result.message || null };
}

/** Brand and last four for the receipt; never more (no BIN, no expiry, no name). */
function displayOf(tx: braintree.Transaction): { brand: string | null; last4: string | null } {
  switch (tx.paymentInstrumentType) {
    case 'credit_card':
      return { brand: tx.creditCard?.cardType || null, last4: tx.creditCard?.last4 || null };
    case 'paypal_account':
      return { brand: WALLET_BRAND.paypal_account!, last4: null };
    case 'android_pay_card':
      // Google Pay reports the card on file (source) and a virtual number; the reader knows the
      // first. The SDK's own `last4` is the virtual one.
      return { brand: WALLET_BRAND.android_pay_card!, last4: tx.androidPayCard?.sourceCardLast4 || null };
    case 'apple_pay_card':
      // Apple Pay reports only the device account number, which Wallet also shows.
      return { brand: WALLET_BRAND.apple_pay_card!, last4: tx.applePayCard?.last4 || null };
    default:
      return { brand: null, last4: null };
  }
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
