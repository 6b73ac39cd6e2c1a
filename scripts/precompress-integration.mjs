import fs from 'node:fs/promises';
import path from 'node:path';
import zlib from 'node:zlib';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);
const COMPRESSIBLE = /\.(js|mjs|css|svg|json|txt|xml|html|webmanifest)$/;

/** Writes .br and .gz siblings of every text asset in the client build, once, at build time. */
export default function precompress() {
  return {
    name: 'inkpass-precompress',
    hooks: {
      'astro:build:done': async ({ dir }) => {
        const root = fileURLToPath(dir);
        let count = 0;
        for await (const file of walk(root)) {
          if (!COMPRESSIBLE.test(file)) continue;
          const data = await fs.readFile(file);
          if (data.length < 512) continue;
          const [br, gz] = await Promise.all([
            brotli(data, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }),
            gzip(data, { level: 9 }),
          ]);
          await fs.writeFile(file + '.br', br);
          await fs.writeFile(file + '.gz', gz);
          count++;
        }
        console.log(`[precompress] ${count} files`);
      },
    },
  };
}

async function* walk(dir) {
  for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(full);
    else yield full;
  }
}
