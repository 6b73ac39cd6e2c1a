/** The browser-safe door of the payments feature: Braintree's Drop-in loader (imported on demand by the checkout). */
export { DROPIN_LOAD_TIMEOUT_MS, loadDropin, type DropinConfig } from './card/dropin.client';
