import { defineConfig } from 'vitest/config';
import {
  ENGINE_SUITES,
  OWN_MODULE_TESTS,
  QUICK_PROPERTY_SCALE,
  SHARED_MODULE_TESTS,
  SLOW_TESTS,
  VITEST_WORKERS,
} from './test/tiers';

// The long journeys (test/tiers.ts) run in `npm run test:slow`, which CI runs after `npm test`.
const exclude = ['**/node_modules/**', ...SLOW_TESTS];

export default defineConfig({
  test: {
    environment: 'node',
    // The API client's properties at a fifth of their counts; the slow tier runs them whole (test/tiers.ts).
    env: { FC_RUNS_SCALE: process.env['FC_RUNS_SCALE'] ?? QUICK_PROPERTY_SCALE },
    // The run's shared folders: speech estimates and generated recordings (test/support/run-caches.ts);
    // the `voicescope` command bundled once for every command the tests start (test/support/cli-bundle.ts).
    globalSetup: ['./test/support/run-caches.ts', './test/support/cli-bundle.ts'],
    // Limits for a hang, not for speed: in `npm test` these files run at a lower priority beside the
    // window journeys (scripts/run-together.mjs), so a file can take twice its time on a quiet machine.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Two files at a time on 2 cores; `TEST_WORKERS=1` for one (test/tiers.ts, docs/testing.md).
    maxWorkers: VITEST_WORKERS,
    reporters: ['default', './test/support/summary-reporter.ts'],
    projects: [
      {
        // Files that hold no global state share their worker's modules (test/tiers.ts says why).
        extends: true,
        test: {
          name: 'shared-modules',
          include: [...SHARED_MODULE_TESTS],
          exclude: [...exclude, ...OWN_MODULE_TESTS],
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'isolated',
          include: [...OWN_MODULE_TESTS],
          exclude,
        },
      },
      {
        // The same suites again on PostgreSQL, in-process (test/tiers.ts, test/support/test-engine.ts).
        extends: true,
        test: {
          name: 'pglite',
          include: [...ENGINE_SUITES],
          exclude,
          isolate: false,
          env: { VOICESCOPE_TEST_ENGINE: 'pglite' },
        },
      },
    ],
  },
});
