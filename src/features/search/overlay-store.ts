/**
 * Open/closed state of the search overlay, shared by the island and the functions the header
 * script calls after loading it. Loaded with the island (never up front).
 */
import { atom } from 'nanostores';

export interface OpenRequest {
  /** Text the reader had already typed into the header field. */
  text: string;
  /** Called once the overlay has closed and the page is interactive again; the header returns focus to its field. */
  onClose?: () => void;
}

export interface OverlayState extends OpenRequest {
  open: boolean;
  /** Bumped on every open so the island starts each time with a fresh (reset) form. */
  session: number;
}

export const $overlay = atom<OverlayState>({ open: false, text: '', session: 0 });

export function openOverlay(request: OpenRequest): void {
  const s = $overlay.get();
  if (s.open) return;
  $overlay.set({ ...request, open: true, session: s.session + 1 });
}

export function closeOverlay(): void {
  const s = $overlay.get();
  if (!s.open) return;
  $overlay.set({ open: false, text: '', session: s.session });
}
