/**
 * The welcome for new readers (issue 26, docs/decisions.md "A welcome for new readers"): a few
 * Xtra keys credited through the ledger right after the account is made, as many as the site it
 * signs up on is configured for (`WELCOME_XTRA_KEYS_EN`/`_BR`; 0: none). One per account: the
 * ledger's idempotency key is the account's id, so a retry or a second call credits nothing more.
 */
import type { Site } from '~/lib/site';
import { config } from '~/server/config.mjs';
import type { DB } from '~/server/db';
import { grantKeys } from './ledger.server';

/** The ledger key of an account's welcome: one per account, whichever site it signed up on. */
export const welcomeKey = (userId: number) => `welcome:${userId}`;

/** Credits the site's welcome to a new account; returns the Xtra keys credited now (0 when none, or already given). */
export async function welcomeNewReader(db: DB, input: { userId: number; site: Site; now: number }): Promise<number> {
  const xtra = config.welcomeXtraKeys[input.site.id];
  if (xtra <= 0) return 0;
  const { created } = await grantKeys(db, { userId: input.userId, keys: 0, xtra, reason: `welcome (site ${input.site.id})`, key: welcomeKey(input.userId), now: input.now, kind: 'welcome' });
  return created ? xtra : 0;
}

/** How many Xtra keys a reader signing up on `site` gets (the sign-up page says so; 0: nothing to say). */
export function welcomeXtraKeys(site: Site): number {
  return config.welcomeXtraKeys[site.id];
}
