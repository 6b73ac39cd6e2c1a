/** The server door of the commerce feature: key packs, coupons, orders, checkout and the one payment confirmation. */
export {
  auditOrders, checkoutPage, checkoutSubmit, couponAnswer, newRequestKey, pixChargeAnswer, pixStatusAnswer, pixWebhookAnswer, purchasePage, purchasesPage,
  reconcile, sandboxNonceAnswer, setPurchaseFavorite, PURCHASES_PAGE_SIZE, type CheckoutPage, type CheckoutResult, type CouponBody, type PackView, type PixBody, type PixStatusBody,
  type PurchaseRow, type ReconcileSummary,
} from './checkout.server';
export { closeOrder, confirmPayment, createOrder, findOrder, orderEvents, type ConfirmResult, type OrderRow, type PaymentConfirmation } from './orders.server';
export { couponProblem, listCoupons, listPacks, packProblem, saveCoupon, savePack, seedShopRows, type CouponValues, type PackValues, type ShopSeed } from './shop.server';
export { chargePeriodByCard, chargePeriodByPix, chargeStatus, chargesOf, type CardChargeAnswer, type ChargeRow, type PeriodToCharge, type PixChargeAnswer } from './billing.server';
export { plansCheckoutPage, subscribeWithCard, subscribeWithPix, subscriptionPage, subscriptionStatus, type SubscribeCheckoutModel, type SubscribePixBody } from './subscribe.server';
export { renewSubscriptions, type RenewSummary } from './renew.server';
export { maybeSettleDuePayments } from './settle.server';
