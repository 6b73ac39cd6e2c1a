import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';

/**
 * Conventions (valid on SQLite and PostgreSQL alike): times are integer unix
 * seconds, booleans are 0/1 integers, lists and small records are JSON text.
 */
type Bool = number;
type Json = string;

export interface PublisherTable {
  id: Generated<number>;
  name: string;
  language: string;
  homepage: string | null;
  logo: string | null;
  /** JSON array of ISO country codes where the publisher's catalogue is blocked. */
  geoblocks: Json;
}

export interface PersonTable {
  id: Generated<number>;
  name: string;
  alt: string | null;
  slug: string;
}

export interface TagTable {
  id: Generated<number>;
  slug: string;
  name: string;
  name_pt: string;
  description: string;
  color: string;
  is_primary: Bool;
  icon: string;
}

export interface KeywordTable {
  id: Generated<number>;
  word: string;
}

export interface SeriesTable {
  id: Generated<number>;
  e4pid: string;
  slug: string;
  name: string;
  /** Alternative names, one per line. */
  alt: string;
  description: string;
  excerpt: string;
  /** Lower-cased, accent-free name + alt names, for search. */
  search_text: string;
  adult: Bool;
  format: 'COMIC' | 'MANGA' | 'WEBTOON';
  update_status: string;
  update_text: string | null;
  publisher_id: number | null;
  color: string;
  in_exclusive: Bool;
  in_hype: Bool;
  all_free: Bool;
  /** JSON AvailabilityStrategy. */
  availability_strategy: Json;
  /** JSON FreeAvailability defaults. */
  free_availability: Json;
  /** JSON array of ISO country codes. */
  geoblocks: Json;
  /**
   * 'ACTIVE', 'REMOVED' (withdrawn; owned chapters stay readable) or 'BLOCKED' (unavailable
   * everywhere); 'DRAFT' (made in the studio, invisible to readers everywhere; migration
   * 2026-11-29T00-studio-series, which makes the database refuse any other name).
   */
  state: string;
  chapter_title: string | null;
  /** Contains {num} and optionally {ord}; null means the format's default. */
  chapter_name_format: string | null;
  /** JSON record of image kind -> media key. */
  images: Json;
  copyright: string | null;
  cover_copyright: string | null;
  chapter_copyright: string | null;
  /** JSON array of {text, icon}. */
  hints: Json;
  popularity: number;
  created_at: number;
  modified_at: number;
  /** Release time of the newest released chapter (denormalised for the listing). */
  last_updated: number;
  largest_chapter: number;
  chapter_count: number;
  /**
   * How many first pages of a locked chapter anyone may see as a teaser (0: no preview; at most
   * 10). Migration 2026-12-03T00-promotions-preview; docs/reader.md, "Chapter preview".
   */
  preview_pages: Generated<number>;
}

export interface SeriesPersonTable {
  series_id: number;
  person_id: number;
  role: 'author' | 'artist';
  position: number;
}

export interface SeriesTagTable {
  series_id: number;
  tag_id: number;
  position: number;
}

export interface SeriesKeywordTable {
  series_id: number;
  keyword_id: number;
}

export interface SeriesLanguageTable {
  series_id: number;
  /** 'en', 'pt-br', 'es', 'fr', 'id'. */
  language: string;
  /** Site that shows this language: 1 (en) or 3 (pt-BR); 0 for languages of neither. */
  site_id: number;
  chapter_count: number;
  last_updated: number;
}

/**
 * A series' texts in one content language (migration 2026-11-25T02-series-texts). Null columns
 * and missing rows fall back to the series' own (original-language) text.
 */
export interface SeriesTextTable {
  series_id: number;
  /** Content language: 'en', 'pt-br'. */
  language: string;
  name: string | null;
  description: string | null;
  excerpt: string | null;
  update_text: string | null;
  chapter_name_format: string | null;
}

/**
 * A series' promotional visual (spec section 3; migration 2026-12-03T00-promotions-preview):
 * at most one per series. docs/data-model.md, "Promotional visuals".
 */
