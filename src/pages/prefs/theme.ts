import type { APIRoute } from 'astro';
import { redirectTo } from '~/lib/redirect';
import { homePath } from '~/lib/paths';
import { bodyErrorKey, readForm } from '~/server/body';
import { themeCookieOptions, themeCookieValues, toggledTheme } from '~/lib/theme';

/** No-JavaScript theme toggle: flips the theme cookies and returns to the page. */
export const POST: APIRoute = async ({ request, cookies, locals }) => {
  const parsed = await readForm(request);
  if (!parsed.ok) {
    return new Response(locals.t(bodyErrorKey(parsed)), { status: parsed.status, headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' } });
  }
  const form = parsed.value;
  const next = toggledTheme(form.get('current') ?? locals.theme);
  const opts = themeCookieOptions(locals.cookieScope);
  for (const [name, value] of Object.entries(themeCookieValues(next))) cookies.set(name, value, opts);
  return redirectTo(form.get('next') ?? homePath());
};
