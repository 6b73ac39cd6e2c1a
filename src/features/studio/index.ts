/** The browser-safe door of the studio feature. */
export { initShareLinks } from './share-link.client';
export { CHAPTER_LANGUAGES, parseDraftFields, parseSeriesId } from './drafts';
