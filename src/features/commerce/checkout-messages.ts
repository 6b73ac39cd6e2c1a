/**
 * The checkout island's messages: its own short names, each mapped to a catalogue key. The page
 * hands the island their ICU sources (it formats totals and countdowns it only learns in the
 * browser).
 */
import { PAYMENT_WIDGET_MESSAGES } from '~/features/payments';

export const CHECKOUT_MESSAGES = {
  ...PAYMENT_WIDGET_MESSAGES,
  'coupon.label': 'checkout.coupon.label',
  'coupon.apply': 'checkout.coupon.apply',
  'coupon.applied': 'checkout.coupon.applied',
  'summary.discount': 'checkout.summary.discount',
  'summary.total': 'checkout.summary.total',
  'pix.waiting': 'checkout.pix.waiting',
  'pix.paid': 'checkout.pix.paid',
  'pix.error': 'checkout.pix.error',
  'pix.close': 'checkout.pix.close',
  'submit.pay': 'checkout.submit.pay',
  'submit.processing': 'checkout.submit.processing',
  'error.coupon': 'purchase.error.couponNotApplied',
  'error.method': 'purchase.error.method',
  'error.network': 'checkout.error.network',
} as const;

export type CheckoutMessages = Record<keyof typeof CHECKOUT_MESSAGES, string>;
