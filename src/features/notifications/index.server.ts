/** The server door of the notifications feature (docs/notifications.md). */
export { fanOutReleases, maybeFanOutReleases } from './fanout.server';
export { type InboxItem, loadInbox, markAllRead, markRead } from './inbox.server';
export { CATEGORIES, loadPrefs, notifyReader } from './prefs.server';
export { saveSettings, shownChannels } from './settings.server';
export { notificationsAccountData } from './account-data.server';
export { deliverDuePushes, maybeSendPushes, pushPublicKey, removePushSubscription, savePushSubscription, saveQuietHours } from './push.server';
export { SERVICE_WORKER_SOURCE } from './service-worker.server';
export { digestFrequency, FREQUENCIES, maybeSendDigests, sendDigests } from './digest.server';
export { communityText } from './community';
