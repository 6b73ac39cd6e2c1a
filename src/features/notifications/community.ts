/**
 * A moderation decision (category community) in words, the same in the inbox and in its email:
 * what was decided, and the chapter's link when the comment was on `siteId`'s site.
 */
import type { Format } from '~/features/catalog';
import { longDateTimeLabel } from '~/lib/dates';
import type { T } from '~/lib/i18n';
import { readerPath } from '~/lib/paths';

export function communityText(kind: string, d: Record<string, string | number>, ctx: { t: T; locale: string; timeZone: string; siteId: number }): { text: string; href: string | null } {
  const { t } = ctx;
  const place = { series: String(d.series ?? ''), chapter: Number(d.number ?? 0) };
  const reasonKey = `moderation.reason.${d.reason}`;
  const link = Number(d.site) === ctx.siteId && d.slug ? readerPath({ slug: String(d.slug), format: String(d.format) as Format }, { e4pid: String(d.e4pid), number: place.chapter, language: String(d.language) }) : null;
  switch (kind) {
    case 'COMMENT_REMOVED':
      return { text: d.reason && t.exists(reasonKey) ? t('notifications.community.COMMENT_REMOVED_REASON', { ...place, reason: t(reasonKey) }) : t('notifications.community.COMMENT_REMOVED', place), href: link };
    case 'COMMENT_RESTORED':
      return { text: t('notifications.community.COMMENT_RESTORED', place), href: link };
    case 'BANNED_UNTIL':
      return { text: t('notifications.community.BANNED_UNTIL', { date: longDateTimeLabel(Number(d.until), ctx.locale, ctx.timeZone), reason: String(d.reason ?? '') }), href: null };
    case 'BANNED_FOREVER':
      return { text: t('notifications.community.BANNED_FOREVER', { reason: String(d.reason ?? '') }), href: null };
    case 'BAN_LIFTED':
      return { text: t('notifications.community.BAN_LIFTED'), href: null };
    default:
      return { text: t('notifications.community.other'), href: null };
  }
}
