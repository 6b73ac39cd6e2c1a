/** The browser-safe door of the subscriptions feature: the status poll interval, periods, the subscribe notice, what /my/subscriptions/ says of a subscription, the copy buttons. */
export { STATUS_POLL_MS } from './checkout-flow';
export { addMonths, planMonth } from './periods';
export { parseNotice } from './subscribe-button';
export { rentalsRefillAt, subscriptionStatusView } from './status-view';
export { initCopyButtons } from './copy-code.client';