export interface SeriesPromotionTable {
  series_id: number;
  visual_type: 'IMAGE' | 'ANIMATED_IMAGE' | 'ANIMATION' | 'VIDEO';
  fit: 'COVER' | 'CONTAIN' | 'FILL' | 'FIT_WIDTH' | 'FIT_HEIGHT' | 'NONE' | 'SCALE_DOWN';
  /** Public media key of the visual (an image, an animated WebP/GIF, or a WebM/MP4 video). */
  media_key: string;
  /** The still a video shows before it plays (ANIMATION and VIDEO). */
  poster_key: string | null;
  width: number;
  height: number;
  /** '#rrggbb' coloring: the frame's background and its text. */
  background_color: string;
  text_color: string;
  label: string | null;
  label_pt: string | null;
  button: string | null;
  button_pt: string | null;
  modified_at: number;
}

/** One search document per series (migration 2026-11-21T03-search; src/features/search/). */
export interface SeriesSearchTable {
  series_id: number;
  /** The normalised name (exact and prefix matches rank first). */
  name: string;
  /** Normalised words of the name, alt names, authors, artists, tag names (en, pt) and keywords. */
  document: string;
}

export interface CampaignTable {
  id: Generated<number>;
  series_id: number;
  name: string;
  override_starting_count: number | null;
  override_ending_count: number | null;
  override_all_free: Bool;
  /** Fraction off the original price, 0..1. */
  discount: number;
  starts_at: number;
  ends_at: number;
}

export interface ChapterTable {
  id: Generated<number>;
  e4pid: string;
  series_id: number;
  language: string;
  number: number;
  title: string | null;
  subtitle: string | null;
  released_at: number;
  /** When the chapter goes on sale (may equal released_at). */
  sale_at: number;
  expired_at: number | null;
  /** Price in keys before any campaign; 0 means free. */
  original_price: number;
  thumbnail: string | null;
  purchase_enabled: Bool;
  purchase_many_enabled: Bool;
  daily_pass_enabled: Bool;
  ads_enabled: Bool;
  rental_enabled: Bool;
  subscription_enabled: Bool;
  page_count: number;
  created_at: number;
}

export interface ChapterPageTable {
  chapter_id: number;
  position: number;
  media_key: string;
  width: number;
  height: number;
}

export interface UserTable {
  id: Generated<number>;
  /** Lower-cased and trimmed. */
  email: string;
  display_name: string;
  /** argon2id PHC string. */
  password_hash: string;
  /** Holds at least one capability (user_capabilities): kept by the grants, in their transaction. */
  is_staff: Bool;
  /** A demo account (db/seed/users.ts): a production server refuses to start while one exists. */
  is_demo: Generated<Bool>;
  created_at: number;
  password_changed_at: number;
}

/** One staff capability of an account (src/server/staff.ts lists them; docs/staff.md). */
export interface UserCapabilityTable {
  user_id: number;
  capability: 'content' | 'pricing' | 'support' | 'money' | 'moderation' | 'admin';
  granted_at: number;
  /** Who granted it; null from the command line or the migration. */
  granted_by: number | null;
}

/** The append-only audit trail (src/server/audit.ts writes it; triggers refuse UPDATE and DELETE). */
export interface AuditLogTable {
  id: Generated<number>;
  at: number;
  /** The staff member; null for the command line. No foreign key: records outlive accounts. */
  actor_id: number | null;
  capability: UserCapabilityTable['capability'] | null;
  action: string;
  object_table: string;
  object_id: string;
  /** JSON summaries of the object before and after the action. */
  before_json: string | null;
  after_json: string | null;
  ip: string | null;
  user_agent: string | null;
}

/** One run of `npm run keys -- audit`: its verdict (the latest is on /metrics). */
export interface LedgerAuditTable {
  id: Generated<number>;
  at: number;
  /** Rules that failed; 0 is a clean bill. */
  failed_rules: number;
  /** JSON list of the failed rules. */
  rules_json: string;
}

/** A short share link, /l/{code}, made by staff (POST /_/dynamic_link). */
export interface ShortLinkTable {
  id: Generated<number>;
  code: string;
  site_id: number;
  /** A reader path on the site it was made on. */
  path: string;
  created_by: number | null;
  created_at: number;
  visits: Generated<number>;
}

