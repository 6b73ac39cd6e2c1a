/**
 * What the bot check costs a browser (docs/performance.md, "App check"): the built server on a
 * fresh, migrated SQLite file with APP_CHECK=on, and Debian's Chromium solving its challenges with
 * the site's own solver chunk (the one the islands load), at 1× and at 4× CPU throttling
 * (Emulation.setCPUThrottlingRate, DevTools' "mobile" setting), in the page's thread and in one
 * and two Web Workers. Prints the median and the slowest of several solves per setting, and the
 * time per try (one PBKDF2 derivation of ALTCHA_COST iterations), which does not depend on the
 * counter a challenge happened to hide.
 *
 *   npx astro build && npx tsx bench/app-check.ts [difficulty] [solves]
 *
 * Not part of `npm run bench`: it measures a browser, not the server.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { createDb } from '~/server/db';
import { migrateToLatest } from '@db/migrate';
import { APP_CHECK_DEFAULT_DIFFICULTY } from '~/server/config.mjs';
import { fromBase64Url, splitToken, type AltchaPayload } from '~/lib/app-check';

const ROOT = path.resolve(import.meta.dirname, '..');
const difficulty = Number(process.argv[2] ?? APP_CHECK_DEFAULT_DIFFICULTY);
const SOLVES = Number(process.argv[3] ?? 11);
const PORT = 4391;

const assets = path.join(ROOT, 'dist/client/_astro');
const solverFile = fs.readdirSync(assets).find((f) => /^app-check-solver\.[\w-]+\.js$/.test(f));
if (!solverFile) throw new Error('no app-check-solver chunk in dist/client/_astro: run `npx astro build` first');
// The chunk exports one function (solveAltcha) under a minified name.
const exportName = /export\s*\{\s*\w+\s+as\s+(\w+)\s*\}/.exec(fs.readFileSync(path.join(assets, solverFile), 'utf8'))?.[1];
if (!exportName) throw new Error(`cannot find the export of ${solverFile}`);

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'inkpass-app-check-bench-'));
const databaseUrl = `file:${path.join(dir, 'bench.db')}`;
const { db } = await createDb(databaseUrl);
await migrateToLatest(db);

const server = spawn(process.execPath, ['scripts/serve.mjs'], {
  cwd: ROOT,
  env: { ...process.env, NODE_ENV: 'production', INKPASS_MODE: 'demo', APP_CHECK: 'on', APP_CHECK_DIFFICULTY: String(difficulty), DATABASE_URL: databaseUrl, PORT: String(PORT), HOST: '127.0.0.1', WARMUP: '0', WORKERS: '1' },
  stdio: ['ignore', 'ignore', 'inherit'],
});
const origin = `http://localhost:${PORT}`;
for (let i = 0; ; i++) {
  try {
    if ((await fetch(`${origin}/robots.txt`)).ok) break;
  } catch {
    if (i > 150) throw new Error('the server did not start');
  }
  await new Promise((r) => setTimeout(r, 200));
}

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
try {
  const page = await browser.newPage();
  await page.goto(`${origin}/robots.txt`);
  const cdp = await page.context().newCDPSession(page);
  const cores = await page.evaluate(() => navigator.hardwareConcurrency);
  console.log(`difficulty ${difficulty} (counters ${Math.ceil(difficulty / 2)}-${difficulty}), ${SOLVES} solves per row, Chromium with ${cores} cores\n`);
  console.log('| CPU | where | median | slowest | per try |');
  console.log('| --- | --- | --- | --- | --- |');
  for (const rate of [1, 4]) {
    await cdp.send('Emulation.setCPUThrottlingRate', { rate });
    for (const workers of [0, 1, 2]) {
      // The challenge call is limited per address; this is one address asking many times.
      await db.deleteFrom('rate_limits').execute();
      const runs = await page.evaluate(
        async ({ src, name, workers, solves }) => {
          const solver = (await import(src))[name] as (challenge: unknown, workers: number) => Promise<string | null>;
          const out: { ms: number; token: string }[] = [];
          for (let i = 0; i <= solves; i++) {
            const answer = await (await fetch('/api/app-check/challenge/')).json();
            const started = performance.now();
            const token = await solver(answer.challenge, workers);
            if (!token) throw new Error('no token');
            // The first solve loads the chunk and the worker script: not counted.
            if (i > 0) out.push({ ms: performance.now() - started, token });
          }
          return out;
        },
        { src: `/_astro/${solverFile}`, name: exportName, workers, solves: SOLVES },
      );
      const times = runs.map((r) => r.ms).sort((a, b) => a - b);
      const tries = runs.map((r) => (JSON.parse(fromBase64Url(splitToken(r.token)!.body)!) as AltchaPayload).solution.counter + 1);
      const perTry = runs.reduce((sum, r) => sum + r.ms, 0) / tries.reduce((a, b) => a + b, 0);
      const where = workers === 0 ? 'page thread' : `${workers} worker${workers > 1 ? 's' : ''}`;
      console.log(`| ${rate}× | ${where} | ${Math.round(times[Math.floor(times.length / 2)]!)} ms | ${Math.round(times.at(-1)!)} ms | ${(perTry * (workers || 1)).toFixed(2)} ms |`);
    }
  }
} finally {
  await browser.close();
  server.kill('SIGTERM');
  await db.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
}
