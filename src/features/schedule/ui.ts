/** The Astro components of the schedule feature, for pages (a door of their own, because Node tools and tests import index.server.ts, which must not pull in .astro files). */
export { default as CampaignSlides } from './CampaignSlides.astro';
export { default as LatestUpdatesPage } from './LatestUpdatesPage.astro';
export { default as ReleaseItem } from './ReleaseItem.astro';
export { default as ScheduleBlock } from './ScheduleBlock.astro';
export { default as SchedulePreview } from './SchedulePreview.astro';
