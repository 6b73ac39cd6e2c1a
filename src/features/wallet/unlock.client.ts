/**
 * Unlock buttons (series rows, the reader's locked view) open the unlock dialog instead of
 * posting their form. The dialog's React half loads on the first click; until then, and
 * without JavaScript, the button submits its form (POST /unlock/).
 *
 * A page reached with `?intent=unlock:{chapter}` (back from buying keys, or from logging in)
 * reopens the dialog for that chapter, with the purchase's receipt when there is one, so the
 * reader goes on where they left (docs/wallet.md, "From buying to reading"). The dialog still
 * asks for the confirming tap: a link alone never spends keys.
 */
import { readPageUserData } from '~/features/accounts';
import { INTENT_PARAM, parseIntent, withIntent, withoutReturnParams } from '~/lib/intent';
import { offerFrom, type DialogConfig } from './unlock-dialog';

function readConfig(): DialogConfig | null {
  try {
    const text = document.getElementById('unlock-dialog-config')?.textContent;
    return text ? (JSON.parse(text) as DialogConfig) : null;
  } catch {
    return null;
  }
}

/** Opens the dialog for a button; false when the button carries no usable offer or nobody is signed in. */
function openFor(config: DialogConfig, button: HTMLButtonElement, resumed: { receipt: string | null } | null): boolean {
  const row = button.closest('li');
  const offer = offerFrom(button, {
    name: row?.querySelector('.chapter-name')?.textContent ?? undefined,
    href: row?.querySelector<HTMLAnchorElement>('a.chapter-main')?.getAttribute('href') ?? undefined,
  });
  const user = readPageUserData();
  if (!offer || !user) return false;
  // Buying keys comes back here, with this chapter's dialog to reopen.
  const here = withoutReturnParams(location.pathname + location.search);
  const returnPath = withIntent(here, { kind: 'unlock', e4pid: offer.e4pid });
  button.setAttribute('aria-busy', 'true');
  import('./unlock-entry')
    .then(({ openUnlockDialog }) => openUnlockDialog(config, offer, { keys: user.profile.keys, xtra: user.profile.free_keys }, button, { returnPath, resumed }))
    // The dialog could not load (offline, a new deployment): the form still works.
    .catch(() => {
      if (!resumed) button.form?.requestSubmit(button);
    })
    .finally(() => button.removeAttribute('aria-busy'));
  return true;
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
    if (openFor(config, button, null)) event.preventDefault();
  });
  resumeIntent(config);
}

/** Reopens the dialog the reader left for a login or a purchase, then drops the intent (and the receipt) from the address. */
function resumeIntent(config: DialogConfig) {
  const here = location.pathname + location.search;
  const intent = parseIntent(new URLSearchParams(location.search).get(INTENT_PARAM));
  const clean = withoutReturnParams(here);
  // A reload or a shared address neither reopens the dialog nor shows the receipt again.
  if (clean !== here) history.replaceState(history.state, '', clean + location.hash);
  if (intent?.kind !== 'unlock') return;
  const button = [...document.querySelectorAll<HTMLButtonElement>('button.btn-unlock[data-price]')].find((b) => b.value === intent.e4pid);
  // Already unlocked (no button) or not on this page: nothing to reopen.
  if (!button) return;
  const receipt = document.querySelector<HTMLElement>('[data-purchase-receipt]')?.dataset.purchaseReceipt ?? null;
  openFor(config, button, { receipt });
}
