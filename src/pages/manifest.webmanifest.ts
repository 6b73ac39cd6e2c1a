import type { APIRoute } from 'astro';
import { appManifest } from '~/lib/app-manifest';

/** The site's web app manifest (src/lib/app-manifest.ts), in the language of the host asked. */
export const GET: APIRoute = ({ locals }) =>
  new Response(JSON.stringify(appManifest(locals.site, locals.t)), {
    headers: { 'Content-Type': 'application/manifest+json; charset=utf-8', 'Cache-Control': 'public, max-age=86400' },
  });
