/**
 * The seams for payment providers (docs/payments.md). Checkout code talks only to these two
 * interfaces; which implementation answers is configuration (the local sandboxes by default,
 * Braintree for card-type methods and a Pix PSP in production).
 *
 * Amounts are integers in minor units (cents, centavos) with an ISO 4217 currency, everywhere.
 * A provider never decides what an order costs: the server computes the amount and hands it over.
 * No call here runs inside a database transaction that moves keys: providers are network calls.
 */

/** Card-type methods (the card wallet). Pix is not one of them. */
export type CardMethod = 'card' | 'paypal' | 'googlepay' | 'applepay';
export const CARD_METHODS: readonly CardMethod[] = ['card', 'paypal', 'googlepay', 'applepay'];

export interface Money {
  /** Minor units (cents), a safe non-negative integer. */
  amount: number;
  /** ISO 4217, upper case: 'USD', 'BRL'. */
  currency: string;
}

/** What the browser widget needs to start (no secret in it). */
export interface CardWidgetConfig {
  /** `none`: no card-type method is offered (no provider configured), so no widget loads. */
  provider: 'sandbox' | 'braintree' | 'none';
  /** Braintree: a client token from the gateway; the sandbox: null. */
  clientToken: string | null;
}

export interface CardSale {
  /** Our order's public id (also sent to the provider as its order id). */
  orderId: string;
  /** The reader paying: a nonce obtained by another reader is refused (the sandbox binds nonces to readers). */
  readerId: number;
  money: Money;
  /** Single-use payment method nonce from the widget; ignored when `token` is given. */
  nonce: string;
  /**
   * A reusable payment method the provider vaulted earlier (a subscription's renewal): sold
   * instead of `nonce`, as a merchant-initiated recurring payment.
   */
  token?: string;
  /**
   * Keep the nonce's payment method for later sales (a subscription's first payment): a successful
   * result carries its `vaultToken`, null when the provider would not keep it (a one-time PayPal
   * approval, say).
   */
  vault?: boolean;
  /** Device data from the widget (fraud tools); passed through untouched. */
  deviceData: string | null;
}

export type CardSaleResult =
  /**
   * `paymentId`: the provider's transaction id (idempotency of the confirmation rests on it).
   * `vaultToken`: the reusable payment method when the sale asked to vault it.
   */
  | { ok: true; paymentId: string; money: Money; display: { brand: string | null; last4: string | null }; vaultToken?: string | null }
  /**
   * declined: the processor (bank) said no; rejected: the gateway refused (fraud rules, CVV,
   * AVS) or will not take this kind of payment method; nonce: the nonce is unknown, used or
   * expired, or the vaulted token is unknown (a new payment method is needed); unavailable: the
   * provider could not be reached or answered nonsense (nothing is known to have been charged).
   */
  | { ok: false; code: 'declined' | 'rejected' | 'nonce' | 'unavailable'; message: string | null };

export type CardVaultResult =
  | { ok: true; token: string; display: { brand: string | null; last4: string | null } }
  | { ok: false; code: 'declined' | 'rejected' | 'nonce' | 'unavailable'; message: string | null };

export interface CardProvider {
  readonly id: 'sandbox' | 'braintree';
  /** What the widget needs for a payment in `currency` (Braintree: a client token for its merchant account). */
  widgetConfig(currency?: string): Promise<CardWidgetConfig>;
  /** Charges the nonce for exactly `money` and settles it. */
  sale(input: CardSale): Promise<CardSaleResult>;
  /**
   * Keeps the nonce's payment method for later sales without charging it (a trial's renewals):
   * a nonce this provider did not issue, issued to another reader, used or expired is refused,
   * as is a card the bank declines when verified.
   */
  vault(input: { readerId: number; nonce: string; deviceData: string | null }): Promise<CardVaultResult>;
  /**
   * The successful sale made for one of our orders, or null when there is none: the reconciler
   * asks when a process stopped between a sale and its confirmation.
   */
  findSale(orderId: string): Promise<Extract<CardSaleResult, { ok: true }> | null>;
  /**
   * Gives a sale back: voids it while it has not settled (whole only; a part of an unsettled sale
   * is refused, to be asked again once it settles), refunds it after. Safe to repeat with the same
   * refund id.
   */
  refund(input: RefundRequest): Promise<RefundOutcome>;
  /** What became of a refund asked before (a crash between asking and recording): null when the provider never received it. */
  findRefund(input: RefundRequest): Promise<RefundOutcome | null>;
  /** The sale made for one of our orders (or subscription charges), as the gateway sees it now; null when it has none. */
  paymentStatus(input: { orderId: string; paymentId: string | null }): Promise<PaymentStatus | null>;
}

