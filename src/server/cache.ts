/**
 * The one in-process cache: values shared by every visitor (never anything personal), kept a
 * short time in this process. A cache, never the source of truth: each process fills its own,
 * nothing is shared between processes, and a failed load is forgotten at once.
 *
 * - Single flight: concurrent gets of a missing or expired key share one load.
 * - Freshness: a value is fresh for `ttlMs`; with `staleMs`, an older value is still served for
 *   that long while one load replaces it in the background (stale-while-revalidate).
 * - Bounded: least recently used entries go first, past `maxEntries` or, with `sizeOf`, past
 *   `maxSize` units in all.
 * - Forgotten together: every cache made here holds values read from the catalogue, so
 *   `catalogChanged()` empties them all, with the page cache, when the catalogue changes.
 */
import { invalidatePages } from './page-cache.mjs';
import { CATALOG_CHANGED, onOtherWorkers, tellOtherWorkers } from './workers';

export interface CacheOptions<V> {
  /** How long a value is fresh, in milliseconds. */
  ttlMs: number;
  /** After that, how long it may still be served while a reload runs (0: reload before answering). */
  staleMs?: number;
  /** At most this many entries. */
  maxEntries?: number;
  /** Size of a value (for example its bytes), and the total allowed. */
  sizeOf?: (value: V) => number;
  maxSize?: number;
}

export interface Cache<V> {
  /** The cached value for `key`, loading it with `load` when missing or too old. */
  get(key: string, load: () => Promise<V>, nowMs?: number): Promise<V>;
  /** The cached value if it is present and fresh or stale-servable, without loading. */
  peek(key: string, nowMs?: number): V | undefined;
  delete(key: string): void;
  /** Forgets everything (for example when the data behind every entry changed). */
  clear(): void;
  readonly size: number;
  /** Total size of the settled values (with `sizeOf`). */
  readonly totalSize: number;
}

interface Entry<V> {
  at: number;
  promise: Promise<V>;
  /** Set once the load settled successfully. */
  value?: V;
  size: number;
  /** A background reload in flight (stale-while-revalidate). */
  refreshing?: Promise<V>;
}

const caches = new Set<Cache<unknown>>();

/**
 * The catalogue changed in this process (a release went out, a staff edit): forgets every shared
 * value and every kept anonymous page here, so the next request reads the new rows, and tells
 * the other workers of this machine to do the same (src/server/workers.ts). Other machines see
 * the change when their short freshness runs out.
 */
export function catalogChanged(): void {
  forgetCatalog();
  tellOtherWorkers(CATALOG_CHANGED);
}

function forgetCatalog(): void {
  for (const cache of caches) cache.clear();
  invalidatePages();
}
onOtherWorkers(CATALOG_CHANGED, forgetCatalog);
// SIGHUP to a server process (scripts/serve.mjs emits this event, CATALOG_EDITED of
// scripts/cluster.mjs): rows were changed by hand. One listener per process, calling this
// module's latest copy (the dev server evaluates the module again on each edit).
const onEdited = Symbol.for('inkpass.catalogEdited');
const hook = globalThis as { [onEdited]?: () => void };
if (!hook[onEdited]) process.on('inkpass:catalog-edited', () => hook[onEdited]?.());
hook[onEdited] = catalogChanged;

export function createCache<V>(options: CacheOptions<V>): Cache<V> {
  const { ttlMs, staleMs = 0, maxEntries = Infinity, sizeOf, maxSize = Infinity } = options;
  const entries = new Map<string, Entry<V>>();
  let totalSize = 0;

  const remove = (key: string, entry: Entry<V>) => {
    if (entries.get(key) !== entry) return;
    entries.delete(key);
    totalSize -= entry.size;
  };

  const evict = () => {
    for (const [key, entry] of entries) {
      if (entries.size <= maxEntries && totalSize <= maxSize) break;
      remove(key, entry);
    }
  };

  /** Starts a load for `key`; the entry replaces any other once the load succeeds. */
  const start = (key: string, load: () => Promise<V>, nowMs: number): Entry<V> => {
    const entry: Entry<V> = { at: nowMs, promise: Promise.resolve().then(load), size: 0 };
    entry.promise.then(
      (value) => {
        entry.value = value;
        entry.size = sizeOf ? sizeOf(value) : 0;
        // A background reload is counted when it replaces the stale entry (see get).
        if (entries.get(key) !== entry) return;
        totalSize += entry.size;
        evict();
      },
      () => remove(key, entry),
    );
    return entry;
  };

  const touch = (key: string, entry: Entry<V>) => {
    entries.delete(key);
    entries.set(key, entry);
  };

  const cache: Cache<V> = {
    get(key, load, nowMs = Date.now()) {
      const hit = entries.get(key);
      if (hit) {
        const age = nowMs - hit.at;
        if (age < ttlMs) {
          touch(key, hit);
          return hit.promise;
        }
        if (hit.value !== undefined && age < ttlMs + staleMs) {
          touch(key, hit);
          if (!hit.refreshing) {
            const next = start(key, load, nowMs);
            hit.refreshing = next.promise;
            next.promise.then(
              () => {
                if (entries.get(key) !== hit) return;
                remove(key, hit);
                entries.set(key, next);
                totalSize += next.size;
                evict();
              },
              () => { hit.refreshing = undefined; },
            );
          }
          return hit.promise;
        }
        remove(key, hit);
      }
      const entry = start(key, load, nowMs);
      entries.set(key, entry);
      evict();
      return entry.promise;
    },
    peek(key, nowMs = Date.now()) {
      const hit = entries.get(key);
      if (!hit || hit.value === undefined) return undefined;
      return nowMs - hit.at < ttlMs + staleMs ? hit.value : undefined;
    },
    delete(key) {
      const hit = entries.get(key);
      if (hit) remove(key, hit);
    },
    clear() {
      entries.clear();
      totalSize = 0;
    },
    get size() {
      return entries.size;
    },
    get totalSize() {
      return totalSize;
    },
  };
  caches.add(cache as Cache<unknown>);
  return cache;
}
