/** The server door of the commerce feature: key packs, coupons, orders, checkout and the one payment confirmation. */
export { checkoutPage, purchasePage, purchasesPage, setPurchaseFavorite } from './shop-pages.server';
export { checkoutSubmit, couponAnswer, pixChargeAnswer, pixStatusAnswer, sandboxNonceAnswer } from './checkout.server';
export { pixWebhookAnswer } from './webhook.server';
export { reconcile } from './reconcile.server';
export { auditOrders } from './audit.server';
export { chargeForPeriod, closePayable, confirmPayment, createOrder } from './payables.server';
export { changeCoupon, changePack, couponById, couponProblem, couponProblems, listCoupons, listPacks, packById, packProblem, saveCoupon, savePack, seedShopRows, type CouponValues, type PackValues, type ShopProblem, type ShopSaveResult, type ShopSeed } from './shop.server';
export { plansCheckoutPage, subscribeWithCard, subscribeWithPix, subscriptionPage, subscriptionStatus } from './subscribe.server';
export { renewSubscriptions } from './renew.server';
export { maybeSettleDuePayments } from './settle.server';
export { withdrawPurchase, type RefundProblem } from './refunds.server';
export { deskDue, deskRefund, payableDesk, paymentsDesk, providerStatus, type DeskOutcome } from './desk.server';
export { receiptPage } from './receipts.server';
export { paymentFigures } from './figures.server';
export { commerceAccountData } from './account-data.server';
