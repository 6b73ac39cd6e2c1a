/** The server door of the subscriptions feature: plans, subscribing, slots, access, the renewal command. */
export {
  GRACE_DAYS, PENDING_GIVE_UP_SECONDS, RENEW_AHEAD_SECONDS, accessEnd, addComic, cancelSubscription, giveUpSubscription, isLive, keepPaymentToken, mySubscriptions,
  periodStartingAt, planFor, planView, plansPage, startSubscription, subscriptionAccess, type AddComicBody, type PlanRow, type PlanView, type Started,
  type SubscriptionAccess, type SubscriptionRow,
} from './subscriptions.server';
export { parseTaxDocument } from './documents';
export { advanceSubscriptions, dueRenewals, type DueRenewal } from './renew.server';
export { listPlans, planProblem, savePlan, seedPlans, type PlanValues } from './plans.server';
export { addComicByForm, addComicRoute } from './add-comic.server';
export { grantPaidPeriod } from './moves.server';
