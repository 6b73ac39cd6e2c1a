/**
 * The purchase favorite star on /my/purchases/: POST stars a purchase (its key pack then comes
 * first when buying again), DELETE unstars it. Every star of the same pack follows; the button is
 * disabled during the call; a failure says "Failed toggling purchase favorite status!". The stars
 * are hidden until this script runs: without JavaScript there is nothing to press.
 */
export function initPurchaseFavorites(root: ParentNode = document): void {
  const stars = [...root.querySelectorAll<HTMLButtonElement>('button[data-purchase-star]')];
  for (const star of stars) {
    star.hidden = false;
    star.addEventListener('click', async () => {
      const on = star.getAttribute('aria-pressed') !== 'true';
      const same = stars.filter((s) => s.dataset.pack === star.dataset.pack);
      star.disabled = true;
      try {
        const res = await fetch(star.dataset.endpoint!, { method: on ? 'POST' : 'DELETE', credentials: 'same-origin', headers: { Accept: 'application/json' } });
        if (!res.ok) throw new Error(String(res.status));
        const body = (await res.json()) as { favorited?: unknown };
        if (typeof body.favorited !== 'boolean') throw new Error('bad answer');
        for (const s of same) s.setAttribute('aria-pressed', String(body.favorited));
      } catch {
        alert(star.dataset.error ?? 'Failed toggling purchase favorite status!');
      } finally {
        star.disabled = false;
      }
    });
  }
}
