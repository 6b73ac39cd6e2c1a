/** The server door of the payments feature: the configured providers and the sandboxes' own calls. */
import { config } from '~/server/config.mjs';
import { getDb } from '~/server/db';
import { keyFor } from '~/server/secrets';
import type { CardProvider, PixProvider } from './provider';
import { createSandboxCardProvider } from './card/sandbox.server';
import { createBraintreeProvider } from './card/braintree.server';
import { createSandboxPixProvider } from './pix/sandbox.server';
import { createOpenPixProvider, WOOVI_WEBHOOK_PUBLIC_KEY } from './pix/openpix.server';

export type { CardMethod, CardProvider, CardSaleResult, CardWidgetConfig, Money, PixCharge, PixEvent, PixProvider, PixStatus } from './provider';
export { CARD_METHODS } from './provider';
export { issueNonce, SANDBOX_CARDS, SANDBOX_CONSUMED_NONCE, SANDBOX_REJECTED_CVV, type NonceProblem } from './card/sandbox.server';
export { deliverWebhook, paySandboxCharge, sandboxEventBody, WEBHOOK_SIGNATURE_HEADER } from './pix/sandbox.server';
export { signWebhook } from './webhook.server';
export { qrSvg } from './pix/qr.server';
export { parseBrCode, type BrCodeParse } from './pix/brcode';

let card: CardProvider | undefined;
let pix: PixProvider | undefined;

/** The provider for card-type methods this install is configured with (one per process). */
export function cardProvider(): CardProvider {
  const bt = config.payments.braintree;
  card ??= bt
    ? createBraintreeProvider({ environment: bt.environment, merchantId: bt.merchantId, publicKey: bt.publicKey, privateKey: bt.privateKey, merchantAccountIds: Object.keys(bt.merchantAccounts).length ? bt.merchantAccounts : undefined })
    : createSandboxCardProvider(getDb);
  return card;
}

/** The Pix provider this install is configured with (one per process). */
export function pixProvider(): PixProvider {
  const op = config.payments.openpix;
  if (op) {
    pix ??= createOpenPixProvider({
      baseUrl: op.baseUrl,
      appId: op.appId,
      // Woovi signs every delivery with its published key; a webhook secret adds its HMAC check.
      webhook: { publicKeyPem: op.webhookPublicKey ?? (op.webhookSecret ? undefined : WOOVI_WEBHOOK_PUBLIC_KEY), hmacSecret: op.webhookSecret ?? undefined },
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

/** The key the Pix sandbox signs webhooks with (derived from the install's root secret). */
export function sandboxWebhookKey(): Buffer {
  return keyFor('payment-webhook');
}
