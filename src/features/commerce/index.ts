/** The browser-safe door of the commerce feature: the purchase favorite stars of /my/purchases/, the payable states' names, which of them have a receipt. */
export { initPurchaseFavorites } from './purchase-favorite.client';
export { PAYABLE_STATE_LABELS } from './payable-states';
export { hasReceipt } from './receipts';
