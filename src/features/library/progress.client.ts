/**
 * Reports reading progress for a signed-in reader (docs/library-progress.md). The reader page
 * embeds a signed progress token; each report carries it and an increasing `seq`, so the server
 * keeps the newest. Reports are throttled (one per 5 s, at once on the last page) and the
 * pending one is sent with navigator.sendBeacon when the page is hidden or left.
 */
import { completionAt } from '~/features/library/progress';
import { PROGRESS_ENDPOINT } from '~/lib/paths';

const THROTTLE_MS = 5000;
const ENDPOINT = PROGRESS_ENDPOINT;

export interface ProgressReporter {
  /** The reader is now on page `index` (0-based; `total` means the end slot). */
  at(index: number): void;
}

export function createProgressReporter(root: HTMLElement, total: number): ProgressReporter | null {
  const token = root.dataset.progressToken;
  const e4pid = root.dataset.e4pid;
  if (!token || !e4pid || total <= 0) return null;
  let seq = 0;
  let pending: { completion: number; completed: boolean } | null = null;
  let lastSentKey = '';
  let lastSentAt = 0;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let completedSent = false;

  const body = (p: { completion: number; completed: boolean }) =>
    JSON.stringify({ e4pid, completion: p.completion, completed: p.completed, progress_token: token, seq: ++seq });

  const flush = (beacon: boolean) => {
    if (timer) { clearTimeout(timer); timer = null; }
    if (!pending) return;
    const p = pending;
    pending = null;
    const key = `${p.completion}:${p.completed}`;
    if (key === lastSentKey) return;
    lastSentKey = key;
    lastSentAt = Date.now();
    if (p.completed) completedSent = true;
    const data = body(p);
    if (beacon && typeof navigator.sendBeacon === 'function') {
      // A string body is sent as text/plain, which the endpoint accepts.
      if (navigator.sendBeacon(ENDPOINT, data)) return;
    }
    void fetch(ENDPOINT, {
      method: 'POST',
      credentials: 'same-origin',
      keepalive: true,
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: data,
    }).catch(() => { /* offline: the next report carries the newer position */ });
  };

  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') flush(true);
  });
  addEventListener('pagehide', () => flush(true));

  return {
    at(index: number) {
      const last = index >= total - 1;
      // Once completed in this page view, going back does not report a lower position.
      if (completedSent && !last) return;
      pending = { completion: last ? 100 : completionAt(index, total), completed: last };
      const wait = THROTTLE_MS - (Date.now() - lastSentAt);
      if (last || wait <= 0) flush(false);
      else if (!timer) timer = setTimeout(() => flush(false), wait);
    },
  };
}
