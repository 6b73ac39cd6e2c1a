/**
 * Every route URL of the site, built in one place (pages, features, islands and tests use these,
 * never hand-written strings), so a route can move by editing one function. Pure and
 * browser-safe. Chapter URLs follow the product's scheme:
 * /read/{series slug}/{episode id without EPI-}/{chapter|episode}-{number with dot as dash}/.
 */
import type { SeriesTable } from '@db/schema';
import { round2 } from './numbers';

export type Format = SeriesTable['format'];

/** Chapter-part prefix by content language; English uses chapter/episode by format. */
export const LOCALIZED_PREFIX: Record<string, string> = {
  es: 'capitulo-espanol',
  'pt-br': 'capitulo-portugues',
  fr: 'chapitre-francais',
  id: 'bab-bahasa',
};

/** "12.5" -> "12-5"; numbers keep at most two decimals, trailing zeros trimmed. */
export function numberSegment(n: number): string {
  if (Number.isInteger(n)) return String(n);
  return round2(n).toFixed(2).replace(/\.?0+$/, '').replace('.', '-');
}

export function chapterPrefix(language: string, format: Format): string {
  return LOCALIZED_PREFIX[language.toLowerCase()] ?? (format === 'WEBTOON' ? 'episode' : 'chapter');
}

const withQuery = (path: string, query: Record<string, string | number | null | undefined>): string => {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== null && v !== undefined && v !== '') q.set(k, String(v));
  const s = q.toString();
  return s ? `${path}?${s}` : path;
};

// Pages ---------------------------------------------------------------------------------------

export const homePath = (): string => '/';
/** The not-found page, for `rewrite()` when a route finds nothing. */
export const NOT_FOUND_PATH = '/404/';
export const aboutPath = (): string => '/about/';
export const termsPath = (): string => '/terms/';
export const privacyPath = (): string => '/privacy/';
/** The app box: how to install the site as an app. */
export const appPath = (): string => '/app/';
/** The web app manifest, one per site (its names are in the site's language). */
export const MANIFEST_PATH = '/manifest.webmanifest';

/** The listing; its query string is built by the listing's own serializer (catalog). */
export const LISTING_PATH = '/comics/';
export const LISTING_FRAGMENT_PATH = '/comics/fragment/';
/** The listing filtered to one category (genre tiles, tag chips). */
export function categoryPath(slug: string): string {
  return withQuery(LISTING_PATH, { filter: slug });
}
/** The listing, most popular first (the home page's "see all" of its popular carousel). */
export function popularPath(): string {
  return withQuery(LISTING_PATH, { order: '-popularity' });
}

export function seriesPath(series: { slug: string }): string {
  return `/comics/${encodeURIComponent(series.slug)}/`;
}

export function readerPath(series: { slug: string; format: Format }, chapter: { e4pid: string; number: number; language: string }): string {
  const id = chapter.e4pid.startsWith('EPI-') ? chapter.e4pid.slice(4) : chapter.e4pid;
  return `/read/${encodeURIComponent(series.slug)}/${encodeURIComponent(id)}/${chapterPrefix(chapter.language, series.format)}-${numberSegment(chapter.number)}/`;
}

// Browse pages (docs/home.md, "Browse pages"): read-only lists the home blocks' "see all" and the footer link to.

/** Every genre with its most popular series. */
export const genresPath = (): string => '/genres/';
/** The newest series (the home's new-series block, whole). */
export const newSeriesPath = (): string => '/new/';
/** The most popular series, one list per format. */
export const topPath = (): string => '/top/';
/** Latest updates of the last 30 days, page `page` (1-based; 1 is left out). */
export function updatesPath(page = 1): string {
  return withQuery('/updates/', { page: page > 1 ? page : null });
}
/** A curated collection of the site. */
export function collectionPath(slug: string): string {
  return `/collections/${encodeURIComponent(slug)}/`;
}
/** The listing of one format, most popular first (the "see all" of a /top/ section). */
export function popularFormatPath(format: Format): string {
  return withQuery(LISTING_PATH, { filter: format.toLowerCase(), order: '-popularity' });
}

export const schedulePath = (): string => '/schedule/';
/** The Portuguese site's daily calendar. */
export const calendarPath = (): string => '/calendario/';

// Accounts ------------------------------------------------------------------------------------

