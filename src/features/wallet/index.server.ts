/** The server door of the wallet feature: keys, unlocks, grants, the ledger audit. */
export { InsufficientKeys, balancesOf, creditPurchase, grantKeys, grantKeysIn, lockReader, refundKeys, type Balances } from './ledger.server';
export { welcomeNewReader, welcomeXtraKeys } from './welcome.server';
export { redeemAnswer, tForChapter, unlockByForm, unlockChapter, type FormWay } from './unlock.server';
export { entitlementsInSeries, planRentalsOfMonth } from './entitlements.server';
export { auditLedger, lastAudit, recordAudit } from './audit.server';
export { chapterAccessFor, mayReadChapter } from './access.server';
export { adStartAnswer, completeAd, rentalAnswer, rentWithPlan, startAd, useDailyPass } from './rentals.server';
export { keysPage, type KeysEntry } from './history.server';
export { walletAccountData } from './account-data.server';
