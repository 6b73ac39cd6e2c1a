import type { APIRoute } from 'astro';
import { SERVICE_WORKER_SOURCE } from '~/features/notifications/index.server';

/**
 * GET /sw.js: the notifications' service worker (docs/notifications.md, "Web push"). At the
 * root so its scope is the whole site; `no-cache` so browsers revalidate it (they also check it
 * at least daily), and never in the shared page cache.
 */
export const GET: APIRoute = () => new Response(SERVICE_WORKER_SOURCE, {
  headers: {
    'Content-Type': 'text/javascript; charset=utf-8',
    'Cache-Control': 'no-cache',
    'Service-Worker-Allowed': '/',
  },
});
