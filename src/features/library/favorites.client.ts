/**
 * Favorite buttons (the one star control of src/components/FavoriteButton.astro on series pages
 * and cards, and the favorites page's remove/undo) as a plain module. Each is a form posting to
 * /my/favorites/toggle/ that works without JavaScript; here it calls the JSON endpoint instead
 * (POST favorites, DELETE removes), disabled during the call, so the page neither reloads nor
 * loses its scroll position.
 */

/** Asks the endpoint to set the state; resolves to the new state, rejects on any failure. */
export async function requestFavorite(endpoint: string, on: boolean, fetchImpl: typeof fetch = fetch): Promise<boolean> {
  const res = await fetchImpl(endpoint, {
    method: on ? 'POST' : 'DELETE',
    credentials: 'same-origin',
    headers: { Accept: 'application/json' },
  });
  if (!res.ok) throw new Error(`favorite: HTTP ${res.status}`);
  const body = (await res.json()) as { favorited?: unknown };
  if (typeof body.favorited !== 'boolean') throw new Error('favorite: bad answer');
  return body.favorited;
}

/**
 * Shows a form's state: the hidden field asks for the opposite next time; the star's
 * aria-pressed (which fills it), its label ("Favorite"/"Favorited", on the text or, for the
 * icon-only star, on aria-label and title) and, when `announce`, a polite status line.
 */
export function applyFavoriteState(form: HTMLFormElement, favorited: boolean, announce = false): void {
  const wanted = form.querySelector<HTMLInputElement>('input[name="favorite"]');
  if (wanted) wanted.value = favorited ? '0' : '1';
  const button = form.querySelector<HTMLButtonElement>('button[type="submit"]');
  if (!button) return;
  const entry = form.closest<HTMLElement>('[data-favorite-entry]');
  if (entry) {
    // Favorites page: the entry greys out and its button becomes "Undo".
    entry.classList.toggle('is-removed', !favorited);
    const label = favorited ? form.dataset.removeLabel : form.dataset.undoLabel;
    const text = button.querySelector<HTMLElement>('[data-label]') ?? button;
    if (label) text.textContent = label;
  } else {
    button.setAttribute('aria-pressed', String(favorited));
    const label = favorited ? form.dataset.labelOn : form.dataset.labelOff;
    if (label) {
      const text = button.querySelector<HTMLElement>('[data-favorite-label]');
      if (text) text.textContent = label;
      else {
        button.setAttribute('aria-label', label);
        button.title = label;
      }
    }
    const status = form.querySelector<HTMLElement>('[data-favorite-status]');
    if (status && announce) status.textContent = (favorited ? form.dataset.saidOn : form.dataset.saidOff) ?? '';
  }
}

let delegated = false;

/**
 * One submit listener on the document, in the capture phase (before any enclosing form's own
 * listener), serves every favorite form, including those a listing swap inserts later. Calling
 * it again is harmless.
 */
export function initFavoriteForms(): void {
  if (delegated) return;
  delegated = true;
  document.addEventListener('submit', async (event) => {
    const form = event.target instanceof HTMLFormElement && event.target.matches('form[data-favorite]') ? event.target : null;
    if (!form) return;
    event.preventDefault();
    // The listing's results sit inside its filter form, whose own submit handler would reload
    // the results (and the reader's place): this submit is handled here and goes no further.
    event.stopPropagation();
    const button = form.querySelector<HTMLButtonElement>('button[type="submit"]');
    if (button?.disabled) return;
    const on = form.querySelector<HTMLInputElement>('input[name="favorite"]')?.value === '1';
    if (button) button.disabled = true;
    form.setAttribute('aria-busy', 'true');
    try {
      applyFavoriteState(form, await requestFavorite(form.dataset.endpoint ?? '', on), true);
    } catch {
      applyFavoriteState(form, !on);
      alert(form.dataset.error ?? 'Failed toggling favorite status!');
    } finally {
      if (button) button.disabled = false;
      form.removeAttribute('aria-busy');
    }
  }, true);
}
