import type { APIRoute } from 'astro';
import { readiness } from '~/server/readiness';

/**
 * GET /readyz/: 200 when this process can serve (the database answers, its migrations are
 * current), 503 with a short reason otherwise. Never cached; scripts/serve.mjs writes no log
 * line for it (a load balancer polls it every few seconds).
 */
export const GET: APIRoute = async () => {
  const r = await readiness();
  return new Response(r.ready ? 'ready\n' : `not ready: ${r.reason}\n`, {
    status: r.ready ? 200 : 503,
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' },
  });
};
