/** The server door of the commerce feature: key packs, coupons, orders, checkout and the one payment confirmation. */
export { checkoutPage, newRequestKey, purchasePage, purchasesPage, setPurchaseFavorite, PURCHASES_PAGE_SIZE, type CheckoutPage, type PackView, type PurchaseRow } from './shop-pages.server';
export { checkoutSubmit, couponAnswer, pixChargeAnswer, pixStatusAnswer, sandboxNonceAnswer, type CheckoutResult, type CouponBody, type PixBody, type PixStatusBody } from './checkout.server';
export { pixWebhookAnswer } from './webhook.server';
export { reconcile, type ReconcileSummary } from './reconcile.server';
export { auditOrders } from './audit.server';
export { closePayable, confirmPayment, createOrder, findOrder, orderEvents, type ConfirmResult, type OrderRow, type PaymentConfirmation } from './payables.server';
export { couponProblem, listCoupons, listPacks, packProblem, saveCoupon, savePack, seedShopRows, type CouponValues, type PackValues, type ShopSeed } from './shop.server';
export { chargePeriodByCard, chargePeriodByPix, chargeStatus, chargesOf, type CardChargeAnswer, type ChargeRow, type PeriodToCharge, type PixChargeAnswer } from './billing.server';
export { plansCheckoutPage, subscribeWithCard, subscribeWithPix, subscriptionPage, subscriptionStatus, type SubscribeCheckoutModel, type SubscribePixBody } from './subscribe.server';
export { renewSubscriptions, type RenewSummary } from './renew.server';
export { maybeSettleDuePayments } from './settle.server';
