import type { APIRoute } from 'astro';
import { redirectTo } from '~/lib/redirect';
import { homePath } from '~/lib/paths';
import { bodyErrorKey, readForm } from '~/server/body';
import { ADULT_COOKIE, ADULT_MAX_AGE } from '~/features/catalog';
import { cookieOptions } from '~/lib/cookies';

/** The age gate's form (docs/adult.md): remembers the confirmation and returns to the page (`next`). */
export const POST: APIRoute = async ({ request, cookies, locals }) => {
  const parsed = await readForm(request);
  if (!parsed.ok) {
    return new Response(locals.t(bodyErrorKey(parsed)), { status: parsed.status, headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' } });
  }
  // The one cookie policy: with COOKIE_DOMAIN the confirmation follows the reader to the other site.
  cookies.set(ADULT_COOKIE, '1', cookieOptions(locals.cookieScope, { maxAge: ADULT_MAX_AGE, httpOnly: true }));
  return redirectTo(parsed.value.get('next') ?? new URL(request.url).searchParams.get('next') ?? homePath());
};
