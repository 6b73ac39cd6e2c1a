import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where the production server finds the map (scripts/serve.mjs reads it once at start). */
export const MODULE_PRELOADS_FILE = 'module-preloads.json';

/**
 * Records, for every entry script of the client build, the chunks it imports statically (all the
 * way down), and writes them to dist/server/module-preloads.json as
 * `{"/_astro/entry.js": ["/_astro/dep.js", …]}`. The server announces them as
 * `<link rel="modulepreload">` in each page's head (src/server/module-preload.mjs): without them a
 * browser finds a script's imports only after fetching and parsing it, one round trip per level
 * (the reader's script was five levels deep, which cost its first page about a second of LCP on
 * a slow phone connection). Rolldown cannot hoist transitive imports into entry chunks, and Astro
 * writes no preload hints for component scripts, hence this map.
 */
export default function modulePreloads() {
  /** @type {Record<string, string[]>} */
  let map = {};
  let serverDir = '';
  return {
    name: 'inkpass-module-preloads',
    hooks: {
      'astro:config:setup': ({ updateConfig }) => {
        updateConfig({
          vite: {
            plugins: [
              {
                name: 'inkpass-module-preloads',
                apply: 'build',
                applyToEnvironment: (environment) => environment.name === 'client',
                generateBundle(_options, bundle) {
                  map = entryImports(bundle);
                },
              },
            ],
          },
        });
      },
      'astro:config:done': ({ config }) => {
        serverDir = fileURLToPath(config.build.server);
      },
      'astro:build:done': async () => {
        if (!serverDir) return;
        await fs.writeFile(path.join(serverDir, MODULE_PRELOADS_FILE), JSON.stringify(map));
        console.log(`[module-preloads] ${Object.keys(map).length} entry scripts with imports`);
      },
    },
  };
}

/**
 * Entry chunk URL → the URLs of every chunk it imports statically, directly or not, in the order
 * a depth-first walk meets them. Dynamic imports are left out: they load on demand.
 * @param {Record<string, {type: string, isEntry?: boolean, imports?: string[], fileName: string}>} bundle
 */
export function entryImports(bundle) {
  /** @type {Record<string, string[]>} */
  const out = {};
  for (const chunk of Object.values(bundle)) {
    if (chunk.type !== 'chunk' || !chunk.isEntry) continue;
    const seen = new Set();
    const walk = (fileName) => {
      for (const dep of bundle[fileName]?.imports ?? []) {
        if (seen.has(dep)) continue;
        seen.add(dep);
        walk(dep);
      }
    };
    walk(chunk.fileName);
    if (seen.size) out[`/${chunk.fileName}`] = [...seen].map((f) => `/${f}`);
  }
  return out;
}
