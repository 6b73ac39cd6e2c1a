/**
 * A per-process memo for data every anonymous visitor shares (the home page's latest updates and
 * schedule): kept `ttlMs`, never longer than the freshness the pages already promise shared caches
 * (s-maxage=60). A cache, never the source of truth: each process fills its own, and a failed
 * load is forgotten at once. Keys must not include anything personal.
 */
const entries = new Map<string, { at: number; value: Promise<unknown> }>();
const MAX_KEYS = 100;

export function sharedMemo<T>(key: string, ttlMs: number, load: () => Promise<T>, nowMs = Date.now()): Promise<T> {
  const hit = entries.get(key);
  if (hit && nowMs - hit.at < ttlMs) return hit.value as Promise<T>;
  if (entries.size >= MAX_KEYS) entries.clear();
  const value = load();
  const entry = { at: nowMs, value };
  entries.set(key, entry);
  value.catch(() => {
    if (entries.get(key) === entry) entries.delete(key);
  });
  return value;
}
