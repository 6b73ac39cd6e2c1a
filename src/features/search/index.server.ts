/** The server door of the search feature: what pages and other features may use. */
export { SUGGEST_CACHE, refreshSearchIndexes, searchSeries, suggest, suggestSites } from './suggest.server';
