/**
 * The server door of the payments feature: the configured providers and what a checkout needs of
 * them. The demo's sandboxes have a door of their own (sandbox.server.ts), which only the demo's
 * routes, commands and the tests use.
 */
import { config } from '~/server/config.mjs';
import { getDb } from '~/server/db';
import type { CardProvider, PixProvider } from './provider';
import { createSandboxCardProvider } from './card/sandbox.server';
import { createBraintreeProvider } from './card/braintree.server';
import { createSandboxPixProvider } from './pix/sandbox.server';
import { sandboxWebhookKey } from './pix/sandbox-key.server';
import { createOpenPixProvider, webhookChecks } from './pix/openpix.server';

export type { CardMethod, CardProvider, CardVaultResult, CardWidgetConfig, PaymentStatus, PixCharge, PixProvider, RefundOutcome, RefundRequest } from './provider';
export { CARD_METHODS } from './provider';
export { qrSvg } from './pix/qr.server';
export { parseBrCode } from './pix/brcode';

let card: CardProvider | undefined;
let pix: PixProvider | undefined;
let substitutes: { card?: CardProvider; pix?: PixProvider } | null = null;

/**
 * Providers to use instead of the configured ones, for the tests and the seeded simulation (which
 * run the sandboxes on their own database and clock); null goes back to the configuration.
 */
export function useProviders(p: { card?: CardProvider; pix?: PixProvider } | null): void {
  substitutes = p;
}

/**
 * Which kinds of payment this install takes: a kind is offered only when a provider is
 * configured for it (in a demo, the sandboxes; in production, the real providers only).
 */
export function paymentsOffered(): { card: boolean; pix: boolean } {
  return { card: !!substitutes?.card || config.payments.card !== 'none', pix: !!substitutes?.pix || config.payments.pix !== 'none' };
}

/** Thrown when a caller asks for a provider this install does not have (check `paymentsOffered` first). */
class PaymentsNotConfigured extends Error {}

/** Whether the demo's sandboxes (test cards, the Pix stand-in, their routes and commands) may be reached at all. */
export function sandboxesReachable(): { card: boolean; pix: boolean } {
  const demo = config.mode === 'demo';
  return { card: demo && config.payments.card === 'sandbox', pix: demo && config.payments.pix === 'sandbox' };
}

/** The provider for card-type methods this install is configured with (one per process). */
export function cardProvider(): CardProvider {
  if (substitutes?.card) return substitutes.card;
  if (config.payments.card === 'none') throw new PaymentsNotConfigured('no card provider is configured (PAYMENTS_CARD)');
  // Production never runs a sandbox, even if the start-up check were bypassed.
  if (config.payments.card === 'sandbox' && config.mode !== 'demo') throw new PaymentsNotConfigured('the card sandbox runs in a demo only');
  const bt = config.payments.braintree;
  card ??= bt
    ? createBraintreeProvider({ environment: bt.environment, merchantId: bt.merchantId, publicKey: bt.publicKey, privateKey: bt.privateKey, merchantAccountIds: Object.keys(bt.merchantAccounts).length ? bt.merchantAccounts : undefined })
    : createSandboxCardProvider(getDb);
  return card;
}

/** The Pix provider this install is configured with (one per process). */
export function pixProvider(): PixProvider {
  if (substitutes?.pix) return substitutes.pix;
  if (config.payments.pix === 'none') throw new PaymentsNotConfigured('no Pix provider is configured (PAYMENTS_PIX)');
  if (config.payments.pix === 'sandbox' && config.mode !== 'demo') throw new PaymentsNotConfigured('the Pix sandbox runs in a demo only');
  const op = config.payments.openpix;
  if (op) {
    pix ??= createOpenPixProvider({
      baseUrl: op.baseUrl,
      appId: op.appId,
      // Woovi's RSA signature always; a webhook secret adds its HMAC check, never replaces it.
      webhook: webhookChecks(op),
    });
  }
  pix ??= createSandboxPixProvider(getDb, {
    pixKey: config.payments.pixKey,
    merchantName: config.payments.pixMerchantName,
    merchantCity: config.payments.pixMerchantCity,
    webhookKey: sandboxWebhookKey(),
  });
  return pix;
}