export interface SessionTable {
  /** Public token id (the part before the dot in the cookie). */
  id: string;
  /** SHA-256 hex of the token secret; the secret itself is never stored. */
  secret_hash: string;
  user_id: number;
  created_at: number;
  /** Last request seen, refreshed at most once a day (sliding idle expiry). */
  last_seen_at: number;
  /** Absolute end of the session. */
  expires_at: number;
  /** The browser's User-Agent when the session began (at most 300 characters; null before 2026-11-30 or when none was sent). */
  user_agent: string | null;
  /** ISO country of the request that began it, from COUNTRY_HEADER (null without one, or before 2026-12-04). */
  country: string | null;
}

export interface RateLimitTable {
  bucket: string;
  window_start: number;
  count: number;
}

/** Bot-check tokens already used (src/server/app-check.ts): `id` names the token, kept until it expires. */
export interface AppCheckUseTable {
  id: string;
  expires_at: number;
}

export interface FavoriteTable {
  user_id: number;
  series_id: number;
  created_at: number;
  /** Tell the reader when a chapter of this series is released (issue 32, docs/notifications.md). */
  notify: Generated<Bool>;
}

/** One inbox item (docs/notifications.md). Chapter items fold later chapters of the series within 6 hours. */
export interface NotificationTable {
  id: Generated<number>;
  user_id: number;
  category: 'chapters' | 'money' | 'community';
  /** CHAPTER, or a money event: PAYMENT_PAID, PAYMENT_REFUNDED, SUBSCRIPTION_PAID, SUBSCRIPTION_FAILED. */
  kind: string;
  series_id: number | null;
  /** The newest chapter the item tells of. */
  chapter_id: number | null;
  /** The site whose inbox shows a chapter item (the chapter's language); null: both sites. */
  site_id: number | null;
  /** How many chapters the item tells of (folded within the cap). */
  chapter_count: Generated<number>;
  /** JSON with the item's details (money: amount, currency). Never a chapter title. */
  data: Generated<string>;
  created_at: number;
  updated_at: number;
  read_at: number | null;
}

/** One row per reader per released chapter: the fan-out's idempotency key. */
export interface NotificationDeliveryTable {
  user_id: number;
  chapter_id: number;
  created_at: number;
}

/** A reader's choice for a category and channel; no row means the default (inbox on, push and email off). */
export interface NotificationPrefTable {
  user_id: number;
  category: 'chapters' | 'money' | 'community';
  channel: 'inbox' | 'push' | 'email';
  enabled: Bool;
}

/** One browser's push subscription (docs/notifications.md, "Web push"). 404/410 from its push service delete it. */
export interface PushSubscriptionTable {
  id: Generated<number>;
  user_id: number;
  /** The push service's URL (https, a known push service host): unique. */
  endpoint: string;
  /** The browser's P-256 public key and auth secret, base64url. */
  p256dh: string;
  auth: string;
  /** IANA zone its quiet hours are read in (validated; the site's zone when the browser's was not). */
  time_zone: string;
  /** The site it subscribed on: its pushes are in that site's language, and chapter pushes are that site's. */
  site_id: number;
  /** A short label of the browser (from its User-Agent), for the settings page. */
  device: Generated<string>;
  created_at: number;
  last_success_at: number | null;
  /** Failures since the last success (not 404/410); each doubles the wait before the next try. */
  failure_count: Generated<number>;
  retry_at: number | null;
}

/** A push waiting for the server's worker (written in the transaction that made the inbox item). */
export interface PushOutboxTable {
  id: Generated<number>;
  user_id: number;
  category: 'chapters' | 'money' | 'community';
  /** CHAPTER or a money kind (as notifications.kind). */
  kind: string;
  series_id: number | null;
  /** Chapter pushes go to the subscriptions of this site; null: every subscription (money). */
  site_id: number | null;
  /** JSON: what the text needs (chapter number and links, never a chapter title). */
  data: Generated<string>;
  due_at: number;
}

