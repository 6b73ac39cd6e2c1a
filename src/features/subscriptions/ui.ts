/** The subscriptions feature's components for pages. */
export { default as SubscribeButton } from './SubscribeButton.astro';
