/** The browser-safe door of the reader feature: what pages and other features may use. */
export { defaultMode, MODES, modeStorageKey } from './modes';
export { DEFAULT_FIT, FIT_STORAGE_KEY, FITS, pageSizes } from './view';
export { initReader } from './reader.client';
