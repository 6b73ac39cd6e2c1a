/** The server door of the catalog feature: what pages and other features may use. */
export { comicResponseV2, episodesResponse } from './api.server';
export { type ListingItem, listSeries, listingCategories, toListingItem } from './listing.server';
export { maybeRefreshReleases, refreshReleasedSeries, releasedChapters, type ReleasedChapter } from './release.server';
export { chapterLinks, chapterPageRows, chapterSurroundings, findChapter, findSeries, findSeriesBySlug, pageMediaKey } from './lookup.server';
export { SAPI_CACHE, requestOrigin, sapiComicDetail, sapiComicList } from './sapi.server';
export { parseSapiQuery } from './sapi-query';
export { loadSeriesPage } from './series.server';
export { SITEMAP_CHUNK, escapeXml, sitemapChapterCount, sitemapChapters, sitemapSeries, urlset } from './sitemap.server';
export { accessIn, anonymousPricer, type AnonymousPricer, campaignsOf, previewPricer, pricedChapterOf, pricedSeriesOf, pricingContext, pricingContextOf, sharedPricingContext, type PricingContext } from './pricing.server';
export { type Promotion, chapterE4pid, promotionalVisual, promotionsOf } from './promotion.server';
export { localizeSeriesRows, seriesLocalizer } from './texts.server';
export { mayPreviewPage, previewPages } from './preview.server';
