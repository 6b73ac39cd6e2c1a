/**
 * The seam for ad networks. An ad unlock is: the server starts an ad for a reader and a chapter
 * (a creative to show and a single-use token), the reader watches it, and the server verifies
 * the token before granting a rental. House ads (house.server.ts) implement it with the
 * catalogue's own promotional visuals; a rewarded-ads network with server-side verification
 * (its callback confirming the view) would implement the same two calls.
 */
import type { DB, WriteTx } from '~/server/db';

export interface AdCreative {
  type: 'IMAGE' | 'ANIMATED_IMAGE' | 'ANIMATION' | 'VIDEO';
  src: string;
  /** The still a video (ANIMATION, VIDEO) shows before it plays; null for images. */
  poster: string | null;
  fit: string;
  series: { name: string; link: string };
}

export interface StartedAd {
  /** Given to the browser once; only its hash is kept. */
  token: string;
  creative: AdCreative;
  /** The free read may be claimed from then on (unix seconds)… */
  readyAt: number;
  /** …until then. */
  expiresAt: number;
}

export type AdVerdict =
  /** `ref`: the provider's unique name for this view (the ledger's idempotency key uses it). */
  | { ok: true; chapterId: number; ref: string }
  | { ok: false; why: 'unknown' | 'used' | 'early' | 'expired'; until?: number };

export interface AdProvider {
  /** Shows an ad for `chapterId` of `seriesId` to a reader; null when there is nothing to show. */
  start(db: DB, input: { userId: number; chapterId: number; seriesId: number; language: string; country: string | null; now: number }): Promise<StartedAd | null>;
  /**
   * Checks a token the browser sent back, inside the caller's write transaction, and uses it up
   * when it is good: a token pays for one rental, once, no sooner than its ad's minimum time.
   */
  redeem(trx: WriteTx, input: { userId: number; token: string; now: number }): Promise<AdVerdict>;
  /** Looks a token up without using it (which chapter it is for). */
  peek(db: DB, input: { userId: number; token: string }): Promise<{ chapterId: number } | null>;
}
