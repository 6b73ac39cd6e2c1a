/** The browser-safe door of the wallet feature. */
export { UNLOCK_NOTICES, type UnlockNotice } from './notices';
export { keysEntryText, signedKeys } from './keys-words';
