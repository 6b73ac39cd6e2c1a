/** The browser-safe door of the subscriptions feature: document rules, periods, the countdown, the subscribe button, what /my/subscriptions/ says of a subscription. */
export { isValidCnpj, isValidCpf, maskTaxDocument, onlyDocChars, parseTaxDocument, type TaxDocument } from './documents';
export { countdownParts, type CountdownParts } from './countdown';
export { STATUS_POLL_MS } from './checkout-flow';
export { addMonths, planMonth, type Period } from './periods';
export { SUBSCRIBE_NOTICES, SUBSCRIBE_RELOAD_MS, parseNotice, type SubscribeMessages, type SubscribeNotice } from './subscribe-button';
export { initSubscribeButtons } from './subscribe.client';
export { subscriptionStatusView, type SubscriptionDateKind, type SubscriptionFacts, type SubscriptionStateView, type SubscriptionStatusView } from './status-view';
export { initCopyButtons } from './copy-code.client';
