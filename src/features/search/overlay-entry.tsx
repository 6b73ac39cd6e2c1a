/**
 * The lazily loaded half of the search overlay: the header script `import()`s this module the
 * first time a reader opens search, so React, react-dom and the island's styles are only
 * downloaded then (docs/search.md).
 */
import { createRoot } from 'react-dom/client';
import { SearchOverlay } from './SearchOverlay';
import { closeOverlay, openOverlay, type OpenRequest } from './overlay-store';
import type { OverlayConfig } from './overlay';
// The overlay's styles come with the island on first open, not inlined in every page's first
// document (the home page keeps to its 60 KB of HTML).
import overlayCss from './overlay.css?url';

export interface OverlayController {
  open(request: OpenRequest): void;
  close(): void;
}

/** Adds the overlay's stylesheet once; resolves when it has loaded (or failed: the overlay still works unstyled). */
function overlayStyles(): Promise<void> {
  if (document.querySelector('link[data-search-overlay]')) return Promise.resolve();
  return new Promise((resolve) => {
    const link = document.createElement('link');
    link.rel = 'stylesheet';
    link.href = overlayCss;
    link.dataset.searchOverlay = '';
    link.addEventListener('load', () => resolve(), { once: true });
    link.addEventListener('error', () => resolve(), { once: true });
    document.head.append(link);
  });
}

export async function mountSearchOverlay(config: OverlayConfig): Promise<OverlayController> {
  await overlayStyles();
  const host = document.createElement('div');
  host.id = 'search-overlay-root';
  document.body.append(host);
  createRoot(host).render(<SearchOverlay {...config} />);
  return { open: openOverlay, close: closeOverlay };
}
