/** The server door of the wallet feature: keys, unlocks, grants, the ledger audit. */
export { balancesOf, creditPurchase, grantKeys, InsufficientKeys, type Balances, type Grant, type PurchaseCredit } from './ledger.server';
export { redeemAnswer, tForChapter, unlockByForm, unlockChapter, type FormWay, type RedeemAnswer, type UnlockResult } from './unlock.server';
export { entitlementsInSeries, holdingsInSeries, planRentalsUsed, type SeriesHoldings } from './entitlements.server';
export { auditLedger, type AuditFinding } from './audit.server';
export { chapterAccessFor, mayReadChapter, type ChapterAccessFor } from './access.server';
export { adStartAnswer, completeAd, rentalAnswer, rentWithPlan, startAd, useDailyPass, type AdClaim, type AdStart, type RentalResult } from './rentals.server';
export { KEYS_PAGE_SIZE, keysPage, type KeysEntry, type KeysPage } from './history.server';
