import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { defineConfig, devices } from '@playwright/test';

// End-to-end tests in Debian's Chromium (never `npx playwright install`: no network here)
// against the built server on a fresh SQLite database. `npm test` builds first; alone, run
// `npx astro build && npx playwright test`. See docs/testing.md.
if (!fs.existsSync(new URL('./dist/server/entry.mjs', import.meta.url))) {
  throw new Error('dist/server/entry.mjs is missing: build first with `npx astro build` (npm test does it for you).');
}

const DB_FILE = 'data/e2e.db';
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
        launchOptions: {
          executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
          args: [
            '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
            '--disable-background-networking', '--disable-component-update', '--disable-sync',
          ],
        },
      },
    },
  ],
  webServer: {
    // A fresh database every run; page images are shared with the integration tests.
    command: `rm -f ${DB_FILE} ${DB_FILE}-wal ${DB_FILE}-shm && npx tsx scripts/prepare-db.ts && exec node scripts/serve.mjs`,
    env: {
      ...(process.env as Record<string, string>),
      DATABASE_URL: `file:./${DB_FILE}`,
      MEDIA_DIR: process.env.INKPASS_TEST_MEDIA_DIR || 'data/test-media',
      PORT: String(E2E_PORT),
      HOST: '127.0.0.1',
      NODE_ENV: 'production',
      // The reader fixture signs a new reader up per test, each from its own X-Forwarded-For
      // address, so the per-address sign-up limit does not trip (tests/e2e/fixtures.ts).
      TRUST_PROXY: '1',
      // House ads can be claimed after 2 s instead of 15 (tests/e2e/keys.spec.ts watches one).
      AD_MIN_SECONDS: '2',
      // Each test's fresh reader starts at 0 keys (the demo's sign-up welcome is off here; the
      // integration suite's welcome.test.ts covers it).
      WELCOME_XTRA_KEYS_EN: '0',
      WELCOME_XTRA_KEYS_BR: '0',
      // The bot check as in production, at its real difficulty: the islands solve their
      // challenges in Chromium before every money call.
      INKPASS_MODE: 'demo',
      APP_CHECK: 'on',
    },
    wait: { stdout: /Inkpass is serving/ },
    url: `http://127.0.0.1:${E2E_PORT}/favicon.svg`,
    reuseExistingServer: false,
    timeout: 240_000,
    stdout: 'pipe',
    stderr: 'pipe',
    gracefulShutdown: { signal: 'SIGTERM', timeout: 5_000 },
  },
});
