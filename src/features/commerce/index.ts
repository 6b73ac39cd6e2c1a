/** The browser-safe door of the commerce feature: the purchase favorite stars of /my/purchases/. */
export { initPurchaseFavorites } from './purchase-favorite.client';
