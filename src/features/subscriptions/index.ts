/** The browser-safe door of the subscriptions feature: document rules, periods, the countdown, what /my/subscriptions/ says of a subscription. */
export { isValidCnpj, isValidCpf, maskTaxDocument, onlyDocChars, parseTaxDocument, type TaxDocument } from './documents';
export { countdownParts, type CountdownParts } from './countdown';
export { addMonths, planMonth, type Period } from './periods';
export { subscriptionStatusView, type SubscriptionDateKind, type SubscriptionFacts, type SubscriptionStateView, type SubscriptionStatusView } from './status-view';
export { initCopyButtons } from './copy-code.client';
