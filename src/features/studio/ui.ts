/** The Astro components of the studio feature, for pages (a door of their own: Node tools and tests import index.server.ts, which must not pull in .astro files). */
export { default as ZoneSelect } from './ZoneSelect.astro';
export { default as SeriesForm } from './SeriesForm.astro';
export { default as UploadProgress } from './UploadProgress.astro';
export { default as DraftReorder } from './DraftReorder.astro';
