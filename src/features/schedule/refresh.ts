/**
 * The home page's content refresh (every 10 minutes): the browser asks the relay
 * whether the series in the latest-updates list have chapters newer than the ones shown, and if
 * so offers a reload. Pure helpers here; the browser part is refresh.client.ts.
 */
import { relayUpdatesPath } from '~/lib/paths';

export const CONTENT_REFRESH_MS = 10 * 60_000;
/** The relay's `clientid` for the web site. */
export const WEB_CLIENT_ID = 'inkpass-web';
/** The relay takes at most 60 ids per call; the latest list has at most 50. */
const MAX_IDS = 50;

/** Relay `updates` URL for the series shown, asking for anything released after `after` (unix seconds). */
export function updatesUrl(seriesIds: readonly number[], after: number): string | null {
  const ids = seriesIds.filter((id) => Number.isSafeInteger(id) && id > 0).slice(0, MAX_IDS);
  if (!ids.length || !Number.isFinite(after) || after < 0) return null;
  return relayUpdatesPath(ids, { clientid: WEB_CLIENT_ID, after: Math.floor(after) });
}

/** Number of episodes in a relay answer released strictly after `after`; 0 for anything malformed. */
export function newEpisodesSince(body: unknown, after: number): number {
  const episodes = (body as { data?: { episodes?: unknown } } | null)?.data?.episodes;
  if (!Array.isArray(episodes)) return 0;
  let n = 0;
  for (const group of episodes) {
    const items = (group as { items?: unknown } | null)?.items;
    if (!Array.isArray(items)) continue;
    for (const item of items) {
      const at = Date.parse(String((item as { released_at?: unknown } | null)?.released_at ?? ''));
      if (Number.isFinite(at) && at > after * 1000) n++;
    }
  }
  return n;
}
