import type { APIRoute } from 'astro';
import { safeNext } from '../../lib/redirect';

const MAX_AGE = 1080 * 24 * 3600;

/** No-JavaScript theme toggle: flips the theme cookies and returns to the page. */
export const POST: APIRoute = async ({ request, cookies, locals, redirect }) => {
  let form: FormData | null = null;
  try { form = await request.formData(); } catch { form = null; }
  const current = String(form?.get('current') ?? locals.theme);
  const next = current === 'dark' ? 'light' : 'dark';
  const secure = new URL(request.url).protocol === 'https:';
  const opts = { path: '/', maxAge: MAX_AGE, sameSite: 'lax' as const, secure, httpOnly: false };
  cookies.set('dark', next === 'dark' ? '1' : '0', opts);
  cookies.set('lite', next === 'dark' ? '0' : '1', opts);
  return redirect(safeNext(String(form?.get('next') ?? '/')), 303);
};
