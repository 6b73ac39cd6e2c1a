import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BUILD_HASH_FILE } from '../src/server/error-reports.mjs';

/**
 * Writes the build's hash beside the server bundle (dist/server/build-hash.txt), for the error
 * reports' release, `1.0.0+<hash>` (spec section 9; src/server/error-reports.mjs). A hash of the
 * build output rather than the git commit: an install from a tarball has no .git, and two builds
 * of one commit with different settings are different releases. The server reads the file at
 * start; nothing needs git at run time.
 */
export default function releaseHash() {
  return {
    name: 'inkpass-release-hash',
    hooks: {
      'astro:build:done': async ({ dir }) => {
        const client = fileURLToPath(dir);
        const server = path.resolve(client, '../server');
        const hash = crypto.createHash('sha256');
        for (const root of [server, client]) {
          const files = [];
          for await (const file of walk(root)) if (!/\.(br|gz)$/.test(file) && path.basename(file) !== BUILD_HASH_FILE) files.push(file);
          for (const file of files.sort()) {
            hash.update(path.relative(root, file)).update('\0').update(await fs.readFile(file)).update('\0');
          }
        }
        const digest = hash.digest('hex').slice(0, 12);
        await fs.writeFile(path.join(server, BUILD_HASH_FILE), `${digest}\n`);
        console.log(`[release] 1.0.0+${digest}`);
      },
    },
  };
}

/** @param {string} dir @returns {AsyncGenerator<string>} */
async function* walk(dir) {
  for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(full);
    else yield full;
  }
}
