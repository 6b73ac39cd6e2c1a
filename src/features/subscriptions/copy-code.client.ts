/**
 * The copy button beside a pending Pix code on /my/subscriptions/: copies the code and reads
 * "Copiado!" for 2 s (the checkout's constant). Hidden until this script runs: without
 * JavaScript the code stays in its read-only field, to select by hand.
 */
import { COPIED_LABEL_MS } from './checkout-flow';

export function initCopyButtons(root: ParentNode = document): void {
  for (const button of root.querySelectorAll<HTMLButtonElement>('button[data-copy-from]')) {
    const field = document.getElementById(button.dataset.copyFrom ?? '');
    if (!(field instanceof HTMLInputElement)) continue;
    const label = button.textContent ?? '';
    let timer: ReturnType<typeof setTimeout> | undefined;
    field.addEventListener('focus', () => field.select());
    button.hidden = false;
    button.addEventListener('click', async () => {
      let ok = false;
      try {
        await navigator.clipboard.writeText(field.value);
        ok = true;
      } catch {
        // No clipboard permission: copy the selected field instead.
        field.select();
        ok = document.execCommand('copy');
      }
      if (!ok) return;
      button.textContent = button.dataset.copied ?? label;
      clearTimeout(timer);
      timer = setTimeout(() => (button.textContent = label), COPIED_LABEL_MS);
    });
  }
}
