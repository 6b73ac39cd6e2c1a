/**
 * The settings form's save (/my/notifications/settings/): the category × channel boxes and the
 * digest's frequency, made consistent before they are stored.
 */
import type { Site } from '~/lib/site';
import type { DB } from '~/server/db';
import { digestChoice, digestFrequency, FREQUENCIES, saveDigestFrequency } from './digest.server';
import { CATEGORIES, CHANNELS, savePrefs } from './prefs.server';
import { pushPublicKey } from './push.server';

/** The channels the form shows: without VAPID keys there is no push to choose. */
export function shownChannels(): (typeof CHANNELS)[number][] {
  return CHANNELS.filter((ch) => ch !== 'push' || pushPublicKey() !== null);
}

/**
 * Saves what the form sent. Push and email announce what reaches the inbox (docs/decisions.md),
 * so a category whose inbox is off keeps neither; a channel the form did not show keeps what was
 * stored (saving before VAPID keys exist must not turn push off for when they do).
 */
export async function saveSettings(db: DB, userId: number, form: URLSearchParams, site: Site, now: number): Promise<void> {
  const on = new Set(form.getAll('on').filter((v) => v.length <= 32));
  for (const cat of CATEGORIES) if (!on.has(`${cat}.inbox`)) { on.delete(`${cat}.push`); on.delete(`${cat}.email`); }
  // The email digest: its frequency and the "New chapters by Email" box agree once saved.
  const was = FREQUENCIES.find((f) => f === form.get('digest_was')) ?? await digestFrequency(db, userId);
  const chosen = digestChoice({ digest: form.get('digest'), box: on.has('chapters.email'), was });
  const digest = on.has('chapters.inbox') ? chosen : 'off';
  if (digest === 'off') on.delete('chapters.email'); else on.add('chapters.email');
  await savePrefs(db, userId, on, shownChannels());
  await saveDigestFrequency(db, userId, digest, site, now);
}
