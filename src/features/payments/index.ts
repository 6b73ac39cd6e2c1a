/** The browser-safe door of the payments feature: the card widget both checkouts use (Braintree's Drop-in on demand, or the sandbox). */
export { DROPIN_LOAD_TIMEOUT_MS, loadDropin, type DropinConfig } from './card/dropin.client';
export { useCardWidget, type CardFields, type CardWidgetOptions } from './card/card-widget';
export { PAYMENT_WIDGET_MESSAGES } from './widget-messages';