/** Pushes sent to a reader on a UTC day (the cap: 5). */
export interface PushDailyTable {
  user_id: number;
  /** YYYY-MM-DD, UTC. */
  day: string;
  sent: number;
}

/** A reader's quiet hours (hours of the day in each subscription's zone); no row: 22 to 8, on. */
export interface PushQuietHoursTable {
  user_id: number;
  enabled: Bool;
  start_hour: number;
  end_hour: number;
}

/** A reader's email digest of new chapters (docs/notifications.md, "Email digest"). */
export interface NotificationDigestTable {
  user_id: number;
  frequency: 'off' | 'daily' | 'weekly';
  /** The site it was chosen on: the digest's language. */
  site_id: number;
  /** The end of the last period sent (claimed by the pass), or when the digest was turned on. */
  last_digest_at: number;
  updated_at: number;
}

export interface ReadingProgressTable {
  user_id: number;
  chapter_id: number;
  series_id: number;
  /** 0..100 */
  completion: number;
  completed: Bool;
  first_read: number;
  last_read: number;
  /** (token_issued_at, seq) of the newest accepted update; older ones are ignored. */
  token_issued_at: number;
  seq: number;
}

/** Paid keys or Xtra (free) keys: the two currencies of the ledger. */
export type Currency = 'keys' | 'xtra';

/** A reader's or a system account, one per owner and currency (db/migrations/2026-11-24T00-wallet.ts). */
export interface WalletAccountTable {
  id: Generated<number>;
  /** The reader, or null for a system account. */
  user_id: number | null;
  /** 'key_sales', 'unlock_revenue', 'bonus_issuance', 'grants' (system accounts), or null. */
  system_code: string | null;
  currency: Currency;
  /** Written only by the ledger (src/features/wallet); never negative for a reader. */
  balance: Generated<number>;
}

export interface LedgerTransactionTable {
  id: Generated<number>;
  idempotency_key: string;
  /** 'unlock', 'grant', 'purchase', 'daily_pass', 'ad', … */
  kind: string;
  user_id: number | null;
  chapter_id: number | null;
  /** Free text: why staff granted keys, what a purchase was for. */
  reason: string | null;
  created_at: number;
}

export interface LedgerEntryTable {
  id: Generated<number>;
  transaction_id: number;
  account_id: number;
  currency: Currency;
  /** Signed, never 0; a transaction's entries sum to 0 per currency. */
  amount: number;
}

export interface ChapterUnlockTable {
  user_id: number;
  chapter_id: number;
  transaction_id: number;
  price: number;
  currency: Currency;
  created_at: number;
}

export interface RentalTable {
  id: Generated<number>;
  user_id: number;
  chapter_id: number;
  series_id: number;
  kind: 'daily_pass' | 'ad' | 'plan';
  transaction_id: number;
  created_at: number;
  expires_at: number;
}

export interface AdViewTable {
  /** SHA-256 hex of the single-use ad token; the token itself is never stored. */
  token_hash: string;
  user_id: number;
  chapter_id: number;
  promoted_series_id: number | null;
  started_at: number;
  /** The rental is granted only from this time on (the ad's minimum time). */
  ready_at: number;
  expires_at: number;
  used_at: number | null;
}

/** A key pack on sale on one site (db/migrations/2026-11-25T00-commerce.ts). Money in minor units. */
export interface KeyPackTable {
  id: Generated<number>;
  site_id: number;
  code: string;
  /** ISO 4217: 'USD' on the English site, 'BRL' on the Portuguese one. */
  currency: string;
  price: number;
  keys: number;
  /** Xtra keys given with the pack. */
  xtra_keys: Generated<number>;
  position: Generated<number>;
  active: Generated<Bool>;
  created_at: number;
  updated_at: number;
}

export interface CouponTable {
  id: Generated<number>;
  site_id: number;
  code: string;
  /** 1-100, or null. */
  percent_off: number | null;
  /** Minor units of `currency`, or null. */
  amount_off: number | null;
  currency: string | null;
  xtra_keys: Generated<number>;
  starts_at: number | null;
  ends_at: number | null;
  max_redemptions: number | null;
  per_reader_limit: Generated<number>;
  /** Orders holding the coupon (pending or paid). */
  redemptions: Generated<number>;
  active: Generated<Bool>;
  created_at: number;
}

