/**
 * The long journeys (`npm run test:slow`, the list in test/tiers.ts): whole-engine kill and restart, fault
 * storms, real storage failures, the interrupted-import kill test, 50 odd answers and the 12-week study
 * through the command line, every `voicescope` command journey, the 200-recording study batch, and the
 * API client's properties at their full counts, the security scan of the built app, and the longer
 * engine suites on PGlite. They run after `npm test` in CI (.ci/run), beside the long window journeys
 * (`npm run test:slow`), two files at a time like the quick tier (`TEST_WORKERS=1` for one):
 * most of their time is spent waiting on the service's poll floor and on restarted processes, and
 * their assertions are about what was sent and kept, not about how long it took.
 */
import { defineConfig } from 'vitest/config';
import {
  CLI_ENGINE_SUITES,
  LONG_ENGINE_SUITES,
  PROPERTY_TESTS,
  SLOW_TESTS,
  VITEST_WORKERS,
} from './test/tiers';

export default defineConfig({
  test: {
    environment: 'node',
    env: { FC_RUNS_SCALE: process.env['FC_RUNS_SCALE'] ?? '1' },
    // The run's shared folders: speech estimates and generated recordings (test/support/run-caches.ts);
    // the `voicescope` command bundled once for every command the tests start (test/support/cli-bundle.ts).
    globalSetup: ['./test/support/run-caches.ts', './test/support/cli-bundle.ts'],
    testTimeout: 300_000,
    hookTimeout: 300_000,
    pool: 'forks',
    maxWorkers: VITEST_WORKERS,
    reporters: ['default', './test/support/summary-reporter.ts'],
    projects: [
      {
        extends: true,
        // The API client's properties again, at their full counts (test/tiers.ts).
        test: { name: 'slow', include: [...SLOW_TESTS, ...PROPERTY_TESTS] },
      },
      {
        // The longer engine suites on PostgreSQL, in-process (PGlite; the rest run in `npm test`'s `pglite`
        // project): their files share their worker's modules, as in vitest.config.ts.
        extends: true,
        test: {
          name: 'pglite-long',
          include: [...LONG_ENGINE_SUITES],
          isolate: false,
          env: { VOICESCOPE_TEST_ENGINE: 'pglite' },
        },
      },
      {
        // Command-line journeys again, on a study database on PostgreSQL 15 (test/support/cli-workspace.ts).
        extends: true,
        test: {
          name: 'cli-postgres',
          include: [...CLI_ENGINE_SUITES],
          env: { VOICESCOPE_CLI_ENGINE: 'postgres' },
        },
      },
    ],
  },
});
