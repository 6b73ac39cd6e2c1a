/** Preferences per category × channel (docs/notifications.md). No row: inbox on, push and email off. */
import type { DB } from '~/server/db';
import * as repo from './repository.server';
import { queueReaderPush, wakePushes } from './push.server';
import { queueCommunityEmail } from './community-mail.server';

export const CATEGORIES = ['chapters', 'money', 'community'] as const;
export const CHANNELS = ['inbox', 'push', 'email'] as const;
export type Prefs = Record<repo.Category, Record<repo.Channel, boolean>>;

export function defaultPrefs(): Prefs {
  return Object.fromEntries(CATEGORIES.map((c) => [c, { inbox: true, push: false, email: false }])) as Prefs;
}

export async function loadPrefs(db: DB, userId: number): Promise<Prefs> {
  const prefs = defaultPrefs();
  for (const r of await repo.prefRows(db, userId)) prefs[r.category][r.channel] = Number(r.enabled) === 1;
  return prefs;
}

/** Saves the matrix of `channels`: a box present in `on` is on, every other box off (an HTML form sends only checked boxes). */
export async function savePrefs(db: DB, userId: number, on: ReadonlySet<string>, channels: readonly repo.Channel[]): Promise<void> {
  await repo.savePrefs(db, userId, CATEGORIES.flatMap((category) => channels.map((channel) => ({ category, channel, enabled: on.has(`${category}.${channel}`) }))));
}

/**
 * A money or community item for one reader (payment paid or refunded, renewal, failed renewal),
 * unless they turned that category's inbox off. Shown on both sites.
 */
export async function notifyReader(db: DB, userId: number, category: 'money' | 'community', kind: string, data: Record<string, string | number>, now: number): Promise<void> {
  if ((await repo.turnedOff(db, [userId], category, 'inbox')).size > 0) return;
  await repo.insertItems(db, [{ user_id: userId, category, kind, series_id: null, chapter_id: null, site_id: null, data: JSON.stringify(data), now }]);
  // Web push, when on for the category: queued in the caller's transaction, sent by the worker after the commit.
  await queueReaderPush(db, userId, category, kind, JSON.stringify(data), now);
  wakePushes();
  // Email, when on for community (money's emails are the receipts, sent by their owner whatever this says).
  if (category === 'community' && (await loadPrefs(db, userId)).community.email) await queueCommunityEmail(db, userId, kind, data, now);
}
