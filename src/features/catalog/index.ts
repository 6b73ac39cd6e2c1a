/** The browser-safe door of the catalog feature: what pages and other features may use. */
export { type RowLabels, type UnlockOffer, UNLOCK_FORM, renderChapterRows, unlockButtonHtml, unlockFormElement } from './chapter-list';
export { parseImages } from './images';
export { COMMUNITY_CHAT_URL, FORMAT_FILTERS, type LanguageCode, type Languages, type ListingParams, type ListingSite, ORDER_KEYS, type SortKey, PAGE_SIZE, VIEW_COOKIE, VIEW_COOKIE_MAX_AGE, type View, defaultLanguages, defaultParams, isDefaultOrder, languageState, listingHref, pageCount, paginationWindow, parseListing, parseView, serializeListing, serializeOrder, toggleLanguage, withInvertedOrder, withOrderKey, withPage, withView } from './listing';
export { initListing } from './listing.client';
export { type ContinueKind, type ContinueProgress, continueLabel, continueTarget, newestProgress } from './continue';
export { ADULT_COOKIE, ADULT_MAX_AGE, adultConfirmed, ageGated } from './adult';
export { unitT } from './wording';
export { displayChapterName } from './naming';
export { type Campaign, type Format, type ReadState, finalPrice, formatChapterNumber, isOnSale, readState, regionBlocks, unitFor } from './rules';
export { initSeriesPage } from './series.client';
export { SERIES_CARD_COLUMNS, cardImage, toSeriesCard, type SeriesCard, type SeriesCardRow } from './cards';
export {
  adsPeriod, chooseCurrency, lineupOf, parseFreeAvailability, priceChapter, seriesAccess, unlockBonus,
  type Balances as PricingBalances, type ChapterAccess, type ClosedReason, type ReaderEntitlements, type Rental,
} from './pricing';
export { firstLanguage, localizeRow } from './texts';
export { PREVIEW_PAGES_MAX, type VisualFit, type VisualType, fitStyle, isMotion, parsePreviewPages, promotionProblem } from './promotions';
export { HINT_ICON_PATHS, type HintIcon, isHintIcon } from './hints';
