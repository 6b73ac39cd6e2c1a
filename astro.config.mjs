// @ts-check
import { defineConfig } from 'astro/config';
import node from '@astrojs/node';
import react from '@astrojs/react';
import precompress from './scripts/precompress-integration.mjs';
import modulePreloads from './scripts/module-preload-integration.mjs';
import releaseHash from './scripts/release-integration.mjs';
import { slashlessDev } from './scripts/slashless.mjs';
import { config } from './src/server/config.mjs';

// The node adapter runs in middleware mode behind scripts/serve.mjs, a small node:http
// server that adds what standalone mode lacks: precompressed static files (br/gzip) with
// immutable caching. See docs/decisions.md ("Serving").
export default defineConfig({
  output: 'server',
  // Not streamed: the middleware compresses whole pages anyway, so streaming only added an async
  // iterator, a chunk per component and a body stream to read back (about 0.12 ms a series page).
  adapter: node({ mode: 'middleware', experimentalDisableStreaming: true }),
  integrations: [react(), modulePreloads(), precompress(), releaseHash()],
  trailingSlash: 'always',
  compressHTML: true,
  security: {
    checkOrigin: true,
    // Hosts whose Host / X-Forwarded-Host are believed (Astro.url, origin checks). Production hosts come from SITE_HOSTS.
    allowedDomains: ['localhost', 'br.localhost', '127.0.0.1', ...config.siteHosts].map((hostname) => ({ hostname })),
  },
  // Every page carries its stylesheets: on a slow phone connection a linked stylesheet is a
  // render-blocking round trip before the first paint (about 300 ms in Lighthouse's mobile run),
  // while inline they cost 3-6 KB compressed per page (docs/decisions.md, "Stylesheets inline").
  build: { inlineStylesheets: 'always' },
  server: { host: true, port: config.port },
  vite: {
    plugins: [slashlessDev()],
    resolve: { alias: { '~': new URL('./src', import.meta.url).pathname, '@db': new URL('./db', import.meta.url).pathname } },
    // @sentry/node stays one module that scripts/serve.mjs and the bundle share (src/server/error-reports.mjs).
    ssr: { external: ['better-sqlite3', 'pg', 'sharp', '@node-rs/argon2', '@sentry/node'] },
    // Vite warns about browser chunks over 500 kB. The one chunk past it is braintree-web-drop-in
    // (515 kB minified, 100 kB brotli): Braintree's card form, loaded by a dynamic import() only
    // when a reader picks card on a checkout with the Braintree provider, never on another page.
    // It is one vendor module with no part to leave out, so the limit sits just above it: any
    // other chunk that grows that large still warns (docs/performance.md, "Bundle sizes").
    build: { chunkSizeWarningLimit: 600 },
  },
});