/** REFUNDED and PARTIALLY_REFUNDED follow PAID only, when a refund is confirmed (docs/money-states.md). */
export type OrderState = 'PENDING' | 'PAID' | 'FAILED' | 'EXPIRED' | 'REFUNDED' | 'PARTIALLY_REFUNDED';

export interface OrderTable {
  id: Generated<number>;
  public_id: string;
  user_id: number;
  site_id: number;
  pack_id: number;
  coupon_id: number | null;
  currency: string;
  subtotal: number;
  discount: number;
  total: number;
  keys: number;
  xtra_keys: number;
  /** 'card', 'paypal', 'googlepay', 'applepay' or 'pix'. */
  method: string;
  /** Which implementation took the payment: 'sandbox', 'braintree', 'pix-sandbox', 'openpix'. */
  provider: string;
  state: OrderState;
  payment_id: string | null;
  request_key: string | null;
  next_path: string | null;
  card_brand: string | null;
  card_last4: string | null;
  br_code: string | null;
  expires_at: number | null;
  failure: string | null;
  ledger_transaction_id: number | null;
  created_at: number;
  updated_at: number;
  paid_at: number | null;
}

export interface OrderEventTable {
  id: Generated<number>;
  order_id: number;
  state: string;
  /** 'checkout', 'webhook', 'poll', 'reconcile', 'cli'. */
  source: string;
  detail: string | null;
  created_at: number;
}

export interface CouponRedemptionTable {
  order_id: number;
  coupon_id: number;
  user_id: number;
  created_at: number;
}

export interface PackFavoriteTable {
  user_id: number;
  pack_id: number;
  created_at: number;
}

export interface SandboxCardNonceTable {
  nonce: string;
  user_id: number;
  method: string;
  /** 'success', 'declined', 'rejected'. */
  outcome: string;
  brand: string | null;
  last4: string | null;
  created_at: number;
  used_at: number | null;
  order_id: string | null;
  payment_id: string | null;
  amount: number | null;
  currency: string | null;
  /** A reusable payment method made from this nonce (subscription renewals), or null. */
  vault_token: string | null;
}

export interface SandboxPixChargeTable {
  correlation_id: string;
  value: number;
  status: 'ACTIVE' | 'COMPLETED' | 'EXPIRED';
  br_code: string;
  expires_at: number;
  payment_id: string | null;
  paid_at: number | null;
  created_at: number;
}

/** A subscription plan (tier) on one site (db/migrations/2026-11-25T01-subscriptions.ts). */
export interface PlanTable {
  id: Generated<number>;
  site_id: number;
  code: string;
  name: string;
  /** JSON array of benefit lines in the site's language. */
  benefits: Generated<Json>;
  currency: string;
  /** Per period, minor units. */
  price: number;
  period_months: Generated<number>;
  series_slots: number;
  /** Chapters a subscriber may rent per plan month. */
  rent_capacity: Generated<number>;
  /** How long a plan rental lasts, seconds. */
  rent_ttl: Generated<number>;
  trial_days: Generated<number>;
  position: Generated<number>;
  active: Generated<Bool>;
  created_at: number;
  updated_at: number;
}

export type SubscriptionState = 'PENDING' | 'TRIAL' | 'ACTIVE' | 'PAST_DUE' | 'EXPIRED';

export interface SubscriptionTable {
  id: Generated<number>;
  public_id: string;
  user_id: number;
  site_id: number;
  plan_id: number;
  state: SubscriptionState;
  anchor_at: number;
  paid_until: number;
  cancel_at_period_end: Generated<Bool>;
  canceled_at: number | null;
  /** 'pix' or a card-type method. */
  method: string;
  provider: string;
  payment_token: string | null;
  payer_name: string | null;
  payer_doc: string | null;
  created_at: number;
  updated_at: number;
}

