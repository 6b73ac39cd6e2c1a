/**
 * The lazily loaded half of the unlock dialog: unlock.client.ts `import()`s this module the first
 * time a reader opens the dialog, so React and the dialog's styles download only then.
 */
import { createRoot, type Root } from 'react-dom/client';
import type { PricingBalances, UnlockOffer } from '~/features/catalog';
import { UnlockDialog } from './UnlockDialog';
import type { DialogConfig } from './unlock-dialog';

let root: Root | null = null;

export function openUnlockDialog(config: DialogConfig, offer: UnlockOffer, balances: PricingBalances, opener: HTMLElement, how: { returnPath: string; resumed: { receipt: string | null } | null }) {
  if (!root) {
    const host = document.createElement('div');
    host.id = 'unlock-dialog-root';
    document.body.append(host);
    root = createRoot(host);
  }
  const close = () => {
    root?.render(null);
    opener.focus();
  };
  root.render(<UnlockDialog key={`${offer.e4pid}-${Date.now()}`} config={config} offer={offer} balances={balances} returnPath={how.returnPath} resumed={how.resumed} onClose={close} />);
}
