import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Two projects (see docs/testing.md):
//   unit         pure and in-process tests next to the code (src/, db/, i18n/), and the seeded simulation's short run
//   integration  real HTTP against the built server (dist/) on a fresh database per dialect
// `npm test` (scripts/test.mjs) builds first and runs them one after the other.
const alias = {
  '~': fileURLToPath(new URL('./src', import.meta.url)),
  '@db': fileURLToPath(new URL('./db', import.meta.url)),
};

export default defineConfig({
  resolve: { alias },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          environment: 'node',
          include: ['src/**/*.test.ts', 'db/**/*.test.ts', 'i18n/**/*.test.ts', 'tests/simulation/**/*.test.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          environment: 'node',
          include: ['tests/integration/**/*.test.ts'],
          // One database and one server per dialect, shared by every file (seeding is slow);
          // files run one at a time so they never compete for the 2 cores the servers need.
          globalSetup: ['tests/integration/global-setup.ts'],
          fileParallelism: false,
          maxWorkers: 1,
          testTimeout: 30_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
