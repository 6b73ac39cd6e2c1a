import type { APIRoute } from 'astro';
import { AUTH_PREFIX, CHAPTER_PAGES_PREFIX, LISTING_FRAGMENT_PATH, MY_PREFIX, SITEMAP_PATH, loginPath, signupPath } from '~/lib/paths';

// The login and sign-up pages may be crawled (docs/decisions.md: "Login and sign-up pages are
// indexable"); the rest of /auth/ may not. The longer, more specific rule wins for crawlers.
export const GET: APIRoute = ({ url }) =>
  new Response(`User-agent: *\nAllow: /\nAllow: ${loginPath()}\nAllow: ${signupPath()}\nDisallow: ${AUTH_PREFIX}\nDisallow: ${MY_PREFIX}\nDisallow: ${LISTING_FRAGMENT_PATH}\nDisallow: ${CHAPTER_PAGES_PREFIX}\n\nSitemap: ${url.protocol}//${url.host}${SITEMAP_PATH}\n`, {
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'public, max-age=3600' },
  });
