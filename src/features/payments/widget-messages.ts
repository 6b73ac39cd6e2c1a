/**
 * The catalogue keys of the payment widget both checkouts show (key packs and subscriptions):
 * the method choice, the card sandbox's form, the Pix QR and code, and the widget's errors. Each
 * checkout spreads these into its own message map, so the two read alike and name them once.
 */
export const PAYMENT_WIDGET_MESSAGES = {
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
  'card.invalid.number': 'purchase.card.number',
  'card.invalid.expiry': 'purchase.card.expiry',
  'card.invalid.cvv': 'purchase.card.cvv',
  'wallet.sandbox': 'checkout.wallet.sandbox',
  'pix.title': 'checkout.pix.title',
  'pix.code': 'checkout.pix.code',
  'pix.copy': 'checkout.pix.copy',
  'pix.copied': 'checkout.pix.copied',
  'pix.expiresIn': 'checkout.pix.expiresIn',
  'pix.expired': 'checkout.pix.expired',
  'pix.noQr': 'checkout.pix.noQr',
  'error.widget': 'checkout.error.widget',
  'error.status': 'checkout.error.status',
  'error.dismiss': 'checkout.error.dismiss',
} as const;
