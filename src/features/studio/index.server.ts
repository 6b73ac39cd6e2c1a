/** The server door of the studio feature (staff tools; docs/staff.md). */
export { createShareLink, followShareLink } from './links.server';
export { auditPage } from './audit.server';
export { studioSections } from './sections.server';
export { chapterOfferPage, pricesSearch, saveChapterOffer, seriesPrices } from './prices.server';
export { campaignPreview, campaignSubject, parseCampaign, saveCampaign, seriesCampaigns } from './campaigns.server';
export { cleanupDrafts, draftPageFile, draftView, editDraft, publishDraft, seriesForNewChapter, uploadDraftPages, uploadNewDraft } from './drafts.server';
