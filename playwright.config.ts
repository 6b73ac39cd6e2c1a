import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { defineConfig, devices } from '@playwright/test';
import { CHROMIUM_LAUNCH, E2E_DB_FILE, e2eServerEnv } from './tests/support/e2e-server';

// End-to-end tests in Debian's Chromium (never `npx playwright install`: no network here)
// against the built server on a fresh SQLite database. `npm test` builds first; alone, run
// `npx astro build && npx playwright test`. See docs/testing.md.
if (!fs.existsSync(new URL('./dist/server/entry.mjs', import.meta.url))) {
  throw new Error('dist/server/entry.mjs is missing: build first with `npx astro build` (npm test does it for you).');
}

const DB_FILE = E2E_DB_FILE;
// INKPASS_E2E_PORT, or a port free right now, so that two checkouts (or two runs) never fight over
// one. The config is evaluated in the runner and again in every worker: the runner picks the port
// once and puts it in its environment, which the workers inherit, so all of them (and
// tests/e2e/fixtures.ts's URLs) agree. Synchronous because the config is; the port is asked of
// the system by a one-line child (listen on 0, print the port, close).
if (!process.env.INKPASS_E2E_PORT) {
  process.env.INKPASS_E2E_PORT = execFileSync(process.execPath, ['-e',
    "const s = require('node:net').createServer(); s.listen(0, '127.0.0.1', () => { process.stdout.write(String(s.address().port)); s.close(); });",
  ], { encoding: 'utf8' }).trim();
}
const E2E_PORT = Number(process.env.INKPASS_E2E_PORT);

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: false,
  workers: 2,
  retries: 0,
  forbidOnly: !!process.env.CI,
  reporter: 'list',
  timeout: 30_000,
  expect: { timeout: 5_000 },
  use: {
    baseURL: `http://localhost:${E2E_PORT}`,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        launchOptions: CHROMIUM_LAUNCH,
      },
    },
  ],
  webServer: {
    // A fresh database every run; page images are shared with the integration tests.
    command: `rm -f ${DB_FILE} ${DB_FILE}-wal ${DB_FILE}-shm && npx tsx scripts/prepare-db.ts && npx tsx tests/support/e2e-listings.ts && exec node scripts/serve.mjs`,
    env: e2eServerEnv(E2E_PORT),
    wait: { stdout: /Inkpass is serving/ },
    url: `http://127.0.0.1:${E2E_PORT}/favicon.svg`,
    reuseExistingServer: false,
    timeout: 240_000,
    stdout: 'pipe',
    stderr: 'pipe',
    gracefulShutdown: { signal: 'SIGTERM', timeout: 5_000 },
  },
});
