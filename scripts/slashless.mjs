import { applyProxyPolicy } from './edge.mjs';
import { config } from '../src/server/config.mjs';

/**
 * Pages use trailing slashes, but API, relay, feed, media and sitemap URLs are named without one
 * (`/sapi/comics?page=2`, `/media/series/x/cover-350.webp`, `/sitemaps/chapters-0.xml`), and so
 * are the spec's link generation call and its short links (`/_/dynamic_link`, `/l/{code}`).
 * Under trailingSlash 'always' Astro would redirect the first kind and not match the others,
 * so the HTTP layer routes them to the slash form internally: one round trip, and the address
 * stays as the client gave it. Used by scripts/serve.mjs and by the dev server (astro.config.mjs).
 */
const SLASHLESS = /^\/(api|sapi|media|sitemaps|search|relay|feeds|_|l)\/.*[^/]$/;

/** The URL Astro should see for a request URL (path + query). */
export function withTrailingSlash(url) {
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  return SLASHLESS.test(path) ? `${path}/${q < 0 ? '' : url.slice(q)}` : url;
}

/** Vite plugin doing the same in `astro dev`, with the production forwarded-header policy. */
export function slashlessDev() {
  return {
    name: 'inkpass-slashless',
    configureServer(server) {
      // First in the stack: Astro's own dev middleware answers slashless paths with a 404 before later ones run.
      server.middlewares.stack.unshift({
        route: '',
        handle: (req, _res, next) => {
          // The same forwarded-header policy as production (scripts/edge.mjs).
          applyProxyPolicy(req.headers, config.trustProxy);
          if (req.url) req.url = withTrailingSlash(req.url);
          next();
        },
      });
    },
  };
}
