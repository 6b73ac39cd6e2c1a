/** The subscriptions door for pages: the subscribe button component, the subscription checkout island and the names of its messages. */
export { default as SubscribeButton } from './SubscribeButton.astro';
export { SubscribeCheckout, type SubscribeCheckoutProps } from './SubscribeCheckout';
export { SUBSCRIBE_MESSAGES, type SubscribeMessages as SubscribeCheckoutMessages } from './checkout-flow';