/** Every account page (login, sign-up, logout) lives under this prefix. */
export const AUTH_PREFIX = '/auth/';
/** Login link that brings the reader back to where they were. */
export function loginPath(next?: string | null): string {
  return withQuery(`${AUTH_PREFIX}login/`, { next });
}
export function signupPath(next?: string | null): string {
  return withQuery(`${AUTH_PREFIX}signup/`, { next });
}
/** Type the password again (staff's money and admin actions after 15 minutes), then back to `next`. */
export function confirmPasswordPath(next?: string | null): string {
  return withQuery(`${AUTH_PREFIX}confirm/`, { next });
}
/** The forgotten-password form (linked from the login page). */
export const FORGOT_PASSWORD_PATH = `${AUTH_PREFIX}password/forgot/`;
/** Where a forgotten-password email's link leads. */
export function resetPasswordPath(token: string): string {
  return `${AUTH_PREFIX}password/reset/${encodeURIComponent(token)}/`;
}
/** Where a change-of-email message's link leads (the new address confirms it). */
export function confirmEmailPath(token: string): string {
  return `${AUTH_PREFIX}email/confirm/${encodeURIComponent(token)}/`;
}
export const LOGOUT_PATH = `${AUTH_PREFIX}logout/`;
/** The logout confirmation as a whole page (without JavaScript). */
export const logoutPagePath = (): string => `${LOGOUT_PATH}?full=1`;
/** The page that renders that confirmation; `logoutPagePath()` is rewritten to it. */
export const LOGOUT_CONFIRM_PATH = `${LOGOUT_PATH}confirm/`;
export const THEME_TOGGLE_PATH = '/prefs/theme/';
export const ADULT_CONFIRM_PATH = '/prefs/adult/';

// The reader's library ------------------------------------------------------------------------

/** Every personal page (library, keys, purchases) lives under this prefix. */
export const MY_PREFIX = '/my/';
/** The reader's account: password, name, sessions. */
export const ACCOUNT_PATH = `${MY_PREFIX}account/`;
/** The reader's data as a JSON download (GET). */
export const ACCOUNT_EXPORT_PATH = `${ACCOUNT_PATH}export/`;
/** Deleting the account: what is lost, the password, the confirmation; `?done=1` says it is done. */
export const ACCOUNT_DELETE_PATH = `${ACCOUNT_PATH}delete/`;
export function favoritesPath(query: { page?: number; removed?: string } = {}): string {
  return withQuery(`${MY_PREFIX}favorites/`, { page: query.page && query.page > 1 ? query.page : null, removed: query.removed });
}
export const FAVORITE_TOGGLE_PATH = `${MY_PREFIX}favorites/toggle/`;
/** The JSON endpoint for a series' favorite state (POST favorites, DELETE removes). */
export function favoriteEndpoint(e4pid: string): string {
  return `/api/favorites/${encodeURIComponent(e4pid)}/`;
}
// Notifications (issue 32, docs/notifications.md) -------------------------------------------------
/** The favorite's notify switch, without JavaScript: fields series, notify ("1"/"0"), next. */
export const NOTIFY_TOGGLE_PATH = `${MY_PREFIX}notifications/notify/`;
export function notificationsPath(page = 1): string {
  return withQuery(`${MY_PREFIX}notifications/`, { page: page > 1 ? page : null });
}
/** Marks one item (field `id`) or every item (no `id`) read; fields next. */
export const NOTIFICATIONS_READ_PATH = `${MY_PREFIX}notifications/read/`;
export const NOTIFICATION_SETTINGS_PATH = `${MY_PREFIX}notifications/settings/`;
/** Web push: this browser's subscription (POST JSON) or forgetting it (DELETE). */
export const NOTIFICATION_PUSH_PATH = `${MY_PREFIX}notifications/push/`;
/** Web push's quiet hours (a form of the settings page). */
export const NOTIFICATION_QUIET_PATH = `${MY_PREFIX}notifications/quiet/`;

export function historyPath(skip = 0): string {
  return withQuery(`${MY_PREFIX}history/`, { skip: skip > 0 ? skip : null });
}

// Feeds, media, APIs --------------------------------------------------------------------------

export const SITE_FEED_PATH = '/feeds/latest.xml';
export function seriesFeedPath(slug: string): string {
  return `/feeds/comics/${encodeURIComponent(slug)}.xml`;
}

/** A public image (cover, banner, thumbnail) by media key; chapter pages go through chapterPagePath. */
export function mediaUrl(key: string | null | undefined): string | null {
  return key ? `/media/${key}` : null;
}

/** Chapter page images live under this prefix, each behind a signed URL. */
export const CHAPTER_PAGES_PREFIX = '/media/p/';
/** A chapter page image, without its signature (signed URLs add `exp` and `sig`). */
export function chapterPagePath(e4pid: string, position: number): string {
  return `${CHAPTER_PAGES_PREFIX}${encodeURIComponent(e4pid)}/${position}.webp`;
}

