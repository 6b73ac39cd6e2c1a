/** The browser-safe door of the wallet feature. */
export { UNLOCK_NOTICES, type UnlockNotice } from './notices';
export { DIALOG_MESSAGES, type DialogConfig } from './unlock-dialog';
export { initUnlockButtons } from './unlock.client';