export interface SubscriptionEventTable {
  id: Generated<number>;
  subscription_id: number;
  state: string;
  source: string;
  detail: string | null;
  /** The charge whose payment this event records (a paid period), else null. */
  charge_id: number | null;
  created_at: number;
}

/** Every state a subscription charge enters, with what said so (as order_events for orders). */
export interface ChargeEventTable {
  id: Generated<number>;
  charge_id: number;
  state: string;
  source: string;
  detail: string | null;
  created_at: number;
}

/**
 * A payment that must go back: it arrived for a closed order or charge, or paid one twice. Made
 * once per provider payment by the payment's owner (docs/money-states.md); the support desk
 * resolves it.
 */
export interface RefundDueTable {
  id: Generated<number>;
  user_id: number;
  payable_kind: 'order' | 'charge';
  /** The order's or charge's public id. */
  payable_id: string;
  provider: string;
  payment_id: string;
  amount: number;
  currency: string;
  reason: string;
  created_at: number;
  resolved_at: number | null;
  resolution: string | null;
  /** The staff account that resolved it. */
  resolved_by: number | null;
  /** The refund that gave it back, when it was refunded rather than dismissed. */
  refund_id: number | null;
}

export type RefundState = 'PENDING' | 'CONFIRMED' | 'FAILED';

/**
 * A refund of one order, subscription charge or payment to refund (docs/money-states.md,
 * "Refunds"): its keys held in the ledger while the provider is asked, reversed once it confirms.
 */
export interface RefundTable {
  id: Generated<number>;
  public_id: string;
  user_id: number;
  payable_kind: 'order' | 'charge' | 'due';
  /** The order's or charge's public id; for `due`, the refunds_due row's id. */
  payable_id: string;
  provider: string;
  payment_id: string;
  amount: number;
  currency: string;
  keys: number;
  xtra_keys: number;
  /** 1: the whole payable; 0: part of it. */
  whole: number;
  state: RefundState;
  origin: 'staff' | 'reader';
  reason: string;
  actor_id: number | null;
  ending: 'now' | 'period_end' | null;
  provider_action: 'void' | 'refund' | null;
  provider_refund_id: string | null;
  hold_transaction_id: number | null;
  ledger_transaction_id: number | null;
  failure: string | null;
  created_at: number;
  updated_at: number;
  confirmed_at: number | null;
}

export interface RefundEventTable {
  id: Generated<number>;
  refund_id: number;
  state: string;
  source: string;
  detail: string | null;
  created_at: number;
}

/** The demo sandboxes' side of a refund. */
export interface SandboxRefundTable {
  id: Generated<number>;
  provider: string;
  payment_id: string;
  correlation_id: string;
  refund_id: string;
  amount: number;
  currency: string;
  action: string;
  created_at: number;
}

export interface TrialUseTable {
  user_id: number;
  subscription_id: number;
  created_at: number;
}

export interface SubscriptionSeriesTable {
  subscription_id: number;
  series_id: number;
  created_at: number;
}

export interface SubscriptionChargeTable {
  id: Generated<number>;
  public_id: string;
  subscription_id: number;
  user_id: number;
  period_start: number;
  period_end: number;
  currency: string;
  amount: number;
  method: string;
  provider: string;
  state: OrderState;
  payment_id: string | null;
  br_code: string | null;
  expires_at: number | null;
  failure: string | null;
  created_at: number;
  updated_at: number;
  paid_at: number | null;
}

/** A chapter being prepared in the studio (docs/staff.md, "Chapter uploads"); readers never see it. */
export interface ChapterDraftTable {
  id: Generated<number>;
  series_id: number;
  language: string;
  number: number;
  title: string | null;
  subtitle: string | null;
  created_by: number | null;
  created_at: number;
  updated_at: number;
}

/** A draft's page: its file in the staging folder (`media_key`, relative to MEDIA_DIR). */
export interface ChapterDraftPageTable {
  draft_id: number;
  position: number;
  media_key: string;
  width: number;
  height: number;
  original_name: string;
  bytes: number;
}

