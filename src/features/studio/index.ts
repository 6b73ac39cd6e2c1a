/** The browser-safe door of the studio feature. */
export { initShareLinks } from './share-link.client';
export { AVAILABILITY_FLAGS, CHAPTER_LANGUAGES, parseDraftFields, parsePublishFields, parseSeriesId, PRICE_MAX } from './drafts';
