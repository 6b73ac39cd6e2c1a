/** The server door of the search feature: what pages and other features may use. */
export { SUGGEST_CACHE, searchSeries, suggest, suggestSites } from './suggest.server';