/** The hover reel of a series card. */
export function reelPath(e4pid: string): string {
  return `/home/reel/${encodeURIComponent(e4pid)}/`;
}

/** The listing searching for a text. */
export function searchPath(q: string): string {
  return withQuery(LISTING_PATH, { q });
}
/** The search overlay's suggestions for a query and language filter (empty values left out). */
export function suggestPath(query: Record<string, string>): string {
  return withQuery('/search/suggest/', query);
}

/** The relay's `updates` call: chapters of these series released after `after` (unix seconds). */
export function relayUpdatesPath(seriesIds: readonly (number | string)[], query: { clientid: string; after: number }): string {
  return withQuery(`/relay/consumer/inkpass/series/${seriesIds.map((id) => encodeURIComponent(id)).join(',')}/updates`, query);
}

/** One page of the anonymous comics API (docs/api.md). */
export function sapiComicsPath(query: { ordering: string; page: number }): string {
  return withQuery('/sapi/comics/', query);
}

export const SITEMAP_PATH = '/sitemap.xml';
export const SERIES_SITEMAP_PATH = '/sitemap-series.xml';
/** The chapter sitemap file `index` (0-based); the index at SITEMAP_PATH lists them. */
export function chapterSitemapPath(index: number): string {
  return `/sitemaps/chapters-${index}.xml`;
}

export const APP_TOKEN_PATH = '/sapi/app/token?ttl=3600';
export function historyApiPath(query: { limit: number; skip: number; token: string }): string {
  return withQuery('/api/house/history/me', query);
}
/** The signed-in reader's episodes of a series (spec section 7), with the app token. */
export function episodesApiPath(ref: string, query: { language: string; token: string }): string {
  return withQuery(`/api/comic/${encodeURIComponent(ref)}/episodes`, query);
}
export const PROGRESS_ENDPOINT = '/api/progress/';

/** The bot check's challenge, solved in the browser before money calls (docs/api.md, "Bot check"). */
export const APP_CHECK_CHALLENGE_ENDPOINT = '/api/app-check/challenge/';

// ---------------------------------------------------------------- keys (docs/wallet.md)
/** The redeem call: unlock a chapter with keys (JSON). */
export const REDEEM_ENDPOINT = '/api/redeem/';
/** The unlock form without JavaScript: unlocks, then opens the chapter. */
export const UNLOCK_FORM_PATH = '/unlock/';

// Staff ---------------------------------------------------------------------------------------

