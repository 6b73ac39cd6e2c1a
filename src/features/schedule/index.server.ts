/** The server door of the schedule feature: what pages and other features may use. */
export { loadCalendar } from './calendar.server';
export { seriesFeed, siteFeed } from './feeds.server';
export { latestJson, loadLatestUpdates, sharedLatestUpdates } from './latest.server';
export { relayRoute } from './relay.server';
export { loadSchedule, sharedSchedule } from './schedule.server';
