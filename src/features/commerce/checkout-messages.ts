/**
 * The checkout island's messages: its own short names, each mapped to a catalogue key. The page
 * hands the island their ICU sources (it formats totals and countdowns it only learns in the
 * browser).
 */
export const CHECKOUT_MESSAGES = {
  'coupon.label': 'checkout.coupon.label',
  'coupon.apply': 'checkout.coupon.apply',
  'coupon.applied': 'checkout.coupon.applied',
  'summary.discount': 'checkout.summary.discount',
  'summary.total': 'checkout.summary.total',
  'method.legend': 'checkout.method.legend',
  'method.card': 'checkout.method.card',
  'method.paypal': 'checkout.method.paypal',
  'method.googlepay': 'checkout.method.googlepay',
  'method.applepay': 'checkout.method.applepay',
  'method.pix': 'checkout.method.pix',
  'card.legend': 'checkout.card.legend',
  'card.sandbox': 'checkout.card.sandbox',
  'card.number': 'checkout.card.number',
  'card.expiry': 'checkout.card.expiry',
  'card.cvv': 'checkout.card.cvv',
  'wallet.sandbox': 'checkout.wallet.sandbox',
  'pix.title': 'checkout.pix.title',
  'pix.code': 'checkout.pix.code',
  'pix.copy': 'checkout.pix.copy',
  'pix.copied': 'checkout.pix.copied',
  'pix.expiresIn': 'checkout.pix.expiresIn',
  'pix.waiting': 'checkout.pix.waiting',
  'pix.paid': 'checkout.pix.paid',
  'pix.expired': 'checkout.pix.expired',
  'pix.error': 'checkout.pix.error',
  'pix.close': 'checkout.pix.close',
  'pix.noQr': 'checkout.pix.noQr',
  'submit.pay': 'checkout.submit.pay',
  'submit.processing': 'checkout.submit.processing',
  'error.coupon': 'purchase.error.couponNotApplied',
  'error.method': 'purchase.error.method',
  'error.widget': 'checkout.error.widget',
  'error.network': 'checkout.error.network',
  'error.status': 'checkout.error.status',
  'error.dismiss': 'checkout.error.dismiss',
} as const;

export type CheckoutMessages = Record<keyof typeof CHECKOUT_MESSAGES, string>;
