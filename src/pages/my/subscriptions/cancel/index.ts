import type { APIRoute } from 'astro';
import { getDb } from '~/server/db';
import { redirectTo } from '~/lib/redirect';
import { loginPath, subscriptionsPath } from '~/lib/paths';
import { cancelSubscription } from '~/features/subscriptions/index.server';

/** POST /my/subscriptions/cancel/: cancels at the end of the paid period (a form; no JavaScript needed), back to the page. */
export const POST: APIRoute = async ({ locals }) => {
  if (!locals.user) return redirectTo(loginPath(subscriptionsPath()));
  await cancelSubscription(await getDb(), { userId: locals.user.id, now: locals.now });
  return redirectTo(subscriptionsPath());
};
