/** The browser-safe door of the reader feature: what pages and other features may use. */
export { MODES, modeStorageKey } from './modes';
export { initReader } from './reader.client';
