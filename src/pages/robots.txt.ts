import type { APIRoute } from 'astro';

export const GET: APIRoute = ({ url }) =>
  new Response(`User-agent: *\nAllow: /\nDisallow: /auth/\nDisallow: /my/\nDisallow: /comics/fragment/\nDisallow: /media/p/\n\nSitemap: ${url.protocol}//${url.host}/sitemap.xml\n`, {
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'public, max-age=3600' },
  });
