/**
 * Keyboard state of the search overlay's combobox (ARIA 1.2 combobox with a listbox popup).
 * Pure: the island keeps a ComboState in a reducer and turns keys into actions with keyAction.
 *
 * - ArrowDown / ArrowUp move the highlighted option and wrap around; from "none" ArrowDown
 *   goes to the first option and ArrowUp to the last.
 * - Escape with a list showing collapses (clears) it; Escape with no list closes the overlay
 *   (escapeEffect tells the island which).
 * - New results expand the list with nothing highlighted; no results collapse it.
 */

export interface ComboState {
  /** Number of options in the listbox. */
  count: number;
  /** Highlighted option (aria-activedescendant), or -1 for none. */
  active: number;
  /** Whether the listbox is shown (aria-expanded). */
  expanded: boolean;
}

export type ComboAction =
  | { type: 'results'; count: number }
  | { type: 'clear' }
  | { type: 'next' }
  | { type: 'prev' }
  | { type: 'hover'; index: number }
  | { type: 'collapse' };

export const INITIAL_COMBO: Readonly<ComboState> = Object.freeze({ count: 0, active: -1, expanded: false });

export function comboReducer(state: ComboState, action: ComboAction): ComboState {
  switch (action.type) {
    case 'results': {
      const count = Math.max(0, Math.floor(action.count) || 0);
      return { count, active: -1, expanded: count > 0 };
    }
    case 'clear':
    case 'collapse':
      return { count: 0, active: -1, expanded: false };
    case 'next':
      if (!state.expanded || state.count === 0) return state;
      return { ...state, active: state.active < 0 || state.active >= state.count - 1 ? 0 : state.active + 1 };
    case 'prev':
      if (!state.expanded || state.count === 0) return state;
      return { ...state, active: state.active <= 0 ? state.count - 1 : state.active - 1 };
    case 'hover':
      if (!state.expanded || action.index < 0 || action.index >= state.count) return state;
      return state.active === action.index ? state : { ...state, active: action.index };
  }
}

/** The reducer action for a key pressed in the combobox input, or null when the key is not ours. */
export function keyAction(key: string): ComboAction | null {
  if (key === 'ArrowDown' || key === 'Down') return { type: 'next' };
  if (key === 'ArrowUp' || key === 'Up') return { type: 'prev' };
  return null;
}

/** What Escape does now: collapse a shown list first, otherwise close the overlay. */
export function escapeEffect(state: ComboState): 'collapse' | 'close' {
  return state.expanded && state.count > 0 ? 'collapse' : 'close';
}

/** What Enter does now: open the highlighted option, or submit the form to the listing. */
export function enterEffect(state: ComboState): { open: number } | 'submit' {
  return state.expanded && state.active >= 0 && state.active < state.count ? { open: state.active } : 'submit';
}
