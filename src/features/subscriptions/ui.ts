/** The subscriptions door for pages: the subscribe button component, the subscription checkout island and the names of its messages. */
export { default as SubscribeButton } from './SubscribeButton.astro';
export { SubscribeCheckout } from './SubscribeCheckout';
export { SUBSCRIBE_MESSAGES, type SubscribeMessages as SubscribeCheckoutMessages } from './checkout-flow';
