import { defineMiddleware } from 'astro:middleware';
import { resolveSession } from '~/features/accounts/index.server';

/** The signed-in reader. Only requests carrying a session cookie touch the sessions table, so anonymous pages stay identical. */
export const session = defineMiddleware(async ({ cookies, url, locals }, next) => {
  const s = await resolveSession(cookies, url, locals.now);
  locals.user = s.user;
  locals.sessionId = s.sessionId;
  return next();
});
