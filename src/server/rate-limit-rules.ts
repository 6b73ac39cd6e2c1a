/** Fixed-window rate limits: the pure rules and every limit's numbers (state in the rate_limits table; see rate-limit.ts). */
export interface Limit {
  /** Attempts allowed per window. */
  max: number;
  /** Window length in seconds. */
  window: number;
}

/**
 * Every limit, in one place (docs/operations.md lists them). Route limits count per reader, or
 * per address for callers who are not signed in (src/server/routes.ts says which routes take
 * which); the others are counted by the feature that knows the key (an email, a decline).
 */
export const LIMITS = {
  loginPerEmail: { max: 10, window: 15 * 60 },
  loginPerIp: { max: 30, window: 15 * 60 },
  signupPerIp: { max: 5, window: 60 * 60 },
  signupPerEmail: { max: 5, window: 60 * 60 },
  /** Forgotten-password requests (POST /auth/password/forgot/): each may send an email, so few per address and per email. */
  resetPerIp: { max: 10, window: 60 * 60 },
  resetPerEmail: { max: 3, window: 60 * 60 },
  /** The account page's forms (POST /my/account/…): a person changing a name or a password, signing out a device. */
  accountChanges: { max: 20, window: 10 * 60 },
  /** The data export (GET /my/account/export/): a person downloads it once or twice; each reads every table of the reader. */
  accountExport: { max: 5, window: 60 * 60 },
  /** Preferences and signing out: a person toggles a few times a minute. */
  prefs: { max: 30, window: 60 },
  /** Favorites, the purchase star: a reader tidying a list, not a script. */
  library: { max: 60, window: 60 },
  /** Web push subscriptions (subscribe, unsubscribe): a reader turns push on or off on a few devices; each saved one is a host the worker will call. */
  pushSubscriptions: { max: 20, window: 60 * 60 },
  /** Reading progress: the reader reports at most every few seconds while reading. */
  progress: { max: 120, window: 60 },
  /** Unlocks with keys, the daily pass, plan rentals (API and form): a binge reader unlocks a chapter every few seconds. */
  unlocks: { max: 30, window: 60 },
  /** Starting and claiming house ads: each plays for AD_MIN_SECONDS, and a series offers a few. */
  ads: { max: 20, window: 10 * 60 },
  /** Coupon checks, checkouts, sandbox nonces of one reader: enough for a person, not for a card-testing script. */
  payments: { max: 40, window: 10 * 60 },
  /** New provider charges and sales (a Pix charge, a subscription payment): each is a call to the provider. */
  charges: { max: 10, window: 60 * 60 },
  /** Payment status polls (Pix every 3 s, subscriptions every 20 s). */
  polls: { max: 60, window: 60 },
  /** Slots, cancelling. */
  subscriptionChanges: { max: 30, window: 10 * 60 },
  /** Card payments refused by the bank or the gateway: after this many in an hour, card payment pauses (cardPause). */
  cardDeclines: { max: 5, window: 60 * 60 },
  /** The pause itself: started by the fifth decline, it lasts an hour from then (one count fills it). */
  cardPause: { max: 0, window: 60 * 60 },
  /** Share links made by staff (POST /_/dynamic_link): a person copying links along a chapter list. */
  staffLinks: { max: 60, window: 10 * 60 },
  /** Capability changes from the studio's staff page (POST /studio/staff/): an admin setting up a few accounts. */
  staffChanges: { max: 30, window: 10 * 60 },
  /** The support desk's actions on a reader (POST /studio/readers/{id}/grant/ and sign-out/): a person answering tickets, a few a minute at most. */
  deskActions: { max: 60, window: 10 * 60 },
  /** Chapter uploads (a new draft, more pages, a page replaced): each may be 300 MB of work for the server. */
  studioUploads: { max: 60, window: 10 * 60 },
  /** A draft's small forms (move a page, delete one, save its fields): a person reordering 30 pages clicks a lot. */
  studioEdits: { max: 300, window: 10 * 60 },
  /** Series saved in the studio's editor (POST /studio/series/new/ and /studio/series/{id}/): staff editing a catalogue, a save every few seconds at most. */
  studioContent: { max: 60, window: 10 * 60 },
  /** Image uploads in the studio (POST /studio/series/{id}/images/): each is decoded and resized several times, seconds of CPU for a large one. */
  studioImages: { max: 30, window: 10 * 60 },
  /** The studio's comment moderation (POST /studio/moderation/, bans/, words/): a moderator clearing a queue, an action every couple of seconds. */
  moderationActions: { max: 300, window: 10 * 60 },
  /** Comment writes, likes, edits and deletes (the comment-per-20-s and daily limits are the comments feature's, counted inside). */
  comments: { max: 60, window: 60 },
  /** One comment (or reply) per 20 seconds per reader. */
  commentBurst: { max: 1, window: 20 },
  /** 30 comments a day per reader. Its day-long window also keeps every counter a day before pruning (rate-limit.ts). */
  commentDaily: { max: 30, window: 24 * 60 * 60 },
  /** An account less than a day old: 5 comments a day, so a fresh account cannot flood a thread. */
  commentDailyNew: { max: 5, window: 24 * 60 * 60 },
  /** Batches of browser errors (POST /api/errors/): a page sends at most 30 events, 8 a batch, so a few pages' worth a minute. */
  errorReports: { max: 20, window: 60 },
  /** The home page's later blocks (GET /fragments/home/{block}/): about ten a visit, from the page cache when anonymous (not counted); a page a few seconds. */
  homeFragments: { max: 300, window: 60 },
  /** Bot-check challenges handed out. */
  appCheck: { max: 60, window: 60 },
  /** Unlocks by the form that works without JavaScript, taken without a bot-check token (docs/decisions.md, "App check"). */
  appCheckFree: { max: 20, window: 60 * 60 },
} as const satisfies Record<string, Limit>;

export type LimitName = keyof typeof LIMITS;

export interface Counter {
  window_start: number;
  count: number;
}

/** The counter after one more attempt at `now` (a window that has ended starts over). */
export function nextCounter(current: Counter | undefined, now: number, limit: Limit): Counter {
  if (!current || current.window_start <= now - limit.window) return { window_start: now, count: 1 };
  return { window_start: current.window_start, count: current.count + 1 };
}

export interface Verdict {
  allowed: boolean;
  /** Seconds until the window ends (0 when allowed). */
  retryAfter: number;
}

/** Whether the attempt that produced `counter` is within the limit. */
export function verdict(counter: Counter, now: number, limit: Limit): Verdict {
  if (counter.count <= limit.max) return { allowed: true, retryAfter: 0 };
  return { allowed: false, retryAfter: Math.max(1, counter.window_start + limit.window - now) };
}

/** Whole minutes to show in "try again in N minutes" (at least 1). */
export function retryMinutes(retryAfter: number): number {
  return Math.max(1, Math.ceil(retryAfter / 60));
}
