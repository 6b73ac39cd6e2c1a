/** The browser-safe door of the schedule feature: what pages and other features may use. */
export { REFRESH_MS } from './dates';
export { FEED_CACHE, FEED_TYPE } from './feeds';
export { initLatestRefresh } from './refresh.client';
export { refreshStatuses } from './schedule.client';
export { LATEST_UPDATES_PAGES, latestUpdatesPageSize, latestUpdatesPages } from './sizes';
