/** The browser-safe door of the search feature: what pages and other features may use. */
export { type OverlayConfig } from './overlay';
export type { OverlayController } from './overlay-entry';

/** The search overlay island, loaded on first use (it brings React; the header must not). */
export function loadSearchOverlay() {
  return import('./overlay-entry');
}