/** Link generation (spec section 7): staff with `content` POST a chapter's reader path here. */
export const DYNAMIC_LINK_PATH = '/_/dynamic_link';
/** A short share link (the route is src/pages/l/[code].ts). */
export function shortLinkPath(code: string): string {
  return `/l/${encodeURIComponent(code)}`;
}
/** The staff studio (docs/staff.md): its home lists the sections the member of staff may use. */
export const STUDIO_PATH = '/studio/';
export const STUDIO_AUDIT_PATH = `${STUDIO_PATH}audit/`;
/** The support desk's reconciliation page (support reads; money acts). */
export const STUDIO_PAYMENTS_PATH = `${STUDIO_PATH}payments/`;
/** One order or subscription charge on the support desk. */
export function studioPayablePath(payableId: string): string {
  return `${STUDIO_PAYMENTS_PATH}${encodeURIComponent(payableId)}/`;
}
export const STUDIO_STAFF_PATH = `${STUDIO_PATH}staff/`;
/** The comment moderation queue, bans and blocked words (moderation; docs/staff.md). */
export const STUDIO_MODERATION_PATH = `${STUDIO_PATH}moderation/`;
export const STUDIO_MODERATION_BANS_PATH = `${STUDIO_MODERATION_PATH}bans/`;
export const STUDIO_MODERATION_WORDS_PATH = `${STUDIO_MODERATION_PATH}words/`;
/** A reader's muted readers (comments). */
export const COMMENTS_MUTED_PATH = '/comments/muted/';
/** Prices (capability `pricing`): search series, a series' chapters, one chapter's offer. */
export const STUDIO_PRICES_PATH = `${STUDIO_PATH}prices/`;
export const studioSeriesPricesPath = (seriesId: number | string, at?: string): string => withQuery(`${STUDIO_PRICES_PATH}${seriesId}/`, { at });
export const studioChapterPricePath = (chapterId: number | string): string => `${STUDIO_PRICES_PATH}chapter/${chapterId}/`;
/** A campaign's page; `new` with the series for a new one. */
export const studioCampaignPath = (id: number | 'new', seriesId?: number): string => withQuery(`${STUDIO_PRICES_PATH}campaigns/${id}/`, { series: id === 'new' ? seriesId : null });
/** Chapter drafts (docs/staff.md, "Chapter uploads"): a new one for a series, and a draft's pages. */
/** The studio's shop (pricing): key packs, coupons and plans of the site. */
export const STUDIO_SHOP_PATH = `${STUDIO_PATH}shop/`;
export const studioShopItemPath = (kind: 'pack' | 'coupon' | 'plan', id: number | 'new'): string => `${STUDIO_SHOP_PATH}${kind}s/${id}/`;
export const STUDIO_NEW_CHAPTER_PATH = `${STUDIO_PATH}chapters/new/`;
export function studioNewChapterPath(seriesId: number): string {
  return `${STUDIO_NEW_CHAPTER_PATH}?series=${seriesId}`;
}
export function studioDraftPath(draftId: number): string {
  return `${STUDIO_PATH}chapters/drafts/${draftId}/`;
}
/** Where a draft's uploads (more pages, or one page replaced) are posted. */
export function studioDraftUploadPath(draftId: number): string {
  return `${studioDraftPath(draftId)}pages/`;
}
/** A draft read as a reader would, in every reader mode (staff only). */
export function studioDraftPreviewPath(draftId: number): string {
  return `${studioDraftPath(draftId)}preview/`;
}
/** One page's image, for staff only (the staging folder is never a public media path). */
export function studioDraftImagePath(draftId: number, position: number): string {
  return `${studioDraftPath(draftId)}pages/${position}/`;
}
/** The series editor: the list, a new series, one series. */
export const STUDIO_SERIES_PATH = `${STUDIO_PATH}series/`;
export const STUDIO_NEW_SERIES_PATH = `${STUDIO_SERIES_PATH}new/`;
export function studioSeriesPath(id: number, query?: Record<string, string>): string {
  const qs = query ? new URLSearchParams(query).toString() : '';
  return `${STUDIO_SERIES_PATH}${id}/${qs ? `?${qs}` : ''}`;
}
/** A series' images in the studio. */
export function studioSeriesImagesPath(id: number, query?: Record<string, string>): string {
  const qs = query ? new URLSearchParams(query).toString() : '';
  return `${STUDIO_SERIES_PATH}${id}/images/${qs ? `?${qs}` : ''}`;
}
/** A page of the series list with its filters (empty ones left out). */
export function studioSeriesListPath(query: Record<string, string | number>): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== '' && !(k === 'page' && v === 1)) params.set(k, String(v));
  const qs = params.toString();
  return qs ? `${STUDIO_SERIES_PATH}?${qs}` : STUDIO_SERIES_PATH;
}
/** A page of the audit trail with its filters (empty ones left out). */
export function studioAuditPath(query: Record<string, string | number>): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== '' && !(k === 'page' && v === 1)) params.set(k, String(v));
  const qs = params.toString();
  return qs ? `${STUDIO_AUDIT_PATH}?${qs}` : STUDIO_AUDIT_PATH;
}
/** The support desk (docs/staff.md, "Support desk: readers"): find a reader, then their page. */
export const STUDIO_READERS_PATH = `${STUDIO_PATH}readers/`;
export function studioReadersSearchPath(q: string): string {
  return q ? `${STUDIO_READERS_PATH}?${new URLSearchParams({ q }).toString()}` : STUDIO_READERS_PATH;
}
/** A reader's page on the desk; `ledger` and `orders` are the pages of those two lists (1 left out). */
export function studioReaderPath(id: number, query: { ledger?: number; orders?: number; done?: string } = {}): string {
  const params = new URLSearchParams();
  if (query.ledger && query.ledger > 1) params.set('ledger', String(query.ledger));
  if (query.orders && query.orders > 1) params.set('orders', String(query.orders));
  if (query.done) params.set('done', query.done);
  const qs = params.toString();
  return `${STUDIO_READERS_PATH}${id}/${qs ? `?${qs}` : ''}`;
}
export const studioReaderGrantPath = (id: number): string => `${STUDIO_READERS_PATH}${id}/grant/`;
export const studioReaderSignOutPath = (id: number): string => `${STUDIO_READERS_PATH}${id}/sign-out/`;
/** Free ways in: the daily pass, and an ad (start, then complete with its token). */
export const DAILY_PASS_ENDPOINT = '/api/daily-pass/';
export const AD_START_ENDPOINT = '/api/ads/start/';
export const AD_COMPLETE_ENDPOINT = '/api/ads/complete/';
export const PURCHASE_PATH = `${MY_PREFIX}purchase/`;
/** The reader's balances and key history, page `page` (1-based). */
export function keysPath(page = 1): string {
  return `${MY_PREFIX}keys/${page > 1 ? `?page=${page}` : ''}`;
}
/** The key-pack purchase page, back to `next` afterwards, at its chapters section. */
export function purchasePath(next?: string | null): string {
  return `${PURCHASE_PATH}${next ? `?next=${encodeURIComponent(next)}` : ''}#chapters`;
}
/** The checkout page for one key pack (GET), and where its form posts (POST). */
export const CHECKOUT_PATH = `${PURCHASE_PATH}checkout/`;
export function checkoutPath(pack: string, next?: string | null): string {
  const q = new URLSearchParams({ pack });
  if (next) q.set('next', next);
  return `${CHECKOUT_PATH}?${q}`;
}
/** The coupon box's call: what the pack costs with a coupon. */
export const COUPON_ENDPOINT = `${PURCHASE_PATH}coupon/`;
/** Creates a Pix charge for the checkout (POST); `pixStatusPath` polls it. */
export const PIX_CHARGE_ENDPOINT = `${PURCHASE_PATH}pix/`;
export function pixStatusPath(orderId: string): string {
  return `${PIX_CHARGE_ENDPOINT}${encodeURIComponent(orderId)}/`;
}
/** The reader's orders, page `page` (1-based). */
export function purchasesPath(page = 1): string {
  return `${MY_PREFIX}purchases/${page > 1 ? `?page=${page}` : ''}`;
}
/** A reader's withdrawal of one of their orders (POST, a form without JavaScript). */
export function purchaseWithdrawPath(orderId: string): string {
  return `${MY_PREFIX}purchases/${encodeURIComponent(orderId)}/withdraw/`;
}
/** The printable receipt of a paid order (`ord…`) or subscription charge (`sub…`): docs/payments.md, "Receipts". */
export function receiptPath(payableId: string): string {
  return `${MY_PREFIX}purchases/${encodeURIComponent(payableId)}/receipt/`;
}
/** The purchase favorite star of one order (POST stars, DELETE unstars). */
export function purchaseFavoriteEndpoint(orderId: string): string {
  return `/api/purchases/${encodeURIComponent(orderId)}/favorite/`;
}
/** The card sandbox widget's nonce call (only when the sandbox takes card payments). */
export const SANDBOX_NONCE_ENDPOINT = '/payments/sandbox/nonce/';
/** Where Pix providers deliver their signed webhooks. */
export const PIX_WEBHOOK_PATH = '/webhooks/pix/';
export function manifestPath(e4pid: string): string {
  return `/api/reader/${encodeURIComponent(e4pid)}/manifest/`;
}

