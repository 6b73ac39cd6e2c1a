/**
 * The part of `braintree-web-drop-in` (1.x, no types of its own) that dropin.client.ts uses.
 * @types/braintree-web-drop-in exists but lags the package and pulls in four more type
 * packages (braintree-web, googlepay, applepayjs, paypal-checkout-components) for two calls.
 */
declare module 'braintree-web-drop-in' {
  export interface PaymentMethodPayload {
    nonce: string;
    type: string;
    /** Present when `dataCollector` was enabled; may be empty when the collector did not load. */
    deviceData?: string;
  }
  export interface Dropin {
    requestPaymentMethod(): Promise<PaymentMethodPayload>;
    teardown(): Promise<void>;
  }
  export function create(options: Record<string, unknown>): Promise<Dropin>;
}