/** A comment under a chapter, or a reply to one (one level: a reply's parent has no parent). */
export interface CommentTable {
  id: Generated<number>;
  chapter_id: number;
  /** The site it was written on (1 English, 3 Portuguese): each site has its own thread. */
  site_id: number;
  /** The chapter's language. */
  language: string;
  user_id: number;
  parent_id: number | null;
  /** Plain text, trimmed, at most 2,000 characters; `||…||` marks spoilers. */
  body: string;
  /** The whole comment is a spoiler. */
  spoiler: Generated<Bool>;
  created_at: number;
  edited_at: number | null;
  /** Deleted by its author while it had replies: shown as "deleted", body emptied. */
  deleted_at: number | null;
  /** Rows in comment_likes, kept in the same transaction. */
  like_count: Generated<number>;
  /** Live replies (kept with each reply written or removed). */
  reply_count: Generated<number>;
  state: Generated<'VISIBLE' | 'HELD' | 'REMOVED'>;
  /** Open (unreviewed) reports, kept with each report in the same transaction: 3 hold the comment, 10 remove it. */
  report_count: Generated<number>;
  /** Why it is HELD or REMOVED (null when VISIBLE). */
  state_reason: 'reports' | 'reports_limit' | 'words' | 'staff' | null;
}

/** One reader's report of one comment (one per reader and comment). */
export interface CommentReportTable {
  comment_id: number;
  user_id: number;
  reason: 'spoiler' | 'spam' | 'harassment' | 'other';
  created_at: number;
  /** A moderator restored or removed the comment: the report no longer counts. */
  reviewed_at: number | null;
}

/** The pinned comment of a chapter's thread on a site (at most one). */
/** A series' creator: the account of someone who makes it (its comments carry a badge). */
export interface SeriesCreatorTable {
  series_id: number;
  user_id: number;
  position: number;
}

export interface CommentPinTable {
  chapter_id: number;
  site_id: number;
  comment_id: number;
  pinned_at: number;
  pinned_by: number | null;
}

/** A reader banned from commenting (both sites), until a time or for good (`until` null). */
export interface CommentBanTable {
  user_id: number;
  reason: string;
  until: number | null;
  created_at: number;
  created_by: number | null;
}

/** A reader (user_id) who no longer sees another's (muted_id) comments. */
export interface CommentMuteTable {
  user_id: number;
  muted_id: number;
  created_at: number;
}

/** A site's blocked word or phrase (normalized): a comment containing it is held for review. */
export interface BlockedWordTable {
  id: Generated<number>;
  site_id: number;
  word: string;
  created_at: number;
  created_by: number | null;
}

/** One reader's like of one comment. */
export interface CommentLikeTable {
  comment_id: number;
  user_id: number;
  created_at: number;
}

/** A curated list of series on one site (docs/data-model.md, "Collections"). */
export interface CollectionTable {
  id: Generated<number>;
  site_id: number;
  /** Unique on its site; the page is /collections/{slug}/. */
  slug: string;
  /** In the site's language. */
  title: string;
  description: Generated<string>;
  /** Order of the collections in lists (lowest first). */
  position: Generated<number>;
  created_at: number;
}

/** One series in a collection, in the editor's order. */
export interface CollectionItemTable {
  collection_id: number;
  series_id: number;
  position: number;
}

/** A message waiting to be sent, or sent (docs/data-model.md, "Email outbox"; src/server/outbox.ts). */
export interface OutboxEmailTable {
  id: Generated<number>;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string;
  /** What it is for (`password.reset`, …): logs and the demo outbox show it. */
  kind: string;
  /** pending (waiting or being retried), sent, failed (refused for good by the SMTP server). */
  status: Generated<'pending' | 'sent' | 'failed'>;
  attempts: Generated<number>;
  /** When the worker may try it next (back-off after a failure). */
  next_attempt_at: number;
  last_error: string | null;
  created_at: number;
  sent_at: number | null;
}