/** Makes a site path absolute on the current host (null stays null). */
export type AbsoluteUrl = (path: string | null) => string | null;

/** The AbsoluteUrl for a request's own origin (Astro.url is validated against allowedDomains). */
export function absoluteUrl(url: URL): AbsoluteUrl {
  const origin = url.origin;
  return (path) => (path ? origin + path : null);
}

/** The plans page; with a tier, its checkout opens by itself. */
export function plansPath(tier?: string | null): string {
  return `/plans/${tier ? `?tier=${encodeURIComponent(tier)}` : ''}`;
}
export const SUBSCRIBE_PIX_ENDPOINT = `${MY_PREFIX}subscribe/pix/`;
export const SUBSCRIBE_CARD_ENDPOINT = `${MY_PREFIX}subscribe/card/`;
/** Polled by the subscription checkout: `{check}` is the charge's id. */
export const SUBSCRIBE_STATUS_PREFIX = `${MY_PREFIX}subscribe/status/`;
export function subscribeStatusPath(check: string): string {
  return `${SUBSCRIBE_STATUS_PREFIX}${encodeURIComponent(check)}/`;
}
export function subscriptionsPath(): string {
  return `${MY_PREFIX}subscriptions/`;
}
export const CANCEL_SUBSCRIPTION_PATH = `${MY_PREFIX}subscriptions/cancel/`;
/** The subscribe button without JavaScript: a form that puts the series in a slot, then back to the page. */
export const SUBSCRIBE_SERIES_FORM_PATH = `${MY_PREFIX}subscriptions/add/`;
/** The subscribe button's call (also under /sapi/). */
export const ADD_COMIC_ENDPOINT = '/api/subscription/add-comic';
/** Renting a chapter with the reader's plan. */
export const RENT_ENDPOINT = '/api/rent/';
