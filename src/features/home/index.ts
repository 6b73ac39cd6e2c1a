/** The browser-safe door of the home feature: what pages and other features may use. */
export { initReels } from './reel.client';
export { updatesPage } from './browse';
