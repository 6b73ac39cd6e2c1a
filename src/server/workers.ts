/**
 * What a server process needs to know about the other workers on its machine (WORKERS > 1:
 * scripts/cluster.mjs forks them under node:cluster). A lone server (WORKERS=1, `astro dev`, a
 * command) has no siblings: it runs the machine's checks itself and tells no one.
 */
import cluster from 'node:cluster';

/**
 * Whether this process runs the machine's periodic checks (the release check, settling expired
 * Pix payments): a lone server does; of the workers, only the one the primary chose (it passes
 * INKPASS_MACHINE_TIMERS=1 to it, and to the worker that replaces it), so they run once per
 * machine, not once per worker.
 */
export const runsMachineTimers: boolean = !cluster.isWorker || process.env.INKPASS_MACHINE_TIMERS === '1';

/** The message a worker sends, and the primary passes to every other worker (scripts/cluster.mjs). */
export const CATALOG_CHANGED = 'inkpass:catalog-changed';

/** Tells the other workers of this machine, through the primary; nothing without siblings. */
export function tellOtherWorkers(type: typeof CATALOG_CHANGED): void {
  if (cluster.isWorker && process.connected) process.send?.({ type });
}

/** Runs `fn` when another worker of this machine sends `type`. */
export function onOtherWorkers(type: typeof CATALOG_CHANGED, fn: () => void): void {
  if (!cluster.isWorker) return;
  process.on('message', (m: unknown) => {
    if (m && typeof m === 'object' && (m as { type?: unknown }).type === type) fn();
  });
}
