/**
 * Series hints (spec section 3, "Hint": text and an icon from a closed enum). The one list of
 * icons: the seed and the studio write only these, the APIs answer only these (anything else
 * stored reads as NONE) and the series page draws each as an inline SVG (24 × 24, stroked in
 * currentColor). NONE draws nothing. The spec names about 40 values and shows five (NONE, BELL,
 * ADD, BOOKMARK, GOOGLE); the rest are ours (docs/decisions.md, "Spec shapes").
 */

/** Each icon's drawing: SVG path data on a 24 × 24 grid, stroked, not filled. */
export const HINT_ICON_PATHS = {
  BELL: 'M6 16V11a6 6 0 0 1 12 0v5l2 2H4zM10 20a2 2 0 0 0 4 0',
  ADD: 'M12 5v14M5 12h14',
  BOOKMARK: 'M6 3h12v18l-6-4-6 4z',
  GOOGLE: 'M20 12a8 8 0 1 1-2.3-5.6M20 12h-8',
  CLOCK: 'M12 3a9 9 0 1 0 0 18 9 9 0 0 0 0-18zM12 7v5l3 3',
  CALENDAR: 'M4 6h16v14H4zM4 10h16M8 3v4M16 3v4',
  KEY: 'M8 16a4 4 0 1 1 0-8 4 4 0 0 1 0 8zM12 12h9M18 12v3M21 12v2',
  LOCK: 'M6 11h12v10H6zM8 11V8a4 4 0 0 1 8 0v3',
  UNLOCK: 'M6 11h12v10H6zM8 11V8a4 4 0 0 1 7.5-2',
  STAR: 'M12 3l2.8 5.8 6.2.9-4.5 4.4 1 6.2L12 17.4 6.5 20.3l1-6.2L3 9.7l6.2-.9z',
  HEART: 'M12 20s-8-5-8-11a4 4 0 0 1 8-1 4 4 0 0 1 8 1c0 6-8 11-8 11z',
  FIRE: 'M12 21a6 6 0 0 1-6-6c0-4 3-6 4-10 2 2 3 4 3 6 1-1 2-2 2-4 2 2 3 5 3 8a6 6 0 0 1-6 6z',
  INFO: 'M12 3a9 9 0 1 0 0 18 9 9 0 0 0 0-18zM12 11v6M12 7.5v.5',
  WARNING: 'M12 3l10 18H2zM12 10v5M12 18v.5',
  CHECK: 'M4 12l5 5L20 6',
  CLOSE: 'M6 6l12 12M18 6L6 18',
  GIFT: 'M4 10h16v4H4zM6 14h12v7H6zM12 10v11M12 10c-2-4-6-4-6-1s6 1 6 1zM12 10c2-4 6-4 6-1s-6 1-6 1z',
  TICKET: 'M3 7h18v3a2 2 0 0 0 0 4v3H3v-3a2 2 0 0 0 0-4zM14 7v10',
  COIN: 'M12 3a9 9 0 1 0 0 18 9 9 0 0 0 0-18zM12 7v10M9 9.5h4.5a1.5 1.5 0 0 1 0 3h-3a1.5 1.5 0 0 0 0 3H15',
  CROWN: 'M3 8l4 4 5-7 5 7 4-4-2 11H5z',
  BOLT: 'M13 2L4 14h7l-1 8 9-12h-7z',
  BOOK: 'M4 4h7a2 2 0 0 1 2 2v14a2 2 0 0 0-2-2H4zM20 4h-5a2 2 0 0 0-2 2',
  EYE: 'M2 12s4-7 10-7 10 7 10 7-4 7-10 7S2 12 2 12zM12 9a3 3 0 1 0 0 6 3 3 0 0 0 0-6z',
  CHAT: 'M4 5h16v11H9l-5 4z',
  MEGAPHONE: 'M3 10v4h4l9 5V5L7 10zM19 9a4 4 0 0 1 0 6',
  SHARE: 'M18 8a3 3 0 1 0 0-6 3 3 0 0 0 0 6zM6 15a3 3 0 1 0 0-6 3 3 0 0 0 0 6zM18 22a3 3 0 1 0 0-6 3 3 0 0 0 0 6zM8.6 13.5l6.8 4M15.4 6.5l-6.8 4',
  DOWNLOAD: 'M12 3v12M7 10l5 5 5-5M4 20h16',
  PLAY: 'M7 4l13 8-13 8z',
  PAUSE: 'M7 4h3v16H7zM14 4h3v16h-3z',
  GLOBE: 'M12 3a9 9 0 1 0 0 18 9 9 0 0 0 0-18zM3 12h18M12 3c3 3 3 15 0 18M12 3c-3 3-3 15 0 18',
  FLAG: 'M5 21V4M5 4h12l-2 4 2 4H5',
  SMILE: 'M12 3a9 9 0 1 0 0 18 9 9 0 0 0 0-18zM8 14s1.5 2 4 2 4-2 4-2M9 9.5v.5M15 9.5v.5',
  TROPHY: 'M7 4h10v5a5 5 0 0 1-10 0zM7 6H4a3 3 0 0 0 3 4M17 6h3a3 3 0 0 1-3 4M12 14v4M8 21h8l-1-3H9z',
  SPARKLES: 'M12 3l1.5 5.5L19 10l-5.5 1.5L12 17l-1.5-5.5L5 10l5.5-1.5zM19 16l.7 2.3L22 19l-2.3.7L19 22l-.7-2.3L16 19l2.3-.7z',
  MAIL: 'M3 6h18v12H3zM3 6l9 7 9-7',
  PHONE: 'M7 2h10v20H7zM11 18h2',
  CART: 'M3 4h3l2 11h11l2-8H7M9 20a1 1 0 1 0 0-.1M18 20a1 1 0 1 0 0-.1',
  SEARCH: 'M10 4a6 6 0 1 0 0 12 6 6 0 0 0 0-12zM15 15l6 6',
  HOME: 'M3 11l9-8 9 8M5 10v10h14V10',
  TAG: 'M3 3h8l10 10-8 8L3 11zM7.5 7.5v.5',
  MUSIC: 'M9 18V5l11-2v13M9 18a3 3 0 1 1-6 0 3 3 0 0 1 6 0zM20 16a3 3 0 1 1-6 0 3 3 0 0 1 6 0z',
} as const satisfies Record<string, string>;

export type HintIcon = 'NONE' | keyof typeof HINT_ICON_PATHS;

/** Every hint icon, NONE first. */
export const HINT_ICONS: readonly HintIcon[] = ['NONE', ...(Object.keys(HINT_ICON_PATHS) as (keyof typeof HINT_ICON_PATHS)[])];

export function isHintIcon(v: unknown): v is HintIcon {
  return typeof v === 'string' && (HINT_ICONS as readonly string[]).includes(v);
}

export interface Hint {
  text: string;
  icon: HintIcon;
}

/**
 * A stored hints list as the spec's hints: entries without text dropped, an icon outside the
 * enum read as NONE (the writers refuse one; this keeps an old row from leaking a free string).
 * `language` (which site shows the hint) is kept for the caller that filters by it.
 */
export function readHints(list: readonly unknown[]): (Hint & { language?: string })[] {
  const out: (Hint & { language?: string })[] = [];
  for (const h of list) {
    if (!h || typeof h !== 'object') continue;
    const { text, icon, language } = h as { text?: unknown; icon?: unknown; language?: unknown };
    if (typeof text !== 'string' || text.trim() === '') continue;
    out.push({ text, icon: isHintIcon(icon) ? icon : 'NONE', ...(typeof language === 'string' ? { language } : {}) });
  }
  return out;
}
