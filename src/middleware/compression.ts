import { defineMiddleware } from 'astro:middleware';
import { compress } from '~/server/http';

/** Text answers compressed once, on the way out, pages with their scripts' modulepreload links (src/server/http.ts: one Response per page). */
export const compression = defineMiddleware(async ({ request, locals }, next) => {
  const response = await next();
  return compress(response, request.headers.get('accept-encoding') ?? '', response.headers, locals.sink, locals.modulePreloads);
});
