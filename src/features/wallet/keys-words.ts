/**
 * How a movement of the key history is told (/my/keys/, and the support desk's view of a reader's
 * ledger, so staff read what the reader reads). Browser-safe: text only.
 */
import type { T } from '~/lib/i18n';
import type { KeysEntry } from './history.server';

/** What a movement was for, in the site's language. */
export function keysEntryText(e: Pick<KeysEntry, 'kind' | 'chapter' | 'reason'>, t: T): string {
  const c = e.chapter;
  switch (e.kind) {
    case 'unlock': return c ? t('keys.what.unlock', { chapter: c.name, series: c.series }) : t('keys.what.unlockGone');
    case 'daily_pass': return c ? t('keys.what.dailyPass', { chapter: c.name, series: c.series }) : t('keys.what.unlockGone');
    case 'ad': return c ? t('keys.what.ad', { chapter: c.name, series: c.series }) : t('keys.what.unlockGone');
    case 'grant': return e.reason ? t('keys.what.grant', { reason: e.reason }) : t('keys.what.grantPlain');
    case 'welcome': return t('keys.what.welcome');
    case 'purchase': return t('keys.what.purchase');
    case 'refund_hold': return t('keys.what.refund');
    case 'refund_release': return t('keys.what.refundReleased');
    default: return t('keys.what.other');
  }
}

/** A signed amount of keys or Xtra keys ("+10 keys", "−3 Xtra keys"). */
export function signedKeys(n: number, key: 'keys.amount.keys' | 'keys.amount.xtra', t: T): string {
  return `${n < 0 ? '−' : '+'}${t(key, { n: Math.abs(n) })}`;
}
