/**
 * Card declines slow a reader down (docs/payments.md, "Limits"): each payment the bank or the
 * gateway refuses is counted; at the fifth within an hour, card payment pauses for that reader
 * for an hour from then. The route limits (src/server/routes.ts) bound how often anyone can
 * try; this bounds how often a card can be refused, which is what a card-testing script needs.
 */
import type { DB } from '~/server/db';
import { hit, LIMITS, peek } from '~/server/rate-limit';

const declines = (userId: number) => `card:declines:reader:${userId}`;
const pause = (userId: number) => `card:pause:reader:${userId}`;

/** Seconds until the reader's card payments may resume, or 0 when they may pay now. */
export async function cardPausedFor(db: DB, userId: number, now: number): Promise<number> {
  const v = await peek(db, pause(userId), LIMITS.cardPause, now);
  return v.allowed ? 0 : v.retryAfter;
}

/** Counts a refused card payment; starts the pause at the limit. */
export async function countDecline(db: DB, userId: number, now: number): Promise<void> {
  const v = await hit(db, declines(userId), LIMITS.cardDeclines, now);
  if (v.count >= LIMITS.cardDeclines.max) await hit(db, pause(userId), LIMITS.cardPause, now);
}
