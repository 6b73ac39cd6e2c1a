/**
 * The lazily loaded half of the search overlay: the header script `import()`s this module the
 * first time a reader opens search, so React, react-dom and the island's styles are only
 * downloaded then (docs/search.md).
 */
import { createRoot } from 'react-dom/client';
import { SearchOverlay } from './SearchOverlay';
import { closeOverlay, openOverlay, type OpenRequest } from './overlay-store';
import type { OverlayConfig } from './overlay';

export interface OverlayController {
  open(request: OpenRequest): void;
  close(): void;
}

export function mountSearchOverlay(config: OverlayConfig): OverlayController {
  const host = document.createElement('div');
  host.id = 'search-overlay-root';
  document.body.append(host);
  createRoot(host).render(<SearchOverlay {...config} />);
  return { open: openOverlay, close: closeOverlay };
}
