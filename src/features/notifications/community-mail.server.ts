/**
 * A moderation decision by email, for a reader who turned community email on (docs/notifications.md,
 * "Preferences"): the inbox's words (community.ts) in the language of the site the decision was
 * taken on, queued in the moderator's transaction (the outbox sends it after the commit).
 */
import { NOTIFICATION_SETTINGS_PATH, notificationsPath } from '~/lib/paths';
import { SITES, type SiteId } from '~/lib/site';
import type { DB } from '~/server/db';
import { enqueueEmail, renderEmail, siteOrigin } from '~/server/outbox';
import { communityText } from './community';
import * as repo from './repository.server';

export async function queueCommunityEmail(db: DB, userId: number, kind: string, data: Record<string, string | number>, now: number): Promise<void> {
  const reader = await repo.contactOf(db, userId);
  if (!reader) return;
  const site = SITES[(Number(data.site) === 3 ? 3 : 1) as SiteId];
  // The catalogues load on first use (as push.server.ts): the e2e specs import this feature under Playwright's loader, which takes no JSON imports.
  const t = (await import('~/lib/i18n')).createT(site.locale);
  const origin = siteOrigin(site.id);
  const { text, href } = communityText(kind, data, { t, locale: site.locale, timeZone: site.timeZone, siteId: site.id });
  const mail = renderEmail({
    siteName: t('site.name'),
    subject: t('mail.community.subject'),
    paragraphs: [t('mail.reset.greeting', { name: reader.name }), text],
    action: { label: t('mail.digest.action'), url: `${origin}${href ?? notificationsPath()}` },
    footer: t('mail.footer.community'),
    footerLink: { label: t('mail.footer.settings'), url: `${origin}${NOTIFICATION_SETTINGS_PATH}` },
  });
  await enqueueEmail(db, { to: reader.email, ...mail, kind: 'community' }, now);
}
