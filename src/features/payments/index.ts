/** The browser-safe door of the payments feature: the card widget both checkouts use (Braintree's Drop-in on demand, or the sandbox). */
export { useCardWidget } from './card/card-widget';
export { PAYMENT_WIDGET_MESSAGES } from './widget-messages';
