import { keyFor } from '~/server/secrets';

/** The key the Pix sandbox signs webhooks with (derived from the install's root secret). */
export function sandboxWebhookKey(): Buffer {
  return keyFor('payment-webhook');
}
