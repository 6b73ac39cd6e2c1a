/** The server door of the subscriptions feature: plans, subscribing, slots, access, the renewal command. */
export {
  GRACE_DAYS, RENEW_AHEAD_SECONDS, addComic, cancelSubscription, giveUpSubscription, keepPaymentToken, mySubscriptions, periodStartingAt, planFor, plansPage,
  startSubscription, subscriptionAccess, subscriptionPlanOf,
} from './subscriptions.server';
export { parseTaxDocument } from './documents';
export { advanceSubscriptions, dueRenewals } from './renew.server';
export { changePlan, listPlans, planById, planProblem, savePlan, seedPlans, type PlanProblem, type PlanValues } from './plans.server';
export { addComicByForm, addComicRoute } from './add-comic.server';
export { endSubscriptionForRefund, grantPaidPeriod } from './moves.server';
export { subscriptionsAccountData } from './account-data.server';
