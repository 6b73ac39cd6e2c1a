import { defineMiddleware } from 'astro:middleware';

const API_PATHS = /^\/(s?api|relay)\//;

/** API clients get JSON `{detail}` errors, never the HTML error page. */
export const apiErrors = defineMiddleware(async ({ url, locals }, next) => {
  const response = await next();
  if (!API_PATHS.test(url.pathname) || response.status < 400 || (response.headers.get('Content-Type') ?? '').startsWith('application/json')) return response;
  const { status } = response;
  const { t } = locals;
  const detail = status === 404 ? t('error.api.notFound') : status === 405 ? t('error.api.methodNotAllowed') : status >= 500 ? t('error.server.title') : t('error.api.badRequest');
  return new Response(JSON.stringify({ detail }), { status, headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' } });
});
