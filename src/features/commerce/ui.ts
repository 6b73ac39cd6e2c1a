/** The commerce door for pages: the checkout island and the names of its messages. */
export { Checkout } from './Checkout';
export { CHECKOUT_MESSAGES, type CheckoutMessages } from './checkout-messages';
export { default as PurchaseReceipt } from './PurchaseReceipt.astro';