/** A forgotten-password link (docs/accounts.md, "Forgotten password"): single use, one hour. */
export interface PasswordResetTable {
  /** SHA-256 hex of the token in the link; the token itself is never stored. */
  token_hash: string;
  user_id: number;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

/** A change of email waiting for the link sent to the new address (docs/accounts.md, "Changing the email"). */
export interface EmailChangeTable {
  token_hash: string;
  user_id: number;
  /** Normalised; checked free again when the link is used. */
  new_email: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

export interface Database {
  email_changes: EmailChangeTable;
  outbox_emails: OutboxEmailTable;
  password_resets: PasswordResetTable;
  collections: CollectionTable;
  collection_items: CollectionItemTable;
  comments: CommentTable;
  comment_likes: CommentLikeTable;
  comment_reports: CommentReportTable;
  comment_pins: CommentPinTable;
  series_creators: SeriesCreatorTable;
  comment_bans: CommentBanTable;
  comment_mutes: CommentMuteTable;
  blocked_words: BlockedWordTable;
  charge_events: ChargeEventTable;
  refunds_due: RefundDueTable;
  refunds: RefundTable;
  refund_events: RefundEventTable;
  sandbox_refunds: SandboxRefundTable;
  publishers: PublisherTable;
  people: PersonTable;
  tags: TagTable;
  keywords: KeywordTable;
  series: SeriesTable;
  series_people: SeriesPersonTable;
  series_tags: SeriesTagTable;
  series_keywords: SeriesKeywordTable;
  series_languages: SeriesLanguageTable;
  series_search: SeriesSearchTable;
  series_texts: SeriesTextTable;
  series_promotions: SeriesPromotionTable;
  campaigns: CampaignTable;
  chapters: ChapterTable;
  chapter_pages: ChapterPageTable;
  users: UserTable;
  user_capabilities: UserCapabilityTable;
  audit_log: AuditLogTable;
  short_links: ShortLinkTable;
  // Chapter drafts (studio chapters).
  chapter_drafts: ChapterDraftTable;
  chapter_draft_pages: ChapterDraftPageTable;
  sessions: SessionTable;
  rate_limits: RateLimitTable;
  app_check_uses: AppCheckUseTable;
  favorites: FavoriteTable;
  notifications: NotificationTable;
  notification_deliveries: NotificationDeliveryTable;
  notification_prefs: NotificationPrefTable;
  push_subscriptions: PushSubscriptionTable;
  push_outbox: PushOutboxTable;
  push_daily: PushDailyTable;
  push_quiet_hours: PushQuietHoursTable;
  notification_digests: NotificationDigestTable;
  reading_progress: ReadingProgressTable;
  wallet_accounts: WalletAccountTable;
  ledger_transactions: LedgerTransactionTable;
  ledger_entries: LedgerEntryTable;
  ledger_audits: LedgerAuditTable;
  chapter_unlocks: ChapterUnlockTable;
  rentals: RentalTable;
  ad_views: AdViewTable;
  key_packs: KeyPackTable;
  coupons: CouponTable;
  orders: OrderTable;
  order_events: OrderEventTable;
  coupon_redemptions: CouponRedemptionTable;
  pack_favorites: PackFavoriteTable;
  sandbox_card_nonces: SandboxCardNonceTable;
  sandbox_pix_charges: SandboxPixChargeTable;
  plans: PlanTable;
  subscriptions: SubscriptionTable;
  subscription_events: SubscriptionEventTable;
  trial_uses: TrialUseTable;
  subscription_series: SubscriptionSeriesTable;
  subscription_charges: SubscriptionChargeTable;
}

export type SeriesRow = Selectable<SeriesTable>;
export type NewSeries = Insertable<SeriesTable>;
export type SeriesUpdate = Updateable<SeriesTable>;
export type ChapterRow = Selectable<ChapterTable>;
export type NewChapter = Insertable<ChapterTable>;
export type CampaignRow = Selectable<CampaignTable>;
export type PublisherRow = Selectable<PublisherTable>;
export type TagRow = Selectable<TagTable>;
export type PersonRow = Selectable<PersonTable>;
export type ChapterPageRow = Selectable<ChapterPageTable>;
export type UserRow = Selectable<UserTable>;
export type SessionRow = Selectable<SessionTable>;
export type { ColumnType };
