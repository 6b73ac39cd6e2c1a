/**
 * Messages that name the unit come in a chapter and an episode variant: a webtoon is read in
 * episodes, every other format in chapters (`unitFor`). The reader's words (reader/wording.ts) and
 * the wallet's answers (unlock, passes, rentals) pick theirs here, so no webtoon hears "chapter".
 */
import { unitFor, type Format } from './rules';
import type { MessageKey, T } from '~/lib/i18n';

/** The chapter message → its episode variant. */
export const EPISODE_VARIANTS = {
  'wallet.error.insufficient': 'wallet.error.insufficientEpisode',
  'wallet.error.owned': 'wallet.error.ownedEpisode',
  'wallet.error.free': 'wallet.error.freeEpisode',
  'wallet.error.scheduled': 'wallet.error.scheduledEpisode',
  'wallet.error.region': 'wallet.error.regionEpisode',
  'wallet.error.unavailable': 'wallet.error.unavailableEpisode',
  'wallet.error.notOnSale': 'wallet.error.notOnSaleEpisode',
  'wallet.error.passUnavailable': 'wallet.error.passUnavailableEpisode',
  'wallet.error.rentUnavailable': 'wallet.error.rentUnavailableEpisode',
  'wallet.free.newest': 'wallet.free.newestEpisode',
  'wallet.free.keysOnly': 'wallet.free.keysOnlyEpisode',
  'wallet.free.used': 'wallet.free.usedEpisode',
  'wallet.free.readable': 'wallet.free.readableEpisode',
  'wallet.free.disabled': 'wallet.free.disabledEpisode',
  'series.rentPromo': 'series.rentPromoEpisode',
} as const satisfies Partial<Record<MessageKey, MessageKey>>;

/** The key to use for a series of `format` (unknown format: the chapter wording). */
export function unitKey(format: Format | null | undefined, key: MessageKey): MessageKey {
  if (!format || unitFor(format) !== 'episode') return key;
  return (EPISODE_VARIANTS as Partial<Record<MessageKey, MessageKey>>)[key] ?? key;
}

/** `t` for one series: keys with an episode variant follow the series' unit. */
export function unitT(t: T, format: Format | null | undefined): T {
  if (!format || unitFor(format) !== 'episode') return t;
  const wrapped = ((key: MessageKey, values?: Parameters<T>[1]) => t(unitKey(format, key), values)) as T;
  wrapped.exists = t.exists;
  return wrapped;
}
