/** The subscriptions door for pages: the subscription checkout island and the names of its messages. */
export { SubscribeCheckout, type SubscribeCheckoutProps } from './SubscribeCheckout';
export { SUBSCRIBE_MESSAGES, type SubscribeMessages } from './checkout-flow';
