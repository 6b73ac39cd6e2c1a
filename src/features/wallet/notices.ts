/** Why a form unlock did not happen, as the reader page's `?unlock=` value (it shows the message). */
export const UNLOCK_NOTICES = ['insufficient', 'scheduled', 'region', 'unavailable', 'notOnSale', 'passUnavailable', 'rentUnavailable'] as const;
export type UnlockNotice = (typeof UNLOCK_NOTICES)[number];
