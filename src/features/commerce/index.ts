/** The browser-safe door of the commerce feature: the rules the checkout island shares with the server. */
export { COUPON_MAX_LENGTH, COUPON_PATTERN, MIN_TOTAL, formatMoney, isCouponCode, methodsFor, normalizeCoupon, type PaymentMethod } from './rules';
export { initPurchaseFavorites } from './purchase-favorite.client';
