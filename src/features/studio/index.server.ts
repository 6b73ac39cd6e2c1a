/** The server door of the studio feature (staff tools; docs/staff.md). */
export { createShareLink, followShareLink } from './links.server';
export { auditPage } from './audit.server';
export { studioSections } from './sections.server';
export { chapterOfferPage, pricesSearch, saveChapterOffer, seriesPrices } from './prices.server';
export { campaignPreview, campaignSubject, parseCampaign, saveCampaign, seriesCampaigns } from './campaigns.server';
export { cleanupDrafts, draftPageFile, draftView, editDraft, publishDraft, seriesForNewChapter, uploadDraftPages, uploadNewDraft } from './drafts.server';
export { SERIES_FORM_MAX, createSeries, newSeriesEditor, seriesEditor, studioSeriesId, studioSeriesList, updateSeries } from './series.server';
export type { FieldErrors, SeriesFormOptions, SeriesFormValues } from './series.server';
export { IMAGE_KINDS, UPLOAD_MAX_BYTES, seriesImagesOf, uploadSeriesImage } from './images.server';
export { SHOP_FORM_FIELDS, couponFormValues, couponUses, packFormValues, planFormValues, saveCouponForm, savePackForm, savePlanForm, shopOverview } from './shop.server';
export type { ShopFieldErrors, ShopKind } from './shop.server';
export { studioAccountData } from './account-data.server';
