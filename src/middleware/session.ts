import { defineMiddleware } from 'astro:middleware';
import { resolveSession } from '~/features/accounts/index.server';
import { balancesOf } from '~/features/wallet/index.server';
import { getDb } from '~/server/db';
import { readerLogId } from '~/server/secrets';

/**
 * The signed-in reader, with their key balances from the ledger (what the header and the page
 * user data show). Only requests carrying a session cookie touch the database, so anonymous
 * pages stay identical.
 */
export const session = defineMiddleware(async ({ cookies, locals }, next) => {
  const s = await resolveSession(cookies, locals.cookieScope, locals.now);
  if (s.user) {
    const balances = await balancesOf(await getDb(), s.user.id);
    locals.user = { ...s.user, keys: balances.keys, freeKeys: balances.xtra, signedInAt: s.signedInAt };
    if (locals.observe) locals.observe.reader ??= readerLogId(s.user.id);
  } else {
    locals.user = null;
  }
  locals.sessionId = s.sessionId;
  return next();
});
