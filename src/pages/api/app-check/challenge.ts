/**
 * GET /api/app-check/challenge/ — the bot check's challenge (docs/api.md, "Bot check"): what the
 * browser solves to get a token for a money call. Anyone may ask (counted per reader or address,
 * src/server/routes.ts); never cached, each challenge is good once.
 */
import type { APIRoute } from 'astro';
import { json } from '~/server/http';
import { appCheckProvider } from '~/server/app-check';

export const GET: APIRoute = async ({ locals }) => json(await appCheckProvider().challenge(locals.now), { cache: 'no-store' });

/** HEAD is not counted by the limiter, so it signs nothing: the headers a GET would have. */
export const HEAD: APIRoute = () => new Response(null, { headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' } });
