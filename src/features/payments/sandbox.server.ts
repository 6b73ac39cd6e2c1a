/**
 * The door of the demo's payment sandboxes (docs/payments.md, "The card sandbox", "The Pix
 * sandbox"): the test-card nonce call, playing the Pix payer and delivering its signed webhooks,
 * and the sandbox providers themselves for the tests and the seeded simulation. Only the demo's
 * routes, `npm run payments -- pay`, the benches and the tests use it; production reaches none of
 * it (`sandboxesReachable()` in the main door).
 */
export { createSandboxCardProvider, issueNonce, SANDBOX_CARDS, type NonceProblem } from './card/sandbox.server';
export { createSandboxPixProvider, deliverWebhook, paySandboxCharge, sandboxEventBody, WEBHOOK_SIGNATURE_HEADER } from './pix/sandbox.server';
export { signWebhook } from './webhook.server';
export { sandboxWebhookKey } from './pix/sandbox-key.server';
