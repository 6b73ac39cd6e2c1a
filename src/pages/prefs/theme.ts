import type { APIRoute } from 'astro';
import { redirectTo } from '~/lib/redirect';
import { bodyErrorKey, readForm } from '~/server/body';

const MAX_AGE = 1080 * 24 * 3600;

/** No-JavaScript theme toggle: flips the theme cookies and returns to the page. */
export const POST: APIRoute = async ({ request, cookies, locals }) => {
  const parsed = await readForm(request);
  if (!parsed.ok) {
    return new Response(locals.t(bodyErrorKey(parsed)), { status: parsed.status, headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' } });
  }
  const form = parsed.value;
  const current = form.get('current') ?? locals.theme;
  const next = current === 'dark' ? 'light' : 'dark';
  const secure = new URL(request.url).protocol === 'https:';
  const opts = { path: '/', maxAge: MAX_AGE, sameSite: 'lax' as const, secure, httpOnly: false };
  cookies.set('dark', next === 'dark' ? '1' : '0', opts);
  cookies.set('lite', next === 'dark' ? '0' : '1', opts);
  return redirectTo(form.get('next') ?? '/');
};