/**
 * Giving a payment back, in whole or in part (docs/payments.md, "Refunds"). Our refund's public
 * id is the provider's idempotency key where it has one (Woovi's correlationID, Braintree's order
 * id on the refund), so asking twice never refunds twice, and `findRefund` can tell, after a
 * crash, whether the first request reached the provider.
 */
export interface RefundRequest {
  /** Our refund's public id. */
  refundId: string;
  /** The provider's id of the payment to give back (a transaction id, a Pix end-to-end id). */
  paymentId: string;
  /** What to give back: the whole payment or less, never more. */
  money: Money;
  /** Whether `money` is the whole payment (a card sale not yet settled can only be voided whole). */
  whole: boolean;
}

export type RefundOutcome =
  /** The provider gave the money back (`void`: the sale was cancelled before it settled). */
  | { status: 'confirmed'; providerRefundId: string; action: 'void' | 'refund' }
  /** The provider took the request and will finish it later (a Pix refund in processing): ask again. */
  | { status: 'pending'; providerRefundId: string | null }
  /** The provider said no (nothing was given back): `message` says why, for staff. */
  | { status: 'refused'; message: string | null }
  /** The provider could not be reached or answered nonsense: whether it refunded is unknown, ask again. */
  | { status: 'unavailable'; message: string | null };

/** A payment as its provider sees it now, for the support desk (fetched on demand, never stored). */
export interface PaymentStatus {
  /** The provider's own word for it ('settled', 'submitted_for_settlement', 'COMPLETED', …). */
  status: string;
  /** A few facts worth showing staff: amounts, dates, refund ids; label → value, in the provider's terms. */
  facts: Record<string, string>;
}

/** A Pix charge's state at the PSP (Woovi/OpenPix names). */
export type PixStatus = 'ACTIVE' | 'COMPLETED' | 'EXPIRED';

export interface PixChargeRequest {
  /** Our idempotency key for the charge: creating it twice gives the same charge. */
  correlationID: string;
  /** BRL cents. */
  value: number;
  /** Seconds until the charge can no longer be paid. */
  expiresIn: number;
  /** Shown to the payer in their bank app. */
  comment?: string;
}

export interface PixCharge {
  correlationID: string;
  value: number;
  status: PixStatus;
  /** The BR Code "copia e cola" payload. */
  brCode: string;
  /** Unix seconds. */
  expiresAt: number;
  /** The PSP's id of the payment once paid (its end-to-end id or transaction id), else null. */
  paymentId: string | null;
}

/** A verified webhook event about a charge; its ids have the shape `providerId` (ids.ts) allows. */
export interface PixEvent {
  correlationID: string;
  status: PixStatus;
  /** What was paid, in cents (COMPLETED), else the charge value. */
  value: number;
  paymentId: string | null;
}

/**
 * What closing a charge found: `closed`, it can no longer be paid (closed now or before, or
 * expired); `paid`, it was paid before it could be closed (the payment stands and must be
 * confirmed); `unknown`, the PSP has no such charge.
 */
export type PixCloseResult = 'closed' | 'paid' | 'unknown';

/**
 * A webhook delivery as the provider read it: not shown to be the PSP's (a missing or wrong
 * signature: refused), or the PSP's, with the charge event it carries, or null when it carries
 * none we act on (another kind of event, a body that does not parse, an id of a shape no charge
 * has: acknowledged and ignored, so the PSP does not retry it).
 */
export type PixWebhook = { verified: false } | { verified: true; event: PixEvent | null };

export interface PixProvider {
  readonly id: 'sandbox' | 'openpix';
  createCharge(input: PixChargeRequest): Promise<PixCharge>;
  /** The charge as the PSP sees it now; null when it does not know it. */
  getCharge(correlationID: string): Promise<PixCharge | null>;
  /**
   * Makes an unpaid charge unpayable at the PSP (a reader who starts another charge abandons
   * this one). Safe to repeat. Throws, like the other calls, when the PSP cannot be reached or
   * answers nonsense: the charge may still be payable, so ask again or keep watching it.
   */
  closeCharge(correlationID: string): Promise<PixCloseResult>;
  /** Checks a webhook delivery's signature over its raw body, then reads it (ids through `providerId`, ids.ts). */
  verifyWebhook(rawBody: Buffer, headers: Headers): PixWebhook;
  /** Gives a Pix payment back (Woovi: its refund call, keyed by our refund id); safe to repeat. */
  refund(input: RefundRequest): Promise<RefundOutcome>;
  /** What became of a refund asked before; null when the PSP never received it. */
  findRefund(input: RefundRequest): Promise<RefundOutcome | null>;
  /** The charge behind one of our orders (or subscription charges), as the PSP sees it now; null when it has none. */
  paymentStatus(input: { orderId: string; paymentId: string | null }): Promise<PaymentStatus | null>;
}
