/**
 * Unlock buttons (series rows, the reader's locked view) open the unlock dialog instead of
 * posting their form. The dialog's React half loads on the first click; until then, and
 * without JavaScript, the button submits its form (POST /unlock/).
 */
import { readPageUserData } from '~/features/accounts';
import { offerFrom, type DialogConfig } from './unlock-dialog';

function readConfig(): DialogConfig | null {
  try {
    const text = document.getElementById('unlock-dialog-config')?.textContent;
    return text ? (JSON.parse(text) as DialogConfig) : null;
  } catch {
    return null;
  }
}

export function initUnlockButtons() {
  const config = readConfig();
  if (!config) return;
  // Only now do the buttons open a dialog (without this script they post their form), and
  // setting it here keeps 22 bytes off each of a hundred rows.
  for (const button of document.querySelectorAll('button.btn-unlock[data-price]')) button.setAttribute('aria-haspopup', 'dialog');
  document.addEventListener('click', (event) => {
    const button = (event.target as Element | null)?.closest?.<HTMLButtonElement>('button.btn-unlock[data-price]');
    if (!button || event.defaultPrevented) return;
    const row = button.closest('li');
    const offer = offerFrom(button, {
      name: row?.querySelector('.chapter-name')?.textContent ?? undefined,
      href: row?.querySelector<HTMLAnchorElement>('a.chapter-main')?.getAttribute('href') ?? undefined,
    });
    const user = readPageUserData();
    if (!offer || !user) return;
    event.preventDefault();
    button.setAttribute('aria-busy', 'true');
    import('./unlock-entry')
      .then(({ openUnlockDialog }) => openUnlockDialog(config, offer, { keys: user.profile.keys, xtra: user.profile.free_keys }, button))
      // The dialog could not load (offline, a new deployment): the form still works.
      .catch(() => button.form?.requestSubmit(button))
      .finally(() => button.removeAttribute('aria-busy'));
  });
}
