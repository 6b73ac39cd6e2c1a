/**
 * Every 10 minutes while the home page is open, ask the relay whether the series in the
 * latest-updates list have new chapters; if so, say so in the list's live region with a reload
 * link. A failed or aborted check is silent and the next one tries again.
 */
import { CONTENT_REFRESH_MS, newEpisodesSince, updatesUrl } from './refresh';

export function initLatestRefresh(): void {
  const box = document.querySelector<HTMLElement>('[data-latest-refresh]');
  if (!box) return;
  const ids = (box.dataset.series ?? '').split(',').map(Number);
  const after = Number(box.dataset.after);
  const url = updatesUrl(ids, after);
  if (!url) return;
  let done = false;
  const check = async () => {
    if (done || document.visibilityState === 'hidden') return;
    try {
      const res = await fetch(url, { headers: { accept: 'application/json' }, credentials: 'omit' });
      if (!res.ok) return;
      const count = newEpisodesSince(await res.json(), after);
      if (count <= 0) return;
      done = true;
      const text = document.createElement('span');
      text.textContent = (box.dataset.message ?? '').replace('{count}', String(count));
      const reload = document.createElement('a');
      reload.className = 'btn btn-primary';
      reload.href = location.pathname + location.search;
      reload.textContent = box.dataset.reload ?? '';
      box.replaceChildren(text, ' ', reload);
      box.classList.add('has-news');
    } catch {
      /* silent: the next check tries again */
    }
  };
  window.setInterval(check, CONTENT_REFRESH_MS);
}
