/**
 * The environment of the e2e web server (playwright.config.ts), in one place: the config starts
 * it, and a spec that starts a second server over the same database (another process, another
 * clock: tests/e2e/studio.spec.ts) gives it the same settings.
 */
export const E2E_DB_FILE = 'data/e2e.db';

export function e2eServerEnv(port: number): Record<string, string> {
  return {
    ...(process.env as Record<string, string>),
    DATABASE_URL: `file:./${E2E_DB_FILE}`,
    MEDIA_DIR: process.env.INKPASS_TEST_MEDIA_DIR || 'data/test-media',
    PORT: String(port),
    HOST: '127.0.0.1',
    NODE_ENV: 'production',
    // One process (the default is one per core): the browser tests do not test the cluster.
    WORKERS: '1',
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
    // Web push may go to the spec's local stand-in of a push service (tests/e2e/push.spec.ts).
    PUSH_ENDPOINT_HOSTS: '127.0.0.1',
  };
}

/** How the e2e suite starts Debian's Chromium (playwright.config.ts; specs that change a launch option spread it). */
export const CHROMIUM_LAUNCH = {
  executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
  args: [
    '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync',
  ],
};
