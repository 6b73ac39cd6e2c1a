import type { Migration, MigrationProvider } from 'kysely/migration';
import * as catalog from './2026-11-21T00-catalog';
import * as accounts from './2026-11-21T01-accounts';
import * as library from './2026-11-21T02-library';
import * as search from './2026-11-21T03-search';
import * as bigintTimes from './2026-11-23T00-bigint-times';
import * as rateLimitWindowIdx from './2026-11-23T01-rate-limit-window-idx';
import * as wallet from './2026-11-24T00-wallet';
import * as dropUserBalances from './2026-11-24T01-drop-user-balances';
import * as commerce from './2026-11-25T00-commerce';
import * as subscriptions from './2026-11-25T01-subscriptions';
import * as seriesTexts from './2026-11-25T02-series-texts';
import * as demoAccounts from './2026-11-27T00-demo-accounts';
import * as appCheck from './2026-11-27T01-app-check';
import * as moneyOwners from './2026-11-27T02-money-owners';
import * as staffCapabilities from './2026-11-28T00-staff-capabilities';
import * as studioChapters from './2026-11-29T01-studio-chapters';
// The studio's series editor: the DRAFT state.
import * as studioSeries from './2026-11-29T00-studio-series';
// Refunds (the support desk).
import * as refunds from './2026-11-30T00-refunds';
// The browser a session began in (the support desk's session list).
import * as sessionUserAgent from './2026-11-30T01-session-user-agent';
// The ledger audit's verdicts (/metrics).
import * as ledgerAudits from './2026-12-01T05-ledger-audits';
// Comments under chapters (issue 31).
import * as comments from './2026-12-02T00-comments';
import * as commentModeration from './2026-12-02T10-comment-moderation';
import * as collections from './2026-12-03T00-collections';
import * as promotionsPreview from './2026-12-03T00-promotions-preview';
import * as notifications from './2026-12-03T00-notifications';
import * as notificationDigests from './2026-12-05T10-notification-digests';
import * as outboxPasswordResets from './2026-12-04T00-outbox-password-resets';
import * as seriesCreators from './2026-12-05T00-series-creators';
import * as webPush from './2026-12-05T10-web-push';

/** Every migration, in order. Add new ones at the end; never edit one that has landed. */
export const migrations: Record<string, Migration> = {
  '2026-11-21T00-catalog': catalog,
  '2026-11-21T01-accounts': accounts,
  '2026-11-21T02-library': library,
  '2026-11-21T03-search': search,
  '2026-11-23T00-bigint-times': bigintTimes,
  '2026-11-23T01-rate-limit-window-idx': rateLimitWindowIdx,
  '2026-11-24T00-wallet': wallet,
  '2026-11-24T01-drop-user-balances': dropUserBalances,
  '2026-11-25T00-commerce': commerce,
  '2026-11-25T01-subscriptions': subscriptions,
  '2026-11-25T02-series-texts': seriesTexts,
  '2026-11-27T00-demo-accounts': demoAccounts,
  '2026-11-27T01-app-check': appCheck,
  '2026-11-27T02-money-owners': moneyOwners,
  '2026-11-28T00-staff-capabilities': staffCapabilities,
  // Chapter drafts (studio chapters).
  '2026-11-29T01-studio-chapters': studioChapters,
  // The studio's series editor.
  '2026-11-29T00-studio-series': studioSeries,
  '2026-11-30T00-refunds': refunds,
  '2026-11-30T01-session-user-agent': sessionUserAgent,
  '2026-12-01T05-ledger-audits': ledgerAudits,
  '2026-12-02T00-comments': comments,
  // Comment moderation: reports, pins, bans, mutes, blocked words (issue 31).
  '2026-12-02T10-comment-moderation': commentModeration,
  // Curated collections of series per site (issue 30).
  '2026-12-03T00-collections': collections,
  // Promotional visuals and chapter previews (issue 30).
  '2026-12-03T00-promotions-preview': promotionsPreview,
  '2026-12-03T00-notifications': notifications,
  // Email outbox and forgotten-password links (issue 32).
  '2026-12-04T00-outbox-password-resets': outboxPasswordResets,
  // The accounts of a series' creators, for their comments' badge (issue 31).
  '2026-12-05T00-series-creators': seriesCreators,
  // Web push: subscriptions, the push outbox, the daily cap, quiet hours (issue 32).
  '2026-12-05T10-web-push': webPush,
  // The email digest of new chapters (issue 32).
  '2026-12-05T10-notification-digests': notificationDigests,
};

export const migrationProvider: MigrationProvider = { getMigrations: async () => migrations };
