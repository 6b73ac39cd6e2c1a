import type { APIRoute } from 'astro';
import { getDb } from '~/server/db';
import { bodyErrorKey, readForm } from '~/server/body';
import { clearSessionCookie, invalidateSession } from '~/features/accounts/index.server';
import { logoutPromptHtml, serializeSessionCookie, sessionCookieOptions } from '~/features/accounts';
import { redirectTo } from '~/lib/redirect';
import { homePath, LOGOUT_CONFIRM_PATH } from '~/lib/paths';

const NO_STORE = { 'Cache-Control': 'no-store' };

/** The confirm dialog's HTML (the header script loads it); `?full=1` is the no-JavaScript page. */
export const GET: APIRoute = async ({ url, locals, rewrite }) => {
  if (url.searchParams.get('full') === '1') return rewrite(LOGOUT_CONFIRM_PATH);
  const { t } = locals;
  const html = logoutPromptHtml(
    { title: t('auth.logout.title'), question: t('auth.logout.question'), confirm: t('auth.logout.confirm'), cancel: t('auth.logout.cancel') },
    false,
  );
  return new Response(html, { headers: { 'Content-Type': 'text/html; charset=utf-8', ...NO_STORE } });
};

/** Ends the session on the server, clears the cookie, goes home. */
export const POST: APIRoute = async ({ request, locals, cookies }) => {
  const { t } = locals;
  const text = (status: number, body: string) =>
    new Response(body, { status, headers: { 'Content-Type': 'text/plain; charset=utf-8', ...NO_STORE } });
  const body = await readForm(request);
  if (!body.ok) return text(body.status, t(bodyErrorKey(body)));
  if (locals.sessionId) await invalidateSession(await getDb(), locals.sessionId);
  clearSessionCookie(cookies, locals.cookieScope);
  const res = redirectTo(homePath());
  // A session cookie written before COOKIE_DOMAIN was set is host-only and would outlive the
  // shared one: expire it too (Astro's cookie API keeps one cookie per name, so by header).
  if (locals.cookieScope.domain) res.headers.append('Set-Cookie', serializeSessionCookie('', sessionCookieOptions({ ...locals.cookieScope, domain: null }, 0)));
  return res;
};
