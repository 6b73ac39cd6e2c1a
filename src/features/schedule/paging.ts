/**
 * Latest-updates paging, pure: the fetcher is injected. The server runs
 * it over the relay `updates` query (latest.server.ts); a browser could run it over the relay
 * endpoint itself.
 *
 * The window starts 7 days back; series still without an entry are asked again with a window
 * 7 days wider, up to 30 days. Series ids go in batches of 50, at most 20 requests in all, and
 * paging stops as soon as 50 entries are collected. A failed fetch ends paging silently with
 * what was collected (updates fetch failures abort silently).
 */
export const LATEST_PAGING = {
  startDays: 7,
  stepDays: 7,
  maxDays: 30,
  maxRequests: 20,
  batchSize: 50,
  maxEntries: 50,
} as const;

const DAY = 86_400;

export interface PagerOptions<Id, E> {
  now: number;
  /** Candidate series, most recently updated first (the order batches are asked in). */
  seriesIds: readonly Id[];
  /** Entries for some series released after `after` (unix seconds) up to now. */
  fetch: (ids: Id[], after: number) => Promise<readonly E[]>;
  /** The series an entry belongs to. */
  keyOf: (entry: E) => Id;
  /** Release time of an entry's newest chapter (unix seconds). */
  timeOf: (entry: E) => number;
  /** At most this many entries (capped at 50). */
  limit?: number;
}

export interface PagerResult<E> {
  /** Newest first, at most `limit`. */
  entries: E[];
  /** Fetches made. */
  requests: number;
  /** Width in days of the widest window asked. */
  days: number;
  /** The fetch failed and paging stopped early. */
  aborted: boolean;
}

export async function pageLatestUpdates<Id, E>(opts: PagerOptions<Id, E>): Promise<PagerResult<E>> {
  const P = LATEST_PAGING;
  const limit = Math.max(0, Math.min(P.maxEntries, Math.floor(opts.limit ?? P.maxEntries)));
  const found = new Map<Id, E>();
  let remaining = [...new Set(opts.seriesIds)];
  let days: number = P.startDays;
  let requests = 0;
  let aborted = false;
  if (limit === 0) return { entries: [], requests, days: 0, aborted };
  paging: for (;;) {
    const after = opts.now - days * DAY;
    for (let i = 0; i < remaining.length; i += P.batchSize) {
      if (requests >= P.maxRequests) break paging;
      const batch = remaining.slice(i, i + P.batchSize);
      const asked = new Set(batch);
      requests++;
      let answer: readonly E[];
      try {
        answer = await opts.fetch(batch, after);
      } catch {
        aborted = true;
        break paging;
      }
      for (const entry of answer) {
        const key = opts.keyOf(entry);
        if (asked.has(key) && !found.has(key)) found.set(key, entry);
      }
      if (found.size >= limit) break paging;
    }
    remaining = remaining.filter((id) => !found.has(id));
    if (days >= P.maxDays || remaining.length === 0) break;
    days = Math.min(days + P.stepDays, P.maxDays);
  }
  const entries = [...found.values()].sort((a, b) => opts.timeOf(b) - opts.timeOf(a)).slice(0, limit);
  return { entries, requests, days, aborted };
}
