/** The browser-safe door of the payments feature: the card widget both checkouts use (Braintree's Drop-in on demand, or the sandbox). */
export { CardFieldError, useCardWidget } from './card/card-widget';
export { cardFieldId, SandboxCardFields } from './card/SandboxCardFields';
export { cardProblem, type CardField } from './card/card-format';
export { PAYMENT_WIDGET_MESSAGES } from './widget-messages';
